package podstatus_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

func rankNames(pods []*podstatus.Pod, order []int) []string {
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = pods[j].Name
	}
	return out
}

func TestRankActive(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{
		rankPod("old", "n1", podstatus.Running, rankAgo(time.Hour), rankAgo(48*time.Hour)),
		rankPod("new", "n1", podstatus.Running, rankAgo(time.Hour), rankAgo(time.Hour)),
	}
	if got := rankNames(pods, podstatus.RankActive(pods).Order); !slices.Equal(got, []string{"new", "old"}) {
		t.Errorf("RankActive = %v; want [new old]", got)
	}
}
