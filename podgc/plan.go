package podgc

import (
	"time"

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
