package podstatus

import (
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// Condition reasons the kubelet writes.
const (
	ReasonUnknownContainerStatuses = "UnknownContainerStatuses"
	ReasonPodCompleted             = "PodCompleted"
	ReasonPodFailed                = "PodFailed"
	ReasonContainersNotReady       = "ContainersNotReady"
	ReasonContainersNotInitialized = "ContainersNotInitialized"
	ReasonReadinessGatesNotReady   = "ReadinessGatesNotReady"
)

// AllContainersRestarting is the condition type the kubelet owns when a
// container has a RestartAllContainers rule.
const AllContainersRestarting ConditionType = "AllContainersRestarting"

// IsKubeletCondition reports whether the kubelet owns conditions of type t
// (and so regenerates them): PodScheduled, Ready, Initialized,
// ContainersReady, PodReadyToStartContainers and AllContainersRestarting.
//
// Source: upstream pkg/kubelet/types/pod_status.go PodConditionByKubelet (v1.36.3).
func IsKubeletCondition(t ConditionType) bool { return isKubeletCondition(t, Options{}) }

// isKubeletCondition is IsKubeletCondition under the gates of opts: with
// RestartAllContainersOnContainerExits off, AllContainersRestarting is not
// the kubelet's.
func isKubeletCondition(t ConditionType, opts Options) bool {
	switch t {
	case PodScheduled, Ready, Initialized, ContainersReady, PodReadyToStartContainers:
		return true
	case AllContainersRestarting:
		return opts.restartAll()
	}
	return false
}

// listMessage writes "prefix[a b c]", the way Go prints a []string.
func listMessage(b *strings.Builder, prefix string, names []string) {
	if b.Len() > 0 {
		b.WriteString(", ")
	}
	b.WriteString(prefix)
	b.WriteByte('[')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
	}
	b.WriteByte(']')
}

// hasStatuses is whether the kubelet's list of init then regular statuses
// is non-nil: the init list is, or the regular list is not empty.
func hasStatuses(p *Pod) bool {
	return p.Status.InitContainerStatuses != nil || len(p.Status.ContainerStatuses) > 0
}

// ContainersReadyCondition returns the ContainersReady condition the kubelet
// generates for a pod in phase: False UnknownContainerStatuses without any
// status list; False PodCompleted when Succeeded with every sidecar and
// regular container known; False PodFailed when Failed; False
// ContainersNotReady naming the unknown and unready sidecar and regular
// containers; else True. The transition time is left zero; the observed
// generation is the pod's (gate PodObservedGenerationTracking, locked on).
//
// Source: upstream pkg/kubelet/status/generate.go GenerateContainersReadyCondition (v1.36.3).
func ContainersReadyCondition(p *Pod, phase Phase) Condition {
	return withGeneration(p, containersReady(p, phase))
}

// withGeneration returns c observing p's generation, as the kubelet sets
// the conditions it generates (CalculatePodConditionObservedGeneration
// with gate PodObservedGenerationTracking locked on).
func withGeneration(p *Pod, c Condition) Condition {
	if p != nil {
		c.ObservedGeneration = p.Generation
	}
	return c
}

// containersReady is ContainersReadyCondition but its observed generation.
func containersReady(p *Pod, phase Phase) Condition {
	c := Condition{Type: ContainersReady, Status: meta.ConditionFalse}
	if p == nil || !hasStatuses(p) {
		c.Reason = ReasonUnknownContainerStatuses
		return c
	}
	var unknown, unready []string
	check := func(ct *Container) {
		if cs, ok := findInitFirst(&p.Status, ct.Name); !ok {
			unknown = append(unknown, ct.Name)
		} else if !cs.Ready {
			unready = append(unready, ct.Name)
		}
	}
	for i := range p.Spec.InitContainers {
		if IsRestartableInit(&p.Spec.InitContainers[i]) {
			check(&p.Spec.InitContainers[i])
		}
	}
	for i := range p.Spec.Containers {
		check(&p.Spec.Containers[i])
	}
	switch {
	case phase == Succeeded && len(unknown) == 0:
		c.Reason = ReasonPodCompleted
		return c
	case phase == Failed:
		c.Reason = ReasonPodFailed
		return c
	}
	if len(unknown) == 0 && len(unready) == 0 {
		c.Status = meta.ConditionTrue
		return c
	}
	var b strings.Builder
	if len(unknown) > 0 {
		listMessage(&b, "containers with unknown status: ", unknown)
	}
	if len(unready) > 0 {
		listMessage(&b, "containers with unready status: ", unready)
	}
	c.Reason, c.Message = ReasonContainersNotReady, b.String()
	return c
}

