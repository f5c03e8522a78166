package upstream_test

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubestatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/kubesem/kubesem/podstatus"
)

// psBenchPod is a pod with two init containers, a sidecar and three regular
// containers, one crash-looping, in both models.
func psBenchPod() (*podstatus.Pod, *v1.Pod) {
	always := podstatus.RestartAlways
	started := true
	p := &podstatus.Pod{}
	p.Name, p.Namespace = "web-0", "default"
	p.Spec.RestartPolicy = podstatus.RestartAlways
	p.Spec.InitContainers = []podstatus.Container{{Name: "init-a"}, {Name: "init-b"}, {Name: "proxy", RestartPolicy: &always}}
	p.Spec.Containers = []podstatus.Container{{Name: "app"}, {Name: "log"}, {Name: "metrics"}}
	p.Spec.ReadinessGates = []podstatus.ReadinessGate{{ConditionType: "example.com/gate"}}
	p.Status.Phase = podstatus.Running
	p.Status.Conditions = []podstatus.Condition{{Type: "example.com/gate", Status: "True", LastTransitionTime: psBase},
		{Type: podstatus.Ready, Status: "False", LastTransitionTime: psBase}, {Type: podstatus.ContainersReady, Status: "False", LastTransitionTime: psBase},
		{Type: podstatus.Initialized, Status: "True", LastTransitionTime: psBase}, {Type: podstatus.PodScheduled, Status: "True", LastTransitionTime: psBase}}
	p.Status.InitContainerStatuses = []podstatus.ContainerStatus{
		{Name: "init-a", Ready: true, State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0}}},
		{Name: "init-b", Ready: true, State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0}}},
		{Name: "proxy", Ready: true, Started: &started, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: psBase}}},
	}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{
		{Name: "app", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: psBase}}},
		{Name: "log", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: psBase}}},
		{Name: "metrics", State: podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: "CrashLoopBackOff"}},
			LastTerminationState: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1}}},
	}
	return p, psToV1(p)
}

func BenchmarkPodStatusPhase(b *testing.B) {
	p, u := psBenchPod()
	initialized := true
	obs := podstatus.Observed{Initialized: &initialized}
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if podstatus.KubeletPhase(p, obs) != podstatus.Running {
				b.Fatal("phase")
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		logger := klog.Background()
		for b.Loop() {
			// The kubelet's merged list, as generateAPIPodStatus builds it.
			all := append(append([]v1.ContainerStatus{}, u.Status.ContainerStatuses...), u.Status.InitContainerStatuses...)
			if psGetPhase(logger, u, all, false, true) != v1.PodRunning {
				b.Fatal("phase")
			}
		}
	})
}

func BenchmarkPodStatusConditions(b *testing.B) {
	p, u := psBenchPod()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = podstatus.InitializedCondition(p, podstatus.Running)
			_ = podstatus.ReadyCondition(p, p.Status.Conditions, podstatus.Running)
			_ = podstatus.ContainersReadyCondition(p, podstatus.Running)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			all := append(append([]v1.ContainerStatus{}, u.Status.InitContainerStatuses...), u.Status.ContainerStatuses...)
			_ = kubestatus.GeneratePodInitializedCondition(u, &u.Status, all, v1.PodRunning)
			_ = kubestatus.GeneratePodReadyCondition(u, &u.Status, u.Status.Conditions, all, v1.PodRunning)
			_ = kubestatus.GenerateContainersReadyCondition(u, &u.Status, all, v1.PodRunning)
		}
	})
}

func BenchmarkPodStatusGenerate(b *testing.B) {
	p, u := psBenchPod()
	initialized := true
	obs := podstatus.Observed{Initialized: &initialized}
	now := psBase.Add(time.Minute)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = podstatus.Generate(p, obs, now, podstatus.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = psUpstreamGenerate(u, obs, now)
		}
	})
}
