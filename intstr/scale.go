package intstr

import (
	"errors"
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

// Scaled returns what v comes to against total, as upstream's callers
// see it: [ScaledInt] converted to int32, which keeps its low 32 bits (every
// v1.36.3 caller writes int32(GetScaledValueFromIntOrPercent(...))). So
// maxSurge "200%" of 2147483647 replicas is int32(4294967294) = -2, exactly
// what the controller computes; use [ScaledInt] to see the untruncated value.
//
// It returns a *field.Error with an empty Path wrapping field.ErrInvalid
// when v is a string that is not a percentage of the form `^[0-9]+%$`,
// field.ErrNegative when v is a negative integer (both rejected by API
// validation), and field.ErrOverflow when the percentage does not fit in
// int64, which the API accepts but upstream's strconv.Atoi cannot parse
// (upstream returns an error there too). On error the result is 0.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go
// GetScaledValueFromIntOrPercent; api validation IsValidPercent.
func Scaled(v Value, total int32, r Rounding) (int32, error) {
	n, err := ScaledInt(v, total, r)
	return int32(n), err
}

// ScaledInt returns what v comes to against total, untruncated, as
// upstream's GetScaledValueFromIntOrPercent returns it (a Go int, 64 bits):
// an integer as is; a percentage p% is p*total/100 computed in float64 and
// rounded up or down as r says, then converted to int64 as amd64 converts
// (a result beyond int64 becomes math.MinInt64; v1.36.3 release binaries for
// arm64 saturate instead, a difference only for percentages above 4e9%).
//
// Errors are those of [Scaled].
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go
// GetScaledValueFromIntOrPercent.
func ScaledInt(v Value, total int32, r Rounding) (int64, error) {
	if !v.isString {
		if v.num < 0 {
			return 0, field.Int("", int64(v.num), field.ErrNegative)
		}
		return int64(v.num), nil
	}
	// A percentage parsed when the Value was made, of a non-negative total,
	// whose product fits in 2^53: see scaledPercent for why integer division
	// then rounds as upstream's float64 arithmetic does.
	if v.num >= 0 && total >= 0 {
		if x := uint64(v.num) * uint64(total); x < 1<<53 {
			return int64(divide100(x, r)), nil
		}
	}
	return scaledString(v.str, total, r)
}

// divide100 returns x/100 rounded as r says.
func divide100(x uint64, r Rounding) uint64 {
	if r == Up {
		x += 99
	}
	return x / 100
}

// scaledString scales a string value: a fast path for percentages of up to
// 7 digits with non-negative totals, the general path otherwise.
func scaledString(s string, total int32, r Rounding) (int64, error) {
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
		return scaledFloat(int64(p), total, r), nil
	}
	return scaledPercent(p, total, r), nil
}

// scaledPercent scales the percentage p (< 10^7) of a non-negative total.
func scaledPercent(p uint64, total int32, r Rounding) int64 {
	// p < 10^7 and total < 2^31, so p*total cannot overflow uint64; the
	// argument below needs it under 2^53.
	x := p * uint64(total)
	if x >= 1<<53 {
		return scaledFloat(int64(p), total, r)
	}
	// The float64 product upstream computes is exact, and its quotient by
	// 100, below 2^47, lies within 2^-7 of the true x/100, which is either
	// an integer or at least 0.01 from one: integer division rounds the
	// same way upstream's float64 arithmetic does.
	return int64(divide100(x, r))
}

// scaledLong scales a string that the fast path of Scaled does not take:
// malformed, or a percentage of more than 7 digits.
func scaledLong(s string, total int32, r Rounding) (int64, error) {
	p, err := percent(s)
	if err != nil {
		return 0, err
	}
	return scaledFloat(p, total, r), nil
}

// scaledFloat computes p*total/100 in float64 as upstream does, rounded as
// r says, converted to int64 as amd64 converts.
func scaledFloat(p int64, total int32, r Rounding) int64 {
	x := float64(p) * float64(total) / 100
	if r == Up {
		x = math.Ceil(x)
	} else {
		x = math.Floor(x)
	}
	// amd64's CVTTSD2SQ answers the "integer indefinite" value for NaN and
	// for anything outside [-2^63, 2^63).
	if !(x >= -(1<<63) && x < 1<<63) {
		return math.MinInt64
	}
	return int64(x)
}

// Validate returns a *field.Error naming path when API validation rejects
// v as a count of pods: a negative integer, or a string that is not a
// percentage (`^[0-9]+%$`). It puts no limit on a percentage: one beyond
// int64 is accepted (as the API accepts it for maxSurge; [Scaled] then
// fails as upstream's controller does). Use [ValidateAtMost100Percent] for
// the fields the API caps at 100%.
//
// The error wraps field.ErrNegative for a negative integer and
// field.ErrInvalid otherwise.
//
// Source: kubernetes v1.36.3 pkg/apis/apps/validation/validation.go
// ValidatePositiveIntOrPercent.
func Validate(v Value, path string) error { return validate(v, path, false) }

// ValidateAtMost100Percent is [Validate] that also rejects a percentage
// above 100%, the limit the API puts on maxUnavailable (Deployment,
// DaemonSet, StatefulSet) and on a PodDisruptionBudget's minAvailable and
// maxUnavailable. A percentage beyond int64 is above 100% (upstream reads
// it as MaxInt64). Integers are not capped.
//
// The error wraps field.ErrNegative for a negative integer and
// field.ErrInvalid otherwise.
//
// Source: kubernetes v1.36.3 pkg/apis/apps/validation/validation.go
// ValidatePositiveIntOrPercent, IsNotMoreThan100Percent, getPercentValue.
func ValidateAtMost100Percent(v Value, path string) error { return validate(v, path, true) }

// validate is Validate, with the 100% cap when max100 is set.
func validate(v Value, path string, max100 bool) error {
	if !v.isString {
		if v.num < 0 {
			return field.Int(path, int64(v.num), field.ErrNegative)
		}
		return nil
	}
	p, err := percent(v.str)
	if err != nil && !errors.Is(err, field.ErrOverflow) {
		return field.At(err, path)
	}
	if max100 && (err != nil || p > 100) {
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
