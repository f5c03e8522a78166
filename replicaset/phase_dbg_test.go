package replicaset

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func dbgPods(n int) ([]*podstatus.Pod, []int) {
	r := rand.New(rand.NewPCG(1, 2))
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.UID = strconv.FormatUint(r.Uint64(), 16)
		p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(50))
		p.Status.Phase = podstatus.Running
		p.CreationTimestamp = fastNow.Add(-time.Duration(r.IntN(86400)) * time.Second)
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

func BenchmarkPhase(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		pods, ranks := dbgPods(n)
		keys := make([]sortKey, n)
		s := newKeySorter(n)
		mk := func() {
			for i, p := range pods {
				keys[i] = makeKey(p, i, ranks[i], fastNow, Options{})
			}
		}
		b.Run("makeKey"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				mk()
			}
		})
		b.Run("sort1"+strconv.Itoa(n), func(b *testing.B) {
			mk()
			for b.Loop() {
				s.sort(keys)
			}
		})
		b.Run("groups"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				mk()
				s.sort(keys)
				b.StartTimer()
				toLogarithmic(keys, pods)
			}
		})
		mk()
		s.sort(keys)
		toLogarithmic(keys, pods)
		b.Run("sort2"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				s.sort(keys)
			}
		})
		b.Run("settle"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				settle(keys, pods, true)
			}
		})
		b.Run("ref"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refRankForDeletion(pods, ranks, fastNow, Options{})
			}
		})
		b.Run("total"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				RankForDeletion(pods, ranks, fastNow, Options{})
			}
		})
	}
}
