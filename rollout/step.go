package rollout

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// Step returns what the Deployment controller does in one sync of d at now,
// given replicaSets, the ReplicaSets of d's namespace it lists (those d
// controls and the orphans it may adopt; others are ignored), and pods, the
// pods of those ReplicaSets. It first claims the ReplicaSets
// ([ClaimReplicaSet]: Plan.Adopt, Plan.Release) and works with those it
// owns or adopts; then it follows syncDeployment's dispatch order:
//
//  1. d being deleted: the status is recomputed (ReasonDeleting);
//  2. the Progressing condition is marked paused or resumed ([PausedCondition]);
//  3. d paused: [Proportional] scaling, then revision-history cleanup (ReasonPaused);
//  4. a rollback request: [Rollback] (ReasonRollback);
//  5. [Deployment.IsScalingEvent]: [Proportional] scaling (ReasonScalingEvent);
//  6. the strategy: a rolling update creates the new ReplicaSet if missing,
//     grows it ([ReconcileNewReplicaSet]) or else shrinks old ones
//     ([ReconcileOldReplicaSets]), and cleans up history once complete
//     (ReasonRollingUpdate); Recreate scales old ReplicaSets to 0, waits
//     while [OldPodsRunning] (ReasonOldPodsRunning), then creates or scales
//     the new one to spec.replicas (ReasonRecreate).
//
// Every path first finds the new ReplicaSet ([FindNewReplicaSet]) and brings
// its revision annotation up to date ([NewReplicaSetAnnotations]); the
// Deployment's revision annotation follows it. Rollouts end with the
// status of [ComputeStatus] and [SyncProgress] and, when that status is
// unchanged (no status write brings the Deployment back), the requeue of
// [RequeueStuck]; paused and scaling syncs write [ComputeStatus] only.
// Actions come in the order the controller makes its writes.
//
// Step validates its input first ([Validate]) and returns the *field.Error
// with a zero Plan. Inputs are not modified.
//
// Source: upstream pkg/controller/deployment/deployment_controller.go
// syncDeployment, sync.go, rolling.go, recreate.go, rollback.go (v1.36.3).
func Step(d *Deployment, replicaSets []*replicaset.ReplicaSet, pods []*podstatus.Pod, now time.Time, opts Options) (Plan, error) {
	if err := Validate(d, replicaSets, pods); err != nil {
		return Plan{}, err
	}
	s := &syncer{d: *d, listed: replicaSets, pods: pods, now: now, opts: opts}
	s.rss, s.plan.Adopt, s.plan.Release = claimAll(d, replicaSets)
	for _, r := range slices.Concat(s.plan.Adopt, s.plan.Release) {
		if s.stale == nil {
			s.stale = map[string]bool{}
		}
		s.stale[r.Name] = true
	}
	s.run()
	p := s.plan
	p.Status = s.status
	p.UpdateStatus = s.statusCall || !reflect.DeepEqual(d.Status, p.Status)
	if s.annotated {
		p.Annotations = s.d.Annotations
	}
	return p, nil
}

// syncer holds one sync's working state: a copy of the Deployment whose
// annotations and conditions change as upstream changes them in memory.
type syncer struct {
	d Deployment
	// listed are the ReplicaSets given, rss those d owns or adopts.
	listed []*replicaset.ReplicaSet
	rss    []*replicaset.ReplicaSet
	// stale names the ReplicaSets the claim patches: the sync's cached
	// copies of them are out of date, so their updates are refused.
	stale  map[string]bool
	pods   []*podstatus.Pod
	now    time.Time
	opts   Options
	newRS  *replicaset.ReplicaSet
	allOld []*replicaset.ReplicaSet

	plan       Plan
	status     Status
	annotated  bool
	statusCall bool // upstream calls UpdateStatus whatever the status (revision annotation, new ReplicaSet)
}

