package replicaset_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func benchPods(n int) ([]*podstatus.Pod, []int) {
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		p := pod("p"+strconv.Itoa(i), "n"+strconv.Itoa(i%50), podstatus.Running,
			ago(time.Duration(i%3600)*time.Second), ago(time.Duration(i%86400)*time.Second))
		pods[i], ranks[i] = p, i%7
	}
	return pods, ranks
}

func BenchmarkDiff(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		replicaset.Diff(1000, 3, replicaset.Options{})
	}
}

func BenchmarkSlowStart(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		replicaset.SlowStart(500, 300)
	}
}

func BenchmarkRankForDeletion10k(b *testing.B) {
	pods, ranks := benchPods(10_000)
	b.ReportAllocs()
	for b.Loop() {
		replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
	}
}

func BenchmarkRankForDeletion100k(b *testing.B) {
	pods, ranks := benchPods(100_000)
	b.ReportAllocs()
	for b.Loop() {
		replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
	}
}

func BenchmarkRankActive(b *testing.B) {
	pods, _ := benchPods(1000)
	b.ReportAllocs()
	for b.Loop() {
		podstatus.RankActive(pods)
	}
}

func BenchmarkTies(b *testing.B) {
	pods, ranks := benchPods(10_000)
	r := replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
	b.ReportAllocs()
	for b.Loop() {
		r.Ties()
	}
}

func BenchmarkVictims(b *testing.B) {
	pods, ranks := benchPods(10_000)
	r := replicaset.RankForDeletion(pods, ranks, now, replicaset.Options{})
	b.ReportAllocs()
	for b.Loop() {
		r.Victims(5_000)
	}
}

func BenchmarkDeletesBefore(b *testing.B) {
	pods, _ := benchPods(2)
	b.ReportAllocs()
	for b.Loop() {
		podstatus.DeletesBefore(pods[0], pods[1], 1, 1, now, podstatus.WithCost)
	}
}

func BenchmarkPodsToDelete(b *testing.B) {
	pods, _ := benchPods(1000)
	b.ReportAllocs()
	for b.Loop() {
		replicaset.PodsToDelete(pods, pods, 100, now, replicaset.Options{})
	}
}

func BenchmarkNodeRanks(b *testing.B) {
	pods, _ := benchPods(1000)
	b.ReportAllocs()
	for b.Loop() {
		replicaset.NodeRanks(pods, pods)
	}
}

func BenchmarkRelatedPods(b *testing.B) {
	pods, _ := benchPods(1000)
	rs := frontend(3)
	yes := true
	rs.OwnerReferences = append(rs.OwnerReferences, ownerRef("d", &yes))
	b.ReportAllocs()
	for b.Loop() {
		replicaset.RelatedPods(rs, []*replicaset.ReplicaSet{rs}, pods)
	}
}

func BenchmarkClaimPod(b *testing.B) {
	pods, _ := benchPods(1)
	rs := frontend(3)
	b.ReportAllocs()
	for b.Loop() {
		replicaset.ClaimPod(rs, pods[0])
	}
}

func BenchmarkComputeStatus(b *testing.B) {
	pods, _ := benchPods(1000)
	rs := frontend(3)
	err := errors.New("x")
	b.ReportAllocs()
	for b.Loop() {
		replicaset.ComputeStatus(rs, pods, nil, err, now, replicaset.Options{})
	}
}

func BenchmarkValidate(b *testing.B) {
	rs := frontend(3)
	b.ReportAllocs()
	for b.Loop() {
		_ = replicaset.Validate(rs)
	}
}

func BenchmarkStep(b *testing.B) {
	rs := frontend(900)
	pods, _ := benchPods(1000)
	for _, p := range pods {
		owned(p, rs)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = replicaset.Step(rs, pods, nil, now, replicaset.Options{})
	}
}
