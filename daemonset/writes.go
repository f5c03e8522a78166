package daemonset

import (
	"fmt"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// ReasonStatusUpdate is the reason of the status write of a sync.
const ReasonStatusUpdate Reason = "StatusUpdate"

// Writes returns the API requests the sync p sends, in v1.36.3's order,
// given the DaemonSet, pods and history Step read:
//
//  1. the ControllerRevision create or update of Revisions: a created
//     revision is named "<ds>-<hash>" in the DaemonSet's namespace,
//     labelled with the template's labels and controller-revision-hash,
//     annotated with the DaemonSet's annotations, owned by it
//     (meta.NewControllerRef("apps/v1", "DaemonSet", …)) and holds its
//     template as data ([history.New]); an updated one is the given
//     revision renumbered;
//  2. the pod creates of Create: the pod of [NewPod] for its node (the
//     template with the controller's tolerations, the hash and
//     template-generation labels and the node affinity pinning it to the
//     node) made by [podstatus.FromTemplate] with generateName
//     [podstatus.PodPrefix] of the DaemonSet's name and its controller
//     reference;
//  3. the pod deletes of Delete (no UID precondition, no grace period:
//     upstream's DeletePod sends empty options);
//  4. the revision deletes of Revisions;
//  5. the status update (subresource status) carrying the DaemonSet with
//     Status, when UpdateStatus holds.
//
// Upstream creates and deletes pods concurrently (in slow-start batches):
// the API server may receive those of one step in any order; Writes
// gives the Plan's. It returns a *field.Error when the Plan names a pod
// or revision the inputs do not hold, or ds is nil. Nothing of the
// inputs is modified or shared with the result.
//
// Source: upstream pkg/controller/daemon syncDaemonSet, constructHistory,
// snapshot, syncNodes, cleanupHistory, storeDaemonSetStatus, and
// pkg/controller/daemon/util CreatePodTemplate (v1.36.3).
func (p Plan) Writes(ds *DaemonSet, pods []*podstatus.Pod, hist History) ([]plan.Write, error) {
	if ds == nil {
		return nil, field.New("daemonSet", "", field.ErrRequired)
	}
	ref := meta.NewControllerRef("apps/v1", "DaemonSet", ds.Name, ds.UID)
	revs := map[string]*history.ControllerRevision{}
	for i := range hist.Revisions {
		revs[hist.Revisions[i].Name] = &hist.Revisions[i]
	}
	var byName map[string]*podstatus.Pod // (only the deletes look pods up)
	if len(p.Delete) > 0 {
		byName = make(map[string]*podstatus.Pod, len(pods))
		for _, pod := range pods {
			if pod != nil {
				byName[pod.Name] = pod
			}
		}
	}
	var out, deletes []plan.Write
	for i, w := range p.Revisions {
		switch w.Verb {
		case plan.VerbCreate:
			r := history.New(w.Name, ds.Namespace, &ds.Spec.Template, history.HashLabel, w.Hash, ds.Annotations, ref, w.Revision)
			out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "controllerrevisions", Namespace: ds.Namespace, Object: r, Reason: w.Reason})
		case plan.VerbUpdate:
			old := revs[w.Name]
			if old == nil {
				return nil, noSuch(field.Child(field.Index("revisions", i), "name"), w.Name, "revision")
			}
			r := deepcopy.Copy(*old)
			r.Revision = w.Revision
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "controllerrevisions", Namespace: r.Namespace, Name: r.Name, UID: r.UID, Object: &r, Reason: w.Reason})
		case plan.VerbDelete:
			old := revs[w.Name]
			if old == nil {
				return nil, noSuch(field.Child(field.Index("revisions", i), "name"), w.Name, "revision")
			}
			deletes = append(deletes, plan.Write{Verb: plan.VerbDelete, Resource: "controllerrevisions", Namespace: ds.Namespace, Name: w.Name, Reason: w.Reason})
		default:
			return nil, field.New(field.Child(field.Index("revisions", i), "verb"), string(w.Verb), field.ErrUnsupported)
		}
	}
	prefix := podstatus.PodPrefix(ds.Name)
	for _, c := range p.Create.Objects {
		t := NewPod(ds, c.Node, hist.Hash)
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: ds.Namespace,
			Object: podstatus.FromTemplate(&t, ds.Namespace, prefix, "", &ref), Reason: c.Reason})
	}
	for i, d := range p.Delete {
		if pod := byName[d.Name]; pod == nil || d.UID != "" && pod.UID != d.UID {
			return nil, noSuch(field.Child(field.Index("delete", i), "name"), d.Name, "pod")
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: ds.Namespace, Name: d.Name, Reason: d.Reason})
	}
	out = append(out, deletes...)
	if p.UpdateStatus {
		obj := deepcopy.Copy(*ds)
		obj.Status = deepcopy.Copy(p.Status)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "daemonsets", Subresource: "status", Namespace: ds.Namespace, Name: ds.Name, UID: ds.UID, Object: &obj, Reason: ReasonStatusUpdate})
	}
	return out, nil
}

func noSuch(path, name, kind string) error {
	return field.New(path, name, fmt.Errorf("%w: no such %s among the inputs", field.ErrInvalid, kind))
}
