package check

import (
	"fmt"
	"strings"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// The builtin properties of Deployments, StatefulSets and DaemonSets.

// has reports whether the snapshot holds an object of one of kinds or
// the alphabet creates one.
func has(kinds ...cluster.Kind) func(Snapshot, Alphabet) bool {
	return func(s Snapshot, a Alphabet) bool {
		for _, k := range kinds {
			if len(s.State.Keys(k)) > 0 {
				return true
			}
			for _, e := range a.Events {
				if e.Kind == cluster.EventCreate {
					if ek, _ := cluster.KindOf(e.Object); ek == k {
						return true
					}
				}
			}
		}
		return false
	}
}

func recreate(d *rollout.Deployment) bool { return d.Spec.Strategy.Type == "Recreate" }

// maxSurge: deployment-max-surge.
func maxSurge() Property {
	return Property{
		Name: "deployment-max-surge",
		Doc: "a RollingUpdate Deployment whose controller has seen its spec (observedGeneration = generation) never has more " +
			"pods than spec.replicas + maxSurge; counted: the pods of its ReplicaSets that are neither being deleted nor " +
			"finished (terminating pods are not counted, as the controller does not count them)",
		Applies: has(cluster.KindDeployment),
		Holds: func(s Snapshot) string {
			for _, d := range s.State.Deployments() {
				if recreate(d) || d.Status.ObservedGeneration < d.Generation {
					continue
				}
				c := count(deploymentPods(s.State, d), d.Spec.MinReadySeconds, s)
				if limit := int(d.Replicas()) + int(d.MaxSurge()); c.active > limit {
					return fmt.Sprintf("Deployment %s/%s runs %d pods (not terminating, not finished), more than replicas %d + maxSurge %d",
						d.Namespace, d.Name, c.active, d.Replicas(), d.MaxSurge())
				}
			}
			return ""
		},
	}
}

// availability: deployment-availability.
func availability() Property {
	return Property{
		Name: "deployment-availability",
		Doc: "while no failure has happened on the path (no pod failure, node outage, eviction or drain), the ReplicaSet " +
			"controller never deletes an available pod of a RollingUpdate Deployment when that leaves fewer than " +
			"spec.replicas − maxUnavailable available pods (available: Ready for minReadySeconds, not being deleted); " +
			"pods that are not yet available (a Deployment being created or scaled up) are not held to the bound",
		Applies: has(cluster.KindDeployment),
		Sees: func(e cluster.Entry) bool {
			return e.Write != nil && e.Err == "" && e.Controller == cluster.CtlReplicaSet && e.Write.Verb == plan.VerbDelete &&
				e.Write.Resource == "pods"
		},
		Allows: func(s Snapshot, e cluster.Entry) string {
			if s.Failed {
				return ""
			}
			p := s.State.Pod(e.Write.Namespace, e.Write.Name)
			if p == nil || !podstatus.IsActive(p) {
				return ""
			}
			d := deploymentOf(s.State, p)
			if d == nil || recreate(d) || !podstatus.IsAvailable(p, d.Spec.MinReadySeconds, s.Now) {
				return ""
			}
			c := count(deploymentPods(s.State, d), d.Spec.MinReadySeconds, s)
			if bound := int(d.Replicas()) - int(d.MaxUnavailable()); c.available-1 < bound {
				return fmt.Sprintf("the ReplicaSet controller deletes available pod %s of Deployment %s/%s, leaving %d available, fewer than replicas %d − maxUnavailable %d",
					p.Name, d.Namespace, d.Name, c.available-1, d.Replicas(), d.MaxUnavailable())
			}
			return ""
		},
	}
}

// orderedReady: statefulset-ordered-ready.
func orderedReady() Property {
	return Property{
		Name: "statefulset-ordered-ready",
		Doc: "the StatefulSet controller creates the pod of ordinal n of an OrderedReady StatefulSet only when the pods of " +
			"every ordinal from spec.ordinals.start to n−1 exist, are Running and are Ready",
		Applies: has(cluster.KindStatefulSet),
		Sees: func(e cluster.Entry) bool {
			return e.Write != nil && e.Err == "" && e.Controller == cluster.CtlStatefulSet && e.Write.Verb == plan.VerbCreate &&
				e.Write.Resource == "pods" && e.Write.Subresource == ""
		},
		Allows: func(s Snapshot, e cluster.Entry) string {
			p, _ := e.Write.Object.(*podstatus.Pod)
			if p == nil {
				return ""
			}
			set, _ := ownerOf(s.State, &p.ObjectMeta).(*statefulset.StatefulSet)
			if set == nil || set.Spec.PodManagementPolicy == "Parallel" {
				return ""
			}
			parent, ord, ok := statefulset.ParentAndOrdinal(p.Name)
			if !ok || parent != set.Name {
				return ""
			}
			start := int32(0)
			if set.Spec.Ordinals != nil {
				start = set.Spec.Ordinals.Start
			}
			for o := start; o < ord; o++ {
				q := s.State.Pod(set.Namespace, statefulset.PodName(set.Name, o))
				switch {
				case q == nil:
					return fmt.Sprintf("StatefulSet %s/%s creates %s while %s does not exist", set.Namespace, set.Name, p.Name, statefulset.PodName(set.Name, o))
				case q.Status.Phase != podstatus.Running || !podstatus.IsReady(q):
					return fmt.Sprintf("StatefulSet %s/%s creates %s while %s is not Running and Ready (phase %s)", set.Namespace, set.Name, p.Name, q.Name, q.Status.Phase)
				}
			}
			return ""
		},
	}
}

// goal makes a liveness property's Wants and Unmet from one function that
// says whether the state obliges the world and, per object, what is not
// yet good.
func goal(p Property, unmet func(s Snapshot) (bool, []string)) Property {
	p.Wants = func(s Snapshot) (bool, bool) {
		applies, why := unmet(s)
		return applies, len(why) == 0
	}
	p.Unmet = func(s Snapshot) string {
		_, why := unmet(s)
		return strings.Join(why, "; ")
	}
	return p
}

// deploymentCompletes: deployment-completes.
func deploymentCompletes() Property {
	return goal(Property{
		Name: "deployment-completes",
		Doc: "from every state, once the environment stops failing (no further event), every Deployment that is not paused " +
			"and whose template is not broken settles complete: observedGeneration = generation and status replicas, " +
			"updatedReplicas and availableReplicas all equal spec.replicas",
		Applies: has(cluster.KindDeployment),
	}, func(s Snapshot) (bool, []string) {
		applies := false
		var why []string
		for _, d := range s.State.Deployments() {
			if d.Spec.Paused || s.Broken(d.Namespace, &d.Spec.Template) {
				continue
			}
			applies = true
			r := d.Replicas()
			st := d.Status
			if st.ObservedGeneration < d.Generation || st.Replicas != r || st.UpdatedReplicas != r || st.AvailableReplicas != r {
				why = append(why, fmt.Sprintf("Deployment %s/%s has %d replicas, %d updated, %d available of %d", d.Namespace, d.Name,
					st.Replicas, st.UpdatedReplicas, st.AvailableReplicas, r))
			}
		}
		return applies, why
	})
}

// statefulSetCompletes: statefulset-completes.
func statefulSetCompletes() Property {
	return goal(Property{
		Name: "statefulset-completes",
		Doc: "from every state, once the environment stops failing (no further event), every RollingUpdate StatefulSet whose " +
			"template is not broken settles updated: observedGeneration = generation, status replicas and readyReplicas " +
			"equal spec.replicas and updatedReplicas equals spec.replicas − partition",
		Applies: has(cluster.KindStatefulSet),
	}, func(s Snapshot) (bool, []string) {
		applies := false
		var why []string
		for _, set := range s.State.StatefulSets() {
			if set.Spec.UpdateStrategy.Type == "OnDelete" || s.Broken(set.Namespace, &set.Spec.Template) {
				continue
			}
			applies = true
			r := int32(1)
			if set.Spec.Replicas != nil {
				r = *set.Spec.Replicas
			}
			part := int32(0)
			if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
				part = min(*ru.Partition, r)
			}
			st := set.Status
			if st.ObservedGeneration < set.Generation || st.Replicas != r || st.ReadyReplicas != r || st.UpdatedReplicas != r-part {
				why = append(why, fmt.Sprintf("StatefulSet %s/%s has %d replicas, %d ready, %d updated of %d", set.Namespace, set.Name,
					st.Replicas, st.ReadyReplicas, st.UpdatedReplicas, r))
			}
		}
		return applies, why
	})
}

