package podstatus_test

import (
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the kubelet's getPhase and updateLastTransitionTime

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/kubelet"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	kubestatus "k8s.io/kubernetes/pkg/kubelet/status"
	kubetypes "k8s.io/kubernetes/pkg/kubelet/types"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname getPhase k8s.io/kubernetes/pkg/kubelet.getPhase
func getPhase(logger klog.Logger, pod *v1.Pod, info []v1.ContainerStatus, podIsTerminal, podHasInitialized bool) v1.PodPhase

//go:linkname updateLTT k8s.io/kubernetes/pkg/kubelet/status.updateLastTransitionTime
func updateLTT(status, oldStatus *v1.PodStatus, conditionType v1.PodConditionType)

// containerNames are few, so that statuses, specs and readiness gates collide.
var containerNames = []string{"a", "b", "c", "d"}

func drawPolicy(t *rapid.T, label string, weird bool) *podstatus.RestartPolicy {
	all := []podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}
	if weird {
		all = append(all, "", "Sometimes")
	}
	if rapid.IntRange(0, 2).Draw(t, label+"Has") == 0 {
		return nil
	}
	p := rapid.SampledFrom(all).Draw(t, label)
	return &p
}

func drawRules(t *rapid.T, label string) []podstatus.RestartRule {
	var rules []podstatus.RestartRule
	for range rapid.IntRange(0, 2).Draw(t, label+"N") {
		r := podstatus.RestartRule{Action: rapid.SampledFrom([]string{string(v1.ContainerRestartRuleActionRestart), string(v1.ContainerRestartRuleActionRestartAllContainers), "Other", ""}).Draw(t, label+"Action")}
		if rapid.IntRange(0, 5).Draw(t, label+"HasCodes") > 0 {
			m := &podstatus.ExitCodesMatcher{Operator: rapid.SampledFrom([]string{string(v1.ContainerRestartRuleOnExitCodesOpIn), string(v1.ContainerRestartRuleOnExitCodesOpNotIn), "Bogus"}).Draw(t, label+"Op")}
			for range rapid.IntRange(0, 3).Draw(t, label+"Vals") {
				m.Values = append(m.Values, rapid.Int32Range(0, 4).Draw(t, label+"Val"))
			}
			r.ExitCodes = m
		}
		rules = append(rules, r)
	}
	return rules
}

func drawTerminated(t *rapid.T, label string) *podstatus.StateTerminated {
	return &podstatus.StateTerminated{
		ExitCode: rapid.SampledFrom([]int32{0, 0, 1, 2, 3, 137, -1}).Draw(t, label+"Code"),
		Reason:   rapid.SampledFrom([]string{"", "Completed", "Error", kubelet.RestartingAllContainers}).Draw(t, label+"Reason"),
	}
}

func drawStatus(t *rapid.T, label, name string) podstatus.ContainerStatus {
	cs := podstatus.ContainerStatus{Name: name, Ready: rapid.Bool().Draw(t, label+"Ready")}
	switch rapid.IntRange(0, 4).Draw(t, label+"State") {
	case 0: // no state
	case 1:
		cs.State.Running = &podstatus.StateRunning{StartedAt: difftest.PodT0}
	case 2:
		cs.State.Terminated = drawTerminated(t, label+"T")
	default:
		cs.State.Waiting = &podstatus.StateWaiting{Reason: rapid.SampledFrom([]string{"ContainerCreating", "CrashLoopBackOff", "RunContainerError", "ImagePullBackOff"}).Draw(t, label+"Why")}
	}
	if rapid.Bool().Draw(t, label+"HasLast") {
		cs.LastTerminationState.Terminated = drawTerminated(t, label+"L")
	}
	if rapid.IntRange(0, 2).Draw(t, label+"HasStarted") > 0 {
		b := rapid.Bool().Draw(t, label+"Started")
		cs.Started = &b
	}
	return cs
}

