package podstatus

import (
	"encoding/json"
	"math/big"
	"strings"
	"time"
)

// The comparison of a template's unmodelled part.
//
// A template decoded from JSON keeps what kubesem does not model as JSON
// values (rest). Upstream compares templates as Go values after the API
// server has decoded them (EqualIgnoreHash: semantic DeepEqual), so two
// spellings that decode to the same Go value are the same template there.
// For comparison and hashing, kubesem reads the unmodelled part as that
// decoding does, field by field, from the shapes of the v1.36.3 API types
// (apishapes.go, generated from k8s.io/api by conformance/upstream):
//
//   - null is absent, for every field;
//   - a non-pointer scalar (string, number, bool) absent equals its zero
//     value ("", 0, false);
//   - a non-pointer struct absent equals {} and equals a struct whose
//     every field is absent or zero (resources: {} is no resources);
//   - a list or map absent equals an empty one (env: [] is no env);
//     an element of a list or map is kept, even an empty one;
//   - a quantity compares by value, as Quantity.Cmp does after
//     ParseQuantity ("0.5" is "500m", "1Gi" is "1073741824"; values
//     rounded up to a multiple of 1n, binary-suffixed values capped at
//     2^63-1); absent equals 0;
//   - an int-or-string absent equals 0 (not ""); a time compares as an
//     instant to the second, absent equals the zero time;
//   - a pointer (to a scalar, struct, quantity …) present is kept even
//     when it points to a zero value: securityContext: {} is not absent.
//
// Before that, the template is defaulted as the API server defaults a
// Deployment's template (defaults.go). Not normalised, and so still a
// difference where v1.36.3 sees none (residual differences):
//
//   - keys the v1.36.3 API does not know are kept and compared as given
//     (the server drops them; kubesem keeps them so that a field of a
//     later release that changed is never read as no change);
//   - a value of the wrong JSON type (a string where a number belongs),
//     which the API server refuses, compares as given;
//   - an image reference is judged valid or not (for the default pull
//     policy) by the reference grammar, not by the distribution library
//     itself (its length limits and normalisation are not repeated);
//   - integers spelt as floats (1.0 for 1), which the API server's
//     decoding handles by its own rules, compare as spelt.
//
// TestTemplateEqualityDifferential in conformance/upstream compares this
// with upstream's EqualIgnoreHash on decoded, defaulted templates over
// 12,000 random hand-trimmed pairs.

// quantityValue is a quantity's value, exact, as a reduced fraction: two
// spellings of one value are equal.
type quantityValue string

// timeValue is a time as an instant, in RFC 3339 UTC to the second.
type timeValue string

// normalised is the unmodelled part of the template JSON all, defaulted
// as the API server defaults it (defaults.go) and read as its decoding
// reads it (see above). all is modified.
func normalised(all any) any {
	withDefaults(all)
	return residual(normalise(all, templateShape), templateFieldsType)
}

// normalise returns v, the JSON value of a field of shape code (see
// apiShapes), as decoding reads it, or nil when decoding reads it as
// absent.
func normalise(v any, code string) any {
	if v == nil {
		return nil
	}
	switch {
	case code == "s":
		if isZeroScalar(v) {
			return nil
		}
		return v
	case code == "p":
		return v
	case code == "q", code == "pq":
		q := quantity(v)
		if code == "q" && q == quantityValue("0") {
			return nil
		}
		return q
	case code == "i":
		if n, ok := v.(json.Number); ok && isZeroNumber(n) {
			return nil
		}
		return v
	case code == "pi":
		return v
	case code == "t", code == "pt":
		t := instant(v)
		if code == "t" && t == timeValue(time.Time{}.Format(time.RFC3339)) {
			return nil
		}
		return t
	case strings.HasPrefix(code, "S:"), strings.HasPrefix(code, "P:"):
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := normStruct(m, code[2:])
		if out == nil && code[0] == 'P' {
			return map[string]any{}
		}
		if out == nil {
			return nil
		}
		return out
	case strings.HasPrefix(code, "l:"):
		list, ok := v.([]any)
		if !ok {
			return v
		}
		if len(list) == 0 {
			return nil
		}
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = element(x, code[2:])
		}
		return out
	case strings.HasPrefix(code, "m:"):
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[k] = element(x, code[2:])
		}
		return out
	}
	return v
}

// present marks an element of a list or map that decoding reads as its
// type's zero value: it is an element all the same.
type present struct{}

// element is a list or map element of shape code: normalised, with a zero
// value kept as present{}.
func element(x any, code string) any {
	if n := normalise(x, code); n != nil {
		return n
	}
	return present{}
}

// normStruct normalises the JSON object m of API struct type typ; nil
// when every field reads as absent. Keys the type does not have are kept
// as given (nulls dropped).
func normStruct(m map[string]any, typ string) map[string]any {
	shape := apiShapes[typ]
	out := map[string]any{}
	for k, x := range m {
		if x == nil {
			continue
		}
		code, ok := shape[k]
		if !ok {
			out[k] = x
			continue
		}
		if n := normalise(x, code); n != nil {
			out[k] = n
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isZeroScalar(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		return isZeroNumber(x)
	}
	return false
}

func isZeroNumber(n json.Number) bool {
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.Sign() == 0
}

// instant reads a time as metav1.Time decodes it (RFC 3339, to the
// second); any other value is kept as given.
func instant(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return v
	}
	return timeValue(t.UTC().Truncate(time.Second).Format(time.RFC3339))
}

// quantity reads a quantity as Quantity.UnmarshalJSON does (a JSON string
// or number) and returns its exact value; a value that does not parse is
// kept as given (the API server refuses it).
func quantity(v any) any {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = string(x)
	default:
		return v // a quantityValue already, or not a quantity
	}
	r, ok := parseQuantity(strings.TrimSpace(s))
	if !ok {
		return v
	}
	return quantityValue(r.RatString())
}

var (
	nano       = big.NewRat(1, 1_000_000_000)
	milli      = big.NewRat(1, 1000)
	maxBinary  = new(big.Rat).SetInt64(1<<63 - 1)
	decimalExp = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binaryExp  = map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
)

// parseQuantity is the value resource.ParseQuantity gives s: a signed
// decimal number with an optional fraction and a suffix (decimal SI,
// binary SI or an e/E exponent); non-zero values rounded away from zero
// to a multiple of 1n; binary-suffixed values capped at 2^63-1.
func parseQuantity(s string) (*big.Rat, bool) {
	if s == "" {
		return nil, false
	}
	neg := false
	i := 0
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	num := s[start:i]
	denom := ""
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		denom = s[d:i]
	}
	suffix := s[i:]
	if num == "" && denom == "" {
		num = "0"
	}
	if num == "" {
		num = "0"
	}
	r, ok := new(big.Rat).SetString(num + "." + denom + "0")
	if !ok {
		return nil, false
	}
	binary := false
	switch {
	case suffix == "":
	case len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') && validExponent(suffix[1:]):
		var e big.Int
		if _, ok := e.SetString(strings.TrimPrefix(suffix[1:], "+"), 10); !ok || !e.IsInt64() || e.Int64() > 1000 || e.Int64() < -1000 {
			return nil, false
		}
		r.Mul(r, pow10(int(e.Int64())))
	default:
		if e, ok := decimalExp[suffix]; ok {
			r.Mul(r, pow10(e))
		} else if e, ok := binaryExp[suffix]; ok {
			r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), e)))
			binary = true
		} else {
			return nil, false
		}
	}
	r = roundUp(r, nano)
	if binary && r.Cmp(maxBinary) > 0 {
		r.Set(maxBinary)
	}
	if neg {
		r.Neg(r)
	}
	return r, true
}

// roundUp rounds r, not negative, up to a multiple of unit.
func roundUp(r, unit *big.Rat) *big.Rat {
	q := new(big.Rat).Quo(r, unit)
	if q.IsInt() {
		return r
	}
	n := new(big.Int).Quo(q.Num(), q.Denom())
	n.Add(n, big.NewInt(1))
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), unit)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// validExponent reports whether s is an optionally signed run of digits.
func validExponent(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func pow10(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
