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
// It returns a *field.Error with an empty Path wrapping field.ErrInvalid
// when v is a string that is not a percentage of the form `^[0-9]+%$`,
// field.ErrNegative when v is a negative integer, and field.ErrOverflow when
// the percentage or the result does not fit in int32. On error the result is 0.
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
	p, err := percent(v.str)
	if err != nil {
		return 0, err
	}
	x := float64(p) * float64(total) / 100
	if r == Up {
		x = math.Ceil(x)
	} else {
		x = math.Floor(x)
	}
	if x > math.MaxInt32 || x < math.MinInt32 {
		return 0, field.New("", v.str, field.ErrOverflow)
	}
	return int32(x), nil
}

// Validate returns a *field.Error naming path when v cannot be scaled: a
// negative integer, a string that is not a percentage, or, when max100 is
// set, a percentage above 100% (the limit the API puts on maxUnavailable).
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

// percent parses "N%" with N a run of ASCII digits that fits in int32.
func percent(s string) (int32, error) {
	n := len(s)
	if n < 2 || s[n-1] != '%' {
		return 0, field.New("", s, field.ErrInvalid)
	}
	for i := 0; i < n-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, field.New("", s, field.ErrInvalid)
		}
	}
	p, err := strconv.ParseInt(s[:n-1], 10, 32)
	if err != nil {
		return 0, field.New("", s, field.ErrOverflow)
	}
	return int32(p), nil
}
