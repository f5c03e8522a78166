package replicaset_test

import (
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the ReplicaSet controller's unexported rules

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/features"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

//go:linkname rankedByNode k8s.io/kubernetes/pkg/controller/replicaset.getPodsRankedByRelatedPodsOnSameNode
func rankedByNode(podsToRank, relatedPods []*v1.Pod) controller.ActivePodsWithRanks

// checkPairs compares DeletesBefore with upstream's
// ActivePodsWithRanks.Less on random pairs, UIDs possibly equal.
func checkPairs(opts replicaset.Options) func(t *rapid.T) {
	return func(t *rapid.T) {
		now := now(t)
		uids := []string{"", "a", "b"}
		a := drawPod(t, "a", rapid.SampledFrom(uids).Draw(t, "uidA"), now)
		b := drawPod(t, "b", rapid.SampledFrom(uids).Draw(t, "uidB"), now)
		if rapid.IntRange(0, 3).Draw(t, "sameTimes") == 0 {
			b.Status.Conditions = slices.Clone(a.Status.Conditions)
			b.CreationTimestamp = a.CreationTimestamp
		}
		ra := rapid.IntRange(0, 3).Draw(t, "rankA")
		rb := rapid.IntRange(0, 3).Draw(t, "rankB")
		up := controller.ActivePodsWithRanks{Pods: []*v1.Pod{v1Pod(a), v1Pod(b)}, Rank: []int{ra, rb}, Now: metav1.Time{Time: now}}
		if got, want := podstatus.DeletesBefore(a, b, ra, rb, now, podstatus.CostMode(!opts.DisablePodDeletionCost)), up.Less(0, 1); got != want {
			t.Fatalf("DeletesBefore(a, b) = %v; upstream Less = %v", got, want)
		}
		if got, want := podstatus.DeletesBefore(b, a, rb, ra, now, podstatus.CostMode(!opts.DisablePodDeletionCost)), up.Less(1, 0); got != want {
			t.Fatalf("DeletesBefore(b, a) = %v; upstream Less = %v", got, want)
		}
	}
}

func TestReplicaSetDeletesBeforeDifferential(t *testing.T) {
	rapid.Check(t, checkPairs(replicaset.Options{}))
}

func TestReplicaSetDeletesBeforeNoCostDifferential(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.PodDeletionCost, false)
	rapid.Check(t, checkPairs(replicaset.Options{DisablePodDeletionCost: true}))
}

// drawPods draws 0-9 pods with unique UIDs. With distinct set, no two pods
// share a non-zero ready or creation time; otherwise all non-zero times of
// a kind are one shared time. Both keep upstream's comparator transitive.
func drawPods(t *rapid.T, now time.Time) []*podstatus.Pod {
	n := rapid.IntRange(0, 9).Draw(t, "n")
	distinct := rapid.Bool().Draw(t, "distinct")
	pods := make([]*podstatus.Pod, n)
	uids := rapid.Permutation(seq(n)).Draw(t, "uids")
	seen := map[time.Time]bool{}
	for i := range pods {
		pods[i] = drawPod(t, "p"+strconv.Itoa(i), "u"+strconv.Itoa(uids[i]), now)
	}
	readyShared, createdShared := drawTime(t, "sharedReady", now), drawTime(t, "sharedCreated", now)
	for _, p := range pods {
		if len(p.Status.Conditions) > 0 && !p.Status.Conditions[0].LastTransitionTime.IsZero() {
			c := &p.Status.Conditions[0]
			if distinct {
				c.LastTransitionTime = uniqueTime(seen, c.LastTransitionTime)
			} else {
				c.LastTransitionTime = readyShared
			}
		}
		if !p.CreationTimestamp.IsZero() {
			if distinct {
				p.CreationTimestamp = uniqueTime(seen, p.CreationTimestamp)
			} else {
				p.CreationTimestamp = createdShared
			}
		}
	}
	return pods
}

