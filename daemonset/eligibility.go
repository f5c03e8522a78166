package daemonset

import (
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Eligibility is what NodeShouldRunDaemonPod decides for one node.
type Eligibility struct {
	// ShouldRun: a daemon pod should be created on the node when it has
	// none.
	ShouldRun bool `json:"shouldRun"`
	// ShouldContinueRunning: a daemon pod already on the node may stay.
	ShouldContinueRunning bool `json:"shouldContinueRunning"`
}

// DefaultTolerations returns the tolerations the controller adds to a
// daemon pod made from spec (Exists, no tolerationSeconds, so forever):
// not-ready and unreachable NoExecute; disk-, memory- and pid-pressure and
// unschedulable NoSchedule; and network-unavailable NoSchedule when
// spec.hostNetwork is set, in this order. A nil spec is not host-network.
//
// Source: upstream pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations
// (v1.36.3); seed 000 DaemonSet toleration table (000:L2733), which omits
// pid-pressure.
func DefaultTolerations(spec *podstatus.Spec) []node.Toleration {
	ts := []node.Toleration{
		{Key: node.TaintNotReady, Operator: node.OpExists, Effect: string(node.NoExecute)},
		{Key: node.TaintUnreachable, Operator: node.OpExists, Effect: string(node.NoExecute)},
		{Key: node.TaintDiskPressure, Operator: node.OpExists, Effect: string(node.NoSchedule)},
		{Key: node.TaintMemoryPressure, Operator: node.OpExists, Effect: string(node.NoSchedule)},
		{Key: node.TaintPIDPressure, Operator: node.OpExists, Effect: string(node.NoSchedule)},
		{Key: node.TaintUnschedulable, Operator: node.OpExists, Effect: string(node.NoSchedule)},
	}
	if spec != nil && spec.HostNetwork {
		ts = append(ts, node.Toleration{Key: node.TaintNetworkUnavailable, Operator: node.OpExists, Effect: string(node.NoSchedule)})
	}
	return ts
}

// PodTolerations returns the tolerations of a daemon pod made from spec:
// the template's, then each default toleration ([DefaultTolerations]) in
// turn replaces, in place, every toleration equal to it in key, operator,
// value and effect (dropping a tolerationSeconds), or is appended when
// there is none.
//
// Upstream's AddOrUpdateTolerationInPodSpec means to leave the list alone
// when it already holds the toleration exactly, but compares a pointer
// with a value (never equal), so it always replaces.
//
// Source: upstream pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations
// with v1helper.AddOrUpdateTolerationInPodSpec (v1.36.3).
func PodTolerations(spec *podstatus.Spec) []node.Toleration {
	defaults := DefaultTolerations(spec)
	out := make([]node.Toleration, len(spec.Tolerations), len(spec.Tolerations)+len(defaults))
	copy(out, spec.Tolerations)
	for _, d := range defaults {
		matched := false
		for i := range out {
			if sameToleration(&out[i], &d) {
				out[i] = d
				matched = true
			}
		}
		if !matched {
			out = append(out, d)
		}
	}
	return out
}

// sameToleration is upstream Toleration.MatchToleration: equal key,
// operator, value and effect.
func sameToleration(a, b *node.Toleration) bool {
	return a.Key == b.Key && a.Operator == b.Operator && a.Value == b.Value && a.Effect == b.Effect
}

// defaultTolerates reports whether one of the default tolerations
// tolerates taint (each is Exists on one key and one effect).
func defaultTolerates(t *node.Taint, hostNetwork bool) bool {
	switch t.Effect {
	case node.NoExecute:
		return t.Key == node.TaintNotReady || t.Key == node.TaintUnreachable
	case node.NoSchedule:
		switch t.Key {
		case node.TaintDiskPressure, node.TaintMemoryPressure, node.TaintPIDPressure, node.TaintUnschedulable:
			return true
		case node.TaintNetworkUnavailable:
			return hostNetwork
		}
	}
	return false
}

// NodeShouldRunDaemonPod decides whether ds should run a pod on n
// (ShouldRun) and whether a pod already there may stay
// (ShouldContinueRunning). A template nodeName naming another node, a
// nodeSelector label missing or different, or a required node affinity
// that does not match (a malformed term never matches) gives neither. A
// NoSchedule or NoExecute taint tolerated neither by the template nor by
// [DefaultTolerations] stops ShouldRun; only an untolerated NoExecute taint
// stops ShouldContinueRunning. spec.unschedulable is not read: a cordoned
// node runs daemon pods (its unschedulable taint is tolerated).
//
// Source: upstream pkg/controller/daemon NodeShouldRunDaemonPod and
// predicates (v1.36.3); kubernetes/kubernetes#60163, PR #61161.
func NodeShouldRunDaemonPod(n *node.Node, ds *DaemonSet, opts Options) Eligibility {
	if n == nil || ds == nil {
		return Eligibility{}
	}
	spec := &ds.Spec.Template.Spec
	if spec.NodeName != "" && spec.NodeName != n.Name {
		return Eligibility{}
	}
	if ok, _ := node.MatchesNodeSelector(spec.NodeSelector, spec.Affinity, n); !ok {
		return Eligibility{}
	}
	nopts := opts.nodeOptions()
	run, cont := true, true
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if t.Effect != node.NoSchedule && t.Effect != node.NoExecute {
			continue
		}
		if defaultTolerates(t, spec.HostNetwork) || node.Tolerates(spec.Tolerations, t, nopts) {
			continue
		}
		run = false
		if t.Effect == node.NoExecute {
			cont = false
			break
		}
	}
	return Eligibility{ShouldRun: run, ShouldContinueRunning: cont}
}