// phasePod draws any mix of regular init, sidecar and regular containers with
// any restart policy and rules, statuses in every state (missing,
// duplicated, stray), old conditions and readiness gates.
func phasePod(t *rapid.T) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = "pod"
	// (the conditions the kubelet generates observe it)
	p.Generation = int64(rapid.IntRange(0, 3).Draw(t, "generation"))
	p.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever, ""}).Draw(t, "podPolicy")
	if rapid.IntRange(0, 9).Draw(t, "static") == 0 {
		p.Annotations = map[string]string{kubetypes.ConfigSourceAnnotationKey: rapid.SampledFrom([]string{"api", "file", "http", ""}).Draw(t, "source")}
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "inits") {
		c := podstatus.Container{Name: "i" + strconv.Itoa(i)}
		if rapid.IntRange(0, 9).Draw(t, "initDup") == 0 {
			c.Name = rapid.SampledFrom(containerNames).Draw(t, "initName")
		}
		c.RestartPolicy = drawPolicy(t, "initPolicy", true)
		c.RestartPolicyRules = drawRules(t, "initRules")
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "containers") {
		c := podstatus.Container{Name: containerNames[i]}
		c.RestartPolicy = drawPolicy(t, "policy", true)
		c.RestartPolicyRules = drawRules(t, "rules")
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	statuses := func(label string, cs []podstatus.Container) []podstatus.ContainerStatus {
		if rapid.IntRange(0, 9).Draw(t, label+"Nil") == 0 {
			return nil
		}
		out := []podstatus.ContainerStatus{}
		for _, c := range cs {
			for range rapid.SampledFrom([]int{1, 1, 1, 1, 0, 2}).Draw(t, label+"Copies") {
				out = append(out, drawStatus(t, label, c.Name))
			}
		}
		if rapid.IntRange(0, 9).Draw(t, label+"Stray") == 0 {
			out = append(out, drawStatus(t, label+"Stray", rapid.SampledFrom(append([]string{"i0", "i1"}, containerNames...)).Draw(t, label+"StrayName")))
		}
		return out
	}
	p.Status.InitContainerStatuses = statuses("initStatus", p.Spec.InitContainers)
	p.Status.ContainerStatuses = statuses("status", p.Spec.Containers)
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "oldPhase")
	p.Status.Reason = rapid.SampledFrom([]string{"", "Evicted"}).Draw(t, "oldReason")
	p.Status.Message = rapid.SampledFrom([]string{"", "old message"}).Draw(t, "oldMessage")
	types := []podstatus.ConditionType{podstatus.PodScheduled, podstatus.PodReadyToStartContainers, podstatus.Initialized, podstatus.ContainersReady, podstatus.Ready, podstatus.DisruptionTarget, podstatus.AllContainersRestarting, "gate1", "gate2"}
	for range rapid.IntRange(0, 5).Draw(t, "conds") {
		p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{
			Type:               rapid.SampledFrom(types).Draw(t, "condType"),
			Status:             rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown, ""}).Draw(t, "condStatus"),
			LastTransitionTime: difftest.PodT0.Add(-time.Duration(rapid.IntRange(0, 100).Draw(t, "condAge")) * time.Second),
			Reason:             rapid.SampledFrom([]string{"", "Because"}).Draw(t, "condReason"),
			ObservedGeneration: int64(rapid.IntRange(0, 2).Draw(t, "condGeneration")),
		})
	}
	for range rapid.IntRange(0, 2).Draw(t, "gates") {
		p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, podstatus.ReadinessGate{ConditionType: rapid.SampledFrom([]podstatus.ConditionType{"gate1", "gate2", "gate3", podstatus.Initialized, podstatus.PodScheduled}).Draw(t, "gate")})
	}
	return p
}

func v1Terminated(t *podstatus.StateTerminated) *v1.ContainerStateTerminated {
	if t == nil {
		return nil
	}
	return &v1.ContainerStateTerminated{ExitCode: t.ExitCode, Signal: t.Signal, Reason: t.Reason, Message: t.Message,
		StartedAt: metav1.NewTime(t.StartedAt), FinishedAt: metav1.NewTime(t.FinishedAt)}
}

func v1State(s podstatus.ContainerState) v1.ContainerState {
	var u v1.ContainerState
	if s.Waiting != nil {
		u.Waiting = &v1.ContainerStateWaiting{Reason: s.Waiting.Reason, Message: s.Waiting.Message}
	}
	if s.Running != nil {
		u.Running = &v1.ContainerStateRunning{StartedAt: metav1.NewTime(s.Running.StartedAt)}
	}
	u.Terminated = v1Terminated(s.Terminated)
	return u
}

