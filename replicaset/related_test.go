package replicaset_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

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
