package replicaset

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Reason says why a sync ended as it did or why a Plan takes an action.
type Reason = plan.Reason

// Reasons.
const (
	// ReasonSynced: the sync managed pods and computed status (outcome).
	ReasonSynced Reason = "Synced"
	// ReasonBeingDeleted: rs has a deletion timestamp; pods are not managed (outcome).
	ReasonBeingDeleted Reason = "BeingDeleted"
	// ReasonOrphanSelected: an orphan pod matches the selector (adopt).
	ReasonOrphanSelected Reason = "OrphanSelected"
	// ReasonSelectorMismatch: a controlled pod no longer matches (release).
	ReasonSelectorMismatch Reason = "SelectorMismatch"
	// ReasonTooFewReplicas: fewer active pods than replicas (create).
	ReasonTooFewReplicas Reason = "TooFewReplicas"
	// ReasonTooManyReplicas: more active pods than replicas (delete).
	ReasonTooManyReplicas Reason = "TooManyReplicas"
	// ReasonAvailabilityCheck: a ready pod becomes available later (requeue).
	ReasonAvailabilityCheck Reason = "AvailabilityCheck"
	// ReasonMinReadySeconds: some ready pods are not available and none has
	// a known time to become so; requeue after minReadySeconds.
	ReasonMinReadySeconds Reason = "MinReadySeconds"
	// ReasonStatusChanged: the status write (Plan.Writes).
	ReasonStatusChanged Reason = "StatusChanged"
	// ReasonSuccessfulCreate: the event the pod control records for each
	// pod it creates.
	ReasonSuccessfulCreate Reason = "SuccessfulCreate"
	// ReasonSuccessfulDelete: the event the pod control records for each
	// pod it deletes.
	ReasonSuccessfulDelete Reason = "SuccessfulDelete"
)

// PodRef names a pod a Plan adopts or releases.
type PodRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason,omitempty"`
}

// Plan is what the controller does in one sync of a ReplicaSet, in the
// house vocabulary (VOCABULARY.md).
type Plan struct {
	// Outcome is ReasonSynced, or ReasonBeingDeleted when pods are not
	// managed this sync.
	Outcome Reason `json:"outcome"`
	// Create is the pods created from the template (identical copies, so
	// no Objects); Batches are their slow-start batch sizes when every
	// creation succeeds.
	Create  plan.Creation[podstatus.Pod] `json:"create"`
	Batches []int                        `json:"batches,omitempty"`
	// Adopt and Release are the pods whose controller reference the sync
	// sets or removes.
	Adopt   []PodRef `json:"adopt,omitempty"`
	Release []PodRef `json:"release,omitempty"`
	// Delete is the pods deleted, in order. v1.36.3 deletes
	// Delete[:DeleteSure] whatever its unstable sort does; the rest are a
	// pinned choice among DeleteTied, the pods it could pick instead.
	Delete     []plan.Deletion `json:"delete"`
	DeleteSure int             `json:"deleteSure"`
	DeleteTied []plan.Deletion `json:"deleteTied,omitempty"`
	// Status is the status after the sync; UpdateStatus reports whether the
	// controller writes it.
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// Events are the events the pod control records on rs, in order: a
	// Normal SuccessfulCreate per pod created, then a Normal
	// SuccessfulDelete per pod deleted, in Delete's order (Object the pod's
	// name, Message "Deleted pod: <name>"). A created pod's event has no
	// Object and no Message: upstream's "Created pod: <name>" names the pod
	// the API server names from generateName, which is not known before the
	// write. The Step assumes every write succeeds, so FailedCreate and
	// FailedDelete are not modelled. A ReplicationController's sync records
	// the same events.
	Events []plan.Event `json:"events"`
	// Requeue is set when a ready pod's availability must be counted on
	// time (minReadySeconds).
	Requeue []plan.Requeue `json:"requeue"`
}