func v1Containers(cs []podstatus.Container) []v1.Container {
	var out []v1.Container
	for _, c := range cs {
		u := v1.Container{Name: c.Name, Image: c.Image}
		if c.RestartPolicy != nil {
			pol := v1.ContainerRestartPolicy(*c.RestartPolicy)
			u.RestartPolicy = &pol
		}
		for _, r := range c.RestartPolicyRules {
			ur := v1.ContainerRestartRule{Action: v1.ContainerRestartRuleAction(r.Action)}
			if r.ExitCodes != nil {
				ur.ExitCodes = &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOperator(r.ExitCodes.Operator), Values: r.ExitCodes.Values}
			}
			u.RestartPolicyRules = append(u.RestartPolicyRules, ur)
		}
		out = append(out, u)
	}
	return out
}

func v1Statuses(ss []podstatus.ContainerStatus) []v1.ContainerStatus {
	if ss == nil {
		return nil
	}
	out := []v1.ContainerStatus{}
	for _, s := range ss {
		out = append(out, v1.ContainerStatus{Name: s.Name, State: v1State(s.State), LastTerminationState: v1State(s.LastTerminationState),
			Ready: s.Ready, RestartCount: s.RestartCount, Started: s.Started, Image: s.Image})
	}
	return out
}

// phaseToV1 converts the fields the kubelet's status logic reads, keeping nil
// and empty lists apart. It is not the adapter's ToPod on purpose: the
// kubelet works on in-memory statuses where an empty container-status list
// is not a missing one (nil reads as UnknownContainerStatuses), while an
// API object's JSON, which the adapter speaks, drops empty lists.
func phaseToV1(p *podstatus.Pod) *v1.Pod {
	u := &v1.Pod{}
	u.Name, u.Namespace, u.UID, u.Generation = p.Name, p.Namespace, "uid", p.Generation
	u.Annotations = p.Annotations
	u.Spec.RestartPolicy = v1.RestartPolicy(p.Spec.RestartPolicy)
	u.Spec.InitContainers = v1Containers(p.Spec.InitContainers)
	u.Spec.Containers = v1Containers(p.Spec.Containers)
	for _, g := range p.Spec.ReadinessGates {
		u.Spec.ReadinessGates = append(u.Spec.ReadinessGates, v1.PodReadinessGate{ConditionType: v1.PodConditionType(g.ConditionType)})
	}
	u.Status.Phase = v1.PodPhase(p.Status.Phase)
	u.Status.Reason, u.Status.Message = p.Status.Reason, p.Status.Message
	for _, c := range p.Status.Conditions {
		u.Status.Conditions = append(u.Status.Conditions, v1.PodCondition{Type: v1.PodConditionType(c.Type), Status: v1.ConditionStatus(c.Status),
			LastTransitionTime: metav1.NewTime(c.LastTransitionTime), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration})
	}
	u.Status.InitContainerStatuses = v1Statuses(p.Status.InitContainerStatuses)
	u.Status.ContainerStatuses = v1Statuses(p.Status.ContainerStatuses)
	return u
}

func fromV1Conds(cs []v1.PodCondition) []podstatus.Condition {
	out := []podstatus.Condition{}
	for _, c := range cs {
		out = append(out, podstatus.Condition{Type: podstatus.ConditionType(c.Type), Status: meta.ConditionStatus(c.Status),
			LastTransitionTime: c.LastTransitionTime.Time, Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration})
	}
	return out
}

// upstreamPhase is getPhase on the kubelet's merged list: regular
// statuses, then init statuses.
func upstreamPhase(u *v1.Pod, terminal, initialized bool) podstatus.Phase {
	all := append(append([]v1.ContainerStatus{}, u.Status.ContainerStatuses...), u.Status.InitContainerStatuses...)
	return podstatus.Phase(getPhase(klog.Background(), u, all, terminal, initialized))
}

