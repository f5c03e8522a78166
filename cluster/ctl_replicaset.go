package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// replicaSetController syncs ReplicaSets (or ReplicationControllers) with
// replicaset.Step. A ReplicaSet sees the pods it controls and the
// orphans of its namespace (the only others Step could claim); related
// are the pods of the ReplicaSets sharing its controller, and orphans,
// filtered by replicaset.RelatedPods. Upstream lists every pod of the
// namespace: pods controlled by another controller are never claimed, so
// leaving them out changes no Plan, except the ranks of pods selected by a
// sibling's selector but controlled by a third controller.
//
// TEMPORARY: until replicaset.Plan.Writes lands on main,
// replicaSetWrites turns the Plan's fields into writes here.
func replicaSetController(name string, kind Kind) controller {
	return controller{
		name:  name,
		reads: []Kind{kind, KindPod},
		keys:  func(w *World) []Key { return w.State.Keys(kind) },
		step: func(w *World, k Key, now time.Time) stepOut {
			rs, _ := w.State.Get(k).(*replicaset.ReplicaSet)
			if rs == nil {
				return stepOut{}
			}
			orphans := w.State.orphanPods(rs.Namespace)
			pods := mergePods(controlled[*podstatus.Pod](w.State, KindPod, rs.UID), orphans)
			var related []*podstatus.Pod
			if ref := rs.ControllerRef(); ref != nil {
				siblings := controlled[*replicaset.ReplicaSet](w.State, kind, ref.UID)
				cand := orphans
				for _, sib := range siblings {
					cand = mergePods(cand, controlled[*podstatus.Pod](w.State, KindPod, sib.UID))
				}
				related = replicaset.RelatedPods(rs, siblings, cand)
			}
			p, err := replicaset.Step(rs, pods, related, now, w.Opts.ReplicaSet)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			return stepOut{plan: p, writes: replicaSetWrites(p, rs, pods), requeue: p.Requeue}
		},
	}
}

// mergePods merges two pod lists sorted by namespace and name.
func mergePods(a, b []*podstatus.Pod) []*podstatus.Pod {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]*podstatus.Pod, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.SortFunc(out, func(x, y *podstatus.Pod) int {
		return compareNames(name{x.Namespace, x.Name}, name{y.Namespace, y.Name})
	})
	return slices.CompactFunc(out, func(x, y *podstatus.Pod) bool { return x == y })
}

// replicaSetWrites (TEMPORARY, see replicaSetController): adoptions and
// releases (pod patches of ownerReferences), creations from the template,
// deletions, then the status.
func replicaSetWrites(p replicaset.Plan, rs *replicaset.ReplicaSet, pods []*podstatus.Pod) []plan.Write {
	byName := make(map[string]*podstatus.Pod, len(pods))
	for _, pod := range pods {
		byName[pod.Name] = pod
	}
	apiVersion, kind, resource := "apps/v1", "ReplicaSet", "replicasets"
	if rs.IsReplicationController() {
		apiVersion, kind, resource = "v1", "ReplicationController", "replicationcontrollers"
	}
	var out []plan.Write
	for _, a := range p.Adopt {
		pod := byName[a.Name]
		if pod == nil {
			continue
		}
		c := *pod
		c.OwnerReferences = append(slices.Clone(pod.OwnerReferences), meta.NewControllerRef(apiVersion, kind, rs.Name, rs.UID))
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: a.Reason})
	}
	for _, r := range p.Release {
		pod := byName[r.Name]
		if pod == nil {
			continue
		}
		c := *pod
		c.OwnerReferences = slices.DeleteFunc(slices.Clone(pod.OwnerReferences), func(o meta.OwnerReference) bool { return o.UID == rs.UID })
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: r.Reason})
	}
	ref := meta.NewControllerRef(apiVersion, kind, rs.Name, rs.UID)
	for range p.Create.Count {
		pod := podstatus.FromTemplate(&rs.Spec.Template, rs.Namespace, podstatus.PodPrefix(rs.Name), "", &ref)
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: rs.Namespace, Object: pod, Reason: p.Create.Reason})
	}
	for _, d := range p.Delete {
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: rs.Namespace, Name: d.Name, UID: d.UID, Reason: d.Reason})
	}
	if p.UpdateStatus {
		c := *rs
		c.Status = p.Status
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: resource, Subresource: "status", Namespace: rs.Namespace, Name: rs.Name, UID: rs.UID, Object: &c, Reason: p.Outcome})
	}
	return out
}
