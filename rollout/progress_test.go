package rollout_test

import (
	"math"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func stStuck(pds int32, reason string) *rollout.Deployment {
	n := int32(3)
	d := &rollout.Deployment{}
	d.Spec.Replicas, d.Spec.ProgressDeadlineSeconds = &n, &pds
	d.Status = rollout.Status{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1,
		Conditions: []rollout.Condition{stCond(rollout.Progressing, meta.ConditionTrue, reason, stT0)}}
	return d
}

func TestRequeueStuck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		d     *rollout.Deployment
		now   time.Time
		after time.Duration
		ok    bool
	}{
		{"30s left", stStuck(60, ""), stT0.Add(30 * time.Second), 31 * time.Second, true},
		{"1s left", stStuck(60, ""), stT0.Add(59 * time.Second), 2 * time.Second, true},
		{"just under 1s left", stStuck(60, ""), stT0.Add(59*time.Second + 1), 0, true},
		{"past deadline", stStuck(60, ""), stT0.Add(time.Hour), 0, true},
		{"no deadline", stStuck(math.MaxInt32, ""), stT0, 0, false},
		{"already failed", stStuck(60, rollout.ReasonProgressDeadlineExceeded), stT0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			after, ok := rollout.RequeueStuck(tt.d, tt.d.Status, tt.now)
			if after != tt.after || ok != tt.ok {
				t.Errorf("RequeueStuck(%s) = %v, %v; want %v, %v", tt.name, after, ok, tt.after, tt.ok)
			}
		})
	}
}

func TestIsTimedOutIsStrict(t *testing.T) {
	t.Parallel()
	d := stStuck(60, rollout.ReasonReplicaSetUpdated)
	if d.IsTimedOut(d.Status, stT0.Add(time.Minute)) {
		t.Errorf("IsTimedOut(at the deadline) = true; want false")
	}
	if !d.IsTimedOut(d.Status, stT0.Add(time.Minute+1)) {
		t.Errorf("IsTimedOut(1ns after) = false; want true")
	}
}

func TestSyncProgressSteadyState(t *testing.T) {
	t.Parallel()
	// kubernetes/kubernetes#106054: a complete rollout losing pods never times out.
	d := stStuck(60, rollout.ReasonNewReplicaSetAvailable)
	got := rollout.SyncProgress(d, d.Status, nil, nil, stT0.Add(time.Hour))
	if c, _ := meta.Conditions(got.Conditions).Find(rollout.Progressing); c.Reason != rollout.ReasonNewReplicaSetAvailable {
		t.Errorf("SyncProgress(steady state) Progressing reason = %s; want %s", c.Reason, rollout.ReasonNewReplicaSetAvailable)
	}
}

// TestSyncStatus: the status a sync writes in the middle of a rollout
// (the counts of the ReplicaSets, Progressing rewritten to
// ReplicaSetUpdated at now), then once the new ReplicaSet is complete
// (NewReplicaSetAvailable).
func TestSyncStatus(t *testing.T) {
	t.Parallel()
	d, cur, all := stBenchState()
	got := rollout.SyncStatus(d, cur, all, stT1)
	if got.Replicas != 12 || got.UpdatedReplicas != 5 || got.AvailableReplicas != 11 {
		t.Errorf("SyncStatus(mid-rollout) counts = %d replicas, %d updated, %d available; want 12, 5, 11", got.Replicas, got.UpdatedReplicas, got.AvailableReplicas)
	}
	if c, _ := got.Conditions.Find(rollout.Progressing); c.Reason != rollout.ReasonReplicaSetUpdated || !c.LastUpdateTime.Equal(stT1) {
		t.Errorf("SyncStatus(mid-rollout) Progressing = %s at %v; want %s at %v", c.Reason, c.LastUpdateTime, rollout.ReasonReplicaSetUpdated, stT1)
	}
	old := all[0]
	old.Status = replicaset.Status{}
	zero := int32(0)
	old.Spec.Replicas = &zero
	cur.Spec.Replicas = d.Spec.Replicas
	cur.Status = replicaset.Status{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}
	got = rollout.SyncStatus(d, cur, all, stT1)
	if c, _ := got.Conditions.Find(rollout.Progressing); c.Reason != rollout.ReasonNewReplicaSetAvailable {
		t.Errorf("SyncStatus(complete) Progressing reason = %s; want %s", c.Reason, rollout.ReasonNewReplicaSetAvailable)
	}
}
