package daemonset

import (
	"errors"
	"math"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

func strategyDS(typ StrategyType, mu, ms *intstr.Value, noRU bool) *DaemonSet {
	ds := testDS()
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: typ}
	if !noRU {
		ds.Spec.UpdateStrategy.RollingUpdate = &RollingParams{MaxUnavailable: mu, MaxSurge: ms}
	}
	return ds
}

func iv(n int32) *intstr.Value  { v := intstr.Int(n); return &v }
func sv(s string) *intstr.Value { v := intstr.String(s); return &v }

func TestUnavailableAndSurgeCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name          string
		ds            *DaemonSet
		desired       int32
		unavail, surg int32
	}{
		{"int", strategyDS(RollingUpdate, iv(3), nil, false), 10, 3, 0},
		{"int larger than desired is kept", strategyDS(RollingUpdate, iv(30), nil, false), 10, 30, 0},
		{"percent rounds up", strategyDS(RollingUpdate, sv("10%"), sv("25%"), false), 5, 1, 2},
		{"percent exact", strategyDS(RollingUpdate, sv("50%"), nil, false), 4, 2, 0},
		{"percent of 0", strategyDS(RollingUpdate, sv("50%"), sv("50%"), false), 0, 0, 0},
		{"OnDelete counts nothing", strategyDS(OnDelete, iv(3), iv(2), false), 10, 0, 0},
		{"empty type reads as RollingUpdate", strategyDS("", iv(3), iv(2), false), 10, 3, 2},
		{"missing rollingUpdate reads as maxUnavailable 1", strategyDS(RollingUpdate, nil, nil, true), 10, 1, 0},
		{"missing maxUnavailable reads as 1", strategyDS(RollingUpdate, nil, iv(2), false), 10, 1, 2},
		{"missing strategy reads as RollingUpdate, 1", strategyDS("", nil, nil, true), 10, 1, 0},
		{"huge percentage saturates", strategyDS(RollingUpdate, sv("9999999999%"), nil, false), math.MaxInt32, math.MaxInt32, 0},
	} {
		u, err := UnavailableCount(c.ds, c.desired)
		if err != nil || u != c.unavail {
			t.Errorf("%s: UnavailableCount = %d, %v; want %d", c.name, u, err, c.unavail)
		}
		s, err := SurgeCount(c.ds, c.desired)
		if err != nil || s != c.surg {
			t.Errorf("%s: SurgeCount = %d, %v; want %d", c.name, s, err, c.surg)
		}
	}
}

func TestCountErrorsNameTheBound(t *testing.T) {
	t.Parallel()
	_, err := UnavailableCount(strategyDS(RollingUpdate, sv("abc"), nil, false), 3)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.updateStrategy.rollingUpdate.maxUnavailable" {
		t.Errorf("UnavailableCount(abc) = %v", err)
	}
	_, err = SurgeCount(strategyDS(RollingUpdate, iv(0), sv("5.5%"), false), 3)
	if !errors.As(err, &fe) || fe.Path != "spec.updateStrategy.rollingUpdate.maxSurge" {
		t.Errorf("SurgeCount(5.5%%) = %v", err)
	}
}

func TestAllowsSurge(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ds   *DaemonSet
		want bool
	}{
		{strategyDS(RollingUpdate, iv(0), iv(1), false), true},
		{strategyDS(RollingUpdate, iv(0), sv("1%"), false), true}, // 1% of one node rounds up to 1
		{strategyDS(RollingUpdate, iv(1), iv(0), false), false},
		{strategyDS(RollingUpdate, iv(1), nil, false), false},
		{strategyDS(OnDelete, iv(0), iv(1), false), false},
		{strategyDS(RollingUpdate, iv(0), sv("bad"), false), false},
	} {
		if got := AllowsSurge(c.ds); got != c.want {
			t.Errorf("AllowsSurge(%+v) = %v", c.ds.Spec.UpdateStrategy.RollingUpdate, got)
		}
	}
}

func TestUnavailableNumbers(t *testing.T) {
	t.Parallel()
	both0 := strategyDS(OnDelete, iv(0), iv(0), false)
	if b, _ := UnavailableNumbers(both0, 5); b != (Budget{MaxUnavailable: 1}) {
		t.Errorf("0 and 0 with desired nodes: %+v; want maxUnavailable 1", b)
	}
	if b, _ := UnavailableNumbers(both0, 0); b != (Budget{}) {
		t.Errorf("0 and 0 without desired nodes: %+v; want 0, 0", b)
	}
	if b, _ := UnavailableNumbers(strategyDS(RollingUpdate, iv(0), sv("20%"), false), 10); b != (Budget{MaxSurge: 2}) {
		t.Errorf("surge 20%% of 10: %+v", b)
	}
	if _, err := UnavailableNumbers(strategyDS(RollingUpdate, iv(0), sv("x%"), false), 10); err == nil {
		t.Error("a malformed maxSurge is not an error")
	}
}

func TestSaturate(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]int32{0: 0, -1: -1, math.MaxInt32: math.MaxInt32, math.MaxInt32 + 1: math.MaxInt32, math.MinInt32 - 1: math.MinInt32} {
		if got := saturate(in); got != want {
			t.Errorf("saturate(%d) = %d", in, got)
		}
	}
}
