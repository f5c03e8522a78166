package node

import (
	"time"

	"github.com/kubesem/kubesem/plan"
)

// ReasonNodeUpdated is the outcome of a [NoScheduleStep].
const ReasonNodeUpdated Reason = "NodeUpdated"

// NoScheduleStep is the node lifecycle controller's node worker at now,
// between monitor passes: for each node (by name) whose update woke it,
// the NoSchedule condition taints are reconciled with the node's
// conditions and spec.unschedulable ([ConditionTaintDiff]), then its beta
// OS and architecture labels with the stable ones ([ReconcileLabels],
// Plan.Labels). It checks no
// health, queues nothing for NoExecute tainting and changes no memory
// (Plan.Memory is empty; keep the last [Step]'s). Running it for a node
// that did not change writes nothing new, so callers may pass every node.
//
// Source: upstream pkg/controller/nodelifecycle Controller.doNodeProcessingPassWorker,
// doNoScheduleTaintingPass, reconcileNodeLabels (v1.36.3): the worker runs on node add and
// update events, while monitorNodeHealth runs only every node monitor
// period.
func NoScheduleStep(nodes []*Node, now time.Time) (Plan, error) {
	order, err := validateStep(nodes, nil)
	if err != nil {
		return Plan{}, err
	}
	s := newLifecycle(nodes, nil, order, Memory{}, now, Options{}, Plan{Outcome: ReasonNodeUpdated, Conditions: []ConditionWrite{}, MarkPodsNotReady: []string{},
		Zones: []ZoneReport{}, Events: []plan.Event{}, Requeue: []plan.Requeue{}})
	for i := range s.nodes {
		s.noScheduleTaintingPass(i)
	}
	p := s.p
	if p.Taints == nil {
		p.Taints = []TaintWrite{}
	}
	return p, nil
}
