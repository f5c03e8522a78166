package podgc

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Quarantined is a node the collector found missing and will check again
// at ReadyAt.
type Quarantined struct {
	Node    string    `json:"node"`
	ReadyAt time.Time `json:"readyAt"`
}

// Memory is the collector's node queue between passes: the missing nodes
// still in quarantine, by name.
type Memory struct {
	Quarantine []Quarantined `json:"quarantine"`
}

// PodPatch is the status patch written before a deletion: phase Failed and,
// for orphans, the DisruptionTarget condition.
type PodPatch struct {
	Name      string               `json:"name"`
	Namespace string               `json:"namespace,omitempty"`
	UID       string               `json:"uid,omitempty"`
	Phase     podstatus.Phase      `json:"phase"`
	Condition *podstatus.Condition `json:"condition,omitempty"`
}

// Plan is one pass of the collector.
type Plan struct {
	// Outcome is GarbageCollected.
	Outcome Reason `json:"outcome"`
	// Patch lists the status patches, each written just before the pod's
	// deletion, in deletion order.
	Patch []PodPatch `json:"patch"`
	// Delete lists the pods force-deleted (grace 0), in the order of the
	// steps, each with its namespace.
	Delete []plan.Deletion `json:"delete"`
	// Events is always empty: v1.36.3's pod garbage collector has no event
	// recorder and records no event.
	Events []plan.Event `json:"events"`
	// Requeue is the next pass, 20s later.
	Requeue []plan.Requeue `json:"requeue"`
	// Memory is the node queue after the pass.
	Memory Memory `json:"memory"`
}

// MarshalJSON encodes the Plan with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// Terminated returns the terminated pods the collector deletes: with n
// terminated pods and a threshold t > 0, the first n - t in [EvictedFirst]
// order; none when t <= 0.
//
// Source: upstream pkg/controller/podgc/gc_controller.go gcTerminated (v1.36.3).
func Terminated(pods []*podstatus.Pod, threshold int) []*podstatus.Pod {
	if threshold <= 0 {
		return []*podstatus.Pod{}
	}
	var term []*podstatus.Pod
	for _, p := range pods {
		if p != nil && IsTerminated(p) {
			term = append(term, p)
		}
	}
	n := len(term) - threshold
	if n <= 0 {
		return []*podstatus.Pod{}
	}
	slices.SortFunc(term, evictedOrder)
	return term[:n]
}

func evictedOrder(a, b *podstatus.Pod) int {
	switch {
	case EvictedFirst(a, b):
		return -1
	case EvictedFirst(b, a):
		return 1
	}
	return 0
}

func byNamespaceName(a, b *podstatus.Pod) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

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
	var oos []*podstatus.Pod
	for _, pod := range pods {
		if pod != nil && pod.DeletionTimestamp != nil && OutOfService(listed[pod.Spec.NodeName]) {
			oos = append(oos, pod)
		}
	}
	slices.SortFunc(oos, evictedOrder)
	for _, pod := range oos {
		del(pod, ReasonTerminatingOutOfService, nil)
	}

	// The node queue: entries whose time has come are checked now; the
	// others wait, and every node missing now waits until now+quarantine
	// unless it already waits for less.
	waiting := map[string]time.Time{}
	gone := map[string]bool{}
	for _, q := range mem.Quarantine {
		if q.ReadyAt.After(now) {
			if at, ok := waiting[q.Node]; !ok || q.ReadyAt.Before(at) {
				waiting[q.Node] = q.ReadyAt
			}
		} else if listed[q.Node] == nil && !api[q.Node] {
			gone[q.Node] = true
		}
	}
	for _, pod := range pods {
		if pod == nil || pod.Spec.NodeName == "" || listed[pod.Spec.NodeName] != nil {
			continue
		}
		at := now.Add(o.quarantine())
		if !at.After(now) {
			// A non-positive quarantine queues the node at once.
			if !api[pod.Spec.NodeName] {
				gone[pod.Spec.NodeName] = true
			}
			continue
		}
		if cur, ok := waiting[pod.Spec.NodeName]; !ok || at.Before(cur) {
			waiting[pod.Spec.NodeName] = at
		}
	}
	for name, at := range waiting {
		p.Memory.Quarantine = append(p.Memory.Quarantine, Quarantined{Node: name, ReadyAt: at})
	}
	slices.SortFunc(p.Memory.Quarantine, func(a, b Quarantined) int { return cmp.Compare(a.Node, b.Node) })
	if p.Memory.Quarantine == nil {
		p.Memory.Quarantine = []Quarantined{}
	}
	var orphans, unscheduled []*podstatus.Pod
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		if gone[pod.Spec.NodeName] {
			orphans = append(orphans, pod)
		}
	}
	slices.SortFunc(orphans, byNamespaceName)
	for _, pod := range orphans {
		c := podstatus.DisruptionCondition(podstatus.ReasonDeletionByPodGC, OrphanMessage, now)
		if old := pod.Condition(podstatus.DisruptionTarget); old != nil && old.Status == meta.ConditionTrue {
			c.LastTransitionTime = old.LastTransitionTime
		}
		del(pod, ReasonOrphaned, &c)
	}
	for _, pod := range pods {
		if pod != nil && pod.DeletionTimestamp != nil && pod.Spec.NodeName == "" {
			unscheduled = append(unscheduled, pod)
		}
	}
	slices.SortFunc(unscheduled, byNamespaceName)
	for _, pod := range unscheduled {
		del(pod, ReasonTerminatingUnscheduled, nil)
	}
	return p, nil
}