func uniqueTime(seen map[time.Time]bool, t time.Time) time.Time {
	for seen[t] {
		t = t.Add(-1)
	}
	seen[t] = true
	return t
}

// checkRanking compares RankForDeletion with upstream's
// comparator on every pair of a random list: a pod before another must be
// upstream-Less, and tied pods must be upstream-incomparable.
func checkRanking(t *rapid.T) {
	now := now(t)
	pods := drawPods(t, now)
	ranks := make([]int, len(pods))
	for i := range ranks {
		ranks[i] = rapid.IntRange(0, 2).Draw(t, "rank")
	}
	r := replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
	tie := tieIDs(r, len(pods))
	pos := make([]int, len(pods))
	for p, i := range r.Order {
		pos[i] = p
	}
	up := controller.ActivePodsWithRanks{Pods: v1Pods(pods), Rank: ranks, Now: metav1.Time{Time: now}}
	for i := range pods {
		for j := range pods {
			if i == j {
				continue
			}
			want := up.Less(i, j)
			got := pos[i] < pos[j] && tie[i] != tie[j]
			if got != want {
				t.Fatalf("pods %d, %d: kubesem first = %v (positions %d, %d, ties %d, %d); upstream Less = %v", i, j, got, pos[i], pos[j], tie[i], tie[j], want)
			}
		}
	}
}

// tieIDs returns, for each pod index, an id shared by the pods of its tie.
func tieIDs(r replicaset.Ranking, n int) []int {
	id := make([]int, n)
	for i := range id {
		id[i] = -1 - i
	}
	for g, members := range r.Ties() {
		for _, i := range members {
			id[i] = g
		}
	}
	return id
}

func TestReplicaSetRankingDifferential(t *testing.T) {
	rapid.Check(t, checkRanking)
}

// checkPodsToDelete compares PodsToDelete with upstream's ranks
// and sort.Sort: the victims must be equal modulo the reported tie.
func checkPodsToDelete(t *rapid.T) {
	now := now(t)
	pods := drawPods(t, now)
	related := slices.Clone(pods)
	for i := range rapid.IntRange(0, 4).Draw(t, "extra") {
		related = append(related, drawPod(t, "r"+strconv.Itoa(i), "r"+strconv.Itoa(i), now))
	}
	if rapid.Bool().Draw(t, "noRelated") {
		related = nil
	}
	diff := rapid.IntRange(0, len(pods)).Draw(t, "diff")
	v := replicaset.PodsToDelete(pods, related, diff, now, replicaset.Options{})

	upPods := v1Pods(pods)
	victims := upPods
	if diff < len(upPods) {
		ranked := rankedByNode(upPods, v1Pods(related))
		ranked.Now = metav1.Time{Time: now}
		sort.Sort(ranked)
		victims = ranked.Pods
	}
	victims = victims[:diff]
	got := map[string]bool{}
	for _, p := range victims {
		got[p.Name] = true
	}
	if len(v.Pods) != diff {
		t.Fatalf("PodsToDelete returned %d victims; want %d", len(v.Pods), diff)
	}
	for _, i := range v.Pods[:v.Sure] {
		if !got[pods[i].Name] {
			t.Fatalf("sure victim %s not deleted upstream (upstream %v)", pods[i].Name, podNames(victims))
		}
		delete(got, pods[i].Name)
	}
	tied := map[string]bool{}
	for _, i := range v.Tied {
		tied[pods[i].Name] = true
	}
	if len(got) != diff-v.Sure {
		t.Fatalf("upstream deletes %d beyond the sure ones; want %d", len(got), diff-v.Sure)
	}
	for n := range got {
		if !tied[n] {
			t.Fatalf("upstream victim %s is neither sure nor tied (tied %v)", n, v.Tied)
		}
	}
}

func podNames(ps []*v1.Pod) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func TestReplicaSetPodsToDeleteDifferential(t *testing.T) {
	rapid.Check(t, checkPodsToDelete)
}

var _ = podstatus.IsReady

