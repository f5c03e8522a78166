package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func stBenchState() (*rollout.Deployment, *replicaset.ReplicaSet, []*replicaset.ReplicaSet) {
	n, pds := int32(10), int32(600)
	d := &rollout.Deployment{}
	d.Name, d.Generation = "web", 3
	d.Spec.Replicas, d.Spec.ProgressDeadlineSeconds = &n, &pds
	d.Status = rollout.Status{ObservedGeneration: 3, Replicas: 12, UpdatedReplicas: 4, ReadyReplicas: 10, AvailableReplicas: 10,
		Conditions: []rollout.Condition{
			stCond(rollout.Available, meta.ConditionTrue, rollout.ReasonMinimumReplicasAvailable, stT0),
			stCond(rollout.Progressing, meta.ConditionTrue, rollout.ReasonReplicaSetUpdated, stT0),
		}}
	old, cur := stWithRevision("old", "1"), stWithRevision("new", "2")
	old.Status = replicaset.Status{Replicas: 7, AvailableReplicas: 7}
	cur.Status = replicaset.Status{Replicas: 5, AvailableReplicas: 4}
	return d, cur, []*replicaset.ReplicaSet{old, cur}
}

func BenchmarkComputeStatus(b *testing.B) {
	d, cur, all := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.ComputeStatus(d, cur, all, stT1)
	}
}

func BenchmarkSyncProgress(b *testing.B) {
	d, cur, all := stBenchState()
	s := rollout.ComputeStatus(d, cur, all, stT1)
	b.ReportAllocs()
	for b.Loop() {
		rollout.SyncProgress(d, s, cur, all, stT1)
	}
}

func BenchmarkSyncStatus(b *testing.B) {
	d, cur, all := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.SyncStatus(d, cur, all, stT1)
	}
}

func BenchmarkRequeueStuck(b *testing.B) {
	d, _, _ := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.RequeueStuck(d, d.Status, stT1)
	}
}

func BenchmarkPredicates(b *testing.B) {
	d, _, _ := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		d.IsComplete(d.Status)
		d.IsProgressing(d.Status)
		d.IsTimedOut(d.Status, stT1)
		d.HasProgressDeadline()
	}
}

func BenchmarkSetCondition(b *testing.B) {
	d, _, _ := stBenchState()
	c := stCond(rollout.Available, meta.ConditionTrue, rollout.ReasonMinimumReplicasAvailable, stT1)
	b.ReportAllocs()
	for b.Loop() {
		setCond(d.Status.Conditions, c)
		meta.Conditions(d.Status.Conditions).Find(rollout.Progressing)
		meta.Conditions(d.Status.Conditions).Remove(rollout.ReplicaFailure)
	}
}

func BenchmarkPausedCondition(b *testing.B) {
	d, _, _ := stBenchState()
	d.Spec.Paused = true
	b.ReportAllocs()
	for b.Loop() {
		rollout.PausedCondition(d, stT1)
	}
}

func BenchmarkRevisions(b *testing.B) {
	_, cur, all := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.Revision(cur)
		rollout.MaxRevision(all)
		rollout.LastRevision(all)
		rollout.ReplicasAnnotation(cur, rollout.DesiredReplicasAnnotation)
		rollout.ReplicasAnnotationsNeedUpdate(cur, 10, 13)
	}
}

func BenchmarkSortByRevision(b *testing.B) {
	_, _, all := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.SortByRevision(all)
	}
}

func BenchmarkNewReplicaSetAnnotations(b *testing.B) {
	d, cur, _ := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.NewReplicaSetAnnotations(d, cur, 3, rollout.Existing)
	}
}

func BenchmarkHistoryToDelete(b *testing.B) {
	d, _, all := stBenchState()
	b.ReportAllocs()
	for b.Loop() {
		rollout.HistoryToDelete(d, all)
	}
}

func BenchmarkRollback(b *testing.B) {
	d, _, all := stBenchState()
	d.Annotations = map[string]string{rollout.RollbackToAnnotation: "1"}
	b.ReportAllocs()
	for b.Loop() {
		rollout.Rollback(d, all)
	}
}