func (s *syncer) run() {
	s.status = s.d.Status
	if s.d.IsDeleting() {
		s.plan.Outcome = ReasonDeleting
		s.resolve()
		s.status = ComputeStatus(&s.d, s.newRS, s.all(), s.now)
		return
	}
	if c, changed := PausedCondition(&s.d, s.now); changed {
		s.d.Status.Conditions = c
	}
	s.status = s.d.Status
	_, rollback := rollbackRevision(&s.d)
	if s.d.Spec.Paused {
		s.plan.Outcome = ReasonPaused
		s.resolve()
		s.proportional(!rollback)
		return
	}
	if rollback {
		s.plan.Outcome = ReasonRollback
		s.resolve()
		if s.newRS == nil && !s.create() {
			return
		}
		r, _ := Rollback(&s.d, s.all())
		s.d.Annotations, s.annotated = r.Annotations, true
		s.plan.Template = r.Template
		// A rollback that is done is a Normal event; one whose revision
		// is not found or whose template is unchanged a Warning.
		typ := plan.Warning
		if r.Reason == ReasonRollbackDone {
			typ = plan.Normal
		}
		s.plan.Events = append(s.plan.Events, plan.Event{Type: typ, Reason: Reason(r.Reason), Message: r.Message})
		s.status = s.d.Status
		return
	}
	s.resolve()
	if s.d.IsScalingEvent(s.all()) {
		s.plan.Outcome = ReasonScalingEvent
		s.proportional(false)
		return
	}
	if s.d.Spec.Strategy.Type == RecreateStrategy {
		s.recreate()
	} else {
		s.rolling()
	}
}

// all returns the old ReplicaSets and the new one (when there is one).
func (s *syncer) all() []*replicaset.ReplicaSet {
	all := slices.Clip(s.allOld)
	if s.newRS != nil {
		all = append(all, s.newRS)
	}
	return all
}

// resolve finds the new and old ReplicaSets and syncs the new one's
// revision, as getAllReplicaSetsAndSyncRevision does without creating.
func (s *syncer) resolve() {
	found := FindNewReplicaSet(&s.d, s.rss)
	_, s.allOld = oldReplicaSets(found, s.rss)
	if found == nil {
		return
	}
	ann, changed := NewReplicaSetAnnotations(&s.d, found, MaxRevision(s.allOld)+1, Existing)
	view := copyReplicaSetAnnotated(found, ann)
	s.newRS = view
	if changed || found.Spec.MinReadySeconds != s.d.Spec.MinReadySeconds {
		view.Spec.MinReadySeconds = s.d.Spec.MinReadySeconds
		s.plan.Update = append(s.plan.Update, Update{
			Name: found.Name, Reason: ReasonSyncRevision, Replicas: found.Replicas(),
			Annotations: ann, MinReadySeconds: view.Spec.MinReadySeconds,
		})
		return
	}
	s.setRevision(ann[RevisionAnnotation])
	if _, ok := s.d.Status.Conditions.Find(Progressing); !ok && s.d.HasProgressDeadline() {
		s.setProgressing(ReasonFoundNewReplicaSet, "Found new replica set "+strconv.Quote(found.Name))
	}
}

// setRevision sets the Deployment's revision annotation.
func (s *syncer) setRevision(rev string) {
	if cur, ok := s.d.Annotations[RevisionAnnotation]; ok && cur == rev {
		return
	}
	a := maps.Clone(s.d.Annotations)
	if a == nil {
		a = map[string]string{}
	}
	a[RevisionAnnotation] = rev
	s.d.Annotations, s.annotated = a, true
	// Upstream writes the revision with an UpdateStatus call.
	s.statusCall = true
}

func (s *syncer) setProgressing(reason, message string) {
	c := newCondition(Progressing, meta.ConditionTrue, reason, message, s.now)
	s.d.Status.Conditions = setCondition(s.d.Status.Conditions, c)
	s.status = s.d.Status
}

