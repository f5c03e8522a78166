package podstatus_test

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubestatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/podstatus"
)

// benchPod is a pod with two init containers, a sidecar and three regular
// containers, one crash-looping, in both models.
func benchPod() (*podstatus.Pod, *v1.Pod) {
	always := podstatus.RestartAlways
	started := true
	p := &podstatus.Pod{}
	p.Name, p.Namespace = "web-0", "default"
	p.Spec.RestartPolicy = podstatus.RestartAlways
	p.Spec.InitContainers = []podstatus.Container{{Name: "init-a"}, {Name: "init-b"}, {Name: "proxy", RestartPolicy: &always}}
	p.Spec.Containers = []podstatus.Container{{Name: "app"}, {Name: "log"}, {Name: "metrics"}}
	p.Spec.ReadinessGates = []podstatus.ReadinessGate{{ConditionType: "example.com/gate"}}
	p.Status.Phase = podstatus.Running
	p.Status.Conditions = []podstatus.Condition{{Type: "example.com/gate", Status: "True", LastTransitionTime: difftest.PodT0},
		{Type: podstatus.Ready, Status: "False", LastTransitionTime: difftest.PodT0}, {Type: podstatus.ContainersReady, Status: "False", LastTransitionTime: difftest.PodT0},
		{Type: podstatus.Initialized, Status: "True", LastTransitionTime: difftest.PodT0}, {Type: podstatus.PodScheduled, Status: "True", LastTransitionTime: difftest.PodT0}}
	p.Status.InitContainerStatuses = []podstatus.ContainerStatus{
		{Name: "init-a", Ready: true, State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0}}},
		{Name: "init-b", Ready: true, State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0}}},
		{Name: "proxy", Ready: true, Started: &started, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
	}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{
		{Name: "app", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
		{Name: "log", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
		{Name: "metrics", State: podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: "CrashLoopBackOff"}},
			LastTerminationState: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1}}},
	}
	return p, phaseToV1(p)
}

func BenchmarkPodStatusPhase(b *testing.B) {
	p, u := benchPod()
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
			if getPhase(logger, u, all, false, true) != v1.PodRunning {
				b.Fatal("phase")
			}
		}
	})
}

func BenchmarkPodStatusConditions(b *testing.B) {
	p, u := benchPod()
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
	p, u := benchPod()
	initialized := true
	obs := podstatus.Observed{Initialized: &initialized}
	now := difftest.PodT0.Add(time.Minute)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = podstatus.Generate(p, obs, now, podstatus.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = upstreamGenerate(u, obs, now)
		}
	})
}

// benchRestartAll is a pod whose "trigger" container restarts all on exit
// code 42 and has exited with it, in both models, with the runtime's view.
func benchRestartAll() (*podstatus.Pod, *v1.Pod, []podstatus.RuntimeContainer) {
	never := podstatus.RestartNever
	p := &podstatus.Pod{}
	p.Name, p.Namespace = "job-0", "default"
	p.Spec.RestartPolicy = podstatus.RestartNever
	p.Spec.InitContainers = []podstatus.Container{{Name: "init"}}
	p.Spec.Containers = []podstatus.Container{{Name: "app"}, {Name: "log"}, {Name: "trigger", RestartPolicy: &never,
		RestartPolicyRules: []podstatus.RestartRule{{Action: podstatus.ActionRestartAllContainers, ExitCodes: &podstatus.ExitCodesMatcher{Operator: podstatus.ExitCodesIn, Values: []int32{42}}}}}}
	p.Status.Phase = podstatus.Running
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{
		{Name: "app", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
		{Name: "log", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
		{Name: "trigger", State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: difftest.PodT0}}},
	}
	rs := []podstatus.RuntimeContainer{{Name: "init", State: podstatus.RuntimeExited}, {Name: "app", State: podstatus.RuntimeRunning},
		{Name: "log", State: podstatus.RuntimeRunning}, {Name: "trigger", State: podstatus.RuntimeExited, ExitCode: 42}}
	return p, phaseToV1(p), rs
}

func BenchmarkPodStatusAllContainersRestarting(b *testing.B) {
	p, u, rs := benchRestartAll()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if podstatus.AllContainersRestartingCondition(p, rs, podstatus.Running).Status != "True" {
				b.Fatal("condition")
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		rt := runtimeStatus(rs)
		for b.Loop() {
			if kubestatus.GenerateAllContainersRestartingCondition(u, rt, &u.Status, v1.PodRunning).Status != v1.ConditionTrue {
				b.Fatal("condition")
			}
		}
	})
}

// BenchmarkPodStatusValidateUpdate: an image change on a pod with two
// containers, an init container and tolerations, accepted by both.
func BenchmarkPodStatusValidateUpdate(b *testing.B) {
	old, _ := benchPod()
	for i := range old.Spec.Containers {
		old.Spec.Containers[i].Image = "nginx:1.25"
	}
	for i := range old.Spec.InitContainers {
		old.Spec.InitContainers[i].Image = "busybox:1.36"
	}
	old.Spec.ReadinessGates = nil
	old.Spec.TerminationGracePeriodSeconds = i64(30)
	old.Spec.Tolerations = []podstatus.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: i64(300)}}
	updated := clonePod(old)
	updated.Spec.Containers[0].Image = "nginx:1.26"
	co, err := updCore(old)
	if err != nil {
		b.Fatal(err)
	}
	cn, err := updCore(updated)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if podstatus.ValidateUpdate(old, updated) != nil {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(upstreamUpdate(co, cn)) != 0 {
				b.Fatal("rejected")
			}
		}
	})
}
