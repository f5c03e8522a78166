package intstr_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"pgregory.net/rapid"
)

// totalGen draws totals with the edges 0, 1 and MaxInt32 often.
func totalGen() *rapid.Generator[int32] {
	return rapid.OneOf(rapid.SampledFrom([]int32{0, 1, 2, 3, 4, 10, 100, math.MaxInt32}), rapid.Int32Range(0, math.MaxInt32))
}

// valueGen draws integers and percentages, valid or not.
func valueGen() *rapid.Generator[intstr.Value] {
	return rapid.OneOf(
		rapid.Map(rapid.Int32(), intstr.Int),
		rapid.Map(rapid.Int32Range(0, 1000), intstr.Percent),
		rapid.Map(rapid.String(), intstr.String),
		rapid.Map(rapid.StringMatching(`[0-9+-]{0,22}%?`), intstr.String),
	)
}

// checkRounding: rounding up never gives less than rounding down, and never
// more than one more (untruncated, ScaledInt); Scaled is its int32 conversion.
func checkRounding(t *rapid.T) {
	p := rapid.Int32Range(0, 1000).Draw(t, "percent")
	total := totalGen().Draw(t, "total")
	up, errUp := intstr.ScaledInt(intstr.Percent(p), total, intstr.Up)
	down, errDown := intstr.ScaledInt(intstr.Percent(p), total, intstr.Down)
	if errUp != nil || errDown != nil {
		t.Fatalf("ScaledInt(%d%%, %d) errors %v, %v", p, total, errUp, errDown)
	}
	if up < down || up-down > 1 {
		t.Fatalf("ScaledInt(%d%%, %d) = up %d, down %d; want down <= up <= down+1", p, total, up, down)
	}
	if s, _ := intstr.Scaled(intstr.Percent(p), total, intstr.Up); s != int32(up) {
		t.Fatalf("Scaled(%d%%, %d) = %d; want int32(%d) = %d", p, total, s, up, int32(up))
	}
}

func TestRounding(t *testing.T) { t.Parallel(); rapid.Check(t, checkRounding) }

// checkWithinTotal: 0% to 100% of a total lands in [0, total].
func checkWithinTotal(t *rapid.T) {
	p := rapid.Int32Range(0, 100).Draw(t, "percent")
	total := totalGen().Draw(t, "total")
	for _, r := range []intstr.Rounding{intstr.Up, intstr.Down} {
		got, err := intstr.Scaled(intstr.Percent(p), total, r)
		if err != nil || got < 0 || got > total {
			t.Fatalf("Scaled(%d%%, %d, %v) = %d, %v; want within [0, %d]", p, total, r, got, err, total)
		}
	}
}

func TestWithinTotal(t *testing.T) { t.Parallel(); rapid.Check(t, checkWithinTotal) }

// checkMonotone: more total or more percent never scales to less
// (untruncated, ScaledInt).
func checkMonotone(t *rapid.T) {
	p1 := rapid.Int32Range(0, 300).Draw(t, "p1")
	p2 := rapid.Int32Range(p1, 300).Draw(t, "p2")
	t1 := totalGen().Draw(t, "t1")
	t2 := rapid.Int32Range(t1, math.MaxInt32).Draw(t, "t2")
	r := intstr.Rounding(rapid.Bool().Draw(t, "up"))
	a, _ := intstr.ScaledInt(intstr.Percent(p1), t1, r)
	b, _ := intstr.ScaledInt(intstr.Percent(p2), t1, r)
	c, _ := intstr.ScaledInt(intstr.Percent(p1), t2, r)
	if b < a {
		t.Fatalf("ScaledInt(%d%%, %d) = %d < ScaledInt(%d%%, %d) = %d", p2, t1, b, p1, t1, a)
	}
	if c < a {
		t.Fatalf("ScaledInt(%d%%, %d) = %d < ScaledInt(%d%%, %d) = %d", p1, t2, c, p1, t1, a)
	}
}

func TestMonotone(t *testing.T) { t.Parallel(); rapid.Check(t, checkMonotone) }

// checkIntAsIs: a non-negative integer is its own scaled value, whatever the
// total and rounding.
func checkIntAsIs(t *rapid.T) {
	n := rapid.Int32Range(0, math.MaxInt32).Draw(t, "n")
	total := rapid.Int32().Draw(t, "total")
	r := intstr.Rounding(rapid.Bool().Draw(t, "up"))
	if got, err := intstr.Scaled(intstr.Int(n), total, r); err != nil || got != n {
		t.Fatalf("Scaled(%d, %d, %v) = %d, %v; want %d", n, total, r, got, err, n)
	}
}

func TestIntAsIs(t *testing.T) { t.Parallel(); rapid.Check(t, checkIntAsIs) }

// checkJSONRoundTrip: every value survives JSON unchanged, keeping number
// and string apart.
func checkJSONRoundTrip(t *rapid.T) {
	v := valueGen().Draw(t, "v")
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal(%v): %v", v, err)
	}
	var got intstr.Value
	if err := json.Unmarshal(b, &got); err != nil || got != v {
		t.Fatalf("Unmarshal(Marshal(%#v)) = %#v, %v", v, got, err)
	}
}

func TestJSONRoundTrip(t *testing.T) { t.Parallel(); rapid.Check(t, checkJSONRoundTrip) }

// checkNoPanic: Scaled and Validate answer every value, with a *field.Error
// on failure.
func checkNoPanic(t *rapid.T) {
	v := valueGen().Draw(t, "v")
	total := rapid.Int32().Draw(t, "total")
	r := intstr.Rounding(rapid.Bool().Draw(t, "up"))
	if _, err := intstr.Scaled(v, total, r); err != nil {
		if _, ok := err.(*field.Error); !ok || field.Kind(err) == "" {
			t.Fatalf("Scaled(%#v) error %T %v; want *field.Error with a sentinel", v, err, err)
		}
	}
	validate := intstr.Validate
	if rapid.Bool().Draw(t, "max100") {
		validate = intstr.ValidateAtMost100Percent
	}
	if err := validate(v, "x"); err != nil {
		if fe, ok := err.(*field.Error); !ok || fe.Path != "x" {
			t.Fatalf("Validate(%#v) error %T %v; want *field.Error at x", v, err, err)
		}
	}
}

func TestNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, checkNoPanic) }
