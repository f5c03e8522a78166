package replicaset

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// Reason says why a Plan takes an action.
type Reason string

// Reasons.
const (
	// ReasonOrphanSelected: an orphan pod matches the selector (adopt).
	ReasonOrphanSelected Reason = "OrphanSelected"
	// ReasonSelectorMismatch: a controlled pod no longer matches (release).
	ReasonSelectorMismatch Reason = "SelectorMismatch"
	// ReasonTooFewReplicas: fewer active pods than replicas (create).
	ReasonTooFewReplicas Reason = "TooFewReplicas"
	// ReasonTooManyReplicas: more active pods than replicas (delete).
	ReasonTooManyReplicas Reason = "TooManyReplicas"
	// ReasonBeingDeleted: rs has a deletion timestamp; pods are not managed.
	ReasonBeingDeleted Reason = "BeingDeleted"
	// ReasonAvailabilityCheck: a ready pod becomes available later (requeue).
	ReasonAvailabilityCheck Reason = "AvailabilityCheck"
	// ReasonMinReadySeconds: some ready pods are not available and none has
	// a known time to become so; requeue after minReadySeconds.
	ReasonMinReadySeconds Reason = "MinReadySeconds"
)

// PodRef names a pod a Plan acts on.
type PodRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason,omitempty"`
}

// Creation is the pods a Plan creates from the template.
type Creation struct {
	// Count is how many pods are created; Batches their slow-start batch
	// sizes when every creation succeeds.
	Count   int    `json:"count"`
	Batches []int  `json:"batches,omitempty"`
	Reason  Reason `json:"reason,omitempty"`
}

// Deletion is the pods a Plan deletes, in order.
type Deletion struct {
	Pods []PodRef `json:"pods,omitempty"`
	// Sure says that v1.36.3 deletes Pods[:Sure] whatever its unstable sort
	// does; the rest are a pinned choice among Tied.
	Sure   int      `json:"sure"`
	Tied   []PodRef `json:"tied,omitempty"`
	Reason Reason   `json:"reason,omitempty"`
}

// Plan is what the controller does in one sync of a ReplicaSet.
type Plan struct {
	Adopt   []PodRef `json:"adopt,omitempty"`
	Release []PodRef `json:"release,omitempty"`
	Create  Creation `json:"create"`
	Delete  Deletion `json:"delete"`
	// Skipped is ReasonBeingDeleted when pods are not managed this sync.
	Skipped Reason `json:"skipped,omitempty"`
	// Status is the status written when UpdateStatus is set (and the
	// current one otherwise, with the same values).
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// RequeueAfter, when RequeueReason is set, is when to sync again so
	// that availableReplicas is counted on time.
	RequeueAfter  time.Duration `json:"requeueAfter,omitempty"`
	RequeueReason Reason        `json:"requeueReason,omitempty"`
}

