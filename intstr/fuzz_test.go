package intstr_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/intstr"
)

func FuzzRounding(f *testing.F)      { fuzzlimit.Rapid(f, checkRounding) }
func FuzzWithinTotal(f *testing.F)   { fuzzlimit.Rapid(f, checkWithinTotal) }
func FuzzMonotone(f *testing.F)      { fuzzlimit.Rapid(f, checkMonotone) }
func FuzzJSONRoundTrip(f *testing.F) { fuzzlimit.Rapid(f, checkJSONRoundTrip) }
func FuzzNoPanic(f *testing.F)       { fuzzlimit.Rapid(f, checkNoPanic) }

// seeds are the spellings of the table tests and vectors.
var seeds = []string{"0", "5", "25%", "05%", "%", "90#", "#%", "90", "a%", "+5%", "-5%", "5.5%",
	"2147483647", "2147483648", "-2147483649", "99999999999%", "99999999999999999999%", ""}

// FuzzParse: Parse never panics; it fails only with a *field.Error, and what
// it accepts prints back as written.
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := intstr.Parse(s)
		if err != nil {
			if _, ok := err.(*field.Error); !ok {
				t.Fatalf("Parse(%q) error %T; want *field.Error", s, err)
			}
			return
		}
		if v.IsString() && v.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, v.String())
		}
	})
}

// FuzzScaled: Scaled never panics on any string or integer and any total;
// it fails only with a *field.Error whose Kind is known.
func FuzzScaled(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, int32(10), true, int32(0), false)
	}
	f.Add("", int32(2147483647), false, int32(-1), true)
	f.Fuzz(func(t *testing.T, s string, total int32, up bool, n int32, isInt bool) {
		v := intstr.String(s)
		if isInt {
			v = intstr.Int(n)
		}
		got, err := intstr.Scaled(v, total, intstr.Rounding(up))
		if err != nil {
			if _, ok := err.(*field.Error); !ok || field.Kind(err) == "" || got != 0 {
				t.Fatalf("Scaled(%#v, %d) = %d, %T %v; want 0 and a *field.Error", v, total, got, err, err)
			}
		}
	})
}

// FuzzUnmarshal: decoding any JSON never panics, and a decoded value
// encodes back to JSON that decodes to the same value.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`5`, `"5"`, `"25%"`, `null`, `1.5`, `true`, `"\u00e9"`, `2147483648`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v intstr.Value
		if err := json.Unmarshal(b, &v); err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		var back intstr.Value
		if err := json.Unmarshal(out, &back); err != nil || back != v {
			t.Fatalf("round trip of %s: %#v, %v; want %#v", b, back, err, v)
		}
	})
}

// FuzzValidate: the two validations never panic and fail only with a
// *field.Error at the path given; what ValidateAtMost100Percent accepts
// Validate accepts, and what Validate accepts Scaled scales, unless it is a
// percentage beyond int64 (field.ErrOverflow).
func FuzzValidate(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, int32(0), false)
	}
	f.Add("", int32(-1), true)
	f.Fuzz(func(t *testing.T, s string, n int32, isInt bool) {
		v := intstr.String(s)
		if isInt {
			v = intstr.Int(n)
		}
		const path = "spec.x"
		err := intstr.Validate(v, path)
		capped := intstr.ValidateAtMost100Percent(v, path)
		for _, e := range []error{err, capped} {
			var fe *field.Error
			if e != nil && (!errors.As(e, &fe) || fe.Path != path) {
				t.Fatalf("%#v: error %T %v; want a *field.Error at %s", v, e, e, path)
			}
		}
		if capped == nil && err != nil {
			t.Fatalf("%#v: ValidateAtMost100Percent accepts, Validate says %v", v, err)
		}
		if err == nil {
			if _, serr := intstr.Scaled(v, 100, intstr.Up); serr != nil && !errors.Is(serr, field.ErrOverflow) {
				t.Fatalf("%#v: Validate accepts, Scaled says %v", v, serr)
			}
		}
	})
}
