package statefulset

import (
	"testing"

	"github.com/kubesem/kubesem/intstr"
)

func TestMaxUnavailable(t *testing.T) {
	t.Parallel()
	iv := func(n int32) *intstr.Value { v := intstr.Int(n); return &v }
	pv := func(n int32) *intstr.Value { v := intstr.Percent(n); return &v }
	for _, c := range []struct {
		v        *intstr.Value
		replicas int32
		want     int64
	}{
		{nil, 10, 1},
		{nil, 0, 1},
		{iv(1), 10, 1},
		{iv(4), 3, 4}, // an integer is not capped by replicas
		{iv(0), 5, 1}, // at least 1
		{pv(10), 25, 2},
		{pv(10), 29, 2}, // 2.9 rounds down
		{pv(10), 30, 3}, // exactly 3
		{pv(10), 9, 1},  // 0.9 rounds down to 0, then at least 1
		{pv(50), 5, 2},  // 2.5 rounds down
		{pv(100), 7, 7}, // all
		{pv(100), 0, 1}, // 0 replicas, at least 1
		{pv(1), 100, 1}, // exactly 1
		{pv(1), 199, 1}, // 1.99 rounds down
		{pv(99), 100, 99},
	} {
		got, err := MaxUnavailable(c.v, c.replicas)
		if err != nil || got != c.want {
			name := "nil"
			if c.v != nil {
				name = c.v.String()
			}
			t.Errorf("MaxUnavailable(%s, %d) = %d, %v; want %d", name, c.replicas, got, err, c.want)
		}
	}
	bad := intstr.String("many")
	if _, err := MaxUnavailable(&bad, 3); err == nil {
		t.Error(`MaxUnavailable("many") accepted`)
	}
}