// Step returns what the ReplicaSet (or ReplicationController) controller
// does in one sync of rs at now, assuming every API call succeeds:
//
//  1. Of pods, it lists those in rs's namespace that are controlled by rs
//     (by kind, name and UID) or have no controller, keeps the active ones
//     and claims them ([ClaimPod]): adopting orphans, releasing pods no
//     longer selected.
//  2. Unless rs is being deleted, it creates or deletes [Diff] pods: new
//     pods in [SlowStart] batches, or the victims of [PodsToDelete] with
//     ranks from related, the pods selected by ReplicaSets sharing rs's
//     controller (see [RelatedPods]; ignored when rs has no controller).
//  3. It computes [ComputeStatus] over the claimed pods and the terminating
//     pods controlled by rs that it selects, and whether it changed.
//  4. With minReadySeconds > 0 and ready != available, it requeues at the
//     next pod's availability ([podstatus.NextAvailabilityCheck]), or after
//     minReadySeconds when none is known.
//
// It returns a *field.Error for an invalid rs (see [Validate]), a nil pod
// ("pods[i]", "relatedPods[i]" ErrRequired) or two pods with the same UID
// ("pods[i].metadata.uid" ErrDuplicate), and a zero Plan with it.
//
// Source: upstream pkg/controller/replicaset/replica_set.go syncReplicaSet,
// claimPods, manageReplicas (v1.36.3); seed 000 ReplicaSet (000:L2143-2210).
func Step(rs *ReplicaSet, pods, related []*podstatus.Pod, now time.Time, opts Options) (Plan, error) {
	if err := Validate(rs); err != nil {
		return Plan{}, err
	}
	if err := validatePods("pods", pods, true); err != nil {
		return Plan{}, err
	}
	if err := validatePods("relatedPods", related, false); err != nil {
		return Plan{}, err
	}
	var plan Plan
	active, terminating := claimAll(rs, pods, &plan)
	if rs.IsDeleting() {
		plan.Skipped = ReasonBeingDeleted
	} else {
		manage(rs, active, related, now, opts, &plan)
	}
	plan.Status = ComputeStatus(rs, active, terminating, nil, now, opts)
	plan.UpdateStatus = !statusEqual(rs.Status, plan.Status)
	if m := rs.Spec.MinReadySeconds; m > 0 && plan.Status.ReadyReplicas != plan.Status.AvailableReplicas {
		plan.RequeueAfter, plan.RequeueReason = time.Duration(m)*time.Second, ReasonMinReadySeconds
		if d, ok := podstatus.NextAvailabilityCheck(active, m, now); ok {
			plan.RequeueAfter, plan.RequeueReason = d, ReasonAvailabilityCheck
		}
	}
	return plan, nil
}

// claimAll lists and claims pods, recording adoptions and releases in plan,
// and returns the claimed active pods and the terminating pods rs controls
// and selects.
func claimAll(rs *ReplicaSet, pods []*podstatus.Pod, plan *Plan) (active, terminating []*podstatus.Pod) {
	sel := rs.PodSelector()
	kind := rs.KindName()
	for _, p := range pods {
		if p.Namespace != rs.Namespace {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && (ref.UID != rs.UID || ref.Kind != kind || ref.Name != rs.Name) {
			continue
		}
		if !podstatus.IsActive(p) {
			if podstatus.IsTerminating(p) && p.IsControlledBy(rs.UID) && sel.Matches(p.Labels) {
				terminating = append(terminating, p)
			}
			continue
		}
		switch claim(rs, sel.Matches, p) {
		case Owned:
			active = append(active, p)
		case Adopt:
			active = append(active, p)
			plan.Adopt = append(plan.Adopt, PodRef{Name: p.Name, UID: p.UID, Reason: ReasonOrphanSelected})
		case Release:
			plan.Release = append(plan.Release, PodRef{Name: p.Name, UID: p.UID, Reason: ReasonSelectorMismatch})
		}
	}
	return active, terminating
}

// manage fills plan's creation or deletion.
func manage(rs *ReplicaSet, active, related []*podstatus.Pod, now time.Time, opts Options, plan *Plan) {
	diff := Diff(len(active), rs.Replicas(), opts)
	switch {
	case diff < 0:
		sizes, _ := SlowStart(-diff, -diff)
		plan.Create = Creation{Count: -diff, Batches: sizes, Reason: ReasonTooFewReplicas}
	case diff > 0:
		if rs.ControllerRef() == nil {
			related = nil
		}
		v := PodsToDelete(active, related, diff, now, opts)
		plan.Delete = Deletion{Pods: refs(active, v.Pods), Sure: v.Sure, Tied: refs(active, v.Tied), Reason: ReasonTooManyReplicas}
	}
}

func refs(pods []*podstatus.Pod, idx []int) []PodRef {
	if len(idx) == 0 {
		return nil
	}
	out := make([]PodRef, len(idx))
	for i, j := range idx {
		out[i] = PodRef{Name: pods[j].Name, UID: pods[j].UID}
	}
	return out
}
