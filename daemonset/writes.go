package daemonset

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

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
//  0. the revision claim's patches: the revisions of AdoptRevisions and
//     ReleaseRevisions merged by name, then UID (upstream patches them in
//     its lister's order, which is arbitrary);
//  1. the ControllerRevision creates and updates of Revisions, in their
//     order: a created revision is named "<ds>-<hash>" in the DaemonSet's
//     namespace, labelled with the template's labels and
//     controller-revision-hash, annotated with the DaemonSet's
//     annotations, owned by it (meta.NewControllerRef("apps/v1",
//     "DaemonSet", …)) and holds its template as data ([history.New]); an
//     updated one is the given revision with the write's number and, when
//     it has no controller-revision-hash label, that label set to its name
//     (ReasonRevisionLabelled; a later renumbering of it carries the label
//     too), sent from the cached copy (FromCache: refused, ending the
//     sync) when step 0 patched it; before the first delete of a
//     duplicate of the current revision (ReasonDuplicateRevision, written
//     here, in place), the pod claim's patches once more (the dedup lists
//     the pods) and the patches of Relabel (each the pod as claimed, with
//     the controller-revision-hash label set to the current hash; the
//     adoption patches of later listings carry that label too);
//  2. the pod claim's patches (Release, then Adopt, each by name: upstream
//     lists the pods it controls, then the orphans), then the pod creates
//     of Create: the pod of [NewPod] for its node (the
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
// Upstream lists (and claims) the DaemonSet's pods from its informer
// cache at manage, at the rolling update (Outcome RollingUpdate or
// NodeNotFound; the creations and deletions are then the rolling
// update's, after the second listing), at the history cleanup (unless the
// rolling update failed) and at the status; its cache does not see its
// own patches within the sync, so each listing sends the pod claim's
// patches again (an adoption or release of an object already adopted or
// released changes nothing; a later one of a pod the sync deleted is
// IgnoreRefusal, as upstream ignores NotFound). An adoption patch carries
// the object with the DaemonSet's controller reference merged in
// (meta.MergeOwnerRef, with blockOwnerDeletion), a release the object
// without references to its UID (meta.RemoveOwnerRef).
//
// Upstream creates and deletes pods concurrently (in slow-start batches):
// the API server may receive those of one step in any order; Writes
// gives the Plan's. It returns a *field.Error when the Plan names a pod
// or revision the inputs do not hold, or ds is nil. Nothing of the
// inputs is modified or shared with the result.
//
// Source: upstream pkg/controller/daemon syncDaemonSet, constructHistory,
// controlledHistories, snapshot, getDaemonPods, manage, rollingUpdate,
// syncNodes, cleanupHistory, updateDaemonSetStatus, storeDaemonSetStatus;
// pkg/controller/controller_ref_manager.go ClaimPods,
// ClaimControllerRevisions; pkg/controller/daemon/util CreatePodTemplate
// (v1.36.3).
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
	out, err := p.revisionClaims(ds, hist.Revisions)
	if err != nil {
		return nil, err
	}
	podClaims, err := p.podClaims(ds, pods)
	if err != nil {
		return nil, err
	}
	var deletes []plan.Write
	later := podClaims // (the claims of the listings after the dedup's)
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
			if _, ok := r.Labels[history.HashLabel]; !ok {
				// (the label update; a renumbering after it carries the
				// label too, as upstream's is sent from the updated copy)
				if r.Labels == nil {
					r.Labels = map[string]string{}
				}
				r.Labels[history.HashLabel] = r.Name
			}
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "controllerrevisions", Namespace: r.Namespace, Name: r.Name, UID: r.UID, Object: &r,
				FromCache: slices.ContainsFunc(p.AdoptRevisions, func(a ObjectRef) bool { return a.Name == r.Name }), Reason: w.Reason})
		case plan.VerbDelete:
			old := revs[w.Name]
			if old == nil {
				return nil, noSuch(field.Child(field.Index("revisions", i), "name"), w.Name, "revision")
			}
			d := plan.Write{Verb: plan.VerbDelete, Resource: "controllerrevisions", Namespace: ds.Namespace, Name: w.Name, Reason: w.Reason}
			if w.Reason != ReasonDuplicateRevision {
				deletes = append(deletes, d)
				continue
			}
			if i == 0 || p.Revisions[i-1].Reason != ReasonDuplicateRevision {
				// the dedup lists (and claims) the pods, then relabels them
				out = append(out, podClaims...)
				var relabels []plan.Write
				relabels, later, err = p.relabels(ds, pods, podClaims, currentHash(hist))
				if err != nil {
					return nil, err
				}
				out = append(out, relabels...)
			}
			out = append(out, d)
		default:
			return nil, field.New(field.Child(field.Index("revisions", i), "verb"), string(w.Verb), field.ErrUnsupported)
		}
	}
	// the listings of manage, the rolling update, the history cleanup and
	// the status
	rolled := p.Outcome == ReasonRollingUpdate || p.Outcome == ReasonNodeNotFound
	cleaned := p.Outcome != ReasonNodeNotFound
	podClaims = later
	out = append(out, podClaims...)
	if rolled {
		out = append(out, again(podClaims, p.Delete)...)
	}
	prefix := podstatus.PodPrefix(ds.Name)
	for _, c := range p.Create.Objects {
		t := NewPod(ds, c.Node, currentHash(hist))
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: ds.Namespace,
			Object: podstatus.FromTemplate(&t, ds.Namespace, prefix, "", &ref), Reason: c.Reason})
	}
	for i, d := range p.Delete {
		if pod := byName[d.Name]; pod == nil || d.UID != "" && pod.UID != d.UID {
			return nil, noSuch(field.Child(field.Index("delete", i), "name"), d.Name, "pod")
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: ds.Namespace, Name: d.Name, Reason: d.Reason})
	}
	if cleaned {
		out = append(out, again(podClaims, p.Delete)...)
	}
	out = append(out, deletes...)
	out = append(out, again(podClaims, p.Delete)...)
	if p.UpdateStatus {
		obj := deepcopy.Copy(*ds)
		obj.Status = deepcopy.Copy(p.Status)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "daemonsets", Subresource: "status", Namespace: ds.Namespace, Name: ds.Name, UID: ds.UID, Object: &obj, Reason: ReasonStatusUpdate})
	}
	return out, nil
}

