package statefulset

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
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
	Revisions []RevisionWrite `json:"revisions"`
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

// NewPod is one pod the controller creates.
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
	pod      *Pod
	ordinal  int32
	new      bool   // the pod does not exist yet
	revision string // the revision of a new pod
}

type stepper struct {
	set       *StatefulSet
	now       time.Time
	opts      Options
	policy    RetentionPolicy
	claims    map[string]*Claim
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
// the status. pods are the set's pods: those named "<set>-<digits>" (others
// are ignored; one whose digits pass int32 is not synced, as upstream gives
// it ordinal -1, but keeps its revision live), revisions its
// ControllerRevisions, claims the existing claims of its templates. Inputs
// are not modified; the Plan does not depend on their order.
func Step(set *StatefulSet, pods []*Pod, revisions []Revision, claims []*Claim, now time.Time, opts Options) (Plan, error) {
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
	members, ords, unparsed, err := memberPods(set, pods)
	if err != nil {
		return Plan{}, err
	}
	revs := slices.Clone(revisions)
	SortRevisions(revs)
	s := &stepper{set: set, now: now, opts: opts, policy: set.Retention(), claims: make(map[string]*Claim, len(claims))}
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
		ps := make([]*podstatus.Pod, len(all))
		for i, m := range all {
			ps[i] = &m.Pod
		}
		if d, ok := podstatus.NextAvailabilityCheck(ps, mrs, now); ok {
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
	pod *Pod
	ord int32
}

// memberPods returns the set's pods sorted by ordinal, and their ordinals;
// a duplicate ordinal is an error. unparsed are the pods upstream's
// isMemberOf still claims (the set's name, a dash, digits) whose ordinal
// does not fit int32: getOrdinal gives them -1, so the sync ignores them
// and so does the status it writes, except for a set being deleted; their
// revisions stay live and they count for the minReadySeconds requeue.
func memberPods(set *StatefulSet, pods []*Pod) (members []*Pod, ords []int32, unparsed []*Pod, err error) {
	ms := make([]member, 0, len(pods))
	sorted := true
	for _, p := range pods {
		if p == nil {
			continue
		}
		parent, o, ok := ParentAndOrdinal(p.Name)
		if !ok {
			if overflowMember(p.Name, set.Name) {
				unparsed = append(unparsed, p)
			}
			continue
		}
		if parent != set.Name {
			continue
		}
		if n := len(ms); n > 0 && ms[n-1].ord >= o {
			sorted = false
		}
		ms = append(ms, member{p, o})
	}
	if !sorted {
		slices.SortFunc(ms, func(a, b member) int { return cmp.Compare(a.ord, b.ord) })
	}
	members = make([]*Pod, len(ms))
	ords = make([]int32, len(ms))
	for i := range ms {
		if i > 0 && ms[i].ord == ms[i-1].ord {
			return nil, nil, nil, duplicateOrdinal(ms[i].pod.Name)
		}
		members[i], ords[i] = ms[i].pod, ms[i].ord
	}
	return members, ords, unparsed, nil
}

// overflowMember reports whether name is "<set>-<digits>" with digits that
// do not parse as an int32 (the only way ParentAndOrdinal rejects such a
// name).
func overflowMember(name, set string) bool {
	n := len(set)
	if len(name) < n+2 || name[:n] != set || name[n] != '-' {
		return false
	}
	for _, c := range []byte(name[n+1:]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// sync mirrors updateStatefulSet; it returns the outcome.
func (s *stepper) sync(members []*Pod, ords []int32, st *Status, current, update string) Reason {
	set := s.set
	mrs := set.Spec.MinReadySeconds
	start, n := set.Start(), set.Replicas()
	replicas := make([]slot, n)
	var condemned []slot
	for i, m := range members {
		o := ords[i]
		if o >= start && int64(o) < int64(start)+int64(n) {
			replicas[o-start] = slot{pod: m, ordinal: o}
		} else {
			condemned = append(condemned, slot{pod: m, ordinal: o})
		}
	}
	slices.Reverse(condemned)
	for i := range replicas {
		if replicas[i].pod == nil {
			o := start + int32(i)
			replicas[i] = slot{ordinal: o, new: true, revision: s.newPodRevision(o, current, update)}
		}
	}
	firstUnavailable := -1 // index in replicas, or -2-i for condemned[i]
	for i := range replicas {
		if s.unavailable(&replicas[i]) {
			firstUnavailable = i
			break
		}
	}
	if firstUnavailable == -1 {
		for i := len(condemned) - 1; i >= 0; i-- {
			if s.unavailable(&condemned[i]) {
				firstUnavailable = -2 - i
				break
			}
		}
	}
	if set.DeletionTimestamp != nil {
		return ReasonBeingDeleted
	}
	monotonic := set.Policy() != Parallel

	if s.runForAll(len(replicas), monotonic, func(i int) bool { return s.processReplica(replicas, i, monotonic) }) {
		return s.stopped()
	}
	// Claims of condemned pods (never stops: the model has no lookup errors).
	for i := range condemned {
		c := &condemned[i]
		if !s.claimsMatch(c, false) {
			s.fixClaims(c, false)
		}
	}
	if s.runForAll(len(condemned), monotonic, func(i int) bool {
		c := &condemned[i]
		if isTerminating(c.pod) {
			return monotonic
		}
		isFirst := firstUnavailable == -2-i
		if monotonic && !isFirst && (!isRunningAndReady(c.pod) || !isAvailable(c.pod, mrs, s.now)) {
			return true
		}
		s.delete(c.pod.Name, c.pod.UID, ReasonCondemned)
		return true
	}) {
		return s.stopped()
	}
	if set.Strategy() == OnDelete {
		return ReasonOnDelete
	}
	partition, hasRU := set.Partition()
	updateMin := int64(0)
	if hasRU {
		updateMin = int64(partition)
	}
	if s.opts.MaxUnavailableStatefulSet {
		maxU := int64(1)
		if hasRU {
			m, err := MaxUnavailable(set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable, n)
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
				s.delete(PodName(set.Name, r.ordinal), s.uidOf(r), ReasonOutdated)
				budget--
				st.CurrentReplicas--
			}
		}
		return ReasonRollingUpdate
	}
	for t := int64(len(replicas)) - 1; t >= updateMin; t-- {
		r := &replicas[t]
		if s.revisionOf(r) != update && !s.terminating(r) {
			s.delete(PodName(set.Name, r.ordinal), s.uidOf(r), ReasonOutdated)
			st.CurrentReplicas--
			return ReasonRollingUpdate
		}
		if s.unavailable(r) {
			return ReasonRollingUpdate
		}
	}
	return ReasonRollingUpdate
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

func (s *stepper) terminating(r *slot) bool { return !r.new && isTerminating(r.pod) }

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

// newPodRevision is the revision a missing pod is created at: the current
// revision below start+partition (or, for a RollingUpdate set without a
// rollingUpdate block, below start+status.currentReplicas), else the update
// revision (newVersionedStatefulSetPod, stateful_set_utils.go, v1.36.3, whose
// condition also gives OnDelete sets with a partition current-revision pods).
func (s *stepper) newPodRevision(o int32, current, update string) string {
	set := s.set
	start := int64(set.Start())
	ru := set.Spec.UpdateStrategy.RollingUpdate
	if set.Strategy() == RollingUpdate && ru == nil && int64(o) < start+int64(set.Status.CurrentReplicas) {
		return current
	}
	if ru != nil {
		part := int64(0)
		if ru.Partition != nil {
			part = int64(*ru.Partition)
		}
		if int64(o) < start+part {
			return current
		}
	}
	return update
}

func (s *stepper) delete(name, uid string, why Reason) {
	s.plan.Delete = append(s.plan.Delete, plan.Deletion{Name: name, UID: uid, Reason: why})
}

func (s *stepper) owners(r *slot) (set, pod Owner) {
	return Owner{Name: s.set.Name, UID: s.set.UID}, Owner{Name: PodName(s.set.Name, r.ordinal), UID: s.uidOf(r)}
}

func (s *stepper) scaledDown(o int32) bool {
	return !(o >= s.set.Start() && int64(o) < int64(s.set.Start())+int64(s.set.Replicas()))
}

// claimsMatch mirrors ClaimsMatchRetentionPolicy.
func (s *stepper) claimsMatch(r *slot, _ bool) bool {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return true
	}
	so, po := s.owners(r)
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		c := s.claims[ClaimName(t, s.set.Name, r.ordinal)]
		if c != nil && !ClaimOwnerUpToDate(c, s.policy, so, po, s.scaledDown(r.ordinal)) {
			return false
		}
	}
	return true
}

// fixClaims mirrors UpdatePodClaimForRetentionPolicy.
func (s *stepper) fixClaims(r *slot, _ bool) {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	so, po := s.owners(r)
	down := s.scaledDown(r.ordinal)
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		c := s.claims[ClaimName(t, s.set.Name, r.ordinal)]
		if c == nil {
			continue
		}
		if UnexpectedController(c, s.policy, so, po) {
			s.plan.Events = append(s.plan.Events, plan.Event{Type: plan.Warning, Reason: ReasonConflictingController, Object: c.Name})
		}
		if !ClaimOwnerUpToDate(c, s.policy, so, po, down) {
			s.plan.Claims = append(s.plan.Claims, ClaimWrite{Verb: ClaimUpdate, Name: c.Name, Pod: po.Name,
				OwnerReferences: ClaimOwnerRefs(c, s.policy, so, po, down), Reason: ReasonRetention})
		}
	}
}

// createClaims mirrors createPersistentVolumeClaims; false when a claim is
// being deleted.
func (s *stepper) createClaims(r *slot) bool {
	ok := true
	pod := PodName(s.set.Name, r.ordinal)
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		name := ClaimName(t, s.set.Name, r.ordinal)
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
	if !r.new && (r.pod.Status.Phase == podstatus.Failed || r.pod.Status.Phase == podstatus.Succeeded) {
		if !isTerminating(r.pod) {
			s.delete(r.pod.Name, r.pod.UID, ReasonPodFailed)
		}
		return true
	}
	justCreated := false
	if r.new || !isCreated(r.pod) {
		for _, t := range set.Spec.VolumeClaimTemplates {
			_, po := s.owners(r)
			if c := s.claims[ClaimName(t, set.Name, r.ordinal)]; c != nil && ClaimIsStale(c, s.policy, po) {
				return true
			}
		}
		if !s.createClaims(r) {
			return true
		}
		if !r.new {
			// A pod without a phase exists already: the creation fails.
			s.fail(ReasonAlreadyExists)
			return true
		}
		{
			s.plan.Create.Objects = append(s.plan.Create.Objects, NewPod{Name: PodName(set.Name, r.ordinal), Ordinal: r.ordinal, Revision: r.revision})
			s.plan.Create.Count++
			s.plan.Create.Reason = ReasonMissing
		}
		s.fixClaims(r, true)
		if monotonic {
			return true
		}
		justCreated = true
	}
	if !r.new && r.pod.Status.Phase == podstatus.Pending {
		if !s.createClaims(r) {
			return true
		}
		s.fixClaims(r, true)
	}
	if !r.new && isTerminating(r.pod) && monotonic {
		return true
	}
	if monotonic && (!isRunningAndReady(r.pod) || !isAvailable(r.pod, set.Spec.MinReadySeconds, s.now)) {
		return true
	}
	retention := s.claimsMatch(r, false)
	idOK, storOK := true, true
	if !r.new {
		idOK = s.identityMatches(r.pod)
		storOK = s.storageMatches(r.pod, r.ordinal)
	}
	if idOK && storOK && retention {
		return false
	}
	var why []Reason
	if !idOK {
		why = append(why, ReasonIdentity)
	}
	if !storOK {
		why = append(why, ReasonStorage)
		if !s.createClaims(r) {
			return false
		}
	}
	if !retention {
		why = append(why, ReasonRetention)
		s.fixClaims(r, false)
	}
	if justCreated && r.new {
		// The pod is not in the API yet: the update fails.
		s.fail(ReasonPodNotFound)
		return false
	}
	s.plan.Update = append(s.plan.Update, PodUpdate{Name: PodName(set.Name, r.ordinal), Reasons: why})
	return false
}

// identityMatches mirrors identityMatches (stateful_set_utils.go).
func (s *stepper) identityMatches(p *Pod) bool {
	o := ParseOrdinal(p.Name)
	return o >= 0 && isPodName(p.Name, s.set.Name, o) && p.Namespace == s.set.Namespace && p.Labels[LabelPodName] == p.Name
}

// storageMatches mirrors storageMatches (stateful_set_utils.go).
func (s *stepper) storageMatches(p *Pod, o int32) bool {
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		found := false
		for _, v := range p.Volumes {
			if v.Name == t {
				found = isClaimName(v.ClaimName, t, s.set.Name, o)
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
