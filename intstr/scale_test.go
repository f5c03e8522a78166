package intstr_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

func TestScaled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v      intstr.Value
		total  int32
		r      intstr.Rounding
		want   int32
		reason string
	}{
		{intstr.Int(123), 0, intstr.Down, 123, "an integer ignores the total (upstream TestGetIntFromIntOrPercent)"},
		{intstr.Int(15), 10, intstr.Up, 15, "an integer is not capped at the total"},
		{intstr.Percent(90), 100, intstr.Up, 90, "exact"},
		{intstr.Percent(90), 95, intstr.Up, 86, "85.5 rounds up"},
		{intstr.Percent(90), 95, intstr.Down, 85, "85.5 rounds down"},
		{intstr.Percent(25), 3, intstr.Up, 1, "seed: maxSurge 25% of 3"},
		{intstr.Percent(25), 3, intstr.Down, 0, "seed: maxUnavailable 25% of 3"},
		{intstr.Percent(25), 4, intstr.Up, 1, "seed: 25% of 4 up"},
		{intstr.Percent(25), 4, intstr.Down, 1, "seed: 25% of 4 down"},
		{intstr.Percent(30), 10, intstr.Down, 3, "seed: 30% keeps 70% available"},
		{intstr.Percent(0), 10, intstr.Up, 0, "zero percent"},
		{intstr.Percent(100), 10, intstr.Down, 10, "all"},
		{intstr.Percent(200), 3, intstr.Up, 6, "surge beyond 100%"},
		{intstr.Percent(50), 0, intstr.Up, 0, "zero total"},
		{intstr.Percent(1), 1, intstr.Up, 1, "1% of 1 up"},
		{intstr.Percent(1), 1, intstr.Down, 0, "1% of 1 down"},
		{intstr.Percent(100), math.MaxInt32, intstr.Up, math.MaxInt32, "MaxInt32 fits"},
		{intstr.String("05%"), 100, intstr.Down, 5, "leading zeros are a valid percentage"},
		{intstr.String("99999999999%"), 0, intstr.Up, 0, "a percentage beyond int32 of 0 is 0"},
		{intstr.String("99999999999%"), 1, intstr.Up, 1000000000, "a percentage beyond int32 with a result that fits"},
		{intstr.Percent(50), -5, intstr.Up, -2, "a negative total is scaled as upstream scales it"},
	}
	for _, tc := range tests {
		got, err := intstr.Scaled(tc.v, tc.total, tc.r)
		if err != nil || got != tc.want {
			t.Errorf("Scaled(%v, %d, %v) = %d, %v; want %d (%s)", tc.v, tc.total, tc.r, got, err, tc.want, tc.reason)
		}
	}
}

func TestScaledErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v      intstr.Value
		total  int32
		r      intstr.Rounding
		want   error
		reason string
	}{
		{intstr.String("90"), 100, intstr.Down, field.ErrInvalid, "a numeric string is not a percentage"},
		{intstr.String("5"), 100, intstr.Up, field.ErrInvalid, "the string \"5\" is not the number 5"},
		{intstr.String("%"), 0, intstr.Down, field.ErrInvalid, "no digits"},
		{intstr.String("90#"), 0, intstr.Down, field.ErrInvalid, "wrong suffix"},
		{intstr.String("#%"), 0, intstr.Down, field.ErrInvalid, "not a number"},
		{intstr.String(""), 0, intstr.Down, field.ErrInvalid, "empty"},
		{intstr.String("+5%"), 10, intstr.Up, field.ErrInvalid, "validation rejects a sign"},
		{intstr.String("-5%"), 10, intstr.Up, field.ErrInvalid, "validation rejects a sign"},
		{intstr.String("5.5%"), 10, intstr.Up, field.ErrInvalid, "fractions are not percentages"},
		{intstr.Int(-1), 10, intstr.Up, field.ErrNegative, "validation rejects negative integers"},
		{intstr.Int(math.MinInt32), 10, intstr.Up, field.ErrNegative, "MinInt32"},
		{intstr.String("99999999999999999999%"), 0, intstr.Up, field.ErrOverflow, "percentage beyond int64"},
	}
	for _, tc := range tests {
		got, err := intstr.Scaled(tc.v, tc.total, tc.r)
		var fe *field.Error
		if !errors.As(err, &fe) || !errors.Is(err, tc.want) || got != 0 {
			t.Errorf("Scaled(%v, %d, %v) = %d, %v; want 0, %v (%s)", tc.v, tc.total, tc.r, got, err, tc.want, tc.reason)
			continue
		}
		if fe.Path != "" || fe.Value != tc.v.String() {
			t.Errorf("Scaled(%v) error path, value = %q, %q; want \"\", %q", tc.v, fe.Path, fe.Value, tc.v.String())
		}
	}
}

