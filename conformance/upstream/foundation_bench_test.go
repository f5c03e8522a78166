package upstream_test

import (
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	corehelper "k8s.io/kubernetes/pkg/apis/core/helper"
	"k8s.io/kubernetes/pkg/controller"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

var (
	fdSinkInt  int
	fdSinkBool bool
	fdSinkDur  time.Duration
)

// fdBenchPods returns n running pods, each with three conditions (Ready
// last), ready i seconds before fdBase, in both models.
func fdBenchPods(n int) ([]*podstatus.Pod, []*v1.Pod) {
	pods := make([]*podstatus.Pod, n)
	upods := make([]*v1.Pod, n)
	for i := range pods {
		p := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{
			{Type: podstatus.PodScheduled, Status: meta.ConditionTrue},
			{Type: podstatus.ContainersReady, Status: meta.ConditionTrue},
			{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: fdBase.Add(-time.Duration(i) * time.Second)},
		}}}
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(i - 50)}
		pods[i] = p
		upods[i] = fdToV1(p)
	}
	return pods, upods
}

// BenchmarkIsAvailable: a ready pod, minReadySeconds 10.
func BenchmarkIsAvailable(b *testing.B) {
	pods, upods := fdBenchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkBool = podstatus.IsAvailable(pods[0], 10, fdBase)
		}
	})
	now := metav1.NewTime(fdBase)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkBool = podutil.IsPodAvailable(upods[0], 10, now)
		}
	})
}

// BenchmarkNextAvailabilityCheck: 100 ready pods, minReadySeconds 60.
func BenchmarkNextAvailabilityCheck(b *testing.B) {
	pods, upods := fdBenchPods(100)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkDur, fdSinkBool = podstatus.NextAvailabilityCheck(pods, 60, fdBase)
		}
	})
	clock := testingclock.NewFakePassiveClock(fdBase)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkDur = *controller.FindMinNextPodAvailabilityCheck(upods, 60, fdBase, clock)
		}
	})
}

// BenchmarkDeletionCost: the annotation "-50".
func BenchmarkDeletionCost(b *testing.B) {
	pods, upods := fdBenchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := podstatus.DeletionCost(pods[0])
			fdSinkInt = int(c)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := corehelper.GetDeletionCostFromPodAnnotations(upods[0].Annotations)
			fdSinkInt = int(c)
		}
	})
}

// BenchmarkIsActive: a running pod.
func BenchmarkIsActive(b *testing.B) {
	pods, upods := fdBenchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkBool = podstatus.IsActive(pods[0])
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fdSinkBool = controller.IsPodActive(upods[0])
		}
	})
}