// MarshalJSON encodes p with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

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
//  4. The pod control records an event per pod created or deleted
//     (Plan.Events).
//  5. With minReadySeconds > 0 and ready != available, it requeues at the
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
	p := Plan{Outcome: ReasonSynced}
	active, terminating := claimAll(rs, pods, &p)
	if rs.IsDeleting() {
		p.Outcome = ReasonBeingDeleted
	} else {
		manage(rs, active, related, now, opts, &p)
	}
	p.Status = ComputeStatus(rs, active, terminating, nil, now, opts)
	p.UpdateStatus = !statusEqual(rs.Status, p.Status)
	if m := rs.Spec.MinReadySeconds; m > 0 && p.Status.ReadyReplicas != p.Status.AvailableReplicas {
		r := plan.Requeue{After: time.Duration(m) * time.Second, Reason: ReasonMinReadySeconds}
		if d, ok := podstatus.NextAvailabilityCheck(active, m, now); ok {
			r = plan.Requeue{After: d, Reason: ReasonAvailabilityCheck}
		}
		p.Requeue = []plan.Requeue{r}
	}
	return p, nil
}

// claimAll lists and claims pods, recording adoptions and releases in plan,
// and returns the claimed active pods and the terminating pods rs controls
// and selects.
func claimAll(rs *ReplicaSet, pods []*podstatus.Pod, out *Plan) (active, terminating []*podstatus.Pod) {
	selects := rs.PodSelector().Matcher()
	kind := rs.KindName()
	active = make([]*podstatus.Pod, 0, len(pods)) // (most pods given are active and claimed)
	for _, p := range pods {
		if p.Namespace != rs.Namespace {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && (ref.UID != rs.UID || ref.Kind != kind || ref.Name != rs.Name) {
			continue
		}
		if !podstatus.IsActive(p) {
			if podstatus.IsTerminating(p) && p.IsControlledBy(rs.UID) && selects(p.Labels) {
				terminating = append(terminating, p)
			}
			continue
		}
		switch claim(rs, selects, p) {
		case Owned:
			active = append(active, p)
		case Adopt:
			active = append(active, p)
			out.Adopt = append(out.Adopt, PodRef{Name: p.Name, UID: p.UID, Reason: ReasonOrphanSelected})
		case Release:
			out.Release = append(out.Release, PodRef{Name: p.Name, UID: p.UID, Reason: ReasonSelectorMismatch})
		}
	}
	// Upstream claims pods in its informer's order, which is arbitrary; the
	// Plan lists them by name, then UID.
	byName := func(a, b PodRef) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	}
	slices.SortFunc(out.Adopt, byName)
	slices.SortFunc(out.Release, byName)
	return active, terminating
}

// manage fills plan's creation or deletion.
func manage(rs *ReplicaSet, active, related []*podstatus.Pod, now time.Time, opts Options, p *Plan) {
	diff := Diff(len(active), rs.Replicas(), opts)
	switch {
	case diff < 0:
		sizes, _ := SlowStart(-diff, -diff)
		p.Create = plan.Creation[podstatus.Pod]{Count: int32(-diff), Reason: ReasonTooFewReplicas}
		p.Batches = sizes
		for range -diff {
			p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonSuccessfulCreate})
		}
	case diff > 0:
		if rs.ControllerRef() == nil {
			related = nil
		}
		v := PodsToDelete(active, related, diff, now, opts)
		p.Delete = refs(active, v.Pods, ReasonTooManyReplicas)
		p.DeleteSure = v.Sure
		p.DeleteTied = refs(active, v.Tied, ReasonTooManyReplicas)
		for _, d := range p.Delete {
			p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonSuccessfulDelete, Object: d.Name, Message: "Deleted pod: " + d.Name})
		}
	}
}

func refs(pods []*podstatus.Pod, idx []int, why Reason) []plan.Deletion {
	if len(idx) == 0 {
		return nil
	}
	out := make([]plan.Deletion, len(idx))
	for i, j := range idx {
		out[i] = plan.Deletion{Name: pods[j].Name, UID: pods[j].UID, Reason: why}
	}
	return out
}
