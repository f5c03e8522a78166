package meta

import "time"

// ConditionType names a condition ("Available", "Complete", "Ready", …).
// Each kind's package declares its condition types as constants of this
// type.
type ConditionType string

// Condition is one entry of an object's status.conditions. The kinds use
// different subsets of the time fields (Deployments lastUpdateTime, Jobs
// and Pods lastProbeTime) and only Pods and PodDisruptionBudgets have
// observedGeneration; a field a kind does not have stays zero and is not
// encoded.
type Condition struct {
	Type   ConditionType   `json:"type"`
	Status ConditionStatus `json:"status"`
	// ObservedGeneration is the object generation the condition was set
	// for (a Pod's condition: metadata.generation when a controller sets
	// it, gate PodObservedGenerationTracking, locked on in v1.36.3; a
	// PodDisruptionBudget's: its status.observedGeneration).
	ObservedGeneration int64     `json:"observedGeneration,omitempty"`
	LastProbeTime      time.Time `json:"lastProbeTime,omitzero"`
	LastUpdateTime     time.Time `json:"lastUpdateTime,omitzero"`
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
}

// Conditions is an object's status.conditions, in the order the API holds
// them. Its methods never modify the receiver.
type Conditions []Condition

// Find returns a copy of the first condition of type t; ok is false when
// there is none.
func (cs Conditions) Find(t ConditionType) (c Condition, ok bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// IsTrue reports whether the first condition of type t has status True.
func (cs Conditions) IsTrue(t ConditionType) bool {
	c, ok := cs.Find(t)
	return ok && c.Status == ConditionTrue
}

// Set returns cs with c in place of every condition of its type, appended
// at the end. When a condition of that type already has c's status and
// reason, cs comes back unchanged (the same slice) and changed is false; when
// only the reason differs, c keeps the old lastTransitionTime.
//
// Source: upstream pkg/controller/deployment/util/deployment_util.go
// SetDeploymentCondition (v1.36.3), which the other kinds' controllers
// follow.
func (cs Conditions) Set(c Condition) (out Conditions, changed bool) {
	if old, ok := cs.Find(c.Type); ok {
		if old.Status == c.Status && old.Reason == c.Reason {
			return cs, false
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	out = make(Conditions, 0, len(cs)+1)
	for _, x := range cs {
		if x.Type != c.Type {
			out = append(out, x)
		}
	}
	return append(out, c), true
}

// Remove returns cs without the conditions of type t, in order: cs itself
// when there is none, else a new list (nil when empty).
//
// Source: upstream deployment_util.go RemoveDeploymentCondition (v1.36.3).
func (cs Conditions) Remove(t ConditionType) Conditions {
	if _, ok := cs.Find(t); !ok {
		return cs
	}
	var out Conditions
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}