// create creates the new ReplicaSet; false on a hash collision, where the
// sync ends with collisionCount raised.
//
// Source: upstream sync.go getNewReplicaSet (v1.36.3).
func (s *syncer) create() bool {
	d := &s.d
	hash := s.opts.hash(d)
	name := ReplicaSetName(d.Name, hash)
	rev := MaxRevision(s.allOld) + 1
	// Upstream sizes the new ReplicaSet before it tries to create it, so a
	// maxSurge it cannot parse fails the sync before any name collision.
	zero := int32(0)
	size, err := NewReplicaSetReplicas(d, append(slices.Clip(s.allOld), &replicaset.ReplicaSet{Spec: replicaset.Spec{Replicas: &zero}}), nil)
	if err != nil {
		s.fail()
		return false
	}
	// The create fails when any ReplicaSet of the namespace holds the
	// name, claimed or not; upstream then reads it from its cache, where an
	// adoption of this sync has not arrived.
	for _, rs := range s.listed {
		if rs == nil || rs.Name != name {
			continue
		}
		if d.UID != "" && rs.IsControlledBy(d.UID) && sameTemplate(&d.Spec.Template, &rs.Spec.Template) {
			s.newRS = rs
			s.setRevision(strconv.FormatInt(rev, 10))
			return true
		}
		n := int32(1)
		if c := d.Status.CollisionCount; c != nil {
			n = *c + 1
		}
		d.Status.CollisionCount = &n
		s.status = d.Status
		s.plan.Outcome = ReasonHashCollision
		s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{Reason: ReasonHashCollision, RateLimited: true})
		return false
	}
	tmpl := d.Spec.Template
	tmpl.Labels = maps.Clone(d.Spec.Template.Labels)
	if tmpl.Labels == nil {
		tmpl.Labels = map[string]string{}
	}
	tmpl.Labels[HashLabel] = hash
	sel := &meta.LabelSelector{MatchLabels: map[string]string{}}
	if d.Spec.Selector != nil {
		maps.Copy(sel.MatchLabels, d.Spec.Selector.MatchLabels)
		sel.MatchExpressions = d.Spec.Selector.MatchExpressions
	}
	sel.MatchLabels[HashLabel] = hash
	rs := &replicaset.ReplicaSet{
		ObjectMeta: meta.ObjectMeta{
			Name: name, Namespace: d.Namespace, Labels: maps.Clone(tmpl.Labels), CreationTimestamp: s.now,
			OwnerReferences: []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", d.Name, d.UID)},
		},
		Spec: replicaset.Spec{Replicas: &zero, MinReadySeconds: d.Spec.MinReadySeconds, Selector: sel, Template: tmpl},
	}
	rs.Spec.Replicas = &size
	rs.Annotations, _ = NewReplicaSetAnnotations(d, rs, rev, Creating)
	s.plan.Create = plan.Creation[replicaset.ReplicaSet]{Count: 1, Reason: ReasonCreateNew, Objects: []replicaset.ReplicaSet{*copyReplicaSet(rs)}}
	if size > 0 {
		s.plan.Events = append(s.plan.Events, plan.Event{Type: plan.Normal, Reason: ReasonScalingReplicaSet,
			Message: "Scaled up replica set " + name + " from 0 to " + strconv.FormatInt(int64(size), 10)})
	}
	s.newRS = rs
	s.setRevision(strconv.FormatInt(rev, 10))
	if d.HasProgressDeadline() {
		s.setProgressing(ReasonNewReplicaSetCreated, "Created new replica set "+strconv.Quote(name))
		s.statusCall = true
	}
	return true
}

// fail ends the sync with an error, as upstream's syncDeployment returns
// one: the writes so far stand, the status is not written again, and the
// Deployment is requeued with rate limiting.
func (s *syncer) fail() {
	s.plan.Outcome = ReasonSyncFailed
	s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{Reason: ReasonSyncFailed, RateLimited: true})
}

// scale records a resize of rs to n, as scaleReplicaSet makes it: nothing
// when the size is unchanged unless force, and then only when the desired-
// or max-replicas annotations need rewriting. It reports whether the size
// changed.
func (s *syncer) scale(rs *replicaset.ReplicaSet, n int32, reason Reason, force bool) bool {
	from := s.sizeOf(rs)
	if !force && from == n {
		return false
	}
	ann := replicaAnnotations(&s.d, rs)
	if from == n && rs.Annotations[DesiredReplicasAnnotation] == ann[DesiredReplicasAnnotation] &&
		rs.Annotations[MaxReplicasAnnotation] == ann[MaxReplicasAnnotation] {
		return false
	}
	stale := s.stale[rs.Name]
	s.plan.Scale = append(s.plan.Scale, Resize{Name: rs.Name, Reason: reason, From: from, Replicas: n, Annotations: ann, Stale: stale})
	if stale {
		// refused, so no event; the sync ends there (the Plan goes on as
		// if it had not been refused), but a rolling update's scale-down
		// of an old ReplicaSet drops the error (rolling)
		return from != n
	}
	if from != n {
		s.plan.Events = append(s.plan.Events, scalingEvent(rs.Name, from, n))
	}
	return from != n
}

// sizeOf returns rs's size after the actions planned so far.
func (s *syncer) sizeOf(rs *replicaset.ReplicaSet) int32 {
	for i := len(s.plan.Scale) - 1; i >= 0; i-- {
		if r := s.plan.Scale[i]; r.Name == rs.Name && !r.Stale {
			return r.Replicas
		}
	}
	return rs.Replicas()
}

