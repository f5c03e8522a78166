package replicaset_test

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func drawTime(t *rapid.T, label string) time.Time {
	switch rapid.IntRange(0, 3).Draw(t, label) {
	case 0:
		return time.Time{}
	case 1:
		return ago(time.Duration(rapid.IntRange(0, 300).Draw(t, label+"s")) * time.Second)
	case 2:
		return ago(time.Duration(int64(1) << rapid.IntRange(0, 50).Draw(t, label+"p")))
	}
	return now.Add(time.Second)
}

func drawPod(t *rapid.T, i int) *podstatus.Pod {
	p := pod("p"+strconv.Itoa(i), rapid.SampledFrom([]string{"", "n1", "n2"}).Draw(t, "node"),
		rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Unknown}).Draw(t, "phase"),
		time.Time{}, drawTime(t, "created"))
	p.UID = rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "uid")
	if rapid.Bool().Draw(t, "ready") {
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: drawTime(t, "readySince")}}
	}
	if rapid.Bool().Draw(t, "cost") {
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: rapid.SampledFrom([]string{"1", "-1", "x", "0"}).Draw(t, "costValue")}
	}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "c", RestartCount: int32(rapid.IntRange(0, 2).Draw(t, "restarts"))}}
	if rapid.IntRange(0, 10).Draw(t, "nil") == 0 {
		return nil
	}
	return p
}

func drawPods(t *rapid.T) ([]*podstatus.Pod, []int) {
	n := rapid.IntRange(0, 8).Draw(t, "n")
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		pods[i] = drawPod(t, i)
		ranks[i] = rapid.IntRange(0, 2).Draw(t, "rank")
	}
	return pods, ranks
}

// checkRankingStrictWeakOrder: the ranking's relation "before and not tied"
// is irreflexive, asymmetric, transitive, and ties are transitive; Order is
// a permutation.
func checkRankingStrictWeakOrder(t *rapid.T) {
	pods, ranks := drawPods(t)
	at := now
	if rapid.Bool().Draw(t, "zeroNow") {
		at = time.Time{}
	}
	r := replicaset.RankForDeletion(pods, ranks, at, replicaset.Options{})
	n := len(pods)
	pos, tie := make([]int, n), make([]int, n)
	seen := make([]bool, n)
	for p, i := range r.Order {
		if i < 0 || i >= n || seen[i] {
			t.Fatalf("Order %v is not a permutation of %d", r.Order, n)
		}
		seen[i], pos[i], tie[i] = true, p, -1-i
	}
	for g, members := range r.Ties() {
		for _, i := range members {
			tie[i] = g
		}
	}
	less := func(i, j int) bool { return pos[i] < pos[j] && tie[i] != tie[j] }
	for i := range n {
		if less(i, i) {
			t.Fatalf("irreflexive: %d before itself", i)
		}
		for j := range n {
			if less(i, j) && less(j, i) {
				t.Fatalf("asymmetric: %d and %d", i, j)
			}
			for k := range n {
				if less(i, j) && less(j, k) && !less(i, k) {
					t.Fatalf("transitive: %d < %d < %d", i, j, k)
				}
				inc := func(a, b int) bool { return !less(a, b) && !less(b, a) }
				if inc(i, j) && inc(j, k) && !inc(i, k) {
					t.Fatalf("incomparability transitive: %d ~ %d ~ %d", i, j, k)
				}
			}
		}
	}
	// Tie members are contiguous and share every key: a pair of pods
	// DeletesBefore separates is never tied when UIDs differ.
	for i := range n {
		for j := range n {
			if tie[i] == tie[j] && i != j && pods[i] != nil && pods[j] != nil && pods[i].UID != pods[j].UID {
				if podstatus.DeletesBefore(pods[i], pods[j], ranks[i], ranks[j], at, podstatus.WithCost) {
					t.Fatalf("tied pods %d, %d are ordered by DeletesBefore", i, j)
				}
			}
		}
	}
}

