package replicaset_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func orderNames(pods []*podstatus.Pod, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = pods[j].Name
	}
	return out
}

func TestRankForDeletion(t *testing.T) {
	t.Parallel()
	costly := pod("costly", "n1", podstatus.Running, ago(time.Hour), ago(2*time.Hour))
	costly.Annotations = map[string]string{podstatus.DeletionCostAnnotation: "5"}
	tests := []struct {
		name  string
		pods  []*podstatus.Pod
		ranks []int
		now   time.Time
		opts  replicaset.Options
		want  []string
		ties  int
	}{
		{"unscheduled, pending, running", []*podstatus.Pod{
			pod("running", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
			pod("pending", "n1", podstatus.Pending, time.Time{}, ago(time.Second)),
			pod("unscheduled", "", podstatus.Pending, time.Time{}, ago(time.Second)),
		}, nil, now, replicaset.Options{}, []string{"unscheduled", "pending", "running"}, 0},
		{"cost beats rank", []*podstatus.Pod{
			costly, pod("cheap", "n1", podstatus.Running, ago(time.Hour), ago(2*time.Hour)),
		}, []int{5, 1}, now, replicaset.Options{}, []string{"cheap", "costly"}, 0},
		{"rank decides with the cost gate off", []*podstatus.Pod{
			pod("cheap", "n1", podstatus.Running, ago(time.Hour), ago(2*time.Hour)), costly,
		}, []int{1, 5}, now, replicaset.Options{DisablePodDeletionCost: true}, []string{"costly", "cheap"}, 0},
		{"same bucket by UID", []*podstatus.Pod{
			pod("b", "n1", podstatus.Running, ago(150*time.Second), ago(time.Hour)),
			pod("a", "n1", podstatus.Running, ago(250*time.Second), ago(time.Hour)),
		}, nil, now, replicaset.Options{}, []string{"a", "b"}, 0},
		{"zero now: exact, newer first", []*podstatus.Pod{
			pod("a", "n1", podstatus.Running, ago(250*time.Second), ago(time.Hour)),
			pod("b", "n1", podstatus.Running, ago(150*time.Second), ago(time.Hour)),
		}, nil, time.Time{}, replicaset.Options{}, []string{"b", "a"}, 0},
		{"identical pods tie, pinned by name", []*podstatus.Pod{
			pod("z", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
			pod("y", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
		}, nil, now, replicaset.Options{}, []string{"y", "z"}, 1},
		{"nil pod ranks as an empty pod", []*podstatus.Pod{
			pod("x", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)), nil,
		}, nil, now, replicaset.Options{}, nil, 0},
	}
	for _, tt := range tests {
		r := replicaset.RankForDeletion(tt.pods, tt.ranks, tt.now, tt.opts)
		if tt.want == nil {
			if !slices.Equal(r.Order, []int{1, 0}) {
				t.Errorf("%s: RankForDeletion order = %v; want [1 0]", tt.name, r.Order)
			}
			continue
		}
		if got := orderNames(tt.pods, r.Order); !slices.Equal(got, tt.want) {
			t.Errorf("%s: RankForDeletion = %v; want %v", tt.name, got, tt.want)
		}
		if got := len(r.Ties()); got != tt.ties {
			t.Errorf("%s: len(Ties()) = %d; want %d", tt.name, got, tt.ties)
		}
	}
}

func TestVictims(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{
		pod("c", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
		pod("b", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
		pod("a", "", podstatus.Pending, time.Time{}, ago(time.Hour)),
	}
	r := replicaset.RankForDeletion(pods, nil, now, replicaset.Options{})
	tests := []struct {
		n          int
		pods, tied []string
		sure       int
	}{
		{0, []string{}, []string{}, 0},
		{1, []string{"a"}, []string{}, 1},
		{2, []string{"a", "b"}, []string{"b", "c"}, 1},
		{3, []string{"a", "b", "c"}, []string{}, 3},
		{9, []string{"a", "b", "c"}, []string{}, 3},
		{-1, []string{}, []string{}, 0},
	}
	for _, tt := range tests {
		v := r.Victims(tt.n)
		if got, tied := orderNames(pods, v.Pods), orderNames(pods, v.Tied); !slices.Equal(got, tt.pods) || v.Sure != tt.sure || !slices.Equal(tied, tt.tied) {
			t.Errorf("Victims(%d) = %v, sure %d, tied %v; want %v, %d, %v", tt.n, got, v.Sure, tied, tt.pods, tt.sure, tt.tied)
		}
	}
}