// relabels returns the patches of Relabel (each the pod as claimed, with
// its controller-revision-hash label set to hash) and the claim patches
// of later listings, whose adopted pods carry that label too.
func (p Plan) relabels(ds *DaemonSet, pods []*podstatus.Pod, claims []plan.Write, hash string) (out, later []plan.Write, err error) {
	later = slices.Clone(claims)
	for i, r := range p.Relabel {
		j := slices.IndexFunc(pods, func(q *podstatus.Pod) bool { return q != nil && q.Name == r.Name && (r.UID == "" || q.UID == r.UID) })
		if j < 0 {
			return nil, nil, noSuch(field.Child(field.Index("relabel", i), "name"), r.Name, "pod")
		}
		q := deepcopy.Copy(*pods[j])
		if slices.ContainsFunc(p.Adopt, func(a ObjectRef) bool { return a.Name == q.Name }) {
			q.OwnerReferences = meta.MergeOwnerRef(q.OwnerReferences, dsRef(ds))
		}
		q.Labels = maps.Clone(q.Labels)
		if q.Labels == nil {
			q.Labels = map[string]string{}
		}
		q.Labels[history.HashLabel] = hash
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: cmp.Or(q.Namespace, ds.Namespace), Name: q.Name, UID: q.UID,
			Object: &q, Reason: cmp.Or(r.Reason, ReasonDuplicateRevision)})
		for k := range later {
			if w := &later[k]; w.Name == q.Name && w.Resource == "pods" {
				o := deepcopy.Copy(*w.Object.(*podstatus.Pod))
				o.Labels = maps.Clone(q.Labels)
				w.Object = &o
			}
		}
	}
	return out, later, nil
}

