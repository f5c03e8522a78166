package node

import (
	"time"
)

// Health is the node lifecycle controller's memory of one node, carried
// between monitor passes (upstream nodeHealthData, less the ready
// transition timestamp, which v1.36.3 records but never reads).
type Health struct {
	// ProbeTime is when the controller last saw the node alive: a new
	// Ready heartbeat or a lease renewal. The grace period runs from it.
	ProbeTime time.Time `json:"probeTime"`
	// ReadyHeartbeat is the lastHeartbeatTime of the Ready condition the
	// controller last saved; nil when it saved a status without one.
	ReadyHeartbeat *time.Time `json:"readyHeartbeat,omitempty"`
	// Lease is the lease the controller last saved (its name and renew
	// time, all the controller reads of it), nil for none.
	Lease *Lease `json:"lease,omitempty"`
	// Known is whether the controller has registered the node (its
	// knownNodeSet); a node seen for the first time has its not-ready and
	// unreachable taints removed.
	Known bool `json:"known,omitempty"`
}

func (h *Health) clone() *Health {
	if h == nil {
		return nil
	}
	c := *h
	if h.ReadyHeartbeat != nil {
		t := *h.ReadyHeartbeat
		c.ReadyHeartbeat = &t
	}
	if h.Lease != nil {
		l := cloneLease(h.Lease)
		c.Lease = l
	}
	return &c
}

// cloneLease returns the part of l the controller keeps in its memory
// (name and renew time), sharing nothing with l.
func cloneLease(l *Lease) *Lease {
	if l == nil {
		return nil
	}
	c := &Lease{}
	c.Name = l.Name
	if l.Spec.RenewTime != nil {
		t := *l.Spec.RenewTime
		c.Spec.RenewTime = &t
	}
	return c
}

// HealthUpdate is the outcome of one node's health check.
type HealthUpdate struct {
	// Health is the controller's memory of the node after the check.
	Health Health `json:"health"`
	// GracePeriod is the grace period applied: the startup grace period
	// when the node has no Ready condition, else the monitor grace period.
	GracePeriod time.Duration `json:"gracePeriod"`
	// Observed is the Ready condition as read (a synthesized Unknown one,
	// dated at the node's creation, when the node has none).
	Observed Condition `json:"observed"`
	// Current is the Ready condition after the check; nil when the node has
	// none and the grace period has not run out.
	Current *Condition `json:"current,omitempty"`
	// Write is whether the controller writes the node status; Conditions
	// is then the node's full condition list to write.
	Write      bool        `json:"write"`
	Conditions []Condition `json:"conditions,omitempty"`
}

// Reasons and messages of the conditions the controller sets to Unknown.
const (
	ReasonNodeStatusUnknown      = "NodeStatusUnknown"
	ReasonNodeStatusNeverUpdated = "NodeStatusNeverUpdated"
	MessageNodeStatusUnknown     = "Kubelet stopped posting node status."
	MessageNodeStatusNeverUpdate = "Kubelet never posted node status."
)

// UpdateHealth is one node's health check in a monitor pass at now, with
// mem the controller's memory of the node (nil at first sight) and lease
// the node's Lease (nil for none). The probe time is refreshed when the
// Ready condition's heartbeat differs from the saved one, when a Ready
// condition appears or disappears, and when the lease is new to the
// controller or renewed later than the saved one. When now is strictly
// after probe time + grace period, Ready, MemoryPressure, DiskPressure and
// PIDPressure become Unknown (NodeStatusUnknown, or NodeStatusNeverUpdated
// appended for a missing one; NetworkUnavailable untouched), and the
// status is written only if the Ready condition changed.
//
// Source: upstream pkg/controller/nodelifecycle Controller.
// tryUpdateNodeHealth (v1.36.3).
func UpdateHealth(n *Node, lease *Lease, mem *Health, now time.Time, opts Options) HealthUpdate {
	out, h := updateHealth(n, lease, mem.clone(), now, opts)
	out.Health = h
	if out.Health.ReadyHeartbeat != nil {
		t := *out.Health.ReadyHeartbeat
		out.Health.ReadyHeartbeat = &t
	}
	out.Health.Lease = cloneLease(out.Health.Lease)
	if out.Current != nil {
		c := *out.Current
		out.Current = &c
	}
	if out.Write {
		out.Conditions = append([]Condition(nil), out.Conditions...)
	}
	return out
}

