package node

import (
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/plan"
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
	// Lease is what the controller keeps of the lease it last saved, nil
	// for none.
	Lease *SavedLease `json:"lease,omitempty"`
	// Known is whether the controller has registered the node (its
	// knownNodeSet); a node seen for the first time has its not-ready and
	// unreachable taints removed.
	Known bool `json:"known,omitempty"`
}

// SavedLease is what the controller keeps of the node Lease it last saved:
// its name and spec.renewTime, of which upstream reads only the renew
// time. A lease seen later counts as a renewal (it is saved and refreshes
// the probe time) only when the saved lease has a renew time, the seen one
// has one too, and the saved one is strictly earlier: a saved lease
// without a renew time is never renewed, and is replaced only when the
// status is written. Its JSON is the API's, {"metadata": {"name"},
// "spec": {"renewTime"}}, renewTime left out when HasRenewTime is false.
//
// Source: upstream pkg/controller/nodelifecycle
// Controller.tryUpdateNodeHealth, with apimachinery's MicroTime.Before,
// false when either time is nil (v1.36.3).
type SavedLease struct {
	// Name is the lease's name (its node's).
	Name string
	// RenewTime is the lease's spec.renewTime when HasRenewTime, ignored
	// otherwise (the zero time in every record kubesem writes).
	RenewTime time.Time
	// HasRenewTime is whether the lease had a renew time (upstream's
	// pointer was set).
	HasRenewTime bool
}

// savedLeaseJSON is SavedLease's JSON form, the API's.
type savedLeaseJSON struct {
	Metadata struct {
		Name string `json:"name,omitempty"`
	} `json:"metadata"`
	Spec struct {
		RenewTime *time.Time `json:"renewTime,omitempty"`
	} `json:"spec"`
}

// MarshalJSON writes l as the API writes a Lease, {"metadata": {"name"},
// "spec": {"renewTime"}}, with plan.Encode (times in UTC).
func (l SavedLease) MarshalJSON() ([]byte, error) {
	var j savedLeaseJSON
	j.Metadata.Name = l.Name
	if l.HasRenewTime {
		j.Spec.RenewTime = &l.RenewTime
	}
	return plan.Encode(j)
}

// UnmarshalJSON reads a Lease in the API's form. Its other fields
// (namespace, uid, holderIdentity …) are dropped, as they are in every
// object an input holds; a repeated key is an error.
func (l *SavedLease) UnmarshalJSON(b []byte) error {
	var j savedLeaseJSON
	if err := apijson.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = SavedLease{Name: j.Metadata.Name}
	if rt := j.Spec.RenewTime; rt != nil {
		l.RenewTime, l.HasRenewTime = *rt, true
	}
	return nil
}

// saveLease returns what the controller keeps of l.
func saveLease(l *Lease) SavedLease {
	s := SavedLease{Name: l.Name}
	if rt := l.Spec.RenewTime; rt != nil {
		s.RenewTime, s.HasRenewTime = *rt, true
	}
	return s
}

// renewedAfter reports whether l replaces the saved lease s: s has a renew
// time, l has one and s's is strictly earlier.
func (s *SavedLease) renewedAfter(l *Lease) bool {
	return s.HasRenewTime && l.Spec.RenewTime != nil && s.RenewTime.Before(*l.Spec.RenewTime)
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
		l := *h.Lease
		c.Lease = &l
	}
	return &c
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
	out, h, observed := updateHealth(n, lease, mem.clone(), now, opts)
	out.Health = h
	if out.Health.ReadyHeartbeat != nil {
		t := *out.Health.ReadyHeartbeat
		out.Health.ReadyHeartbeat = &t
	}
	if observed && lease != nil {
		l := saveLease(lease)
		out.Health.Lease = &l
	}
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
// the returned Health may share pointers with h, and Conditions with the
// node when nothing is written. When observed is true the record saves
// the lease given (none for nil): its Lease is nil and the caller sets it
// from lease.
func updateHealth(n *Node, lease *Lease, h *Health, now time.Time, opts Options) (_ HealthUpdate, _ Health, observed bool) {
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
	var savedLease *SavedLease
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
	if lease != nil && (savedLease == nil || savedLease.renewedAfter(lease)) {
		h.Lease, observed = nil, true
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
			h = &Health{ProbeTime: h.ProbeTime, ReadyHeartbeat: &conds[ri].LastHeartbeatTime, Known: known}
			observed = true
		}
	}
	if i := conditionIndex(conds, Ready); i >= 0 {
		out.Current = &conds[i] // (may alias the node's conditions: UpdateHealth copies it)
	}
	return out, *h, observed
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
