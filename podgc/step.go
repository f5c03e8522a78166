package podgc

import (
	"cmp"
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
	if err := validateStep(pods, nodes, unlisted, mem); err != nil {
		return Plan{}, err
	}
	p := Plan{Outcome: ReasonGarbageCollected, Patch: []PodPatch{}, Delete: []plan.Deletion{}, Events: []plan.Event{},
		Requeue: []plan.Requeue{{After: CheckPeriod, Reason: ReasonPeriodic}}}
	listed := map[string]*node.Node{}
	api := map[string]bool{}
	for _, n := range nodes {
		if n != nil {
			api[n.Name] = true
			listed[n.Name] = n
		}
	}
	for _, name := range unlisted {
		api[name] = true
	}
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
	for _, pod := range Terminated(pods, o.threshold()) {
		del(pod, ReasonTerminated, nil)
	}
	for _, pod := range terminatingOutOfService(pods, listed) {
		del(pod, ReasonTerminatingOutOfService, nil)
	}
	var gone map[string]bool
	p.Memory, gone = quarantine(pods, listed, api, mem, now, o.quarantine())
	for _, pod := range orphans(pods, gone) {
		c := orphanCondition(pod, now)
		del(pod, ReasonOrphaned, &c)
	}
	for _, pod := range terminatingUnscheduled(pods) {
		del(pod, ReasonTerminatingUnscheduled, nil)
	}
	return p, nil
}

// byNamespaceName orders the orphans and the unscheduled pods, which
// upstream deletes in cache order: by namespace, then name (then UID).
func byNamespaceName(a, b *podstatus.Pod) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}
