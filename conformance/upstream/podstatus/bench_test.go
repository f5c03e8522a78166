package podstatus_test

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
	sinkInt  int
	sinkBool bool
	sinkDur  time.Duration
)

// benchPods returns n running pods, each with three conditions (Ready
// last), ready i seconds before base, in both models.
func benchPods(n int) ([]*podstatus.Pod, []*v1.Pod) {
	pods := make([]*podstatus.Pod, n)
	upods := make([]*v1.Pod, n)
	for i := range pods {
		p := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{
			{Type: podstatus.PodScheduled, Status: meta.ConditionTrue},
			{Type: podstatus.ContainersReady, Status: meta.ConditionTrue},
			{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: base.Add(-time.Duration(i) * time.Second)},
		}}}
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(i - 50)}
		pods[i] = p
		upods[i] = toV1(p)
	}
	return pods, upods
}

// BenchmarkIsAvailable: a ready pod, minReadySeconds 10.
func BenchmarkIsAvailable(b *testing.B) {
	pods, upods := benchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = podstatus.IsAvailable(pods[0], 10, base)
		}
	})
	now := metav1.NewTime(base)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = podutil.IsPodAvailable(upods[0], 10, now)
		}
	})
}

// BenchmarkNextAvailabilityCheck: 100 ready pods, minReadySeconds 60.
func BenchmarkNextAvailabilityCheck(b *testing.B) {
	pods, upods := benchPods(100)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDur, sinkBool = podstatus.NextAvailabilityCheck(pods, 60, base)
		}
	})
	clock := testingclock.NewFakePassiveClock(base)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDur = *controller.FindMinNextPodAvailabilityCheck(upods, 60, base, clock)
		}
	})
}

// BenchmarkDeletionCost: the annotation "-50".
func BenchmarkDeletionCost(b *testing.B) {
	pods, upods := benchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := podstatus.DeletionCost(pods[0])
			sinkInt = int(c)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := corehelper.GetDeletionCostFromPodAnnotations(upods[0].Annotations)
			sinkInt = int(c)
		}
	})
}

// BenchmarkIsActive: a running pod.
func BenchmarkIsActive(b *testing.B) {
	pods, upods := benchPods(1)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = podstatus.IsActive(pods[0])
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = controller.IsPodActive(upods[0])
		}
	})
}
