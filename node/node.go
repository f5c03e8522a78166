package node

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Node is the subset of a Kubernetes Node that the scheduler predicates, the
// node lifecycle controller and the DaemonSet controller read. JSON tags
// follow the API.
type Node struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is the subset of a NodeSpec kubesem reads.
type Spec struct {
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
}

// Status is the subset of a NodeStatus kubesem reads.
type Status struct {
	// Allocatable is status.allocatable: the resources pods may use, by
	// name, as the API writes quantities ("110", "4", "16Gi"). Only
	// "pods" is read ([Node.AllocatablePods]).
	Allocatable map[string]string `json:"allocatable,omitempty"`
	Conditions  []Condition       `json:"conditions,omitempty"`
}

// AllocatablePods returns status.allocatable.pods, how many pods the node
// takes; ok is false when the node states none. A value that is not a
// non-negative decimal integer (the form the kubelet writes) is a
// *field.Error at status.allocatable.pods; other quantity spellings are
// not modelled.
//
// Source: upstream k8s.io/api core/v1 ResourceList.Pods, read by the
// scheduler's pkg/scheduler/framework/plugins/noderesources fitsRequest
// (allowedPodNumber) (v1.36.3).
func (n *Node) AllocatablePods() (pods int64, ok bool, err error) {
	v, ok := n.Status.Allocatable["pods"]
	if !ok {
		return 0, false, nil
	}
	pods, perr := strconv.ParseInt(v, 10, 64)
	if perr != nil || pods < 0 {
		return 0, false, field.New("status.allocatable.pods", v, field.ErrInvalid)
	}
	return pods, true, nil
}

// ConditionType names a node condition.
type ConditionType = meta.ConditionType

// ConditionStatus is True, False or Unknown.
type ConditionStatus = meta.ConditionStatus

// Node condition types.
const (
	Ready              ConditionType = "Ready"
	MemoryPressure     ConditionType = "MemoryPressure"
	DiskPressure       ConditionType = "DiskPressure"
	PIDPressure        ConditionType = "PIDPressure"
	NetworkUnavailable ConditionType = "NetworkUnavailable"
)

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = meta.ConditionTrue
	ConditionFalse   ConditionStatus = meta.ConditionFalse
	ConditionUnknown ConditionStatus = meta.ConditionUnknown
)

// Condition is one entry of a node's status.conditions: unlike the workload
// kinds, a node condition carries the kubelet's heartbeat time.
type Condition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastHeartbeatTime  time.Time       `json:"lastHeartbeatTime,omitzero"`
	LastTransitionTime time.Time       `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// Condition returns a copy of the node's first condition of type t; ok is
// false when the node has none.
//
// Source: upstream pkg/controller/util/node GetNodeCondition (v1.36.3).
func (n *Node) Condition(t ConditionType) (c Condition, ok bool) {
	if n == nil {
		return Condition{}, false
	}
	cs := n.Status.Conditions
	for i := range cs {
		if cs[i].Type == t {
			return cs[i], true
		}
	}
	return Condition{}, false
}

// IsReady reports whether the node's first Ready condition has status
// True; a node without one is not ready.
//
// Source: upstream pkg/util/node IsNodeReady (v1.36.3).
func (n *Node) IsReady() bool {
	if n == nil {
		return false
	}
	cs := n.Status.Conditions
	for i := range cs {
		if cs[i].Type == Ready {
			return cs[i].Status == ConditionTrue
		}
	}
	return false
}

// Lease is the subset of a coordination.k8s.io/v1 Lease in the
// kube-node-lease namespace that the node lifecycle controller reads: its
// name (the node's) and spec.renewTime, the kubelet's last renewal. JSON
// tags follow the API.
type Lease struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            LeaseSpec `json:"spec"`
}

// LeaseSpec is the part of a Lease's spec the controller reads.
type LeaseSpec struct {
	RenewTime *time.Time `json:"renewTime,omitempty"`
}

// Taint is a node taint. TimeAdded is only set for NoExecute taints.
type Taint struct {
	Key       string      `json:"key"`
	Value     string      `json:"value,omitempty"`
	Effect    TaintEffect `json:"effect"`
	TimeAdded *time.Time  `json:"timeAdded,omitempty"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

