package node

import (
	"github.com/kubesem/kubesem/plan"
)

// ConditionWrite is a node status write: the node's full condition list.
type ConditionWrite struct {
	Node       string      `json:"node"`
	Conditions []Condition `json:"conditions"`
}

// TaintWrite adds and removes taints on one node.
type TaintWrite struct {
	Node   string  `json:"node"`
	Add    []Taint `json:"add,omitempty"`
	Remove []Taint `json:"remove,omitempty"`
	Reason Reason  `json:"reason"`
}

// LabelWrite sets labels on one node: the node worker's label
// reconciliation ([ReconcileLabels]).
type LabelWrite struct {
	Node   string            `json:"node"`
	Labels map[string]string `json:"labels"`
}

// ZoneReport is a zone's state after the pass.
type ZoneReport struct {
	Zone     string    `json:"zone"`
	Size     int       `json:"size"`
	NotReady int       `json:"notReady"`
	State    ZoneState `json:"state"`
	Rate     float32   `json:"rate"`
}

// Plan is one monitor pass of the node lifecycle controller.
type Plan struct {
	Outcome Reason `json:"outcome"`
	// Conditions are the node status writes, in node-name order.
	Conditions []ConditionWrite `json:"conditions"`
	// Taints are the taint writes, in the order the controller makes them.
	Taints []TaintWrite `json:"taints"`
	// Labels are the node worker's label patches ([ReconcileLabels]), in
	// node-name order.
	Labels []LabelWrite `json:"labels,omitempty"`
	// MarkPodsNotReady names the nodes whose pods get Ready=False (the
	// node's Ready condition just left True).
	MarkPodsNotReady []string `json:"markPodsNotReady"`
	// Zones are the zones after the pass, by zone key.
	Zones []ZoneReport `json:"zones"`
	// Disrupted is whether every zone is fully disrupted (no eviction, no
	// NoExecute taints: "master disruption mode").
	Disrupted bool           `json:"disrupted"`
	Events    []plan.Event   `json:"events"`
	Requeue   []plan.Requeue `json:"requeue"`
	// Memory is the controller's memory for the next pass.
	Memory Memory `json:"memory"`
}

// MarshalJSON encodes the Plan with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }
