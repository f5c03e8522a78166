package intstr

import (
	"math"
	"strconv"

	"github.com/kubesem/kubesem/field"
)

// Rounding says which way a scaled percentage is rounded.
type Rounding bool

// Rounding directions.
const (
	Down Rounding = false
	Up   Rounding = true
)

// Scaled returns what v comes to against total: an integer is returned as
// is; a percentage p% is p*total/100 computed in float64 and rounded up or
// down as r says, exactly as upstream computes it.
//
// The percentage may exceed 100% and need not fit in int32 (maxSurge
// "99999999999%" of 0 is 0, as upstream); only the result must fit.
//
// It returns a *field.Error with an empty Path wrapping field.ErrInvalid
// when v is a string that is not a percentage of the form `^[0-9]+%$`,
// field.ErrNegative when v is a negative integer, and field.ErrOverflow when
// the percentage does not fit in int64 (upstream fails to parse it too) or
// the result does not fit in int32. On error the result is 0.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go
// GetScaledValueFromIntOrPercent; api validation IsValidPercent.
func Scaled(v Value, total int32, r Rounding) (int32, error) {
	if !v.isString {
		if v.num < 0 {
			return 0, field.Int("", int64(v.num), field.ErrNegative)
		}
		return v.num, nil
	}
	// A percentage parsed when the Value was made, of a non-negative total,
	// whose product fits in 2^53: see scaledPercent for why integer division
	// then rounds as upstream's float64 arithmetic does.
	if v.num >= 0 && total >= 0 {
		if x := uint64(v.num) * uint64(total); x < 1<<53 {
			if r == Up {
				x += 99
			}
			if x /= 100; x <= math.MaxInt32 {
				return int32(x), nil
			}
		}
	}
	return scaledString(v.str, total, r)
}

// scaledString scales a string value: a fast path for percentages of up to
// 7 digits with non-negative totals, the general path otherwise.
func scaledString(s string, total int32, r Rounding) (int32, error) {
	n := len(s)
	if n < 2 || n > 8 || s[n-1] != '%' {
		// Not a percentage, or one of more than 7 digits: the general path.
		return scaledLong(s, total, r)
	}
	var p uint64
	for i := 0; i < n-1; i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, field.New("", s, field.ErrInvalid)
		}
		p = p*10 + uint64(d)
	}
	if total < 0 {
		return scaledFloat(s, int64(p), total, r)
	}
	return scaledPercent(s, p, total, r)
}

// scaledPercent scales the percentage p (< 10^7, spelled s) of a
// non-negative total.
func scaledPercent(s string, p uint64, total int32, r Rounding) (int32, error) {
	// p < 10^7 and total < 2^31, so p*total cannot overflow uint64; the
	// argument below needs it under 2^53.
	x := p * uint64(total)
	if x >= 1<<53 {
		return scaledFloat(s, int64(p), total, r)
	}
	// The float64 product upstream computes is exact, and its quotient by
	// 100, below 2^47, lies within 2^-7 of the true x/100, which is either
	// an integer or at least 0.01 from one: integer division rounds the
	// same way upstream's float64 arithmetic does.
	if r == Up {
		x += 99
	}
	x /= 100
	if x > math.MaxInt32 {
		return 0, field.New("", s, field.ErrOverflow)
	}
	return int32(x), nil
}

// scaledLong scales a string that the fast path of Scaled does not take:
// malformed, or a percentage of more than 7 digits.
func scaledLong(s string, total int32, r Rounding) (int32, error) {
	p, err := percent(s)
	if err != nil {
		return 0, err
	}
	return scaledFloat(s, p, total, r)
}

// scaledFloat computes p*total/100 in float64 as upstream does, rounded as
// r says, and checks that the result fits in int32.
func scaledFloat(s string, p int64, total int32, r Rounding) (int32, error) {
	x := float64(p) * float64(total) / 100
	if r == Up {
		x = math.Ceil(x)
	} else {
		x = math.Floor(x)
	}
	if x > math.MaxInt32 || x < math.MinInt32 {
		return 0, field.New("", s, field.ErrOverflow)
	}
	return int32(x), nil
}

// Validate returns a *field.Error naming path when v cannot be scaled: a
// negative integer, a string that is not a percentage, or, when max100 is
// set, a percentage above 100% (the limit the API puts on maxUnavailable).
//
// The error wraps field.ErrNegative for a negative integer, field.ErrInvalid
// for a malformed string or a percentage above 100% under max100, and
// field.ErrOverflow for a percentage beyond int64.
//
// Source: kubernetes v1.36.3 pkg/apis/apps/validation/validation.go
// ValidatePositiveIntOrPercent, IsNotMoreThan100Percent.
func Validate(v Value, path string, max100 bool) error {
	if !v.isString {
		if v.num < 0 {
			return field.Int(path, int64(v.num), field.ErrNegative)
		}
		return nil
	}
	p, err := percent(v.str)
	if err != nil {
		return field.At(err, path)
	}
	if max100 && p > 100 {
		return field.New(path, v.str, field.ErrInvalid)
	}
	return nil
}

// percent parses "N%" with N a run of ASCII digits that fits in int64, the
// range upstream's strconv.Atoi accepts on 64-bit platforms.
func percent(s string) (int64, error) {
	n := len(s)
	if n < 2 || s[n-1] != '%' {
		return 0, field.New("", s, field.ErrInvalid)
	}
	for i := 0; i < n-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, field.New("", s, field.ErrInvalid)
		}
	}
	p, err := strconv.ParseInt(s[:n-1], 10, 64)
	if err != nil {
		return 0, field.New("", s, field.ErrOverflow)
	}
	return p, nil
}