// proportional is upstream's sync: scale, optional cleanup, status.
func (s *syncer) proportional(cleanup bool) {
	for _, sc := range Proportional(&s.d, s.newRS, s.allOld) {
		s.scale(sc.ReplicaSet, sc.Replicas, ReasonProportional, sc.Annotate)
	}
	if cleanup {
		// Upstream's scale leaves the old ReplicaSets sorted newest first,
		// and cleanup's sort by revision is not a strict order when some
		// revisions do not parse, so that order matters.
		s.deleteHistoryOf(byAgeDesc(s.allOld))
	}
	s.status = ComputeStatus(&s.d, s.newRS, s.all(), s.now)
}

func (s *syncer) deleteHistory() { s.deleteHistoryOf(s.allOld) }

// deleteHistoryOf records the deletions cleanupDeployment makes among old,
// given in the order upstream hands them over.
func (s *syncer) deleteHistoryOf(old []*replicaset.ReplicaSet) {
	for _, rs := range HistoryToDelete(&s.d, old) {
		s.plan.Delete = append(s.plan.Delete, plan.Deletion{Name: rs.Name, UID: rs.UID, Reason: ReasonHistoryLimit})
	}
}

// finish writes a rollout's status and requeue, as syncRolloutStatus does:
// a changed status is written and the sync ends there (the write brings the
// Deployment back); an unchanged one is requeued for its progress check.
func (s *syncer) finish() {
	s.status = SyncStatus(&s.d, s.newRS, s.all(), s.now)
	if !reflect.DeepEqual(s.d.Status, s.status) {
		return
	}
	if after, ok := RequeueStuck(&s.d, s.status, s.now); ok {
		// Under a second left, upstream enqueues at once, rate-limited.
		s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{After: after, Reason: ReasonProgressDeadline, RateLimited: after == 0})
	}
}

// rolling is upstream's rolloutRolling.
func (s *syncer) rolling() {
	s.plan.Outcome = ReasonRollingUpdate
	if s.newRS == nil && !s.create() {
		return
	}
	all := s.all()
	n, reason, err := ReconcileNewReplicaSet(&s.d, all, s.newRS)
	if err != nil {
		s.fail()
		return
	}
	if reason != "" && s.scale(s.newRS, n, reason, false) {
		s.finish()
		return
	}
	active, _ := activeOf(s.allOld)
	scales, scaled := ReconcileOldReplicaSets(&s.d, all, active, s.newRS)
	for _, sc := range scales {
		s.scale(sc.ReplicaSet, sc.Replicas, sc.Reason, false)
		if s.stale[sc.ReplicaSet.Name] {
			// Upstream drops the error of a refused scale-down and
			// scales no more old ReplicaSets down, as if none were.
			scaled = false
			break
		}
	}
	if !scaled && s.d.IsComplete(s.d.Status) {
		s.deleteHistory()
	}
	s.finish()
}

// recreate is upstream's rolloutRecreate.
func (s *syncer) recreate() {
	s.plan.Outcome = ReasonRecreate
	active, _ := activeOf(s.allOld)
	scaled := false
	for _, rs := range active {
		if s.scale(rs, 0, ReasonRecreateScaleDown, false) {
			scaled = true
		}
	}
	if scaled {
		s.finish()
		return
	}
	if OldPodsRunning(&s.d, s.newRS, s.allOld, s.pods) {
		s.plan.Outcome = ReasonOldPodsRunning
		s.finish()
		return
	}
	if s.newRS == nil && !s.create() {
		return
	}
	s.scale(s.newRS, s.d.Replicas(), ReasonRecreateScaleUp, false)
	if s.d.IsComplete(s.d.Status) {
		s.deleteHistory()
	}
	s.finish()
}

// activeOf returns the ReplicaSets with spec.replicas > 0, and their count.
func activeOf(replicaSets []*replicaset.ReplicaSet) ([]*replicaset.ReplicaSet, int) {
	var out []*replicaset.ReplicaSet
	for _, rs := range replicaSets {
		if isActive(rs) {
			out = append(out, rs)
		}
	}
	return out, len(out)
}

// scalingEvent is the event scaleReplicaSet records when it changes a
// ReplicaSet's size.
//
// Source: upstream pkg/controller/deployment/sync.go scaleReplicaSet (v1.36.3).
func scalingEvent(name string, from, to int32) plan.Event {
	dir := "down"
	if from < to {
		dir = "up"
	}
	return plan.Event{Type: plan.Normal, Reason: ReasonScalingReplicaSet,
		Message: "Scaled " + dir + " replica set " + name + " from " + strconv.FormatInt(int64(from), 10) + " to " + strconv.FormatInt(int64(to), 10)}
}