func TestRankingStrictWeakOrder(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRankingStrictWeakOrder)
}

// checkDiffBurst: Diff never exceeds the burst either way.
func checkDiffBurst(t *rapid.T) {
	active := rapid.IntRange(0, math.MaxInt).Draw(t, "active")
	replicas := rapid.Int32().Draw(t, "replicas")
	burst := rapid.IntRange(0, 1000).Draw(t, "burst")
	d := replicaset.Diff(active, replicas, replicaset.Options{BurstReplicas: burst})
	limit := burst
	if limit == 0 {
		limit = replicaset.DefaultBurstReplicas
	}
	if d > limit || d < -limit {
		t.Fatalf("Diff(%d, %d) = %d; want within ±%d", active, replicas, d, limit)
	}
}

func TestDiffBurst(t *testing.T) { t.Parallel(); rapid.Check(t, checkDiffBurst) }

func drawReplicaSet(t *rapid.T) *replicaset.ReplicaSet {
	rs := frontend(int32(rapid.IntRange(0, 10).Draw(t, "replicas")))
	rs.Spec.MinReadySeconds = int32(rapid.IntRange(0, 20).Draw(t, "minReady"))
	if rapid.Bool().Draw(t, "rc") {
		rs.Kind = replicaset.KindReplicationController
	}
	return rs
}

// checkStep: Step is deterministic, stays within the burst, and its status
// counts are bounded by the claimed pods.
func checkStep(t *rapid.T) {
	rs := drawReplicaSet(t)
	pods, _ := drawPods(t)
	var kept []*podstatus.Pod
	for i, p := range pods {
		if p != nil {
			p.UID = "u" + strconv.Itoa(i)
			if rapid.Bool().Draw(t, "owned") {
				owned(p, rs)
			}
			kept = append(kept, p)
		}
	}
	plan, err := replicaset.Step(rs, kept, nil, now, replicaset.Options{})
	if err != nil {
		t.Fatalf("Step = %v", err)
	}
	shuffled := slices.Clone(kept)
	for i := len(shuffled) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, "swap")
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	}
	again, _ := replicaset.Step(rs, shuffled, nil, now, replicaset.Options{})
	if !reflect.DeepEqual(plan, again) {
		t.Fatalf("Step depends on the order of pods:\n%s", cmp.Diff(plan, again))
	}
	// Writes: no error on Step's own Plan, independent of the pods' order,
	// one pod write per pod event.
	ws, err := plan.Writes(rs, kept)
	if err != nil {
		t.Fatalf("Writes = %v", err)
	}
	if ws2, _ := again.Writes(rs, shuffled); !reflect.DeepEqual(ws, ws2) {
		t.Fatalf("Writes depends on the order of pods")
	}
	podWrites := 0
	for _, w := range ws {
		if w.Resource == "pods" && w.Verb != "patch" {
			podWrites++
		}
	}
	if podWrites != len(plan.Events) {
		t.Fatalf("%d pod creations and deletions, %d events", podWrites, len(plan.Events))
	}
	s := plan.Status
	if plan.Create.Count > replicaset.DefaultBurstReplicas || len(plan.Delete) > replicaset.DefaultBurstReplicas {
		t.Fatalf("Step exceeds the burst")
	}
	if s.AvailableReplicas > s.ReadyReplicas || s.ReadyReplicas > s.Replicas || s.FullyLabeledReplicas > s.Replicas || int(s.Replicas) > len(kept) {
		t.Fatalf("status counts out of bounds: %+v", s)
	}
	if int(s.Replicas)-len(plan.Delete)+int(plan.Create.Count) != int(rs.Replicas()) && plan.Outcome == replicaset.ReasonSynced {
		t.Fatalf("replicas %d - %d + %d != %d", s.Replicas, len(plan.Delete), plan.Create.Count, rs.Replicas())
	}
}

func TestStep(t *testing.T) { t.Parallel(); rapid.Check(t, checkStep) }
