package podstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

func TestDeletionCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value *string
		cost  int32
		valid bool
	}{
		{nil, 0, true},
		{ptr("0"), 0, true},
		{ptr("100"), 100, true},
		{ptr("-100"), -100, true},
		{ptr("-007"), -7, true},
		{ptr("-0"), 0, true},
		{ptr("2147483647"), 2147483647, true},
		{ptr("-2147483648"), -2147483648, true},
		{ptr("+10"), 0, false},
		{ptr("008"), 0, false},
		{ptr("00"), 0, false},
		{ptr("abc"), 0, false},
		{ptr("text"), 0, false},
		{ptr(""), 0, false},
		{ptr("-"), 0, false},
		{ptr("2147483648"), 0, false},
		{ptr("-2147483649"), 0, false},
		{ptr(" 5"), 0, false},
		{ptr("5 "), 0, false},
		{ptr("1e3"), 0, false},
	}
	for _, tc := range tests {
		p := &podstatus.Pod{}
		name := "<absent>"
		if tc.value != nil {
			p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: *tc.value}
			name = *tc.value
		}
		cost, valid := podstatus.DeletionCost(p)
		if cost != tc.cost || valid != tc.valid {
			t.Errorf("DeletionCost(%q) = %d, %v; want %d, %v", name, cost, valid, tc.cost, tc.valid)
		}
	}
	if cost, valid := podstatus.DeletionCost(nil); cost != 0 || !valid {
		t.Errorf("DeletionCost(nil) = %d, %v; want 0, true", cost, valid)
	}
}

func ptr(s string) *string { return &s }