// ReadyCondition returns the Ready condition the kubelet generates: the
// status, reason and message of [ContainersReadyCondition] when that is not
// True; else False ReadinessGatesNotReady when a readiness gate's condition
// (looked up in conds) is missing or not True, with one message per gate;
// else True. The observed generation is the pod's.
//
// Source: upstream pkg/kubelet/status/generate.go GeneratePodReadyCondition (v1.36.3).
func ReadyCondition(p *Pod, conds []Condition, phase Phase) Condition {
	return withGeneration(p, ready(p, conds, phase))
}

// ready is ReadyCondition but its observed generation.
func ready(p *Pod, conds []Condition, phase Phase) Condition {
	cr := containersReady(p, phase)
	cr.Type = Ready
	if cr.Status != meta.ConditionTrue {
		return cr
	}
	var b strings.Builder
	for _, g := range p.Spec.ReadinessGates {
		found := false
		for i := range conds {
			if conds[i].Type != g.ConditionType {
				continue
			}
			found = true
			if conds[i].Status != meta.ConditionTrue {
				if b.Len() > 0 {
					b.WriteString(", ")
				}
				b.WriteString("the status of pod readiness gate " + strconv.Quote(string(g.ConditionType)) + ` is not "True", but ` + string(conds[i].Status))
			}
			break
		}
		if !found {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString("corresponding condition of pod readiness gate " + strconv.Quote(string(g.ConditionType)) + " does not exist.")
		}
	}
	if b.Len() > 0 {
		return Condition{Type: Ready, Status: meta.ConditionFalse, Reason: ReasonReadinessGatesNotReady, Message: b.String()}
	}
	return Condition{Type: Ready, Status: meta.ConditionTrue}
}

// InitializedCondition returns the Initialized condition the kubelet
// generates: False UnknownContainerStatuses with init containers but no
// status list; True PodCompleted when Succeeded with every init container
// known; True once a regular container has started; True when every regular
// init container is ready and every sidecar started; True when it was True
// before (in-place restarts never uninitialize a pod; gate
// RestartAllContainersOnContainerExits); else False
// ContainersNotInitialized naming the unknown and incomplete init containers.
// The observed generation is the pod's.
//
// Source: upstream pkg/kubelet/status/generate.go GeneratePodInitializedCondition (v1.36.3).
func InitializedCondition(p *Pod, phase Phase) Condition {
	return initializedCondition(p, phase, Options{})
}

// initializedCondition is InitializedCondition under the gates of opts: a
// True condition is kept only with RestartAllContainersOnContainerExits on.
func initializedCondition(p *Pod, phase Phase, opts Options) Condition {
	return withGeneration(p, initialized(p, phase, opts))
}

// initialized is initializedCondition but its observed generation.
func initialized(p *Pod, phase Phase, opts Options) Condition {
	c := Condition{Type: Initialized, Status: meta.ConditionTrue}
	if p == nil {
		return c
	}
	if !hasStatuses(p) && len(p.Spec.InitContainers) > 0 {
		return Condition{Type: Initialized, Status: meta.ConditionFalse, Reason: ReasonUnknownContainerStatuses}
	}
	var unknown, incomplete []string
	for i := range p.Spec.InitContainers {
		ct := &p.Spec.InitContainers[i]
		cs, ok := findInitFirst(&p.Status, ct.Name)
		switch {
		case !ok:
			unknown = append(unknown, ct.Name)
		case IsRestartableInit(ct):
			if cs.Started == nil || !*cs.Started {
				incomplete = append(incomplete, ct.Name)
			}
		case !cs.Ready:
			incomplete = append(incomplete, ct.Name)
		}
	}
	if phase == Succeeded && len(unknown) == 0 {
		c.Reason = ReasonPodCompleted
		return c
	}
	if AnyRegularStarted(p) || len(unknown) == 0 && len(incomplete) == 0 {
		return c
	}
	for _, old := range p.Status.Conditions {
		if opts.restartAll() && old.Type == Initialized && old.Status == meta.ConditionTrue {
			return c
		}
	}
	var b strings.Builder
	if len(unknown) > 0 {
		listMessage(&b, "containers with unknown status: ", unknown)
	}
	if len(incomplete) > 0 {
		listMessage(&b, "containers with incomplete status: ", incomplete)
	}
	return Condition{Type: Initialized, Status: meta.ConditionFalse, Reason: ReasonContainersNotInitialized, Message: b.String()}
}

