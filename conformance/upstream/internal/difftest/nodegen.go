package difftest

import (
	"math"
	"time"

	v1 "k8s.io/api/core/v1"
	_ "k8s.io/kubernetes/pkg/controller/tainteviction"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/node"
)

// The values the node generators draw from, valid and invalid: taint and
// label keys, label values (numbers at the int64 edge among them), taint
// effects, toleration operators and node selector operators.
var (
	TaintKeys     = []string{"", "a", "b", node.TaintNotReady, node.TaintUnreachable, "Bad Key", "x/y/z", "example.com/k"}
	LabelValues   = []string{"", "v", "w", "0", "1", "10", "-3", "007", "-0", "9223372036854775807", "9223372036854775808", "-x", "a b"}
	TaintEffects  = []string{"", "NoSchedule", "PreferNoSchedule", "NoExecute", "Other"}
	TolerationOps = []string{"", "Equal", "Exists", "Lt", "Gt", "In"}
	SelectorOps   = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Foo"}
)

// DrawToleration draws one toleration, in both models, from keys,
// operators, values and effects that include the invalid ones.
func DrawToleration(t *rapid.T, l string) (v1.Toleration, node.Toleration) {
	k := rapid.SampledFrom(TaintKeys).Draw(t, l+"k")
	op := rapid.SampledFrom(TolerationOps).Draw(t, l+"op")
	v := rapid.SampledFrom(LabelValues).Draw(t, l+"v")
	e := rapid.SampledFrom(TaintEffects).Draw(t, l+"e")
	var secs *int64
	if rapid.Bool().Draw(t, l+"hasSecs") {
		s := DrawTolerationSeconds(t, l+"s")
		secs = &s
	}
	up := v1.Toleration{Key: k, Operator: v1.TolerationOperator(op), Value: v, Effect: v1.TaintEffect(e)}
	if secs != nil {
		s := *secs
		up.TolerationSeconds = &s
	}
	return up, node.Toleration{Key: k, Operator: op, Value: v, Effect: e, TolerationSeconds: secs}
}

// LargeSeconds are tolerationSeconds where upstream's arithmetic
// changes: the int64 limit (which means "no limit"), the last value whose
// nanoseconds fit in a Duration and the first that wraps, and multiples of
// 2^55, whose nanoseconds wrap to exactly 0.
var LargeSeconds = []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - 511, math.MaxInt64 / int64(time.Second), math.MaxInt64/int64(time.Second) + 1,
	math.MaxInt64/int64(time.Second) - 1, 1 << 40, 1 << 55, 1<<55 + 1, 1<<55 - 1, 3 << 55, 1 << 62, math.MinInt64}

// DrawTolerationSeconds draws a tolerationSeconds: small values around
// 0, the values of LargeSeconds, values near the int64 limit and near
// the seconds→nanoseconds overflow, and any int64.
func DrawTolerationSeconds(t *rapid.T, l string) int64 {
	switch rapid.IntRange(0, 5).Draw(t, l+"kind") {
	case 0:
		return rapid.SampledFrom(LargeSeconds).Draw(t, l+"large")
	case 1:
		return math.MaxInt64 - rapid.Int64Range(0, 1<<20).Draw(t, l+"belowMax")
	case 2:
		return math.MaxInt64/int64(time.Second) + rapid.Int64Range(-1000, 1000).Draw(t, l+"nearWrap")
	case 3:
		return rapid.Int64().Draw(t, l+"any")
	}
	return rapid.SampledFrom([]int64{-5, -1, 0, 1, 30, 60, 300}).Draw(t, l+"small")
}

// DrawRequirements draws node selector requirements, in both models: on
// labels, or on fields (metadata.name, and a field upstream rejects) when
// fields is set.
func DrawRequirements(t *rapid.T, l string, fields bool) ([]v1.NodeSelectorRequirement, []node.NodeSelectorRequirement) {
	var ur []v1.NodeSelectorRequirement
	var kr []node.NodeSelectorRequirement
	keys := []string{"zone", "gen", "disk", "Bad Key", "example.com/tier"}
	if fields {
		keys = []string{"metadata.name", "metadata.name", "metadata.name", "spec.other"}
	}
	vals := []string{"a", "b", "5", "10", "007", "-1", "", "bad value", "node-1", "node-2"}
	for i := range rapid.IntRange(0, 3).Draw(t, l+"n") {
		p := l + string(rune('0'+i))
		k := rapid.SampledFrom(keys).Draw(t, p+"k")
		op := rapid.SampledFrom(SelectorOps).Draw(t, p+"op")
		if fields && rapid.IntRange(0, 4).Draw(t, p+"fop") > 0 {
			op = rapid.SampledFrom([]string{"In", "NotIn"}).Draw(t, p+"op2")
		}
		var vs []string
		n := rapid.IntRange(0, 3).Draw(t, p+"nv")
		if op == "Exists" || op == "DoesNotExist" {
			n = rapid.SampledFrom([]int{0, 0, 0, 1}).Draw(t, p+"nv0")
		}
		if (op == "Gt" || op == "Lt" || fields) && rapid.IntRange(0, 4).Draw(t, p+"one") > 0 {
			n = 1
		}
		for j := 0; j < n; j++ {
			vs = append(vs, rapid.SampledFrom(vals).Draw(t, p+"v"))
		}
		ur = append(ur, v1.NodeSelectorRequirement{Key: k, Operator: v1.NodeSelectorOperator(op), Values: append([]string(nil), vs...)})
		kr = append(kr, node.NodeSelectorRequirement{Key: k, Operator: node.NodeSelectorOperator(op), Values: vs})
	}
	return ur, kr
}
