package statefulset

import (
	"cmp"
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

// maxBatch caps one slow-start batch of a Parallel set (MaxBatchSize,
// stateful_set_control.go, v1.36.3).
const maxBatch = 500

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

// slot is one ordinal of the set's range, or a condemned pod.
type slot struct {
	pod     *podstatus.Pod
	ordinal int64 // the slot's ordinal (start + index) or the pod's
	// name is the pod's name: the existing pod's, or the one upstream
	// gives a new pod ("<set>--1" for an ordinal beyond int32).
	name string
	// claimOrd is the ordinal upstream reads back from name: the claims,
	// the storage and the ordinal range of the pod are computed from it.
	claimOrd int32
	new      bool   // the pod does not exist yet
	revision string // the revision of a new pod
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

// Step is one sync of the StatefulSet controller (UpdateStatefulSet and
// the requeue of sync, stateful_set_control.go and stateful_set.go,
// v1.36.3): it settles the revisions, creates missing pods (OrderedReady:
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
// (newVersionedStatefulSetPod). pods are the set's pods: those named
// "<set>-<digits>" (others are ignored; one whose digits pass int32 is not
// synced, as upstream gives it ordinal -1, but keeps its revision live),
// revisions its ControllerRevisions, claims the existing claims of its
// templates. Inputs are not modified; the Plan does not depend on their
// order.
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
	members, ords, unparsed, err := memberPods(set, pods)
	if err != nil {
		return Plan{}, err
	}
	revs := slices.Clone(revisions)
	history.Sort(revs)
	s := &stepper{set: set, now: now, opts: opts, strategy: set.Spec.UpdateStrategy.Defaulted(opts),
		claims: make(map[string]*Claim, len(claims)), podNames: make(map[string]bool, len(pods)), created: map[string]bool{}}
	for _, p := range pods {
		if p != nil {
			s.podNames[p.Name] = true
		}
	}
	for _, c := range claims {
		if c != nil {
			s.claims[c.Name] = c
		}
	}
	p := Plan{Outcome: ReasonSynced}
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

type member struct {
	pod *podstatus.Pod
	ord int32
}

// memberPods returns the set's pods sorted by ordinal, and their ordinals;
// a duplicate ordinal is an error, which names, for the lowest ordinal
// pods share, the one whose name sorts last (whatever the order of pods).
// unparsed are the pods upstream's isMemberOf still claims (the set's name,
// a dash, digits) whose ordinal does not fit int32: getOrdinal gives them
// -1, so the sync ignores them and so does the status it writes, except
// for a set being deleted; their revisions stay live and they count for
// the minReadySeconds requeue.
func memberPods(set *StatefulSet, pods []*podstatus.Pod) (members []*podstatus.Pod, ords []int32, unparsed []*podstatus.Pod, err error) {
	ms := make([]member, 0, len(pods))
	sorted := true
	for _, p := range pods {
		if p == nil {
			continue
		}
		parent, o, ok := ParentAndOrdinal(p.Name)
		if parent != set.Name {
			continue
		}
		if !ok {
			unparsed = append(unparsed, p)
			continue
		}
		if n := len(ms); n > 0 && ms[n-1].ord >= o {
			sorted = false
		}
		ms = append(ms, member{p, o})
	}
	if !sorted {
		slices.SortFunc(ms, func(a, b member) int {
			if c := cmp.Compare(a.ord, b.ord); c != 0 {
				return c
			}
			return cmp.Compare(a.pod.Name, b.pod.Name)
		})
	}
	members = make([]*podstatus.Pod, len(ms))
	ords = make([]int32, len(ms))
	for i := range ms {
		if i > 0 && ms[i].ord == ms[i-1].ord {
			j := i
			for j+1 < len(ms) && ms[j+1].ord == ms[i].ord {
				j++
			}
			return nil, nil, nil, duplicateOrdinal(ms[j].pod.Name)
		}
		members[i], ords[i] = ms[i].pod, ms[i].ord
	}
	return members, ords, unparsed, nil
}

// duplicateOrdinal is the error for pods sharing an ordinal: upstream keeps
// whichever its informer lists last, so no answer would be order-free.
func duplicateOrdinal(pod string) error {
	return field.New("pods", pod, fmt.Errorf("another pod has the ordinal of this one: %w", field.ErrDuplicate))
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

// slots lays the set's pods out as upstream does: replicas holds one slot
// per ordinal of [start, start+replicas), a missing pod's slot built by
// [stepper.newSlot]; condemned holds the pods outside that range, from the
// highest ordinal down.
func (s *stepper) slots(members []*podstatus.Pod, ords []int32, current, update string) (replicas, condemned []slot) {
	start, n := int64(s.set.Start()), s.set.Replicas()
	replicas = make([]slot, n)
	for i, m := range members {
		o := int64(ords[i])
		sl := slot{pod: m, ordinal: o, name: m.Name, claimOrd: ords[i]}
		if o >= start && o < start+int64(n) {
			replicas[o-start] = sl
		} else {
			condemned = append(condemned, sl)
		}
	}
	slices.Reverse(condemned)
	for i := range replicas {
		if replicas[i].pod == nil {
			replicas[i] = s.newSlot(start+int64(i), current, update)
		}
	}
	return replicas, condemned
}

// firstUnavailable returns the first unavailable slot: its index in
// replicas, or -2-i for condemned[i] (condemned walked from the lowest
// ordinal up), or -1 when every pod is available.
func (s *stepper) firstUnavailable(replicas, condemned []slot) int {
	for i := range replicas {
		if s.unavailable(&replicas[i]) {
			return i
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if s.unavailable(&condemned[i]) {
			return -2 - i
		}
	}
	return -1
}

// processCondemned mirrors the condemned pass of updateStatefulSet: the
// claims of every condemned pod are brought to the retention policy (which
// never stops: the model has no lookup errors), then processCondemned
// deletes them from the highest ordinal down. A monotonic sync stops at
// the first: it waits while that pod terminates, or while it is not
// Running, Ready and available unless it is the first unavailable pod of
// the set, and deletes it otherwise. It reports whether the sync stops
// here.
func (s *stepper) processCondemned(condemned []slot, firstUnavailable int, monotonic bool) bool {
	mrs := s.set.Spec.MinReadySeconds
	for i := range condemned {
		c := &condemned[i]
		if !s.claimsMatch(c.name, s.uidOf(c), c.claimOrd) {
			s.fixClaims(c.name, s.uidOf(c), c.claimOrd)
		}
	}
	return s.runForAll(len(condemned), monotonic, func(i int) bool {
		c := &condemned[i]
		if c.pod.IsDeleting() {
			return monotonic
		}
		isFirst := firstUnavailable == -2-i
		if monotonic && !isFirst && (!isRunningAndReady(c.pod) || !isAvailable(c.pod, mrs, s.now)) {
			return true
		}
		s.delete(c.pod.Name, c.pod.UID, ReasonCondemned)
		return true
	})
}

// rollingUpdate mirrors the rolling update of updateStatefulSet (and, with
// the MaxUnavailableStatefulSet option, updateStatefulSetAfterInvariantEstablished):
// outdated pods are deleted from the highest ordinal down to the
// partition, one at a time, stopping at an unavailable pod; with the
// option, up to maxUnavailable less the unavailable pods of the range.
// Each deletion lowers st.CurrentReplicas.
func (s *stepper) rollingUpdate(replicas []slot, st *Status, update string) Reason {
	updateMin := int64(0)
	ru := s.strategy.RollingUpdate
	if ru != nil && ru.Partition != nil {
		updateMin = int64(*ru.Partition)
	}
	if s.opts.MaxUnavailableStatefulSet {
		maxU := int64(1)
		if ru != nil {
			m, err := MaxUnavailable(ru.MaxUnavailable, s.set.Replicas())
			if err != nil {
				s.fail(ReasonError)
				return ReasonRollingUpdate
			}
			maxU = m
		}
		unavail := int64(0)
		for i := range replicas {
			if s.unavailable(&replicas[i]) {
				unavail++
			}
		}
		if unavail >= maxU {
			return ReasonRollingUpdate
		}
		budget := maxU - unavail
		for t := int64(len(replicas)) - 1; t >= updateMin && budget > 0; t-- {
			r := &replicas[t]
			if s.revisionOf(r) != update && !s.terminating(r) {
				s.delete(r.name, s.uidOf(r), ReasonOutdated)
				budget--
				st.CurrentReplicas--
			}
		}
		return ReasonRollingUpdate
	}
	for t := int64(len(replicas)) - 1; t >= updateMin; t-- {
		r := &replicas[t]
		if s.revisionOf(r) != update && !s.terminating(r) {
			s.delete(r.name, s.uidOf(r), ReasonOutdated)
			st.CurrentReplicas--
			return ReasonRollingUpdate
		}
		if s.unavailable(r) {
			return ReasonRollingUpdate
		}
	}
	return ReasonRollingUpdate
}

// newSlot is the pod upstream builds for missing ordinal o
// (newVersionedStatefulSetPod, newStatefulSetPod and initIdentity,
// stateful_set_utils.go, v1.36.3): named "<set>-<o>", then renamed from
// the ordinal its name parses back to, which for an o beyond int32 is -1
// ("<set>--1", whose name parses back to ordinal 1).
func (s *stepper) newSlot(o int64, current, update string) slot {
	idx := int32(-1)
	if o <= math.MaxInt32 {
		idx = int32(o)
	}
	name := PodName(s.set.Name, idx)
	return slot{ordinal: o, name: name, claimOrd: ParseOrdinal(name), new: true, revision: s.newPodRevision(o, current, update)}
}

// podIndex is the apps.kubernetes.io/pod-index label of a new pod: the
// ordinal its name was built from (-1 beyond int32).
func (r *slot) podIndex() int32 {
	if r.ordinal > math.MaxInt32 {
		return -1
	}
	return int32(r.ordinal)
}

// runForAll runs fn over [0,n): in order, stopping at the first true, when
// monotonic; otherwise in slow-start batches 1, 2, 4 … (at most maxBatch),
// stopping after a batch in which a write failed. It reports whether the
// sync stops here.
func (s *stepper) runForAll(n int, monotonic bool, fn func(i int) bool) bool {
	if monotonic {
		for i := 0; i < n; i++ {
			if fn(i) || s.failed {
				return true
			}
		}
		return false
	}
	i := 0
	for batch := min(n, 1); batch > 0; batch = min(2*batch, n-i, maxBatch) {
		for j := 0; j < batch; j++ {
			fn(i)
			i++
		}
		if s.failed {
			return true
		}
	}
	return false
}

// stopped is the outcome of a sync that stopped while scaling.
func (s *stepper) stopped() Reason {
	if s.plan.Create.Count > 0 || len(s.plan.Delete) > 0 {
		return ReasonScaling
	}
	return ReasonBlocked
}

func (s *stepper) fail(why Reason) {
	if !s.failed {
		s.failed, s.failedWhy = true, why
	}
}

func (s *stepper) unavailable(r *slot) bool {
	if r.new {
		return true
	}
	return IsUnavailable(r.pod, s.set.Spec.MinReadySeconds, s.now)
}

func (s *stepper) terminating(r *slot) bool { return !r.new && r.pod.IsDeleting() }

func (s *stepper) revisionOf(r *slot) string {
	if r.new {
		return r.revision
	}
	return PodRevision(r.pod)
}

func (s *stepper) uidOf(r *slot) string {
	if r.new {
		return ""
	}
	return r.pod.UID
}

// newPodRevision is the revision a missing pod is created at: with the
// strategy defaulted, the current revision below start+partition when there
// is a rollingUpdate block, or, for a RollingUpdate set without one, below
// start+status.currentReplicas; else the update revision
// (newVersionedStatefulSetPod, stateful_set_utils.go, v1.36.3). Ordinals are
// compared in 64 bits, as upstream compares ints.
func (s *stepper) newPodRevision(o int64, current, update string) string {
	set := s.set
	start := int64(set.Start())
	ru := s.strategy.RollingUpdate
	if s.strategy.Type == RollingUpdate && ru == nil && o < start+int64(set.Status.CurrentReplicas) {
		return current
	}
	if ru != nil {
		part := int64(0)
		if ru.Partition != nil {
			part = int64(*ru.Partition)
		}
		if o < start+part {
			return current
		}
	}
	return update
}

func (s *stepper) delete(name, uid string, why Reason) {
	s.plan.Delete = append(s.plan.Delete, plan.Deletion{Name: name, UID: uid, Reason: why})
}

// claimsMatch mirrors ClaimsMatchRetentionPolicy for the pod named pod
// with uid uid whose claims are those of ordinal o (the ordinal pod's name
// parses to).
func (s *stepper) claimsMatch(pod, uid string, o int32) bool {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return true
	}
	po := Owner{Name: pod, UID: uid}
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		c := s.claims[ClaimName(t, s.set.Name, o)]
		if c != nil && !ClaimOwnerUpToDate(c, s.set, po) {
			return false
		}
	}
	return true
}

// fixClaims mirrors UpdatePodClaimForRetentionPolicy for the pod named pod
// with uid uid whose claims are those of ordinal o (the ordinal pod's name
// parses to).
func (s *stepper) fixClaims(pod, uid string, o int32) {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	po := Owner{Name: pod, UID: uid}
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		c := s.claims[ClaimName(t, s.set.Name, o)]
		if c == nil {
			continue
		}
		if UnexpectedController(c, s.set, po) {
			s.plan.Events = append(s.plan.Events, plan.Event{Type: plan.Warning, Reason: ReasonConflictingController, Object: c.Name})
		}
		if !ClaimOwnerUpToDate(c, s.set, po) {
			s.plan.Claims = append(s.plan.Claims, ClaimWrite{Verb: ClaimUpdate, Name: c.Name, Pod: pod,
				OwnerReferences: ClaimOwnerRefs(c, s.set, po), Reason: ReasonRetention})
		}
	}
}

// createClaims mirrors createPersistentVolumeClaims for the pod named pod
// whose claims are those of ordinal o; false when a claim is being
// deleted.
func (s *stepper) createClaims(pod string, o int32) bool {
	ok := true
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		name := ClaimName(t, s.set.Name, o)
		c := s.claims[name]
		switch {
		case c == nil:
			s.plan.Claims = append(s.plan.Claims, ClaimWrite{Verb: ClaimCreate, Name: name, Pod: pod, Reason: ReasonClaimMissing})
		case c.DeletionTimestamp != nil:
			ok = false
		}
	}
	if !ok {
		s.fail(ReasonClaimBeingDeleted)
	}
	return ok
}