// TestPodStatusPhaseDifferential: KubeletPhase agrees with the kubelet's
// getPhase on random pods, whatever podIsTerminal and podHasInitialized say.
func TestPodStatusPhaseDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := phasePod(t)
		terminal := rapid.Bool().Draw(t, "terminal")
		initialized := rapid.Bool().Draw(t, "initialized")
		want := upstreamPhase(phaseToV1(p), terminal, initialized)
		got := podstatus.KubeletPhase(p, podstatus.Observed{Terminal: terminal, Initialized: &initialized})
		if got != want {
			t.Fatalf("KubeletPhase = %s, getPhase = %s", got, want)
		}
	})
}

// upstreamGenerate assembles the status as generateAPIPodStatus and the
// status manager's SetPodStatus do, from the kubelet's own functions, for a
// pod the status manager has no cached status for.
func upstreamGenerate(u *v1.Pod, obs podstatus.Observed, now time.Time) podstatus.Generated {
	initialized := false
	if obs.Initialized != nil {
		initialized = *obs.Initialized
	}
	old := u.Status
	s := v1.PodStatus{InitContainerStatuses: u.Status.InitContainerStatuses, ContainerStatuses: u.Status.ContainerStatuses}
	s.Phase = v1.PodPhase(upstreamPhase(u, obs.Terminal, initialized))
	if s.Phase != v1.PodFailed && s.Phase != v1.PodSucceeded && (old.Phase == v1.PodFailed || old.Phase == v1.PodSucceeded) {
		s.Phase = old.Phase
	}
	if s.Phase == old.Phase {
		s.Reason, s.Message = old.Reason, old.Message
	}
	if old.Phase == v1.PodFailed || old.Phase == v1.PodSucceeded {
		s.Phase = old.Phase
	}
	for _, c := range old.Conditions {
		if !kubetypes.PodConditionByKubelet(c.Type) {
			s.Conditions = append(s.Conditions, c)
		}
	}
	// (GeneratePodReadyToStartContainersCondition reads the runtime's pod
	// status, which the sandbox flag stands for)
	rts := v1.PodCondition{Type: v1.PodReadyToStartContainers, Status: v1.ConditionTrue,
		ObservedGeneration: podutil.CalculatePodConditionObservedGeneration(&old, u.Generation, v1.PodReadyToStartContainers)}
	if obs.NewSandboxNeeded {
		rts.Status = v1.ConditionFalse
	}
	s.Conditions = append(s.Conditions, rts)
	all := append(s.InitContainerStatuses, s.ContainerStatuses...)
	s.Conditions = append(s.Conditions, kubestatus.GeneratePodInitializedCondition(u, &old, all, s.Phase))
	s.Conditions = append(s.Conditions, kubestatus.GeneratePodReadyCondition(u, &old, s.Conditions, all, s.Phase))
	s.Conditions = append(s.Conditions, kubestatus.GenerateContainersReadyCondition(u, &old, all, s.Phase))
	s.Conditions = append(s.Conditions, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue,
		ObservedGeneration: podutil.CalculatePodConditionObservedGeneration(&old, u.Generation, v1.PodScheduled)})
	if utilfeature.DefaultFeatureGate.Enabled(features.RestartAllContainersOnContainerExits) && podutil.AllContainersCouldRestart(&u.Spec) {
		s.Conditions = append(s.Conditions, kubestatus.GenerateAllContainersRestartingCondition(u, runtimeStatus(obs.Runtime), &old, s.Phase))
	}
	for _, ct := range []v1.PodConditionType{v1.ContainersReady, v1.PodReady, v1.PodInitialized, v1.PodReadyToStartContainers, v1.PodScheduled, v1.DisruptionTarget, v1.AllContainersRestarting} {
		updateLTT(&s, &old, ct)
		// updateLastTransitionTime reads the wall clock when the status
		// changed; stand now in for it. Like it, touch only the first
		// condition of the type.
		if c := findCondition(s.Conditions, ct); c != nil {
			if oc := findCondition(old.Conditions, ct); oc == nil || oc.Status != c.Status {
				c.LastTransitionTime = metav1.NewTime(now)
			}
		}
	}
	return podstatus.Generated{Phase: podstatus.Phase(s.Phase), Reason: s.Reason, Message: s.Message, Conditions: fromV1Conds(s.Conditions)}
}