// Generated is what the kubelet writes into a pod's status on a sync: the
// phase with its reason and message, and the conditions in the order it
// writes them.
type Generated struct {
	Phase      Phase       `json:"phase"`
	Reason     string      `json:"reason,omitempty"`
	Message    string      `json:"message,omitempty"`
	Conditions []Condition `json:"conditions"`
}

// Generate returns the status the kubelet writes for the pod at now. The
// pod's status is both the old status (phase, reason, message, conditions)
// and the container statuses the kubelet observes. The phase is
// [KubeletPhase], except that a terminal phase already written is never
// left; reason and message are kept while the phase stays. Conditions the
// kubelet does not own are kept in their order; then come
// PodReadyToStartContainers, Initialized, Ready, ContainersReady,
// PodScheduled (always True) and, for a pod with a RestartAllContainers rule
// ([CanRestartAll]), AllContainersRestarting from obs.Runtime
// ([AllContainersRestartingCondition]). A condition keeps the transition
// time of the first old condition of its type when the status is unchanged,
// else gets now; each but AllContainersRestarting observes the pod's
// generation.
//
// Source: upstream pkg/kubelet/kubelet_pods.go generateAPIPodStatus and
// pkg/kubelet/status/status_manager.go updateLastTransitionTime (v1.36.3).
func Generate(p *Pod, obs Observed, now time.Time, opts Options) Generated {
	if p == nil {
		return Generated{Phase: Pending, Conditions: []Condition{}}
	}
	g := Generated{Phase: kubeletPhase(p, obs, opts)}
	if IsTerminal(p) {
		// A computed terminal phase that differs from the one written is
		// overruled only after reason and message were chosen.
		if g.Phase != Succeeded && g.Phase != Failed {
			g.Phase = p.Status.Phase
		}
		if g.Phase == p.Status.Phase {
			g.Reason, g.Message = p.Status.Reason, p.Status.Message
		}
		g.Phase = p.Status.Phase
	} else if g.Phase == p.Status.Phase {
		g.Reason, g.Message = p.Status.Reason, p.Status.Message
	}
	conds := make([]Condition, 0, len(p.Status.Conditions)+6)
	for _, c := range p.Status.Conditions {
		if !isKubeletCondition(c.Type, opts) {
			conds = append(conds, c)
		}
	}
	rts := Condition{Type: PodReadyToStartContainers, Status: meta.ConditionTrue, ObservedGeneration: p.Generation}
	if obs.NewSandboxNeeded {
		rts.Status = meta.ConditionFalse
	}
	own := len(conds)
	conds = append(conds, rts, initializedCondition(p, g.Phase, opts))
	conds = append(conds, ReadyCondition(p, conds, g.Phase))
	conds = append(conds, ContainersReadyCondition(p, g.Phase), Condition{Type: PodScheduled, Status: meta.ConditionTrue, ObservedGeneration: p.Generation})
	if opts.restartAll() && CanRestartAll(p) {
		conds = append(conds, AllContainersRestartingCondition(p, obs.Runtime, g.Phase))
	}
	for i := own; i < len(conds); i++ {
		conds[i].LastTransitionTime = now
		if old := p.Condition(conds[i].Type); old != nil && old.Status == conds[i].Status {
			conds[i].LastTransitionTime = old.LastTransitionTime
		}
	}
	g.Conditions = conds
	return g
}
