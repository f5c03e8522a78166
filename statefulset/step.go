package statefulset

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// MaxReplicas is the largest spec.replicas [Step] syncs. The API accepts up
// to 2147483647, but upstream's sync allocates a slot per replica (16 GiB
// at the maximum) and lists every Parallel creation; beyond MaxReplicas
// Step answers an Unsupported error on spec.replicas instead of exhausting
// memory.
const MaxReplicas = 1 << 20

// Plan is what the StatefulSet controller does in one sync, in the house
// vocabulary (VOCABULARY.md).
type Plan struct {
	// Outcome is the branch the sync ended in.
	Outcome Reason `json:"outcome"`
	// Revisions lists the ControllerRevision writes: the update revision's
	// creation or renumbering first, then history deletions.
	Revisions []history.Write `json:"revisions"`
	// Create is the pods created, in order.
	Create plan.Creation[NewPod] `json:"create"`
	// AdoptRevisions are the orphan revisions the sync adopts, Adopt and
	// Release the pods whose controller reference it sets or removes
	// ([ClaimRevision], [ClaimPod]), each by name, then UID; the
	// controller patches them, in that order, before any other write.
	AdoptRevisions []ObjectRef `json:"adoptRevisions,omitempty"`
	Adopt          []ObjectRef `json:"adopt,omitempty"`
	Release        []ObjectRef `json:"release,omitempty"`
	// Claims lists the claim writes in order.
	Claims []ClaimWrite `json:"claims"`
	// Update lists the pods updated (identity, storage or claim policy).
	Update []PodUpdate `json:"update"`
	// Delete lists the pods deleted, in the controller's order.
	Delete []plan.Deletion `json:"delete"`
	// Status is the status after the sync; UpdateStatus says whether the
	// controller writes it.
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// Events lists the warning events outside pod and claim writes.
	Events []plan.Event `json:"events"`
	// Requeue says when the controller looks again.
	Requeue []plan.Requeue `json:"requeue"`
}

// MarshalJSON encodes p with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// NewPod is one pod the controller creates: its name, its ordinal (the
// apps.kubernetes.io/pod-index label it gets) and its revision. For an
// ordinal beyond int32 v1.36.3 names the pod "<set>--1" with ordinal -1
// (see [Step]).
type NewPod struct {
	Name     string `json:"name"`
	Ordinal  int32  `json:"ordinal"`
	Revision string `json:"revision"`
}

// ClaimVerb is what a ClaimWrite does.
type ClaimVerb string

// Claim writes.
const (
	ClaimCreate ClaimVerb = "create"
	ClaimUpdate ClaimVerb = "update"
)

// ClaimWrite is a claim created for a pod or a claim whose owner
// references are rewritten to the retention policy.
type ClaimWrite struct {
	Verb            ClaimVerb             `json:"verb"`
	Name            string                `json:"name"`
	Pod             string                `json:"pod"`
	OwnerReferences []meta.OwnerReference `json:"ownerReferences,omitempty"`
	Reason          Reason                `json:"reason"`
}

// PodUpdate is one pod update and what it fixes.
type PodUpdate struct {
	Name    string   `json:"name"`
	Reasons []Reason `json:"reasons"`
}

type stepper struct {
	set       *StatefulSet
	now       time.Time
	opts      Options
	strategy  UpdateStrategy // spec.updateStrategy, defaulted
	claims    map[string]*Claim
	podNames  map[string]bool // the names of the pods given
	created   map[string]bool // the names of the pods this sync created
	plan      *Plan
	failed    bool
	failedWhy Reason
}