// freeList draws 0-9 pods with unique UIDs and no restriction on times:
// ready and creation times come from a pool of three per list, so exactly
// equal times next to different times in one log2 bucket (where upstream's
// comparator has cycles) are common.
func freeList(t *rapid.T, now time.Time) []*podstatus.Pod {
	n := rapid.IntRange(0, 9).Draw(t, "n")
	uids := rapid.Permutation(seq(n)).Draw(t, "uids")
	pool := []time.Time{drawTime(t, "pool0", now), drawTime(t, "pool1", now), drawTime(t, "pool2", now)}
	// uniform: every pod equal on the rules before the time rules, so
	// that the time rules (and their cycles) decide.
	uniform := rapid.Bool().Draw(t, "uniform")
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		p := drawPod(t, "p"+strconv.Itoa(i), "u"+strconv.Itoa(uids[i]), now)
		if uniform {
			p.Spec.NodeName, p.Status.Phase, p.Annotations = "n1", podstatus.Running, nil
			p.Status.ContainerStatuses, p.Status.InitContainerStatuses, p.Spec.InitContainers = nil, nil, nil
			p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue}}
		}
		if len(p.Status.Conditions) > 0 {
			p.Status.Conditions[0].LastTransitionTime = rapid.SampledFrom(pool).Draw(t, "readyAt")
		}
		p.CreationTimestamp = rapid.SampledFrom(pool).Draw(t, "createdAt")
		pods[i] = p
	}
	return pods
}

// shared reports whether pod i shares its exact ready time, or its exact
// creation time, with another pod of the list: the only pods whose order
// against others the note on the non-transitive comparator (package
// replicaset, Divergences) leaves to kubesem.
func shared(pods []*podstatus.Pod, i int) bool {
	ready := func(p *podstatus.Pod) (time.Time, bool) {
		for _, c := range p.Status.Conditions {
			if c.Type == podstatus.Ready {
				return c.LastTransitionTime, true
			}
		}
		return time.Time{}, false
	}
	ri, rok := ready(pods[i])
	for j, q := range pods {
		if j == i {
			continue
		}
		if rj, ok := ready(q); ok && rok && rj.Equal(ri) {
			return true
		}
		if q.CreationTimestamp.Equal(pods[i].CreationTimestamp) {
			return true
		}
	}
	return false
}

// checkPairwise is the claim of package replicaset (Divergences)
// for the non-transitive comparator: on any list, kubesem's ranking agrees
// with upstream's Less on every pair of pods neither of which shares an
// exact ready or creation time with another pod of the list; and the pairs
// where it may not are counted.
func checkPairwise(counts map[string]int) func(*rapid.T) {
	return func(t *rapid.T) {
		now := now(t)
		pods := freeList(t, now)
		ranks := make([]int, len(pods))
		for i := range ranks {
			ranks[i] = rapid.IntRange(0, 2).Draw(t, "rank")
		}
		r := replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
		tie := tieIDs(r, len(pods))
		pos := make([]int, len(pods))
		for p, i := range r.Order {
			pos[i] = p
		}
		up := controller.ActivePodsWithRanks{Pods: v1Pods(pods), Rank: ranks, Now: metav1.Time{Time: now}}
		for i := range pods {
			for j := range pods {
				if i == j {
					continue
				}
				want := up.Less(i, j)
				got := pos[i] < pos[j] && tie[i] != tie[j]
				switch {
				case got == want:
					counts["agree"]++
				case shared(pods, i) || shared(pods, j):
					counts["differ (shared time, left to kubesem)"]++
				default:
					t.Fatalf("pods %d, %d with unshared times: kubesem first = %v; upstream Less = %v", i, j, got, want)
				}
			}
		}
	}
}

func TestReplicaSetPairwiseDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, checkPairwise(counts))
	t.Logf("pairs: %v", counts)
	if counts["agree"] == 0 {
		t.Fatal("no pair compared")
	}
}
