package replicaset_test

import (
	"math"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/replicaset"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		active   int
		replicas int32
		burst    int
		want     int
	}{
		{"too many", 5, 3, 0, 2},
		{"too few", 1, 3, 0, -2},
		{"equal", 3, 3, 0, 0},
		{"burst caps deletions at 500", 501, 0, 0, 500},
		{"burst boundary 500", 500, 0, 0, 500},
		{"burst caps creations", 0, math.MaxInt32, 0, -500},
		{"custom burst", 0, 100, 10, -10},
		{"huge active saturates", math.MaxInt, -1, 0, 500},
	}
	for _, tt := range tests {
		if got := replicaset.Diff(tt.active, tt.replicas, replicaset.Options{BurstReplicas: tt.burst}); got != tt.want {
			t.Errorf("%s: Diff(%d, %d) = %d; want %d", tt.name, tt.active, tt.replicas, got, tt.want)
		}
	}
}

func TestSlowStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		count, succeed int
		sizes          []int
		ok             int
	}{
		{10, 0, []int{1}, 0},
		{10, 10, []int{1, 2, 4, 3}, 10},
		{10, 5, []int{1, 2, 4}, 5},
		{10, 3, []int{1, 2, 4}, 3},
		{10, 4, []int{1, 2, 4}, 4},
		{0, 0, nil, 0},
		{-3, 5, nil, 0},
		{1, 1, []int{1}, 1},
	}
	for _, tt := range tests {
		sizes, ok := replicaset.SlowStart(tt.count, tt.succeed)
		if !slices.Equal(sizes, tt.sizes) || ok != tt.ok {
			t.Errorf("SlowStart(%d, %d) = %v, %d; want %v, %d", tt.count, tt.succeed, sizes, ok, tt.sizes, tt.ok)
		}
	}
}