// revisionClaims returns the patches of AdoptRevisions and
// ReleaseRevisions, merged by name, then UID.
func (p Plan) revisionClaims(ds *DaemonSet, revisions []history.ControllerRevision) ([]plan.Write, error) {
	if len(p.AdoptRevisions)+len(p.ReleaseRevisions) == 0 {
		return nil, nil
	}
	type claim struct {
		r     *history.ControllerRevision
		adopt bool
		why   Reason
	}
	var cs []claim
	for _, l := range []struct {
		path  string
		refs  []ObjectRef
		adopt bool
		why   Reason
	}{{"adoptRevisions", p.AdoptRevisions, true, ReasonOrphanSelected}, {"releaseRevisions", p.ReleaseRevisions, false, ReasonSelectorMismatch}} {
		for i, a := range l.refs {
			j := slices.IndexFunc(revisions, func(r history.ControllerRevision) bool { return r.Name == a.Name && (a.UID == "" || r.UID == a.UID) })
			if j < 0 {
				return nil, noSuch(field.Child(field.Index(l.path, i), "name"), a.Name, "revision")
			}
			cs = append(cs, claim{&revisions[j], l.adopt, cmp.Or(a.Reason, l.why)})
		}
	}
	slices.SortStableFunc(cs, func(a, b claim) int {
		return cmp.Or(strings.Compare(a.r.Name, b.r.Name), strings.Compare(a.r.UID, b.r.UID))
	})
	out := make([]plan.Write, 0, len(cs))
	for _, c := range cs {
		r := deepcopy.Copy(*c.r)
		if c.adopt {
			r.OwnerReferences = meta.MergeOwnerRef(r.OwnerReferences, dsRef(ds))
		} else {
			r.OwnerReferences = meta.RemoveOwnerRef(r.OwnerReferences, ds.UID)
		}
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "controllerrevisions", Namespace: cmp.Or(r.Namespace, ds.Namespace), Name: r.Name, UID: r.UID,
			Object: &r, Reason: c.why})
	}
	return out, nil
}

// podClaims returns the patches of one listing of the pods: Release, then
// Adopt, each in the Plan's order (by name).
func (p Plan) podClaims(ds *DaemonSet, pods []*podstatus.Pod) ([]plan.Write, error) {
	if len(p.Adopt)+len(p.Release) == 0 {
		return nil, nil
	}
	out := make([]plan.Write, 0, len(p.Adopt)+len(p.Release))
	for _, l := range []struct {
		path  string
		refs  []ObjectRef
		adopt bool
		why   Reason
	}{{"release", p.Release, false, ReasonSelectorMismatch}, {"adopt", p.Adopt, true, ReasonOrphanSelected}} {
		for i, a := range l.refs {
			j := slices.IndexFunc(pods, func(pod *podstatus.Pod) bool {
				return pod != nil && pod.Name == a.Name && (a.UID == "" || pod.UID == a.UID)
			})
			if j < 0 {
				return nil, noSuch(field.Child(field.Index(l.path, i), "name"), a.Name, "pod")
			}
			pod := deepcopy.New(pods[j])
			if l.adopt {
				pod.OwnerReferences = meta.MergeOwnerRef(pod.OwnerReferences, dsRef(ds))
			} else {
				pod.OwnerReferences = meta.RemoveOwnerRef(pod.OwnerReferences, ds.UID)
			}
			out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: cmp.Or(pod.Namespace, ds.Namespace), Name: pod.Name, UID: pod.UID,
				Object: pod, Reason: cmp.Or(a.Reason, l.why)})
		}
	}
	return out, nil
}

// again returns a later listing's copy of the pod claim's patches: the
// objects copied, a patch of a pod the sync deleted IgnoreRefusal.
func again(claims []plan.Write, deleted []plan.Deletion) []plan.Write {
	if len(claims) == 0 {
		return nil
	}
	out := slices.Clone(claims)
	for i := range out {
		out[i].Object = deepcopy.New(out[i].Object.(*podstatus.Pod))
		out[i].IgnoreRefusal = slices.ContainsFunc(deleted, func(d plan.Deletion) bool { return d.Name == out[i].Name })
	}
	return out
}

// dsRef is the controller reference of ds.
func dsRef(ds *DaemonSet) meta.OwnerReference {
	return meta.NewControllerRef("apps/v1", "DaemonSet", ds.Name, ds.UID)
}

func noSuch(path, name, kind string) error {
	return field.New(path, name, fmt.Errorf("%w: no such %s among the inputs", field.ErrInvalid, kind))
}
