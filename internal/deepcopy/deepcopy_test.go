package deepcopy

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type inner struct {
	S    []int
	M    map[string][]string
	P    *int
	hide map[string]any
}

type outer struct {
	A  inner
	Ps []*inner
	I  any
	T  time.Time
	TP *time.Time
}

func sample() outer {
	n := 3
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in := inner{S: []int{1}, M: map[string][]string{"a": {"b"}}, P: &n, hide: map[string]any{"x": []any{1.0}}}
	in2 := in
	return outer{A: in, Ps: []*inner{&in2}, I: map[string]any{"k": []any{"v"}}, T: now, TP: &now}
}

// TestCopySharesNothing mutates every reachable part of the copy and checks
// the original is unchanged.
func TestCopySharesNothing(t *testing.T) {
	orig := sample()
	c := Copy(orig)
	if !reflect.DeepEqual(orig, c) {
		t.Fatalf("copy differs:\n%#v\n%#v", orig, c)
	}
	c.A.S[0] = 9
	c.A.M["a"][0] = "z"
	*c.A.P = 7
	c.A.hide["x"].([]any)[0] = 2.0
	c.Ps[0].S[0] = 9
	*c.Ps[0].P = 8
	c.I.(map[string]any)["k"].([]any)[0] = "w"
	*c.TP = time.Time{}
	if diff := cmp.Diff(sample(), orig, cmp.AllowUnexported(inner{})); diff != "" {
		t.Fatalf("original changed through the copy (-want +got):\n%s", diff)
	}
}

func TestCopyNil(t *testing.T) {
	var p *inner
	if Copy(p) != nil {
		t.Fatal("nil pointer copied to non-nil")
	}
	var s []int
	if Copy(s) != nil {
		t.Fatal("nil slice copied to non-nil")
	}
}

func BenchmarkCopy(b *testing.B) {
	b.ReportAllocs()
	o := sample()
	for b.Loop() {
		_ = Copy(o)
	}
}

// TestFrozenShared: a Frozen value is shared by the copy (never modified,
// so sharing is safe); what holds it is still copied.
func TestFrozenShared(t *testing.T) {
	type holder struct {
		F Frozen[map[string]any]
		M map[string]string
	}
	orig := holder{F: Freeze(map[string]any{"a": []any{"b"}}), M: map[string]string{"k": "v"}}
	c := Copy(orig)
	if reflect.ValueOf(c.F.Get()).Pointer() != reflect.ValueOf(orig.F.Get()).Pointer() {
		t.Error("a frozen map was copied, not shared")
	}
	c.M["k"] = "w"
	if orig.M["k"] != "v" {
		t.Error("the map beside the frozen value is shared")
	}
}

// TestCopyKeepsEmptyAndNil: nil and empty slices and maps stay as they are
// (the fast paths for []string, []int32 and map[string]string included).
func TestCopyKeepsEmptyAndNil(t *testing.T) {
	type v struct {
		S0, S1 []string
		I0, I1 []int32
		M0, M1 map[string]string
		A0, A1 []any
	}
	orig := v{S1: []string{}, I1: []int32{}, M1: map[string]string{}, A1: []any{}}
	c := Copy(orig)
	if c.S0 != nil || c.I0 != nil || c.M0 != nil || c.A0 != nil {
		t.Error("a nil slice or map copied as empty")
	}
	if c.S1 == nil || c.I1 == nil || c.M1 == nil || c.A1 == nil {
		t.Error("an empty slice or map copied as nil")
	}
}
