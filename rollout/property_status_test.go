package rollout_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func stCondGen() *rapid.Generator[rollout.Condition] {
	return rapid.Custom(func(t *rapid.T) rollout.Condition {
		return rollout.Condition{
			Type:           rapid.SampledFrom([]rollout.ConditionType{rollout.Available, rollout.Progressing, rollout.ReplicaFailure}).Draw(t, "type"),
			Status:         rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "status"),
			Reason:         rapid.SampledFrom([]string{"A", "B", ""}).Draw(t, "reason"),
			LastUpdateTime: stT0.Add(time.Duration(rapid.IntRange(0, 9).Draw(t, "at")) * time.Second),
		}
	})
}

func stRSGen() *rapid.Generator[*replicaset.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) *replicaset.ReplicaSet {
		status := int32(rapid.IntRange(0, 5).Draw(t, "status"))
		rs := stRS(rapid.StringMatching(`[a-e]`).Draw(t, "name"), int32(rapid.IntRange(0, 5).Draw(t, "spec")), status, int32(rapid.IntRange(0, int(status)).Draw(t, "available")))
		rs.Annotations = map[string]string{rollout.RevisionAnnotation: strconv.Itoa(rapid.IntRange(0, 6).Draw(t, "revision"))}
		rs.Generation = int64(rapid.IntRange(0, 2).Draw(t, "generation"))
		rs.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observed"))
		return rs
	})
}

// checkSetConditionIdempotent: setting the same condition twice is the same
// as setting it once.
func checkSetConditionIdempotent(t *rapid.T) {
	cs := rapid.SliceOfN(stCondGen(), 0, 4).Draw(t, "conditions")
	c := stCondGen().Draw(t, "condition")
	once := setCond(cs, c)
	twice := setCond(once, c)
	if len(once) != len(twice) {
		t.Fatalf("SetCondition twice = %v; once %v", twice, once)
	}
	for i := range once {
		if once[i] != twice[i] {
			t.Fatalf("SetCondition twice = %v; once %v", twice, once)
		}
	}
	if got, ok := meta.Conditions(once).Find(c.Type); !ok || got.Status != c.Status || got.Reason != c.Reason {
		t.Fatalf("FindCondition(SetCondition(c)) = %v; want %v", got, c)
	}
}

func TestSetConditionIdempotent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkSetConditionIdempotent)
}

// checkStatusBounds: counts are sums, unavailable is never negative, and
// with available <= status.replicas per ReplicaSet, available <= replicas.
func checkStatusBounds(t *rapid.T) {
	rss := rapid.SliceOfN(stRSGen(), 0, 5).Draw(t, "replicaSets")
	n := int32(rapid.IntRange(0, 10).Draw(t, "replicas"))
	d := &rollout.Deployment{}
	d.Spec.Replicas = &n
	var newRS *replicaset.ReplicaSet
	if len(rss) > 0 {
		newRS = rss[0]
	}
	s := rollout.ComputeStatus(d, newRS, rss, stT0)
	if s.UnavailableReplicas < 0 || s.AvailableReplicas > s.Replicas || s.ReadyReplicas > s.Replicas || s.UpdatedReplicas > s.Replicas {
		t.Fatalf("ComputeStatus = %+v; counts out of bounds", s)
	}
	if _, ok := meta.Conditions(s.Conditions).Find(rollout.Available); !ok {
		t.Fatalf("ComputeStatus has no Available condition")
	}
}

func TestStatusBounds(t *testing.T) { t.Parallel(); rapid.Check(t, checkStatusBounds) }

// checkHistoryToDelete: never a ReplicaSet with pods, never below the limit.
func checkHistoryToDelete(t *rapid.T) {
	rss := rapid.SliceOfN(stRSGen(), 0, 14).Draw(t, "old")
	limit := int32(rapid.IntRange(0, 12).Draw(t, "limit"))
	d := &rollout.Deployment{}
	d.Spec.RevisionHistoryLimit = &limit
	got := rollout.HistoryToDelete(d, rss)
	if len(rss)-len(got) < min(int(limit), len(rss)) {
		t.Fatalf("HistoryToDelete left %d of %d; limit %d", len(rss)-len(got), len(rss), limit)
	}
	for _, rs := range got {
		if rs.Replicas() != 0 || rs.Status.Replicas != 0 {
			t.Fatalf("HistoryToDelete returned %s with replicas %d/%d", rs.Name, rs.Replicas(), rs.Status.Replicas)
		}
	}
}

func TestHistoryToDelete_Property(t *testing.T) { t.Parallel(); rapid.Check(t, checkHistoryToDelete) }

// checkRevisionHistoryBounded: the history annotation stays within 2000
// characters.
func checkRevisionHistoryBounded(t *rapid.T) {
	var entries []string
	for i, n := 0, rapid.IntRange(0, 700).Draw(t, "entries"); i < n; i++ {
		entries = append(entries, strconv.Itoa(rapid.IntRange(1, 99999).Draw(t, "entry")))
	}
	history := strings.Join(entries, ",")
	if len(history) > 2000 {
		history = history[:2000]
	}
	old := rapid.IntRange(1, 1<<40).Draw(t, "old")
	rs := stRS("r", 1, 1, 1)
	rs.Annotations = map[string]string{rollout.RevisionAnnotation: strconv.Itoa(old), rollout.RevisionHistoryAnnotation: history}
	got, _ := rollout.NewReplicaSetAnnotations(&rollout.Deployment{}, rs, int64(old)+1, rollout.Existing)
	if h := got[rollout.RevisionHistoryAnnotation]; len(h) > 2000 {
		t.Fatalf("revision-history has %d chars", len(h))
	}
}

func TestRevisionHistoryBounded(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRevisionHistoryBounded)
}

func FuzzSetConditionIdempotent(f *testing.F) { fuzzlimit.Rapid(f, checkSetConditionIdempotent) }
func FuzzStatusBounds(f *testing.F)           { fuzzlimit.Rapid(f, checkStatusBounds) }
func FuzzHistoryToDelete(f *testing.F)        { fuzzlimit.Rapid(f, checkHistoryToDelete) }
func FuzzRevisionHistoryBounded(f *testing.F) { fuzzlimit.Rapid(f, checkRevisionHistoryBounded) }
