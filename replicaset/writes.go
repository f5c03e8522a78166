package replicaset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// APIVersion returns the API version of rs's kind: "apps/v1" for a
// ReplicaSet, "v1" for a ReplicationController.
func (rs *ReplicaSet) APIVersion() string {
	if rs.IsReplicationController() {
		return "v1"
	}
	return "apps/v1"
}

// Resource returns the API resource of rs's kind: "replicasets" or
// "replicationcontrollers".
func (rs *ReplicaSet) Resource() string {
	if rs.IsReplicationController() {
		return "replicationcontrollers"
	}
	return "replicasets"
}

// ControllerRefTo returns the controller reference rs's controller puts on
// the pods it creates or adopts.
//
// Source: upstream pkg/controller/replicaset/replica_set.go manageReplicas,
// metav1.NewControllerRef (v1.36.3).
func (rs *ReplicaSet) ControllerRefTo() meta.OwnerReference {
	return meta.NewControllerRef(rs.APIVersion(), rs.KindName(), rs.Name, rs.UID)
}

// Writes returns the API requests the sync p plans for rs, whose pods are
// pods (the pods given to [Step]), in the order the controller sends them:
//
//  1. the claim's pod patches, adoptions and releases merged by name, then
//     UID (v1.36.3 patches in its informer's order, which is arbitrary): an
//     adoption adds rs's controller reference ([ReplicaSet.ControllerRefTo];
//     a reference with the same UID is replaced, as the strategic merge
//     patch keyed by uid does), a release removes the references to rs's
//     UID; each carries the pod as the patch leaves it;
//  2. Create.Count pod creations of [podstatus.FromTemplate] of rs's
//     template with generateName [podstatus.PodPrefix](rs.Name) and the
//     controller reference (the API server names them);
//  3. the pod deletions of Delete, in order, by name without a UID
//     precondition and with the pod's own grace period, as
//     RealPodControl.DeletePod sends them (v1.36.3 sends them
//     concurrently);
//  4. when UpdateStatus, the update of rs's status subresource carrying rs
//     with Status.
//
// It returns a *field.Error naming the Plan entry ("adopt[i].name",
// "release[i].name", "delete[i].name") that names no pod of pods. Neither
// rs nor pods is modified or aliased.
//
// Source: upstream pkg/controller/replicaset/replica_set.go syncReplicaSet,
// claimPods, manageReplicas, replica_set_utils.go updateReplicaSetStatus,
// pkg/controller/controller_ref_manager.go AdoptPod, ReleasePod,
// pkg/controller/controller_utils.go RealPodControl (v1.36.3).
func (p Plan) Writes(rs *ReplicaSet, pods []*podstatus.Pod) ([]plan.Write, error) {
	if rs == nil {
		return nil, field.New("replicaSet", "", field.ErrRequired)
	}
	find := func(path string, i int, name, uid string) (*podstatus.Pod, error) {
		for _, pod := range pods {
			if pod != nil && pod.Name == name && (uid == "" || pod.UID == uid) {
				return pod, nil
			}
		}
		return nil, field.New(field.Child(field.Index(path, i), "name"), name, fmt.Errorf("%w: names no input pod", field.ErrInvalid))
	}
	type claim struct {
		pod   *podstatus.Pod
		adopt bool
		why   Reason
	}
	var claims []claim
	for i, r := range p.Adopt {
		pod, err := find("adopt", i, r.Name, r.UID)
		if err != nil {
			return nil, err
		}
		claims = append(claims, claim{pod, true, cmp.Or(r.Reason, ReasonOrphanSelected)})
	}
	for i, r := range p.Release {
		pod, err := find("release", i, r.Name, r.UID)
		if err != nil {
			return nil, err
		}
		claims = append(claims, claim{pod, false, cmp.Or(r.Reason, ReasonSelectorMismatch)})
	}
	slices.SortStableFunc(claims, func(a, b claim) int {
		return cmp.Or(strings.Compare(a.pod.Name, b.pod.Name), strings.Compare(a.pod.UID, b.pod.UID))
	})
	ref := rs.ControllerRefTo()
	out := make([]plan.Write, 0, len(claims)+int(max(p.Create.Count, 0))+len(p.Delete)+1)
	for _, c := range claims {
		pod := deepcopy.New(c.pod)
		if c.adopt {
			pod.OwnerReferences = meta.MergeOwnerRef(pod.OwnerReferences, ref)
		} else {
			pod.OwnerReferences = meta.RemoveOwnerRef(pod.OwnerReferences, rs.UID)
		}
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: pod, Reason: c.why})
	}
	for range p.Create.Count {
		pod := podstatus.FromTemplate(&rs.Spec.Template, rs.Namespace, podstatus.PodPrefix(rs.Name), "", &ref)
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: rs.Namespace, Object: pod, Reason: cmp.Or(p.Create.Reason, ReasonTooFewReplicas)})
	}
	for i, d := range p.Delete {
		pod, err := find("delete", i, d.Name, d.UID)
		if err != nil {
			return nil, err
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, Reason: cmp.Or(d.Reason, ReasonTooManyReplicas)})
	}
	if p.UpdateStatus {
		s := *rs
		s.Status = p.Status // (rs with p's status, shallow: New copies it deeply)
		c := deepcopy.New(&s)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: rs.Resource(), Subresource: "status", Namespace: rs.Namespace, Name: rs.Name, UID: rs.UID, Object: c, Reason: ReasonStatusChanged})
	}
	return out, nil
}
