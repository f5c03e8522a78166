package intstr_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	kintstr "k8s.io/apimachinery/pkg/util/intstr"
	kvalidation "k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// intOrPercent is one drawn int-or-string, in both spellings.
type intOrPercent struct {
	k intstr.Value
	u kintstr.IntOrString
}

// intOrPercentGen draws integers (edges and any int32) and strings:
// percentages 0-100%, beyond 100%, beyond int32 and int64, leading zeros,
// and malformed strings (signs, no %, "5", random text).
func intOrPercentGen() *rapid.Generator[intOrPercent] {
	str := rapid.OneOf(
		rapid.Map(rapid.IntRange(0, 100), func(p int) string { return strconv.Itoa(p) + "%" }),
		rapid.Map(rapid.IntRange(101, 100000), func(p int) string { return strconv.Itoa(p) + "%" }),
		rapid.Map(rapid.StringMatching(`0{0,3}[0-9]{1,25}%`), func(s string) string { return s }),
		rapid.StringMatching(`[+-]?[0-9]{0,4}(\.[0-9])?%?`),
		rapid.SampledFrom([]string{"", "%", "5", "90#", "#%", "a%", " 5%", "5%%", "2147483647%", "2147483648%", "4194303%", "4194304%", "9223372036854775807%", "9223372036854775808%"}),
		rapid.String(),
	)
	return rapid.Custom(func(t *rapid.T) intOrPercent {
		if rapid.Bool().Draw(t, "isInt") {
			n := rapid.OneOf(rapid.SampledFrom([]int32{0, 1, -1, math.MaxInt32, math.MinInt32}), rapid.Int32()).Draw(t, "int")
			return intOrPercent{intstr.Int(n), kintstr.FromInt32(n)}
		}
		s := str.Draw(t, "string")
		return intOrPercent{intstr.String(s), kintstr.FromString(s)}
	})
}

// apiAccepts reports whether apps validation (ValidatePositiveIntOrPercent)
// accepts the value: a non-negative integer or a string matching
// `^[0-9]+%$`.
func apiAccepts(v kintstr.IntOrString) bool {
	if v.Type == kintstr.Int {
		return v.IntVal >= 0
	}
	return len(kvalidation.IsValidPercent(v.StrVal)) == 0
}

// checkScaled compares intstr.Scaled with apimachinery's
// GetScaledValueFromIntOrPercent on identical inputs:
//   - a value validation rejects is an error in kubesem (Negative for an
//     integer, Invalid for a string), whatever upstream returns;
//   - otherwise, when upstream fails (a percentage beyond int64), kubesem
//     fails with Overflow;
//   - otherwise ScaledInt returns upstream's int exactly and Scaled its
//     int32 conversion (what every upstream caller uses), wrap included.
func checkScaled(t *rapid.T) {
	v := intOrPercentGen().Draw(t, "value")
	total := rapid.OneOf(rapid.SampledFrom([]int32{0, 1, 2, 3, 4, 10, 100, math.MaxInt32, -1, math.MinInt32}), rapid.Int32Range(0, 1000), rapid.Int32()).Draw(t, "total")
	up := rapid.Bool().Draw(t, "roundUp")
	got, err := intstr.Scaled(v.k, total, intstr.Rounding(up))
	u := v.u
	want, uerr := kintstr.GetScaledValueFromIntOrPercent(&u, int(total), up)
	if err != nil {
		if _, ok := err.(*field.Error); !ok {
			t.Fatalf("Scaled(%q, %d, %v) error %T; want *field.Error", v.k, total, up, err)
		}
	}
	switch {
	case !apiAccepts(v.u):
		wantKind := field.ErrInvalid
		if v.u.Type == kintstr.Int {
			wantKind = field.ErrNegative
		}
		if !errors.Is(err, wantKind) {
			t.Fatalf("Scaled(%q, %d, %v) = %d, %v; validation rejects it, want %v (upstream %d, %v)", v.k, total, up, got, err, wantKind, want, uerr)
		}
	case uerr != nil:
		if !errors.Is(err, field.ErrOverflow) {
			t.Fatalf("Scaled(%q, %d, %v) = %d, %v; upstream fails with %v, want Overflow", v.k, total, up, got, err, uerr)
		}
	default:
		n, nerr := intstr.ScaledInt(v.k, total, intstr.Rounding(up))
		if err != nil || nerr != nil || got != int32(want) || n != int64(want) {
			t.Fatalf("Scaled(%q, %d, %v) = %d, %v, ScaledInt = %d, %v; upstream %d (int32 %d)", v.k, total, up, got, err, n, nerr, want, int32(want))
		}
	}
}

func TestIntstrScaledDifferential(t *testing.T) { rapid.Check(t, checkScaled) }

// checkIntstrJSON: kubesem's JSON and upstream's are the same
// bytes, and each decodes the other's to the same value (number vs string
// kept apart).
func checkIntstrJSON(t *rapid.T) {
	v := intOrPercentGen().Draw(t, "value")
	kb, kerr := json.Marshal(v.k)
	ub, uerr := json.Marshal(v.u)
	if kerr != nil || uerr != nil || string(kb) != string(ub) {
		t.Fatalf("Marshal(%q): kubesem %s, %v; upstream %s, %v", v.k, kb, kerr, ub, uerr)
	}
	var k intstr.Value
	if err := json.Unmarshal(ub, &k); err != nil || k != v.k {
		t.Fatalf("kubesem Unmarshal(%s) = %#v, %v; want %#v", ub, k, err, v.k)
	}
	var u kintstr.IntOrString
	if err := json.Unmarshal(kb, &u); err != nil || u != v.u {
		t.Fatalf("upstream Unmarshal(%s) = %#v, %v; want %#v", kb, u, err, v.u)
	}
}

func TestIntstrJSONDifferential(t *testing.T) { rapid.Check(t, checkIntstrJSON) }

// TestIntstrVectorsUpstream runs every intstr.Scaled vector through
// upstream as well, so each expectation is upstream's answer (or, for the
// inputs validation rejects, an error kubesem documents).
func TestIntstrVectorsUpstream(t *testing.T) {
	for _, v := range difftest.FoundationVectors(t, "intstr") {
		var in struct {
			Value   json.RawMessage `json:"value"`
			Total   int32           `json:"total"`
			RoundUp bool            `json:"roundUp"`
		}
		difftest.DecodeJSON(t, v.Input, &in)
		var u kintstr.IntOrString
		difftest.DecodeJSON(t, in.Value, &u)
		got, err := kintstr.GetScaledValueFromIntOrPercent(&u, int(in.Total), in.RoundUp)
		switch {
		case v.WantError != nil && v.WantError.Kind == "Overflow":
			if err == nil && got >= math.MinInt32 && got <= math.MaxInt32 {
				t.Errorf("%s: upstream %d fits in int32; vector wants Overflow", v.Name, got)
			}
		case v.WantError != nil:
			if err == nil && apiAccepts(u) {
				t.Errorf("%s: upstream %d and validation accepts %v; vector wants %s", v.Name, got, u, v.WantError.Kind)
			}
		default:
			var want struct {
				Value       int32
				Untruncated *int
			}
			difftest.DecodeJSON(t, v.Want, &want)
			if err != nil || int32(got) != want.Value || (want.Untruncated != nil && *want.Untruncated != got) {
				t.Errorf("%s: upstream %d, %v; vector wants %d (untruncated %v)", v.Name, got, err, want.Value, want.Untruncated)
			}
		}
	}
}