// processReplica mirrors processReplica; true stops a monotonic sync.
func (s *stepper) processReplica(replicas []slot, i int, monotonic bool) bool {
	r := &replicas[i]
	set := s.set
	if !r.new && podstatus.IsTerminal(r.pod) {
		if !r.pod.IsDeleting() {
			s.delete(r.pod.Name, r.pod.UID, ReasonPodFailed)
		}
		return true
	}
	uid := s.uidOf(r)
	if r.new || !isCreated(r.pod) {
		for _, tc := range set.Spec.VolumeClaimTemplates {
			t := tc.Name
			if c := s.claims[ClaimName(t, set.Name, r.claimOrd)]; c != nil && ClaimIsStale(c, set, Owner{Name: r.name, UID: uid}) {
				return true
			}
		}
		if !s.createClaims(r.name, r.claimOrd) {
			return true
		}
		if !r.new || s.podNames[r.name] || s.created[r.name] {
			// A pod of that name exists already (one without a phase, a
			// pod "<set>--1", or one this sync created): the creation fails.
			s.fail(ReasonAlreadyExists)
			return true
		}
		s.created[r.name] = true
		s.plan.Create.Objects = append(s.plan.Create.Objects, NewPod{Name: r.name, Ordinal: r.podIndex(), Revision: r.revision})
		s.plan.Create.Count++
		s.plan.Create.Reason = ReasonMissing
		s.fixClaims(r.name, uid, r.claimOrd)
		if monotonic {
			return true
		}
	}
	if !r.new && r.pod.Status.Phase == podstatus.Pending {
		if !s.createClaims(r.name, r.claimOrd) {
			return true
		}
		s.fixClaims(r.name, uid, r.claimOrd)
	}
	if !r.new && r.pod.IsDeleting() && monotonic {
		return true
	}
	if monotonic && (!isRunningAndReady(r.pod) || !isAvailable(r.pod, set.Spec.MinReadySeconds, s.now)) {
		return true
	}
	retention := s.claimsMatch(r.name, uid, r.claimOrd)
	idOK, storOK := s.nameMatches(r.name), true
	if !r.new {
		idOK = s.identityMatches(r.pod)
		storOK = s.storageMatches(r.pod, r.claimOrd)
	}
	if idOK && storOK && retention {
		return false
	}
	s.updatePod(r, idOK, storOK, uid)
	return false
}