// updateHealth is UpdateHealth on memory the caller owns (h may be nil);
// the returned Health may share pointers with h and lease, and Conditions
// with the node when nothing is written.
func updateHealth(n *Node, lease *Lease, h *Health, now time.Time, opts Options) (HealthUpdate, Health) {
	var out HealthUpdate
	readyIdx := conditionIndex(n.Status.Conditions, Ready)
	var grace time.Duration
	if readyIdx < 0 {
		out.Observed = Condition{Type: Ready, Status: ConditionUnknown, LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: n.CreationTimestamp}
		grace = opts.startupGrace()
		if h != nil {
			h.ReadyHeartbeat = nil
		} else {
			h = &Health{ProbeTime: n.CreationTimestamp}
		}
	} else {
		out.Observed = n.Status.Conditions[readyIdx]
		grace = opts.monitorGrace()
	}
	var savedLease *Lease
	var saved *time.Time
	if h != nil {
		saved = h.ReadyHeartbeat
		savedLease = h.Lease
	}
	hasCur := readyIdx >= 0
	var cur time.Time
	if hasCur {
		cur = n.Status.Conditions[readyIdx].LastHeartbeatTime
	}
	known := h != nil && h.Known
	switch {
	case h == nil,
		saved == nil && hasCur,
		saved != nil && !hasCur,
		saved != nil && hasCur && !saved.Equal(cur):
		nh := &Health{ProbeTime: now}
		if hasCur {
			nh.ReadyHeartbeat = &n.Status.Conditions[readyIdx].LastHeartbeatTime
		}
		h = nh
	}
	h.Known = known
	if lease != nil && (savedLease == nil || savedLease.Spec.RenewTime != nil && lease.Spec.RenewTime != nil && savedLease.Spec.RenewTime.Before(*lease.Spec.RenewTime)) {
		h.Lease = lease
		h.ProbeTime = now
	}
	out.GracePeriod = grace
	conds := n.Status.Conditions
	if now.After(h.ProbeTime.Add(grace)) {
		conds = make([]Condition, len(n.Status.Conditions), len(n.Status.Conditions)+4)
		copy(conds, n.Status.Conditions)
		for _, t := range [...]ConditionType{Ready, MemoryPressure, DiskPressure, PIDPressure} {
			i := conditionIndex(conds, t)
			if i < 0 {
				conds = append(conds, Condition{Type: t, Status: ConditionUnknown, Reason: ReasonNodeStatusNeverUpdated,
					Message: MessageNodeStatusNeverUpdate, LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: now})
				continue
			}
			if conds[i].Status != ConditionUnknown {
				conds[i].Status = ConditionUnknown
				conds[i].Reason = ReasonNodeStatusUnknown
				conds[i].Message = MessageNodeStatusUnknown
				conds[i].LastTransitionTime = now
			}
		}
		ri := conditionIndex(conds, Ready)
		if !sameCondition(conds[ri], out.Observed) {
			out.Write = true
			out.Conditions = conds
			h = &Health{ProbeTime: h.ProbeTime, ReadyHeartbeat: &conds[ri].LastHeartbeatTime, Lease: lease, Known: known}
		}
	}
	if i := conditionIndex(conds, Ready); i >= 0 {
		out.Current = &conds[i] // (may alias the node's conditions: UpdateHealth copies it)
	}
	return out, *h
}

func conditionIndex(cs []Condition, t ConditionType) int {
	for i := range cs {
		if cs[i].Type == t {
			return i
		}
	}
	return -1
}

func sameCondition(a, b Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(b.LastHeartbeatTime) && a.LastTransitionTime.Equal(b.LastTransitionTime)
}