// Step is one sync of the StatefulSet controller: it settles the
// revisions ([Revisions]), creates missing pods (OrderedReady:
// the lowest, only when every lower pod is Running, Ready and available;
// Parallel: all), deletes failed pods, fixes identity, storage and claim
// ownership, deletes condemned pods (OrderedReady: the highest, one at a
// time, when every other pod is healthy), then replaces outdated pods from
// the highest ordinal down to the partition (one at a time, or up to
// maxUnavailable with the MaxUnavailableStatefulSet option), and computes
// the status. The update strategy is read as API defaulting leaves it
// ([UpdateStrategy.Defaulted]): a set without spec.updateStrategy has
// partition 0, so a pod it recreates gets the update revision, while a set
// of type RollingUpdate without a rollingUpdate block recreates a pod below
// start+status.currentReplicas at the current revision
// (newVersionedStatefulSetPod). pods are the pods of the set's namespace
// the controller lists (those it controls and the orphans it may adopt;
// others are ignored), revisions the ControllerRevisions it lists (those
// it controls and the orphans), claims the existing claims of its
// templates. The sync first claims revisions and pods ([ClaimRevision],
// [ClaimPod]: Plan.AdoptRevisions, Adopt, Release; a set being deleted
// that has orphan revisions to adopt ends there, Outcome Error) and works
// with those it claims. A set without spec.selector (which the API
// rejects) claims nothing: its pods and revisions are taken as given, as
// hand-written inputs give the set's own. Its pods are those named
// "<set>-<digits>" (one
// whose digits pass int32 is not synced, as upstream gives it ordinal -1,
// but keeps its revision live). Inputs are not modified; the Plan does
// not depend on their order.
//
// An ordinal beyond int32 (start+replicas-1 > 2147483647, which the API
// accepts) is synced as v1.36.3 syncs it: the pod created for it is named
// "<set>-<ordinal>" and then renamed from the ordinal it parses back, which
// is -1, so it is "<set>--1" (ordinal -1) with the claims of ordinal 1
// ("<template>-<set>-1", which is what "<set>--1" parses to), outside the
// set's range; a Parallel set then updates the pod's identity to
// "<set>-1", which fails unless such a pod exists. The pod is never one of
// the set's (its parent parses as "<set>-"), so every sync tries to create
// it again and fails with AlreadyExists once it exists.
// [Options].RefuseOrdinalsPastInt32 refuses such a set instead.
//
// The phases, each in its file: the set's pods by ordinal (members.go),
// their slots and the pods built for missing ordinals (slots.go), the
// OrderedReady and Parallel walks (ordering.go), the pass over the set's
// range (replicas.go) with its claim writes (claims.go), the condemned
// pods (condemned.go), the rolling update (update.go), then the status
// ([CountReplicas], [CompleteRollingUpdate], [StatusChanged]), the history
// ([TruncateHistory]) and the requeue.
//
// It returns the *field.Error of [Validate]; spec.templateRevision empty
// is Required, spec.replicas above [MaxReplicas] Unsupported, and pods
// sharing an ordinal a Duplicate on "pods" (see the package's Errors). A
// write that fails is no error: the Plan's outcome is then Error with a
// rate-limited requeue.
//
// Source: upstream pkg/controller/statefulset stateful_set_control.go
// UpdateStatefulSet, performUpdate, updateStatefulSet,
// updateStatefulSetAfterInvariantEstablished; stateful_set.go sync
// (adoptOrphanRevisions, getPodsForStatefulSet), syncStatefulSet (the
// minReadySeconds requeue) (v1.36.3); seed 002:L156-208.
func Step(set *StatefulSet, pods []*podstatus.Pod, revisions []history.ControllerRevision, claims []*Claim, now time.Time, opts Options) (Plan, error) {
	if err := Validate(set); err != nil {
		return Plan{}, err
	}
	if set.Spec.TemplateRevision == "" {
		// Without the template's revision every pod would look current or
		// outdated by accident: say so instead.
		return Plan{}, field.New("spec.templateRevision", "", fmt.Errorf("the ControllerRevision name the current template hashes to (<set>-<controller-revision-hash>) is required: %w", field.ErrRequired))
	}
	if n := set.Replicas(); n > MaxReplicas {
		return Plan{}, field.Int("spec.replicas", int64(n), fmt.Errorf("Step holds one slot per replica, as upstream does, and refuses more than %d: %w", MaxReplicas, field.ErrUnsupported))
	}
	if _, end, _ := Ordinals(set.Replicas(), set.Start()); opts.RefuseOrdinalsPastInt32 && end-1 > math.MaxInt32 {
		return Plan{}, field.Int("spec.ordinals.start", int64(set.Start()), fmt.Errorf("the last ordinal %d is beyond int32 (Options.RefuseOrdinalsPastInt32): %w", end-1, field.ErrOverflow))
	}
	c := claimed{pods: pods, revisions: revisions}
	if set.Spec.Selector != nil {
		c = claimAll(set, pods, revisions)
	}
	if len(c.adoptRevisions) > 0 && set.IsDeleting() {
		// The adoption's recheck finds the set being deleted: the sync
		// ends with an error before any write.
		return Plan{Outcome: ReasonError, Status: copyStatus(set.Status),
			Requeue: []plan.Requeue{{Reason: ReasonCannotAdopt, RateLimited: true}}}, nil
	}
	// (a pod the set does not claim still holds its name: creating a pod
	// of that name fails)
	listed := pods
	pods, revisions = c.pods, c.revisions
	members, ords, unparsed, err := memberPods(set, pods)
	if err != nil {
		return Plan{}, err
	}
	revs := slices.Clone(revisions)
	history.Sort(revs)
	s := &stepper{set: set, now: now, opts: opts, strategy: set.Spec.UpdateStrategy.Defaulted(opts),
		claims: make(map[string]*Claim, len(claims)), podNames: make(map[string]bool, len(pods)), created: map[string]bool{}}
	for _, p := range listed {
		if p != nil {
			s.podNames[p.Name] = true
		}
	}
	for _, c := range claims {
		if c != nil {
			s.claims[c.Name] = c
		}
	}
	p := Plan{Outcome: ReasonSynced, AdoptRevisions: c.adoptRevisions, Adopt: c.adopt, Release: c.release}
	s.plan = &p
	current, update, w := Revisions(set, revs)
	if w != nil {
		p.Revisions = append(p.Revisions, *w)
	}
	st := Status{ObservedGeneration: set.Generation, CurrentRevision: current, UpdateRevision: update}
	cc := int32(0)
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	st.CollisionCount = &cc
	mrs := set.Spec.MinReadySeconds
	all := members // every claimed pod, for live revisions and the requeue
	if len(unparsed) > 0 {
		all = append(slices.Clone(members), unparsed...)
	}
	// Upstream counts every claimed pod first and, unless the set is being
	// deleted, counts again over the pods it sorted into ordinals.
	if set.DeletionTimestamp != nil {
		CountReplicas(&st, all, mrs, now)
	} else {
		CountReplicas(&st, members, mrs, now)
	}

	p.Outcome = s.sync(members, ords, &st, current, update)

	CompleteRollingUpdate(set, &st)
	if StatusChanged(&set.Status, &st) {
		p.Status, p.UpdateStatus = st, true
	} else {
		p.Status = copyStatus(set.Status)
	}
	live := map[string]bool{current: true, update: true}
	for _, m := range all {
		live[PodRevision(m)] = true
	}
	p.Revisions = append(p.Revisions, TruncateHistory(revs, set.HistoryLimit(), func(n string) bool { return live[n] })...)
	if s.failed {
		p.Outcome = ReasonError
		p.Requeue = []plan.Requeue{{Reason: s.failedWhy, RateLimited: true}}
	} else if mrs > 0 && st.ReadyReplicas != st.AvailableReplicas {
		after := time.Duration(mrs) * time.Second
		if d, ok := podstatus.NextAvailabilityCheck(all, mrs, now); ok {
			after = d
		}
		p.Requeue = []plan.Requeue{{After: after, Reason: ReasonMinReadySeconds}}
	}
	return p, nil
}

