package podstatus

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
)

// DefaultTerminationGracePeriodSeconds is the API's default
// spec.terminationGracePeriodSeconds.
const DefaultTerminationGracePeriodSeconds = 30

// MinimumKillGracePeriodSeconds is the shortest window the kubelet gives a
// container between SIGTERM and SIGKILL.
const MinimumKillGracePeriodSeconds = 2

// DisruptionTarget condition reasons: who is about to delete the pod.
const (
	ReasonPreemptionByScheduler  = "PreemptionByScheduler"
	ReasonDeletionByTaintManager = "DeletionByTaintManager"
	ReasonEvictionByEvictionAPI  = "EvictionByEvictionAPI"
	ReasonDeletionByPodGC        = "DeletionByPodGC"
	ReasonTerminationByKubelet   = "TerminationByKubelet"
)

// DisruptionCondition returns the DisruptionTarget condition a component
// adds before it deletes a pod: True, with reason and message, transition
// time now.
//
// Source: seed 000 disruptions (pod disruption conditions); upstream
// pkg/controller/podgc/gc_controller.go and pkg/registry/core/pod/storage/eviction.go (v1.36.3).
func DisruptionCondition(reason, message string, now time.Time) Condition {
	return Condition{Type: DisruptionTarget, Status: meta.ConditionTrue, Reason: reason, Message: message, LastTransitionTime: now}
}

// DeleteOutcome says what a DELETE of a pod does.
type DeleteOutcome string

// Delete outcomes.
const (
	// DeleteGraceful sets the deletion timestamp now+grace; the kubelet
	// stops the containers.
	DeleteGraceful DeleteOutcome = "Graceful"
	// DeleteImmediately removes the pod from the API at once (finalizers
	// permitting): grace 0.
	DeleteImmediately DeleteOutcome = "Immediately"
	// DeleteShortened moves an existing deletion earlier.
	DeleteShortened DeleteOutcome = "Shortened"
	// DeletePending leaves an already-terminating pod as it is; the
	// Deletion reports its deletion time and effective grace (a negative
	// deletionGracePeriodSeconds counts as 1).
	DeletePending DeleteOutcome = "Pending"
)

// Deletion is the result of a DELETE: the outcome and the pod's deletion
// timestamp and grace period afterwards.
type Deletion struct {
	Outcome            DeleteOutcome `json:"outcome"`
	GracePeriodSeconds int64         `json:"gracePeriodSeconds"`
	DeletionTimestamp  time.Time     `json:"deletionTimestamp,omitzero"`
}