// updatePod mirrors UpdateStatefulPod on (a copy of) the pod of r: an
// identity fix renames it "<set>-<ordinal>" from the ordinal its name
// parses to, a storage fix creates its missing claims, then its claims'
// owner references are fixed when they do not match the retention policy
// for the pod as renamed, and the pod is written; the write fails when no
// pod of that name exists (among the pods given: a pod this sync created is
// not).
func (s *stepper) updatePod(r *slot, idOK, storOK bool, uid string) {
	target := r.name
	var why []Reason
	if !idOK {
		target = PodName(s.set.Name, r.claimOrd)
		why = append(why, ReasonIdentity)
	}
	if !storOK {
		why = append(why, ReasonStorage)
		if !s.createClaims(target, r.claimOrd) {
			return
		}
	}
	if !s.claimsMatch(target, uid, r.claimOrd) {
		why = append(why, ReasonRetention)
		s.fixClaims(target, uid, r.claimOrd)
	}
	if len(why) == 0 {
		return
	}
	if !s.podNames[target] {
		// The pod is not in the API (created in this same sync, or renamed
		// to a name no pod has): the update fails.
		s.fail(ReasonPodNotFound)
		return
	}
	s.plan.Update = append(s.plan.Update, PodUpdate{Name: target, Reasons: why})
}