func copyStatus(s Status) Status {
	if s.CollisionCount != nil {
		c := *s.CollisionCount
		s.CollisionCount = &c
	}
	return s
}

// sync mirrors updateStatefulSet; it returns the outcome.
func (s *stepper) sync(members []*podstatus.Pod, ords []int32, st *Status, current, update string) Reason {
	set := s.set
	replicas, condemned := s.slots(members, ords, current, update)
	firstUnavailable := s.firstUnavailable(replicas, condemned)
	if set.DeletionTimestamp != nil {
		return ReasonBeingDeleted
	}
	monotonic := set.Policy() != Parallel

	if s.runForAll(len(replicas), monotonic, func(i int) bool { return s.processReplica(replicas, i, monotonic) }) {
		return s.stopped()
	}
	if s.processCondemned(condemned, firstUnavailable, monotonic) {
		return s.stopped()
	}
	if s.strategy.Type == OnDelete {
		return ReasonOnDelete
	}
	return s.rollingUpdate(replicas, st, update)
}

func (s *stepper) fail(why Reason) {
	if !s.failed {
		s.failed, s.failedWhy = true, why
	}
}

func (s *stepper) delete(name, uid string, why Reason) {
	s.plan.Delete = append(s.plan.Delete, plan.Deletion{Name: name, UID: uid, Reason: why})
}
