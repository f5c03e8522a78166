package replicaset_test

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// benchPods returns n ready pods on 50 nodes, ready and created within
// the last day at one-second resolution, a tenth with a deletion cost.
func benchPods(n int) ([]*podstatus.Pod, []int) {
	r := rand.New(rand.NewPCG(1, 2))
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.UID = strconv.FormatUint(r.Uint64(), 16)
		p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(50))
		p.Status.Phase = podstatus.Running
		p.CreationTimestamp = base.Add(-time.Duration(r.IntN(86400)) * time.Second)
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue,
			LastTransitionTime: p.CreationTimestamp.Add(time.Duration(r.IntN(60)) * time.Second)}}
		p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "c", RestartCount: int32(r.IntN(3))}}
		if r.IntN(10) == 0 {
			p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(r.IntN(5))}
		}
		pods[i] = p
		ranks[i] = n / 50
	}
	return pods, ranks
}

func benchmarkRank(b *testing.B, n int) {
	pods, ranks := benchPods(n)
	upPods := v1Pods(pods)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			replicaset.RankForDeletion(pods, ranks, base, replicaset.Options{})
		}
	})
	// reused: the same ranking with a Ranker kept between calls, as a
	// controller ranking again and again would (the limit, too, sorts in
	// a buffer it keeps).
	b.Run("reused", func(b *testing.B) {
		var rk replicaset.Ranker
		rk.RankForDeletion(pods, ranks, base, replicaset.Options{}) // grown once, before timing
		b.ReportAllocs()
		for b.Loop() {
			rk.RankForDeletion(pods, ranks, base, replicaset.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		work := make([]*v1.Pod, n)
		rk := make([]int, n)
		for b.Loop() {
			copy(work, upPods)
			copy(rk, ranks)
			sort.Sort(controller.ActivePodsWithRanks{Pods: work, Rank: rk, Now: metav1.Time{Time: base}})
		}
	})
	// The limit issue 24 measures the ranking against: slices.Sort of n
	// int64 keys, as if every pod's order were packed in one word (random
	// keys, copied back before each sort).
	b.Run("limit", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 4))
		keys := make([]int64, n)
		for i := range keys {
			keys[i] = r.Int64()
		}
		work := make([]int64, n)
		b.ReportAllocs()
		for b.Loop() {
			copy(work, keys)
			slices.Sort(work)
		}
	})
	// read: only the reads of the pods any exact ranking must make (node
	// name, phase, the Ready condition's status and time, the deletion
	// cost annotation, the containers' restart counts, the creation time,
	// the UID's bytes and the pod's rank), summed, with no keys, sorting
	// or output: the part of the ranking no implementation can skip
	// (scripts/bench-notes.md).
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		var sink int64
		for b.Loop() {
			var sum int64
			for i, p := range pods {
				sum += int64(len(p.Spec.NodeName)) + int64(len(p.Status.Phase)) + int64(ranks[i])
				for _, c := range p.Status.Conditions {
					if c.Type == podstatus.Ready {
						if c.Status == meta.ConditionTrue {
							sum += c.LastTransitionTime.Unix()
						}
						break
					}
				}
				if p.Annotations != nil {
					sum += int64(len(p.Annotations[podstatus.DeletionCostAnnotation]))
				}
				for _, c := range p.Status.ContainerStatuses {
					sum += int64(c.RestartCount)
				}
				sum += p.CreationTimestamp.Unix()
				if u := p.UID; len(u) > 0 {
					sum += int64(u[0]) + int64(u[len(u)-1])
				}
			}
			sink += sum
		}
		if sink == 1 {
			b.Log(sink)
		}
	})
}

func BenchmarkReplicaSetRank10k(b *testing.B) { benchmarkRank(b, 10_000) }

func BenchmarkReplicaSetRank100k(b *testing.B) { benchmarkRank(b, 100_000) }

// BenchmarkReplicaSetPodsToDelete10k deletes the burst of 500 of 10,000
// pods, ranked by their siblings on the same node, as getPodsToDelete does.
func BenchmarkReplicaSetPodsToDelete10k(b *testing.B) {
	pods, _ := benchPods(10_000)
	upPods := v1Pods(pods)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			replicaset.PodsToDelete(pods, pods, 500, base, replicaset.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		work := make([]*v1.Pod, len(upPods))
		for b.Loop() {
			copy(work, upPods) // the sort reorders its input
			ranked := rankedByNode(work, upPods)
			ranked.Now = metav1.Time{Time: base}
			sort.Sort(ranked)
			_ = ranked.Pods[:500]
		}
	})
}