// nameMatches is identityMatches for a pod the controller builds (its
// namespace and pod-name label are right): its name is "<set>-<ordinal>"
// for the ordinal it parses to.
func (s *stepper) nameMatches(name string) bool {
	o := ParseOrdinal(name)
	return o >= 0 && isPodName(name, s.set.Name, o)
}

// identityMatches mirrors identityMatches (stateful_set_utils.go).
func (s *stepper) identityMatches(p *podstatus.Pod) bool {
	return s.nameMatches(p.Name) && p.Namespace == s.set.Namespace && p.Labels[LabelPodName] == p.Name
}

// storageMatches mirrors storageMatches (stateful_set_utils.go).
func (s *stepper) storageMatches(p *podstatus.Pod, o int32) bool {
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		found := false
		for i := range p.Spec.Volumes {
			if v := &p.Spec.Volumes[i]; v.Name == t {
				found = isClaimName(v.ClaimName(), t, s.set.Name, o)
				// upstream keeps the last volume of a name
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// isPodName reports name == PodName(set, o) without building it.
func isPodName(name, set string, o int32) bool {
	return len(name) > len(set) && name[:len(set)] == set && name[len(set)] == '-' && isDecimal(name[len(set)+1:], o)
}

// isClaimName reports name == ClaimName(claim, set, o) without building it.
func isClaimName(name, claim, set string, o int32) bool {
	n := len(claim) + 1 + len(set)
	return len(name) > n+1 && name[:len(claim)] == claim && name[len(claim)] == '-' &&
		name[len(claim)+1:n] == set && name[n] == '-' && isDecimal(name[n+1:], o)
}

// isDecimal reports s == strconv.Itoa(o) for o >= 0.
func isDecimal(s string, o int32) bool {
	if o < 0 || s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	v := int64(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || i > 10 {
			return false
		}
		v = v*10 + int64(c-'0')
	}
	return v == int64(o)
}