// TestScaledWraps: results beyond int32 keep their low 32 bits, as
// upstream's int32(GetScaledValueFromIntOrPercent(...)) does.
func TestScaledWraps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v       intstr.Value
		total   int32
		r       intstr.Rounding
		want    int32
		wantInt int64
	}{
		{intstr.Percent(200), math.MaxInt32, intstr.Up, -2, 4294967294},
		{intstr.Percent(101), math.MaxInt32, intstr.Down, -2126008813, 2168958483},
		{intstr.String("99999999999%"), 3, intstr.Up, -1294967296, 2999999999 + 1},
		{intstr.Percent(400), 1 << 30, intstr.Up, 0, 1 << 32},
		{intstr.String("9223372036854775807%"), 200, intstr.Up, 0, math.MinInt64},
		{intstr.String("9223372036854775807%"), -200, intstr.Down, 0, math.MinInt64},
	}
	for _, tc := range tests {
		got, err := intstr.Scaled(tc.v, tc.total, tc.r)
		gotInt, errInt := intstr.ScaledInt(tc.v, tc.total, tc.r)
		if err != nil || errInt != nil || got != tc.want || gotInt != tc.wantInt {
			t.Errorf("Scaled(%v, %d, %v) = %d, %v and ScaledInt = %d, %v; want %d and %d", tc.v, tc.total, tc.r, got, err, gotInt, errInt, tc.want, tc.wantInt)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	const path = "spec.strategy.rollingUpdate.maxUnavailable"
	tests := []struct {
		v      intstr.Value
		max100 bool
		want   error
		reason string
	}{
		{intstr.Int(0), true, nil, "zero"},
		{intstr.Int(5), true, nil, "an integer above 100 is fine; the cap is on percentages"},
		{intstr.Int(-1), false, field.ErrNegative, "negative integer"},
		{intstr.Percent(100), true, nil, "100% is the limit"},
		{intstr.Percent(101), true, field.ErrInvalid, "101% is over the limit"},
		{intstr.Percent(101), false, nil, "maxSurge has no limit"},
		{intstr.String("99999999999%"), false, nil, "validation's grammar has no digit limit"},
		{intstr.String("99999999999%"), true, field.ErrInvalid, "over 100%"},
		{intstr.String("abc"), false, field.ErrInvalid, "not a percentage"},
		{intstr.String("99999999999999999999%"), false, nil, "beyond int64: the API accepts it for maxSurge"},
		{intstr.String("99999999999999999999%"), true, field.ErrInvalid, "beyond int64: upstream reads MaxInt64, over 100%"},
		{intstr.String("-5%"), false, field.ErrInvalid, "sign"},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			t.Parallel()
			validate := intstr.Validate
			if tc.max100 {
				validate = intstr.ValidateAtMost100Percent
			}
			err := validate(tc.v, path)
			if tc.want == nil {
				require.NoError(t, err, "Validate(%v, max100 %v)", tc.v, tc.max100)
				return
			}
			require.ErrorIs(t, err, tc.want, "Validate(%v, max100 %v)", tc.v, tc.max100)
			var fe *field.Error
			require.ErrorAs(t, err, &fe)
			require.Equal(t, path, fe.Path)
		})
	}
}
