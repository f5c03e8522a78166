package node

import (
	"testing"
)

func i64(v int64) *int64 { return &v }

func TestToleratesTaint(t *testing.T) {
	t.Parallel()
	taint := Taint{Key: "k", Value: "v", Effect: NoSchedule}
	cases := []struct {
		name string
		tol  Toleration
		opts Options
		want bool
	}{
		{"equal", Toleration{Key: "k", Operator: OpEqual, Value: "v", Effect: "NoSchedule"}, Options{}, true},
		{"empty operator is Equal", Toleration{Key: "k", Value: "v"}, Options{}, true},
		{"wrong value", Toleration{Key: "k", Value: "w"}, Options{}, false},
		{"exists any value", Toleration{Key: "k", Operator: OpExists}, Options{}, true},
		{"empty key exists tolerates all", Toleration{Operator: OpExists}, Options{}, true},
		{"empty key equal needs equal value", Toleration{Value: "v"}, Options{}, true},
		{"other effect", Toleration{Key: "k", Operator: OpExists, Effect: "NoExecute"}, Options{}, false},
		{"other key", Toleration{Key: "j", Operator: OpExists}, Options{}, false},
		{"unknown operator", Toleration{Key: "k", Operator: "In", Value: "v"}, Options{}, false},
		{"Gt gate off", Toleration{Key: "k", Operator: OpGt, Value: "1"}, Options{}, false},
	}
	for _, c := range cases {
		if got := ToleratesTaint(&c.tol, &taint, c.opts); got != c.want {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
	num := Taint{Key: "k", Value: "10", Effect: NoSchedule}
	on := Options{TaintTolerationComparisonOperators: true}
	for _, c := range []struct {
		op, v string
		want  bool
	}{{OpGt, "9", true}, {OpGt, "10", false}, {OpLt, "11", true}, {OpLt, "010", false}, {OpLt, "-0", false}, {OpGt, "-5", true}, {OpLt, "9223372036854775808", false}} {
		tol := Toleration{Key: "k", Operator: c.op, Value: c.v}
		if got := ToleratesTaint(&tol, &num, on); got != c.want {
			t.Errorf("%s %s: got %v", c.op, c.v, got)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int64{"0": 0, "7": 7, "-7": -7, "9223372036854775807": 1<<63 - 1, "-9223372036854775808": -1 << 63} {
		if v, ok := parseDecimal(s); !ok || v != want {
			t.Errorf("%q: %d %v", s, v, ok)
		}
	}
	for _, s := range []string{"", "-", "-0", "01", "+1", "1a", "9223372036854775808", "-9223372036854775809", "99999999999999999999999"} {
		if _, ok := parseDecimal(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestFindUntoleratedTaint(t *testing.T) {
	t.Parallel()
	taints := []Taint{{Key: "a", Effect: PreferNoSchedule}, {Key: "b", Effect: NoSchedule}, {Key: "c", Effect: NoExecute}}
	got, ok := FindUntoleratedTaint(taints, nil, NoScheduleOrNoExecute, Options{})
	if !ok || got.Key != "b" {
		t.Fatalf("got %v %v", got, ok)
	}
	got, ok = FindUntoleratedTaint(taints, []Toleration{{Key: "b", Operator: OpExists}}, NoScheduleOrNoExecute, Options{})
	if !ok || got.Key != "c" {
		t.Fatalf("got %v %v", got, ok)
	}
	_, ok = FindUntoleratedTaint(taints, []Toleration{{Operator: OpExists}}, nil, Options{})
	if ok {
		t.Fatal("tolerate-all toleration")
	}
	got, ok = FindUntoleratedTaint(taints, nil, EffectFilter(PreferNoSchedule), Options{})
	if !ok || got.Key != "a" {
		t.Fatalf("got %v %v", got, ok)
	}
}