// GracefulDelete decides a DELETE of pod p at now with the request's
// gracePeriodSeconds (nil when not given). A negative request counts as 1.
// A pod already terminating with a non-zero grace keeps it unless the
// request is shorter, which moves the deletion to old-timestamp - old-grace
// + requested, not before now (a non-zero grace then becomes 1); a zero or
// missing grace deletes it at once. Otherwise the grace is the request, else
// spec.terminationGracePeriodSeconds, else 0; 0 for an unscheduled or
// terminal pod; a negative value is 1. Grace 0 deletes at once (force
// delete); any other sets the deletion timestamp to now+grace.
//
// Source: upstream staging apiserver pkg/registry/rest/delete.go
// BeforeDelete and pkg/registry/core/pod/strategy.go CheckGracefulDelete
// (v1.36.3); seed 000 pod termination.
func GracefulDelete(p *Pod, requested *int64, now time.Time) Deletion {
	var req *int64
	if requested != nil {
		r := max(*requested, 1)
		if *requested >= 0 {
			r = *requested
		}
		req = &r
	}
	if p == nil {
		return Deletion{Outcome: DeleteImmediately}
	}
	if p.DeletionTimestamp != nil {
		old := p.DeletionGracePeriodSeconds
		if old == nil || *old == 0 {
			return Deletion{Outcome: DeleteImmediately, DeletionTimestamp: *p.DeletionTimestamp}
		}
		oldGrace := max(*old, 1)
		if *old >= 0 {
			oldGrace = *old
		}
		if req == nil || *req >= oldGrace {
			return Deletion{Outcome: DeletePending, GracePeriodSeconds: oldGrace, DeletionTimestamp: *p.DeletionTimestamp}
		}
		period := *req
		ts := p.DeletionTimestamp.Add(-time.Second * time.Duration(oldGrace)).Add(time.Second * time.Duration(period))
		if ts.Before(now) {
			ts = now
			if period != 0 {
				period = 1
			}
		}
		return Deletion{Outcome: DeleteShortened, GracePeriodSeconds: period, DeletionTimestamp: ts}
	}
	var period int64
	switch {
	case req != nil:
		period = *req
	case p.Spec.TerminationGracePeriodSeconds != nil:
		period = *p.Spec.TerminationGracePeriodSeconds
	}
	if p.Spec.NodeName == "" || IsTerminal(p) {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	ts := now.Add(time.Second * time.Duration(period))
	if period == 0 {
		return Deletion{Outcome: DeleteImmediately, DeletionTimestamp: ts}
	}
	return Deletion{Outcome: DeleteGraceful, GracePeriodSeconds: period, DeletionTimestamp: ts}
}

// KillGracePeriod returns the grace period, in seconds, the kubelet uses to
// stop the pod's containers: an override (eviction, node shutdown) if given,
// else metadata.deletionGracePeriodSeconds, else
// spec.terminationGracePeriodSeconds, else 2. Probe-level grace periods are
// not modelled.
//
// Source: upstream pkg/kubelet/kuberuntime/kuberuntime_container.go
// setTerminationGracePeriod and killContainer (v1.36.3).
func KillGracePeriod(p *Pod, override *int64) int64 {
	switch {
	case override != nil:
		return *override
	case p == nil:
		return MinimumKillGracePeriodSeconds
	case p.DeletionGracePeriodSeconds != nil:
		return *p.DeletionGracePeriodSeconds
	case p.Spec.TerminationGracePeriodSeconds != nil:
		return *p.Spec.TerminationGracePeriodSeconds
	}
	return MinimumKillGracePeriodSeconds
}

// KillPlan is when, counted from the start of a container's stop, the
// kubelet sends SIGTERM and SIGKILL.
type KillPlan struct {
	// PreStop is how long the preStop hook is given (0 without one).
	PreStop time.Duration `json:"preStop"`
	// SIGTERM is when the stop signal is sent: when the hook ends or its
	// time runs out.
	SIGTERM time.Duration `json:"sigterm"`
	// SIGKILL is when the container is killed if it is still running.
	SIGKILL time.Duration `json:"sigkill"`
}

// PlanKill returns when the kubelet signals a container it stops with grace
// seconds, given how long its preStop hook would run (nil without a hook):
// the hook runs first, for at most grace seconds (and only when grace > 0);
// then SIGTERM; the whole seconds the hook took are subtracted from grace,
// and the container always gets at least 2 s more before SIGKILL — the
// one-time extension a hook that over-runs its grace period gets.
//
// Source: upstream pkg/kubelet/kuberuntime/kuberuntime_container.go
// killContainer and executePreStopHook (v1.36.3); seed 000 pod termination.
func PlanKill(grace int64, preStop *time.Duration) KillPlan {
	var k KillPlan
	if preStop != nil && grace > 0 {
		run := max(*preStop, 0)
		if limit := secondsDuration(grace); run > limit {
			run = limit
		}
		k.PreStop, k.SIGTERM = run, run
		grace -= int64(run / time.Second)
	}
	grace = max(grace, MinimumKillGracePeriodSeconds)
	k.SIGKILL = k.SIGTERM + secondsDuration(grace)
	return k
}

// secondsDuration is s seconds, saturating at the largest Duration.
func secondsDuration(s int64) time.Duration {
	if s > math.MaxInt64/int64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(s) * time.Second
}

// ValidateUpdate reports the first change from old to updated that the API
// rejects on a pod update, among the fields kubesem models, with its field
// path, in the order the API server checks them: containers and init
// containers may not be added or removed, and their images may not become
// empty or have leading or trailing whitespace; activeDeadlineSeconds may go
// from unset to a value in [1, 2^31-1] or down, never up or back to unset;
// tolerations may only be added (an existing one may change only its
// tolerationSeconds); terminationGracePeriodSeconds compares with a
// negative value read as 1, the value the API stores for it (so negative to 1
// and 1 to negative are no change); every other spec field, container fields other than the
// image included, is immutable.
//
// Both pods are taken as stored (defaulted, valid on their own); the new
// pod's own validation beyond these fields (tolerations, names, labels) is
// not repeated here.
//
// Source: upstream pkg/apis/core/validation/validation.go ValidatePodUpdate,
// ValidateContainerUpdates, validateOnlyAddedTolerations, ValidatePodSpec's
// activeDeadlineSeconds range, pkg/apis/core/v1/conversion.go
// Convert_v1_Pod_To_core_Pod (v1.36.3); seed 000 pods (pod update and
// replacement).
func ValidateUpdate(old, updated *Pod) error {
	if old == nil || updated == nil {
		return field.New("spec", "", field.ErrRequired)
	}
	o, n := &old.Spec, &updated.Spec
	if err := containerUpdates("spec.containers", n.Containers, o.Containers); err != nil {
		return err
	}
	if err := containerUpdates("spec.initContainers", n.InitContainers, o.InitContainers); err != nil {
		return err
	}
	const ads = "spec.activeDeadlineSeconds"
	if n.ActiveDeadlineSeconds != nil {
		v := *n.ActiveDeadlineSeconds
		if v < 1 || v > math.MaxInt32 {
			return field.Int(ads, v, field.ErrOverflow)
		}
		if o.ActiveDeadlineSeconds != nil && *o.ActiveDeadlineSeconds < v {
			return field.Int(ads, v, field.ErrInvalid)
		}
	} else if o.ActiveDeadlineSeconds != nil {
		return field.New(ads, "null", field.ErrInvalid)
	}
	for _, ot := range o.Tolerations {
		found := false
		for _, nt := range n.Tolerations {
			if ot.Key == nt.Key && ot.Operator == nt.Operator && ot.Value == nt.Value && ot.Effect == nt.Effect {
				found = true
				break
			}
		}
		if !found {
			return field.New("spec.tolerations", ot.Key, field.ErrForbidden)
		}
	}
	if !sameContainers(n.Containers, o.Containers) || !sameContainers(n.InitContainers, o.InitContainers) {
		return field.New("spec", "", field.ErrForbidden)
	}
	m := *n
	m.Containers, m.InitContainers = o.Containers, o.InitContainers
	m.ActiveDeadlineSeconds, m.Tolerations = o.ActiveDeadlineSeconds, o.Tolerations
	// The API stores a negative grace period as 1 (v1 to internal
	// conversion), so negative values compare as 1.
	oo := *o
	m.TerminationGracePeriodSeconds = storedGrace(n.TerminationGracePeriodSeconds)
	oo.TerminationGracePeriodSeconds = storedGrace(o.TerminationGracePeriodSeconds)
	if !specEqual(&m, &oo) {
		return field.New("spec", "", field.ErrForbidden)
	}
	return nil
}

// containerUpdates checks one container list: same length and valid images.
func containerUpdates(path string, n, o []Container) error {
	if len(n) != len(o) {
		return field.New(path, "", field.ErrForbidden)
	}
	for i := range n {
		if n[i].Image == "" {
			return field.New(field.Child(field.Index(path, i), "image"), "", field.ErrRequired)
		}
		if strings.TrimSpace(n[i].Image) != n[i].Image {
			return field.New(field.Child(field.Index(path, i), "image"), n[i].Image, field.ErrInvalid)
		}
	}
	return nil
}

// storedGrace is the grace period as the API stores it: negative becomes 1.
func storedGrace(g *int64) *int64 {
	if g != nil && *g < 0 {
		one := int64(1)
		return &one
	}
	return g
}

// sameContainers is whether two lists of equal length differ at most in
// their images.
func sameContainers(n, o []Container) bool {
	for i := range n {
		if !sameContainer(&n[i], &o[i]) {
			return false
		}
	}
	return true
}

// sameContainer compares everything but the image, nil and empty lists
// alike, as the API's semantic equality does.
func sameContainer(a, b *Container) bool {
	if a.Name != b.Name || (a.RestartPolicy == nil) != (b.RestartPolicy == nil) ||
		a.RestartPolicy != nil && *a.RestartPolicy != *b.RestartPolicy || len(a.RestartPolicyRules) != len(b.RestartPolicyRules) {
		return false
	}
	for i := range a.RestartPolicyRules {
		ra, rb := &a.RestartPolicyRules[i], &b.RestartPolicyRules[i]
		if ra.Action != rb.Action || (ra.ExitCodes == nil) != (rb.ExitCodes == nil) {
			return false
		}
		if ra.ExitCodes != nil && (ra.ExitCodes.Operator != rb.ExitCodes.Operator || !slices.Equal(ra.ExitCodes.Values, rb.ExitCodes.Values)) {
			return false
		}
	}
	return true
}

// specEqual compares the modelled spec fields with the API's semantic
// equality: nil and empty lists and maps are equal.
func specEqual(a, b *Spec) bool {
	if a.NodeName != b.NodeName || a.RestartPolicy != b.RestartPolicy || a.HostNetwork != b.HostNetwork ||
		!eqInt32(a.Priority, b.Priority) || !eqInt64(a.TerminationGracePeriodSeconds, b.TerminationGracePeriodSeconds) ||
		!eqInt64(a.ActiveDeadlineSeconds, b.ActiveDeadlineSeconds) || len(a.NodeSelector) != len(b.NodeSelector) ||
		len(a.ReadinessGates) != len(b.ReadinessGates) {
		return false
	}
	for k, v := range a.NodeSelector {
		if w, ok := b.NodeSelector[k]; !ok || w != v {
			return false
		}
	}
	for i := range a.ReadinessGates {
		if a.ReadinessGates[i] != b.ReadinessGates[i] {
			return false
		}
	}
	return true
}

func eqInt32(a, b *int32) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
func eqInt64(a, b *int64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