// daemonSetCompletes: daemonset-completes.
func daemonSetCompletes() Property {
	return goal(Property{
		Name: "daemonset-completes",
		Doc: "from every state, once the environment stops failing (no further event), every RollingUpdate DaemonSet whose " +
			"template is not broken settles updated on its Ready nodes: each Ready node its pods' nodeSelector, affinity " +
			"and tolerations admit runs exactly one pod of it, of the current revision and available (nodes that are not " +
			"Ready are not asked for anything)",
		Applies: has(cluster.KindDaemonSet),
	}, func(s Snapshot) (bool, []string) {
		applies := false
		var why []string
		for _, ds := range s.State.DaemonSets() {
			if ds.Spec.UpdateStrategy.Type == "OnDelete" || s.Broken(ds.Namespace, &ds.Spec.Template) {
				continue
			}
			applies = true
			if w := daemonSetUnsettled(s, ds); w != "" {
				why = append(why, fmt.Sprintf("DaemonSet %s/%s: %s", ds.Namespace, ds.Name, w))
			}
		}
		return applies, why
	})
}

// daemonSetUnsettled says which Ready node does not run an updated,
// available pod of ds ("" when each does).
func daemonSetUnsettled(s Snapshot, ds *daemonset.DaemonSet) string {
	hash := ""
	var newest int64 = -1
	for _, k := range s.State.Dependents(ds.UID) {
		if r, _ := s.State.Get(k).(*history.ControllerRevision); r != nil && r.Revision > newest {
			if ref := r.ControllerRef(); ref != nil && ref.UID == ds.UID {
				newest, hash = r.Revision, daemonset.RevisionHash(r)
			}
		}
	}
	if newest < 0 {
		return "no revision"
	}
	byNode := map[string][]*podstatus.Pod{}
	for _, p := range controlledPods(s.State, ds.UID) {
		if podstatus.IsActive(p) {
			byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
		}
	}
	tols := daemonset.PodTolerations(&ds.Spec.Template.Spec)
	for _, n := range s.State.Nodes() {
		if !n.IsReady() {
			continue
		}
		ok, _ := node.MatchesNodeSelector(ds.Spec.Template.Spec.NodeSelector, ds.Spec.Template.Spec.Affinity, n)
		if _, bad := node.FindUntoleratedTaint(n.Spec.Taints, tols, node.NoScheduleOrNoExecute, node.Options{}); bad {
			ok = false
		}
		pods := byNode[n.Name]
		switch {
		case !ok && len(pods) > 0:
			return fmt.Sprintf("node %s runs %d pod(s) it should not", n.Name, len(pods))
		case !ok:
		case len(pods) != 1:
			return fmt.Sprintf("Ready node %s runs %d pods of it", n.Name, len(pods))
		case !daemonset.IsPodUpdated(pods[0], hash, ds):
			return fmt.Sprintf("Ready node %s runs pod %s of an old revision", n.Name, pods[0].Name)
		case !podstatus.IsAvailable(pods[0], ds.Spec.MinReadySeconds, s.Now):
			return fmt.Sprintf("Ready node %s runs pod %s, not available", n.Name, pods[0].Name)
		}
	}
	return ""
}
