package podgc

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// CheckPeriod is the time between two passes of the collector.
const CheckPeriod = 20 * time.Second

// Step runs one pass of the pod garbage collector at now over the cached
// pods and nodes, with the node queue carried in mem (see the package
// documentation for the four steps). unlisted names the nodes the API
// server has but the informer cache does not list (yet); the GET that
// confirms a node gone finds them. A node missing from the cache enters
// quarantine until now+40s (an earlier entry is kept); at or after its time
// it is confirmed gone unless it is back in the cache or unlisted, and its
// pods are orphans. Inputs the informer caches and the API cannot hold are
// an error ([Step] validates them; see the package documentation).
//
// Source: upstream pkg/controller/podgc/gc_controller.go gc (v1.36.3).
func Step(pods []*podstatus.Pod, nodes []*node.Node, unlisted []string, mem Memory, now time.Time, o Options) (Plan, error) {
	known, err := validateStep(pods, nodes, unlisted, mem)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Outcome: ReasonGarbageCollected, Patch: []PodPatch{}, Delete: []plan.Deletion{}, Events: []plan.Event{},
		Requeue: []plan.Requeue{{After: CheckPeriod, Reason: ReasonPeriodic}}}
	done := map[*podstatus.Pod]bool{}
	del := func(pod *podstatus.Pod, why Reason, cond *podstatus.Condition) {
		if done[pod] {
			return
		}
		done[pod] = true
		if !podstatus.IsTerminal(pod) {
			p.Patch = append(p.Patch, PodPatch{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID, Phase: podstatus.Failed, Condition: cond})
		}
		p.Delete = append(p.Delete, plan.Deletion{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID, Reason: why})
	}
	s := walk(pods, known)
	for _, pod := range beyondThreshold(s.terminated, o.threshold()) {
		del(pod, ReasonTerminated, nil)
	}
	for _, pod := range s.outOfService {
		del(pod, ReasonTerminatingOutOfService, nil)
	}
	var gone map[string]bool
	p.Memory, gone = quarantine(s.missing, known, mem, now, o.quarantine())
	if len(gone) > 0 {
		for _, pod := range orphans(pods, gone) {
			c := orphanCondition(pod, now)
			del(pod, ReasonOrphaned, &c)
		}
	}
	for _, pod := range s.unscheduled {
		del(pod, ReasonTerminatingUnscheduled, nil)
	}
	return p, nil
}

// passes is what the collector's passes look for among the pods, found
// in one walk over them (each pass reads a few fields of every pod; one
// walk reads each pod once).
type passes struct {
	// terminated are the terminated pods ([IsTerminated]), in input order.
	terminated []*podstatus.Pod
	// outOfService are the terminating pods bound to a listed node that
	// is [OutOfService], in [EvictedFirst] order.
	outOfService []*podstatus.Pod
	// missing are the nodes, by name, that pods are bound to and the
	// cache does not list: once per pod, in input order.
	missing []string
	// unscheduled are the terminating pods bound to no node, by
	// namespace, then name.
	unscheduled []*podstatus.Pod
}

// walk finds the passes' pods in one walk over pods (none nil).
func walk(pods []*podstatus.Pod, known nodeIndex) passes {
	var s passes
	for _, pod := range pods {
		if IsTerminated(pod) {
			s.terminated = append(s.terminated, pod)
		}
		n := pod.Spec.NodeName
		if n == "" {
			if isTerminatingUnscheduled(pod) {
				s.unscheduled = append(s.unscheduled, pod)
			}
			continue
		}
		switch nd := known.listed[n]; {
		case nd == nil:
			s.missing = append(s.missing, n)
		case isTerminatingOutOfService(pod, nd):
			s.outOfService = append(s.outOfService, pod)
		}
	}
	slices.SortFunc(s.outOfService, evictedOrder)
	slices.SortFunc(s.unscheduled, byNamespaceName)
	return s
}

// byNamespaceName orders the orphans and the unscheduled pods, which
// upstream deletes in cache order: by namespace, then name (then UID).
func byNamespaceName(a, b *podstatus.Pod) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}
