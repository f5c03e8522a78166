package replicaset_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
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

func TestDeletesBefore(t *testing.T) {
	t.Parallel()
	a := pod("a", "n1", podstatus.Running, ago(150*time.Second), ago(time.Hour))
	b := pod("b", "n1", podstatus.Running, ago(250*time.Second), ago(time.Hour))
	a.UID, b.UID = "x", "x"
	// Equal UIDs in one bucket: upstream stops at rule 6 with neither first.
	if podstatus.DeletesBefore(a, b, 0, 0, now, podstatus.WithCost) || podstatus.DeletesBefore(b, a, 0, 0, now, podstatus.WithCost) {
		t.Errorf("DeletesBefore(equal UIDs, same bucket) = true; want false both ways")
	}
	if !podstatus.DeletesBefore(a, b, 2, 1, now, podstatus.WithCost) {
		t.Errorf("DeletesBefore(rank 2, rank 1) = false; want true")
	}
	if !podstatus.DeletesBefore(nil, a, 0, 0, now, podstatus.WithCost) {
		t.Errorf("DeletesBefore(nil, ready) = false; want true")
	}
}

func TestRankActive(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{
		pod("old", "n1", podstatus.Running, ago(time.Hour), ago(48*time.Hour)),
		pod("new", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
	}
	if got := orderNames(pods, podstatus.RankActive(pods).Order); !slices.Equal(got, []string{"new", "old"}) {
		t.Errorf("RankActive = %v; want [new old]", got)
	}
}

func TestNodeRanks(t *testing.T) {
	t.Parallel()
	a := pod("a", "n1", podstatus.Running, time.Time{}, now)
	b := pod("b", "n2", podstatus.Running, time.Time{}, now)
	done := pod("done", "n2", podstatus.Succeeded, time.Time{}, now)
	related := []*podstatus.Pod{a, b, pod("c", "n1", podstatus.Pending, time.Time{}, now), done, nil}
	if got := replicaset.NodeRanks([]*podstatus.Pod{a, b, nil}, related); !slices.Equal(got, []int{2, 1, 0}) {
		t.Errorf("NodeRanks = %v; want [2 1 0]", got)
	}
}

func TestRelatedPods(t *testing.T) {
	t.Parallel()
	yes := true
	rs := frontend(1)
	other := frontend(1)
	other.Name, other.UID = "frontend-v2", "rs2"
	other.Spec.Selector.MatchLabels = map[string]string{"tier": "frontend", "v": "2"}
	other.Spec.Template.Labels = other.Spec.Selector.MatchLabels
	stranger := frontend(1)
	stranger.UID = "rs3"
	for _, x := range []*replicaset.ReplicaSet{rs, other} {
		x.OwnerReferences = []meta.OwnerReference{{Kind: "Deployment", UID: "dep", Controller: &yes}}
	}
	p1 := pod("p1", "n1", podstatus.Running, time.Time{}, now)
	p2 := pod("p2", "n1", podstatus.Running, time.Time{}, now)
	p2.Labels = map[string]string{"tier": "frontend", "v": "2"}
	p3 := pod("p3", "n1", podstatus.Running, time.Time{}, now)
	p3.Labels = map[string]string{"tier": "backend"}
	got := replicaset.RelatedPods(rs, []*replicaset.ReplicaSet{rs, other, stranger, nil}, []*podstatus.Pod{p1, p2, p3})
	if names := orderNames(got, []int{0, 1}[:len(got)]); len(got) != 2 || !slices.Equal(names, []string{"p1", "p2"}) {
		t.Errorf("RelatedPods = %v; want [p1 p2]", names)
	}
	if got := replicaset.RelatedPods(stranger, []*replicaset.ReplicaSet{rs}, []*podstatus.Pod{p1}); got != nil {
		t.Errorf("RelatedPods(standalone) = %v; want nil", got)
	}
}
