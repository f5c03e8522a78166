package podstatus

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// TestCompareUID: compareUID orders pods by UID as strings.Compare does,
// including UIDs that share their first 16 bytes, zero bytes and nil pods.
func TestCompareUID(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 16)
	uids := []string{long + "b", long + "a", "b", "", "a", long + "a", "a", "ab", long, "\xff", "a\x00", long + "\x00"}
	pods := make([]*Pod, len(uids)+1)
	for i, u := range uids {
		pods[i] = &Pod{}
		pods[i].UID = u
	}
	// pods[len(uids)] is nil: UID "".
	r := ranker{pods: pods, keys: make([]sortKey, len(pods))}
	for i, p := range pods {
		r.keys[i].r[rawUIDHi], r.keys[i].r[rawUIDLo] = prefixWord(podUID(p), 0), prefixWord(podUID(p), 8)
	}
	for i, p := range pods {
		for j, q := range pods {
			if got, want := r.compareUID(uint32(i), uint32(j)), strings.Compare(podUID(p), podUID(q)); got != want {
				t.Errorf("compareUID(%q, %q) = %d; want %d", podUID(p), podUID(q), got, want)
			}
		}
	}
}

func groupPod(name, uid string, ready time.Time, restarts int32) *Pod {
	p := &Pod{}
	p.Name, p.UID = name, uid
	p.Spec.NodeName = "n1"
	p.Status.Phase = Running
	p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue, LastTransitionTime: ready}}
	p.Status.ContainerStatuses = []ContainerStatus{{Name: "c", RestartCount: restarts}}
	p.CreationTimestamp = now0.Add(-time.Hour)
	return p
}

func rankedNames(pods []*Pod, r Ranking) []string {
	var out []string
	for _, i := range r.Order {
		out = append(out, pods[i].Name)
	}
	return out
}

// TestCells: ready times in one log2 bucket order by UID, except
// that pods holding exactly the same time form one group, placed by the
// smallest UID among them, and go on to the next rule.
func TestCells(t *testing.T) {
	t.Parallel()
	t1, t2 := now0.Add(-150*time.Second), now0.Add(-250*time.Second) // both in bucket 37
	pods := []*Pod{
		groupPod("A", "u1", t1, 0),
		groupPod("B", "u2", t2, 0),
		groupPod("C", "u3", t1, 5),
		groupPod("D", "u4", now0.Add(-10*time.Second), 0), // bucket 33: first
	}
	r := RankForDeletion(pods, nil, now0, WithCost)
	if got, want := rankedNames(pods, r), []string{"D", "C", "A", "B"}; !slices.Equal(got, want) {
		t.Errorf("RankForDeletion = %v; want %v (D's lower bucket; A and C share the group of u1, before B's u2, C restarted more)", got, want)
	}
	if ref := refRankForDeletion(pods, nil, now0, WithCost); !slices.Equal(r.Order, ref.Order) {
		t.Errorf("RankForDeletion = %v; the reference says %v", r.Order, ref.Order)
	}
	// With a zero now, times compare exactly: later first.
	r = RankForDeletion(pods, nil, time.Time{}, WithCost)
	if got, want := rankedNames(pods, r), []string{"D", "C", "A", "B"}; !slices.Equal(got, want) {
		t.Errorf("RankForDeletion(zero now) = %v; want %v", got, want)
	}
}

// TestSettle: pods equal under every rule form a tie, pinned by name, then
// UID, then input position.
func TestSettle(t *testing.T) {
	t.Parallel()
	ready := now0.Add(-time.Hour)
	pods := []*Pod{
		groupPod("b", "u1", ready, 0),
		groupPod("a", "u9", ready, 0),
		groupPod("a", "u2", ready, 0),
		groupPod("a", "u2", ready, 0),
		groupPod("z", "u5", ready, 7), // more restarts: first, alone
		nil,                           // an empty pod: unscheduled, first of all
	}
	r := RankForDeletion(pods, nil, time.Time{}, WithCost)
	if want := []int{5, 4, 2, 3, 1, 0}; !slices.Equal(r.Order, want) {
		t.Errorf("RankForDeletion order = %v; want %v", r.Order, want)
	}
	if ties := r.Ties(); len(ties) != 1 || !slices.Equal(ties[0], []int{2, 3, 1, 0}) {
		t.Errorf("Ties = %v; want [[2 3 1 0]]", ties)
	}
	tests := []struct {
		n    int
		pods []int
		sure int
		tied []int
	}{
		{0, []int{}, 0, nil},
		{1, []int{5}, 1, nil},
		{2, []int{5, 4}, 2, nil},
		{3, []int{5, 4, 2}, 2, []int{2, 3, 1, 0}},
		{5, []int{5, 4, 2, 3, 1}, 2, []int{2, 3, 1, 0}},
		{6, []int{5, 4, 2, 3, 1, 0}, 6, nil},
		{9, []int{5, 4, 2, 3, 1, 0}, 6, nil},
		{-1, []int{}, 0, nil},
	}
	for _, tc := range tests {
		v := r.Victims(tc.n)
		if !slices.Equal(v.Pods, tc.pods) || v.Sure != tc.sure || !slices.Equal(v.Tied, tc.tied) {
			t.Errorf("Victims(%d) = %+v; want pods %v, sure %d, tied %v", tc.n, v, tc.pods, tc.sure, tc.tied)
		}
	}
}