// runtimeStatus is the runtime's pod status with the given containers.
func runtimeStatus(rs []podstatus.RuntimeContainer) *kubecontainer.PodStatus {
	st := &kubecontainer.PodStatus{}
	for _, r := range rs {
		st.ContainerStatuses = append(st.ContainerStatuses, &kubecontainer.Status{Name: r.Name, State: kubecontainer.State(r.State), ExitCode: int(r.ExitCode)})
	}
	return st
}

func findCondition(cs []v1.PodCondition, t v1.PodConditionType) *v1.PodCondition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// drawRuntime draws the runtime's containers: names of the spec and
// strays, in every state, duplicates included (the first of a name counts).
func drawRuntime(t *rapid.T, p *podstatus.Pod) []podstatus.RuntimeContainer {
	if rapid.IntRange(0, 4).Draw(t, "runtimeNil") == 0 {
		return nil
	}
	names := []string{"x"}
	for _, c := range p.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range p.Spec.Containers {
		names = append(names, c.Name)
	}
	var rs []podstatus.RuntimeContainer
	// Often, first: an exited entry for a container with a
	// RestartAllContainers rule, with one of the rule's codes.
	for _, list := range [][]podstatus.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, c := range list {
			for _, r := range c.RestartPolicyRules {
				if r.Action == podstatus.ActionRestartAllContainers && r.ExitCodes != nil && len(r.ExitCodes.Values) > 0 && rapid.Bool().Draw(t, "runtimeTrigger") {
					rs = append(rs, podstatus.RuntimeContainer{Name: c.Name, State: podstatus.RuntimeExited, ExitCode: rapid.SampledFrom(r.ExitCodes.Values).Draw(t, "runtimeTriggerCode")})
				}
			}
		}
	}
	for range rapid.IntRange(0, 5).Draw(t, "runtimeN") {
		rs = append(rs, podstatus.RuntimeContainer{
			Name:     rapid.SampledFrom(names).Draw(t, "runtimeName"),
			State:    rapid.SampledFrom([]podstatus.RuntimeState{podstatus.RuntimeCreated, podstatus.RuntimeRunning, podstatus.RuntimeExited, podstatus.RuntimeExited, podstatus.RuntimeExited, podstatus.RuntimeUnknown}).Draw(t, "runtimeState"),
			ExitCode: rapid.SampledFrom([]int32{0, 1, 2, 3, 137}).Draw(t, "runtimeCode"),
		})
	}
	return rs
}

// checkGenerate: Generate agrees with the kubelet's phase, reason,
// message and condition generators and transition times, under the
// feature gates the test has set (opts says the same to kubesem).
func checkGenerate(t *rapid.T, opts podstatus.Options) {
	p := phasePod(t)
	obs := podstatus.Observed{Terminal: rapid.Bool().Draw(t, "terminal"), NewSandboxNeeded: rapid.Bool().Draw(t, "sandbox")}
	init := rapid.Bool().Draw(t, "initialized")
	obs.Initialized = &init
	obs.Runtime = drawRuntime(t, p)
	now := difftest.PodT0.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "now")) * time.Second)
	want := upstreamGenerate(phaseToV1(p), obs, now)
	got := podstatus.Generate(p, obs, now, opts)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("Generate differs from the kubelet (-kubelet +kubesem):\n%s", d)
	}
}

// TestPodStatusGenerateDifferential: Generate agrees with the kubelet on
// random pods with default gates (RestartAllContainersOnContainerExits on:
// AllContainersRestarting included).
func TestPodStatusGenerateDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkGenerate(t, podstatus.Options{}) })
}

// TestPodStatusGenerateRestartAllOffDifferential: the same with gate
// RestartAllContainersOnContainerExits off.
func TestPodStatusGenerateRestartAllOffDifferential(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.RestartAllContainersOnContainerExits, false)
	rapid.Check(t, func(t *rapid.T) {
		checkGenerate(t, podstatus.Options{DisableRestartAllContainersOnContainerExits: true})
	})
}
