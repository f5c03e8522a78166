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
