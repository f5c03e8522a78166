package node

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/internal/names"
	"github.com/kubesem/kubesem/podstatus"
)

// The property checks of property_test.go, as fuzz targets.
func FuzzPropZoneStateMonotone(f *testing.F) { fuzzlimit.Rapid(f, checkZoneStateMonotone) }
func FuzzPropEmptyEffectStillTolerates(f *testing.F) {
	fuzzlimit.Rapid(f, checkEmptyEffectStillTolerates)
}
func FuzzPropEvictionNotBeforeTaint(f *testing.F) { fuzzlimit.Rapid(f, checkEvictionNotBeforeTaint) }
func FuzzPropShutdownGroups(f *testing.F)         { fuzzlimit.Rapid(f, checkShutdownGroups) }
func FuzzPropStepOrderIndependent(f *testing.F)   { fuzzlimit.Rapid(f, checkStepOrderIndependent) }
func FuzzPropZoneStatesGrouping(f *testing.F)     { fuzzlimit.Rapid(f, checkZoneStatesGrouping) }

// FuzzMatchesNodeSelector feeds arbitrary expressions (keys, operators,
// values including Gt/Lt integers) and node labels: no panic, and a match
// never comes with an error.
func FuzzMatchesNodeSelector(f *testing.F) {
	f.Add("zone", "In", "a", "a", "node-1", true)
	f.Add("gen", "Gt", "5", "007", "", false)
	f.Add("example.com/x", "Lt", "-1", "x", "n", true)
	f.Fuzz(func(t *testing.T, key, op, value, label, name string, fields bool) {
		n := &Node{}
		n.Name = name
		n.Labels = map[string]string{key: label}
		term := NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: key, Operator: NodeSelectorOperator(op), Values: []string{value}}}}
		if fields {
			term.MatchFields = []NodeSelectorRequirement{{Key: FieldNodeName, Operator: NodeSelectorOperator(op), Values: []string{value}}}
		}
		aff := &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{term}}}}
		ok, err := MatchesNodeSelector(map[string]string{key: label}, aff, n)
		if ok && err != nil {
			t.Fatalf("match with error %v", err)
		}
	})
}

// FuzzToleration feeds arbitrary toleration and taint strings (operators,
// Gt/Lt integers): no panic; an emptied effect keeps a match.
func FuzzToleration(f *testing.F) {
	f.Add("k", "Exists", "", "NoSchedule", "k", "v", "NoSchedule", true)
	f.Add("k", "Gt", "10", "", "k", "-3", "NoExecute", true)
	f.Fuzz(func(t *testing.T, key, op, value, effect, tkey, tvalue, teffect string, gate bool) {
		tol := Toleration{Key: key, Operator: op, Value: value, Effect: effect}
		taint := Taint{Key: tkey, Value: tvalue, Effect: TaintEffect(teffect)}
		opts := Options{TaintTolerationComparisonOperators: gate}
		if ToleratesTaint(&tol, &taint, opts) {
			tol.Effect = ""
			if !ToleratesTaint(&tol, &taint, opts) {
				t.Fatal("empty effect stops matching")
			}
		}
		_ = EvictionFor([]Toleration{tol}, []Taint{taint}, time.Unix(0, 0), opts)
	})
}

// FuzzStep decodes arbitrary JSON into Step's input and runs two passes:
// no panic, and an error is a *field.Error.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"a","labels":{"topology.kubernetes.io/zone":"z"}},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:00Z"}]}}],"now":"2026-01-01T00:01:00Z"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var in struct {
			Nodes  []*Node          `json:"nodes"`
			Leases []Lease          `json:"leases"`
			Memory Memory           `json:"memory"`
			Now    time.Time        `json:"now"`
			Opts   Options          `json:"options"`
			Pods   []*podstatus.Pod `json:"pods"`
		}
		if json.Unmarshal(b, &in) != nil {
			return
		}
		p, err := Step(in.Nodes, in.Leases, nil, in.Memory, in.Now, in.Opts)
		if err != nil {
			return
		}
		_, _ = Step(in.Nodes, in.Leases, nil, p.Memory, in.Now.Add(time.Minute), in.Opts)
		for _, n := range in.Nodes {
			_, _ = EvictionStep(n, in.Pods, nil, in.Now, in.Opts)
		}
	})
}

// FuzzShutdown feeds arbitrary durations and priorities.
func FuzzShutdown(f *testing.F) {
	f.Add(int64(30e9), int64(10e9), int32(5), int64(-1))
	f.Fuzz(func(t *testing.T, req, crit int64, prio int32, tgps int64) {
		ps := ShutdownPeriods(nil, time.Duration(req), time.Duration(crit))
		p := &podstatus.Pod{}
		p.Spec.Priority = &prio
		p.Spec.TerminationGracePeriodSeconds = &tgps
		_, _ = Shutdown(ps, []*podstatus.Pod{p})
		_ = LeaseRetryBackoff(int(prio))
	})
}

// FuzzParseTaints: arbitrary kubectl taint arguments never panic; what
// parses round-trips through its fields.
func FuzzParseTaints(f *testing.F) {
	f.Add("dedicated=gpu:NoSchedule", "node.kubernetes.io/unreachable:NoExecute-")
	f.Add("a=b=c:NoSchedule", "k-")
	f.Fuzz(func(t *testing.T, a, b string) {
		add, _, err := ParseTaints([]string{a, b})
		if err != nil {
			return
		}
		for _, x := range add {
			if x.Effect == "" || !names.QualifiedName(x.Key) {
				t.Fatalf("bad taint %+v", x)
			}
		}
	})
}
