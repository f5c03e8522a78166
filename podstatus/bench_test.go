package podstatus_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

var (
	sinkBool  bool
	sinkInt   int32
	sinkDur   time.Duration
	sinkTime  time.Time
	benchPod  = benchPods(1)[0]
	benchList = benchPods(100)
)

// benchPods returns running pods with three conditions, Ready last, that
// became ready i seconds before now.
func benchPods(n int) []*podstatus.Pod {
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		p := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{
			{Type: podstatus.PodScheduled, Status: meta.ConditionTrue},
			{Type: podstatus.ContainersReady, Status: meta.ConditionTrue},
			{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now.Add(-time.Duration(i) * time.Second)},
		}}}
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(i - 50)}
		p.Spec.InitContainers = []podstatus.Container{{Name: "init"}, {Name: "side", RestartPolicy: always()}}
		p.Status.InitContainerStatuses = []podstatus.ContainerStatus{{Name: "init", RestartCount: 1}, {Name: "side", RestartCount: 2}}
		p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "a", RestartCount: 3}, {Name: "b", RestartCount: 4}}
		pods[i] = p
	}
	return pods
}

func BenchmarkIsReady(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = podstatus.IsReady(benchPod)
	}
}

func BenchmarkReadyTime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkTime = podstatus.ReadyTime(benchPod)
	}
}

func BenchmarkIsAvailable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = podstatus.IsAvailable(benchPod, 10, now)
	}
}

func BenchmarkIsActive(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = podstatus.IsActive(benchPod)
	}
}

func BenchmarkIsTerminating(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = podstatus.IsTerminating(benchPod)
	}
}

func BenchmarkIsTerminal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = podstatus.IsTerminal(benchPod)
	}
}

func BenchmarkIsRestartableInit(b *testing.B) {
	b.ReportAllocs()
	c := &benchPod.Spec.InitContainers[1]
	for b.Loop() {
		sinkBool = podstatus.IsRestartableInit(c)
	}
}

func BenchmarkMaxRestarts(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkInt, _ = podstatus.MaxRestarts(benchPod)
	}
}

func BenchmarkDeletionCost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkInt, sinkBool = podstatus.DeletionCost(benchPod)
	}
}

func BenchmarkNextAvailabilityCheck(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkDur, sinkBool = podstatus.NextAvailabilityCheck(benchList, 60, now)
	}
}

func BenchmarkNextAvailabilityCheckSince(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkDur, sinkBool = podstatus.NextAvailabilityCheckSince(benchList, 60, now, now.Add(time.Second))
	}
}

// fleetPods returns n running, ready pods shaped like the conformance
// side-by-side's (conformance/upstream/replicaset/bench_test.go): random
// UIDs, 50 nodes, created and ready within the last day at one-second
// resolution, a tenth with a deletion cost; every pod has rank n/50.
func fleetPods(n int) ([]*podstatus.Pod, []int) {
	r := rand.New(rand.NewPCG(1, 2))
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.UID = strconv.FormatUint(r.Uint64(), 16)
		p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(50))
		p.Status.Phase = podstatus.Running
		p.CreationTimestamp = now.Add(-time.Duration(r.IntN(86400)) * time.Second)
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue,
			LastTransitionTime: p.CreationTimestamp.Add(time.Duration(r.IntN(60)) * time.Second)}}
		p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "c", RestartCount: int32(r.IntN(3))}}
		if r.IntN(10) == 0 {
			p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(r.IntN(5))}
		}
		pods[i], ranks[i] = p, n/50
	}
	return pods, ranks
}

func BenchmarkRankForDeletion100k(b *testing.B) {
	pods, ranks := fleetPods(100_000)
	b.ReportAllocs()
	for b.Loop() {
		podstatus.RankForDeletion(pods, ranks, now, podstatus.WithCost)
	}
}

func BenchmarkRankActive100k(b *testing.B) {
	pods, _ := fleetPods(100_000)
	b.ReportAllocs()
	for b.Loop() {
		podstatus.RankActive(pods)
	}
}

// BenchmarkRankerRankForDeletion100k: the same ranking with one Ranker
// kept between rankings (no allocation once it has grown).
func BenchmarkRankerRankForDeletion100k(b *testing.B) {
	pods, ranks := fleetPods(100_000)
	var rk podstatus.Ranker
	rk.RankForDeletion(pods, ranks, now, podstatus.WithCost) // grown once, before timing
	b.ReportAllocs()
	for b.Loop() {
		rk.RankForDeletion(pods, ranks, now, podstatus.WithCost)
	}
}

// BenchmarkRankerSideBySide100k is the conformance side-by-side's ranking
// row (conformance/upstream/replicaset, BenchmarkReplicaSetRank100k) next
// to its limit, slices.Sort of 100,000 int64 in a kept buffer, on the
// same fixture, for quick A/B runs of this package alone.
func BenchmarkRankerSideBySide100k(b *testing.B) {
	pods, ranks := fleetPods(100_000)
	b.Run("reused", func(b *testing.B) {
		var rk podstatus.Ranker
		rk.RankForDeletion(pods, ranks, now, podstatus.WithCost)
		for b.Loop() {
			rk.RankForDeletion(pods, ranks, now, podstatus.WithCost)
		}
	})
	b.Run("limit", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 4))
		keys := make([]int64, len(pods))
		for i := range keys {
			keys[i] = r.Int64()
		}
		work := make([]int64, len(pods))
		for b.Loop() {
			copy(work, keys)
			slices.Sort(work)
		}
	})
}