// Taint effects.
const (
	NoSchedule       TaintEffect = "NoSchedule"
	PreferNoSchedule TaintEffect = "PreferNoSchedule"
	NoExecute        TaintEffect = "NoExecute"
)

// MatchTaint reports whether two taints have the same key and effect, the
// identity upstream uses to add and remove taints; values and TimeAdded
// are not compared.
//
// Source: upstream k8s.io/api core/v1 Taint.MatchTaint (v0.36.3).
func (t Taint) MatchTaint(o Taint) bool { return t.Key == o.Key && t.Effect == o.Effect }

// Toleration is a pod's toleration; it is the podstatus type, so a pod
// spec's tolerations are passed as they are.
type Toleration = podstatus.Toleration

// Toleration operators.
const (
	OpEqual  = "Equal"
	OpExists = "Exists"
	// OpLt and OpGt compare integers; they only tolerate anything with
	// Options.TaintTolerationComparisonOperators (alpha, off in v1.36.3).
	OpLt = "Lt"
	OpGt = "Gt"
)

// Well-known taint keys (upstream k8s.io/api/core/v1 well_known_taints.go).
const (
	TaintNotReady           = "node.kubernetes.io/not-ready"
	TaintUnreachable        = "node.kubernetes.io/unreachable"
	TaintUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintPIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNetworkUnavailable = "node.kubernetes.io/network-unavailable"
)

// Well-known node labels.
const (
	LabelTopologyZone      = "topology.kubernetes.io/zone"
	LabelTopologyRegion    = "topology.kubernetes.io/region"
	LabelFailureZone       = "failure-domain.beta.kubernetes.io/zone"
	LabelFailureRegion     = "failure-domain.beta.kubernetes.io/region"
	LabelExcludeDisruption = "node.kubernetes.io/exclude-disruption"
)

// Zone returns the node's zone key as the node lifecycle controller
// computes it: region and zone, each from the deprecated
// failure-domain.beta label when present (even empty) or else the GA
// topology label, joined by ":\x00:"; "" when both are empty. The
// deprecated label wins, as upstream reads it first.
//
// Source: upstream k8s.io/component-helpers node/topology GetZoneKey
// (v1.36.3).
func Zone(n *Node) string {
	if n == nil {
		return ""
	}
	region, zone, _ := zoneLabels(n.Labels)
	return zoneKey(region, zone)
}

// zoneKey joins region and zone as [Zone] does.
func zoneKey(region, zone string) string {
	if region == "" && zone == "" {
		return ""
	}
	return region + zoneKeySep + zone
}

// zoneLabels reads what the zone grouping needs from a node's labels: the
// region and zone as [Zone] reads them (the deprecated labels first) and
// whether the exclusion label is there ([ExcludedFromDisruption]). It
// looks the current labels up first and stops once every label of the map
// has been found: the labels it has not looked up are then absent (a node
// with only the current zone and region labels costs two look-ups, not
// five).
func zoneLabels(l map[string]string) (region, zone string, excluded bool) {
	left := len(l)
	var ok bool
	if left > 0 {
		if zone, ok = l[LabelTopologyZone]; ok {
			left--
		}
	}
	if left > 0 {
		if region, ok = l[LabelTopologyRegion]; ok {
			left--
		}
	}
	if left > 0 {
		if _, excluded = l[LabelExcludeDisruption]; excluded {
			left--
		}
	}
	if left > 0 {
		if z, ok := l[LabelFailureZone]; ok {
			zone = z
			left--
		}
	}
	if left > 0 {
		if r, ok := l[LabelFailureRegion]; ok {
			region = r
		}
	}
	return region, zone, excluded
}

// ExcludedFromDisruption reports whether the node carries the
// node.kubernetes.io/exclude-disruption label (any value); such nodes do not
// count in their zone's state.
//
// Source: upstream node_lifecycle_controller.go
// isNodeExcludedFromDisruptionChecks (v1.36.3).
func ExcludedFromDisruption(n *Node) bool {
	if n == nil {
		return false
	}
	_, ok := n.Labels[LabelExcludeDisruption]
	return ok
}
