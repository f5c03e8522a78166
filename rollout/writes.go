package rollout

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// Reasons of the Deployment writes of [Plan.Writes] (the ReplicaSet writes
// carry their Plan entry's reason).
const (
	// ReasonPausedCondition: the status write marking Progressing paused
	// or resumed ([PausedCondition]).
	ReasonPausedCondition Reason = "PausedCondition"
	// ReasonRevision: the status write carrying the Deployment's new
	// revision annotation (and the Progressing condition naming the new
	// ReplicaSet).
	ReasonRevision Reason = "Revision"
	// ReasonStatusChanged: the status write at the end of the sync.
	ReasonStatusChanged Reason = "StatusChanged"
)

// Writes returns the API requests of the sync p plans for d, whose
// ReplicaSets and pods are replicaSets and pods, at now (the inputs of
// [Step]), in the order v1.36.3's syncDeployment sends them:
//
//   - the claim's patches (Plan.Adopt and Plan.Release merged by name,
//     then UID; v1.36.3 patches in its informer's order, which is
//     arbitrary): an adoption adds d's controller reference (controller
//     and blockOwnerDeletion true; a reference with the same UID is
//     replaced, as the strategic merge patch keyed by uid does), a release
//     removes every reference to d's UID; each carries the ReplicaSet as
//     the patch leaves it, with its UID as precondition;
//   - a status write marking Progressing paused or resumed
//     ([PausedCondition]) before any other, unless d is being deleted;
//   - each time the sync looks up the new ReplicaSet (once for a deleting,
//     paused or rollback sync; twice otherwise, since isScalingEvent looks
//     too; a third time when Recreate creates it): the update of its
//     annotations and minReadySeconds (Plan.Update, sent each time, since
//     the sync reads the ReplicaSets from its cache), or else a status
//     write when the Deployment's revision annotation changes or
//     Progressing is first set (FoundNewReplicaSet);
//   - the new ReplicaSet's creation (Plan.Create) and a status write with
//     the revision and Progressing NewReplicaSetCreated; on a hash
//     collision instead the status write raising collisionCount, which
//     ends the sync (the rejected create is not listed);
//   - a rollback's update of the Deployment (annotations, template, the
//     request removed), which ends the sync;
//   - the resizes (Plan.Scale) as ReplicaSet updates carrying the whole
//     ReplicaSet — for Recreate the scale-downs come before the creation —
//     then the deletions (Plan.Delete), by name without preconditions;
//   - the status write of Plan.Status when it differs from the status the
//     earlier writes left (not after a failed sync).
//
// The Deployment's writes and the new ReplicaSet's updates are FromCache:
// the sync sends them from the copies its caches held, never from the
// object an earlier update returned, so a second one of the same object
// in a sync is refused with Conflict (the world applies that; the sync
// then ends with the error). So is a resize of a ReplicaSet the sync
// adopted: it is sent from the cached copy the adoption's patch made
// stale.
//
// Objects are whole: a ReplicaSet as the request leaves it (annotations,
// spec.replicas and minReadySeconds updated), the Deployment with the
// annotations and conditions the sync has set so far (TemplateHash, not an
// API field, cleared). It returns a *field.Error naming the Plan entry
// ("adopt[i].name", "release[i].name", "update[i].name", "scale[i].name",
// "delete[i].name") that names no ReplicaSet of replicaSets (for update,
// scale and delete: none d owns or adopts) or the one created. Inputs are
// neither modified nor aliased.
//
// Source: upstream pkg/controller/deployment/deployment_controller.go
// syncDeployment, getReplicaSetsForDeployment,
// pkg/controller/controller_ref_manager.go AdoptReplicaSet,
// ReleaseReplicaSet, sync.go (getNewReplicaSet, scaleReplicaSet,
// cleanupDeployment, syncDeploymentStatus, isScalingEvent), progress.go
// syncRolloutStatus, rolling.go, recreate.go, rollback.go (v1.36.3).
func (p Plan) Writes(d *Deployment, replicaSets []*replicaset.ReplicaSet, pods []*podstatus.Pod, now time.Time) ([]plan.Write, error) {
	if d == nil {
		return nil, field.New("deployment", "", field.ErrRequired)
	}
	// The working copy is shallow: the writer only ever assigns its
	// fields afresh (annotations cloned, conditions set copy on write) and
	// deep-copies it into each write.
	w := &writer{p: p, d: *d, now: now}
	w.rss.list = make([]*replicaset.ReplicaSet, 0, min(len(replicaSets)+1, byNameScan)) // (and the one created)
	w.d.TemplateHash = ""
	w.listed = replicaSets
	claimed, err := w.claims(replicaSets)
	if err != nil {
		return nil, err
	}
	for _, rs := range claimed {
		w.rss.set(rs)
	}
	if err := w.check(); err != nil {
		return nil, err
	}
	w.newRS = FindNewReplicaSet(&w.d, claimed)
	_, w.old = oldReplicaSets(w.newRS, claimed)
	w.run()
	return w.out, nil
}

// claims writes the Plan's adoptions and releases, merged by name, then
// UID, each a patch carrying the ReplicaSet as it leaves it (the
// controller reference added with blockOwnerDeletion, or every reference
// to d removed), and returns the ReplicaSets the sync works with: those d
// owns ([ClaimReplicaSet]) and those the Plan adopts, in input order. An
// adopted ReplicaSet is stale in the sync's cache from then on: its later
// updates are FromCache.
func (w *writer) claims(replicaSets []*replicaset.ReplicaSet) ([]*replicaset.ReplicaSet, error) {
	if len(w.p.Adopt) == 0 && len(w.p.Release) == 0 {
		claimed := replicaSets
		for i, rs := range replicaSets {
			if rs == nil || ClaimReplicaSet(&w.d, rs) != replicaset.Owned {
				claimed = slices.Clip(replicaSets[:i])
				for _, rs := range replicaSets[i+1:] {
					if rs != nil && ClaimReplicaSet(&w.d, rs) == replicaset.Owned {
						claimed = append(claimed, rs)
					}
				}
				break
			}
		}
		return claimed, nil
	}
	find := func(path string, i int, r ReplicaSetRef) (*replicaset.ReplicaSet, error) {
		for _, rs := range replicaSets {
			if rs != nil && rs.Name == r.Name && (r.UID == "" || rs.UID == r.UID) {
				return rs, nil
			}
		}
		return nil, field.New(field.Child(field.Index(path, i), "name"), r.Name, fmt.Errorf("%w: names no ReplicaSet of the input", field.ErrInvalid))
	}
	type claim struct {
		rs    *replicaset.ReplicaSet
		adopt bool
		why   Reason
	}
	var cs []claim
	adopted := map[*replicaset.ReplicaSet]bool{}
	for i, r := range w.p.Adopt {
		rs, err := find("adopt", i, r)
		if err != nil {
			return nil, err
		}
		cs = append(cs, claim{rs, true, cmp.Or(r.Reason, ReasonOrphanSelected)})
		adopted[rs] = true
	}
	for i, r := range w.p.Release {
		rs, err := find("release", i, r)
		if err != nil {
			return nil, err
		}
		cs = append(cs, claim{rs, false, cmp.Or(r.Reason, ReasonSelectorMismatch)})
	}
	slices.SortStableFunc(cs, func(a, b claim) int {
		return cmp.Or(strings.Compare(a.rs.Name, b.rs.Name), strings.Compare(a.rs.UID, b.rs.UID))
	})
	ref := meta.NewControllerRef("apps/v1", "Deployment", w.d.Name, w.d.UID)
	for _, c := range cs {
		rs := deepcopy.New(c.rs)
		if c.adopt {
			rs.OwnerReferences = meta.MergeOwnerRef(rs.OwnerReferences, ref)
		} else {
			rs.OwnerReferences = meta.RemoveOwnerRef(rs.OwnerReferences, w.d.UID)
		}
		w.out = append(w.out, plan.Write{Verb: plan.VerbPatch, Resource: "replicasets", Namespace: cmp.Or(rs.Namespace, w.d.Namespace), Name: rs.Name, UID: rs.UID, Object: rs, Reason: c.why})
	}
	var claimed []*replicaset.ReplicaSet
	for _, rs := range replicaSets {
		if rs != nil && (adopted[rs] || ClaimReplicaSet(&w.d, rs) == replicaset.Owned) {
			claimed = append(claimed, rs)
		}
	}
	w.stale = make(map[*replicaset.ReplicaSet]bool, len(cs))
	for _, c := range cs {
		w.stale[c.rs] = true
	}
	return claimed, nil
}

// writer replays a Plan's writes over a working copy of the Deployment.
type writer struct {
	p     Plan
	d     Deployment
	now   time.Time
	rss   byName // by name, as the writes leave them
	newRS *replicaset.ReplicaSet
	old   []*replicaset.ReplicaSet
	out   []plan.Write
	scale int // Plan.Scale entries written
	// stale are the ReplicaSets adopted or released in this sync: the
	// controller's cached copies of them are out of date.
	stale map[*replicaset.ReplicaSet]bool
	// listed are the ReplicaSets given, claimed or not.
	listed []*replicaset.ReplicaSet
}

// check returns the *field.Error of the first Plan entry naming no
// ReplicaSet.
func (w *writer) check() error {
	created := map[string]bool{}
	for _, rs := range w.p.Create.Objects {
		created[rs.Name] = true
	}
	bad := func(path string, i int, name string) error {
		return field.New(field.Child(field.Index(path, i), "name"), name, fmt.Errorf("%w: names no ReplicaSet of the input", field.ErrInvalid))
	}
	for i, u := range w.p.Update {
		if w.rss.get(u.Name) == nil {
			return bad("update", i, u.Name)
		}
	}
	for i, s := range w.p.Scale {
		if w.rss.get(s.Name) == nil && !created[s.Name] && w.existing() == nil {
			return bad("scale", i, s.Name)
		}
	}
	for i, x := range w.p.Delete {
		if w.rss.get(x.Name) == nil {
			return bad("delete", i, x.Name)
		}
	}
	return nil
}

func (w *writer) run() {
	p := w.p
	if w.d.IsDeleting() {
		w.lookup()
		w.finalStatus()
		return
	}
	if c, changed := PausedCondition(&w.d, w.now); changed {
		w.d.Status.Conditions = c
		w.status(ReasonPausedCondition)
	}
	_, rollback := rollbackRevision(&w.d)
	switch {
	case w.d.Spec.Paused:
		w.lookup()
		w.scales(func(Resize) bool { return true })
		w.deletes()
		w.finalStatus()
		return
	case rollback:
		if !w.lookupOrCreate() {
			return
		}
		c := w.deployment()
		c.Annotations = maps.Clone(p.Annotations)
		if p.Template != nil {
			c.Spec.Template = deepcopy.Copy(*p.Template)
		}
		w.out = append(w.out, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: c.Namespace, Name: c.Name, UID: c.UID, Object: c, FromCache: true, Reason: ReasonRollback})
		return
	}
	w.lookup() // isScalingEvent's
	switch {
	case p.Outcome == ReasonScalingEvent:
		w.lookup()
		w.scales(func(Resize) bool { return true })
		w.finalStatus()
	case w.d.Spec.Strategy.Type == RecreateStrategy:
		w.lookup()
		down := func(r Resize) bool { return r.Reason == ReasonRecreateScaleDown }
		if w.scales(down) || p.Outcome == ReasonOldPodsRunning {
			w.finalStatus()
			return
		}
		if w.newRS == nil && !w.lookupOrCreate() {
			return
		}
		w.scales(func(Resize) bool { return true })
		w.deletes()
		w.finalStatus()
	default: // a rolling update, or its failure
		if !w.lookupOrCreate() || p.Outcome == ReasonSyncFailed {
			return
		}
		w.scales(func(Resize) bool { return true })
		w.deletes()
		w.finalStatus()
	}
}

// deployment returns a copy of the working Deployment.
func (w *writer) deployment() *Deployment {
	return deepcopy.New(&w.d)
}

// status appends a status write of the working Deployment.
func (w *writer) status(why Reason) {
	c := w.deployment()
	w.out = append(w.out, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Subresource: "status", Namespace: c.Namespace, Name: c.Name, UID: c.UID, Object: c, FromCache: true, Reason: why})
}

// finalStatus writes Plan.Status when it differs from the working status.
func (w *writer) finalStatus() {
	if reflect.DeepEqual(w.d.Status, w.p.Status) {
		return
	}
	w.d.Status = w.p.Status // shared until status deep-copies it
	w.status(ReasonStatusChanged)
}

// lookup is getNewReplicaSet on an existing new ReplicaSet: its update, or
// the Deployment's revision and FoundNewReplicaSet condition.
func (w *writer) lookup() {
	if w.newRS == nil {
		return
	}
	if len(w.p.Update) > 0 {
		for _, u := range w.p.Update {
			rs := deepcopy.New(w.rss.get(u.Name))
			rs.Annotations = maps.Clone(u.Annotations)
			rs.Spec.MinReadySeconds = u.MinReadySeconds
			w.out = append(w.out, plan.Write{Verb: plan.VerbUpdate, Resource: "replicasets", Namespace: w.d.Namespace, Name: rs.Name, UID: rs.UID, Object: rs, FromCache: true, Reason: u.Reason})
			w.rss.set(rs)
		}
		return
	}
	changed := w.setRevision(w.newRS.Annotations[RevisionAnnotation])
	if _, ok := w.d.Status.Conditions.Find(Progressing); !ok && w.d.HasProgressDeadline() {
		c := newCondition(Progressing, "True", ReasonFoundNewReplicaSet, "Found new replica set "+strconv.Quote(w.newRS.Name), w.now)
		w.d.Status.Conditions = setCondition(w.d.Status.Conditions, c)
		changed = true
	}
	if changed {
		w.status(ReasonRevision)
	}
}

// lookupOrCreate is getNewReplicaSet creating a missing new ReplicaSet; it
// reports whether the sync goes on (false on a hash collision or a sync
// failed before the creation).
func (w *writer) lookupOrCreate() bool {
	if w.newRS != nil {
		w.lookup()
		return true
	}
	if len(w.p.Create.Objects) == 0 {
		switch w.p.Outcome {
		case ReasonHashCollision:
			w.d.Status = deepcopy.Copy(w.p.Status)
			w.status(ReasonHashCollision)
			return false
		case ReasonSyncFailed:
			return false
		}
		// The create was refused (not a write): the name is taken by a
		// ReplicaSet d controlled when the sync read it, with d's template.
		rs := w.existing()
		if rs == nil {
			return false
		}
		w.rss.set(rs)
		w.newRS = rs
		if w.setRevision(strconv.FormatInt(MaxRevision(w.old)+1, 10)) {
			w.status(ReasonRevision)
		}
		return true
	}
	rs := deepcopy.New(&w.p.Create.Objects[0])
	rs.CreationTimestamp = time.Time{}
	rs.Status = replicaset.Status{}
	w.out = append(w.out, plan.Write{Verb: plan.VerbCreate, Resource: "replicasets", Namespace: w.d.Namespace, Name: rs.Name, Object: rs, Reason: w.p.Create.Reason})
	w.rss.set(rs)
	w.newRS = rs
	changed := w.setRevision(rs.Annotations[RevisionAnnotation])
	if w.d.HasProgressDeadline() {
		c := newCondition(Progressing, "True", ReasonNewReplicaSetCreated, "Created new replica set "+strconv.Quote(rs.Name), w.now)
		w.d.Status.Conditions = setCondition(w.d.Status.Conditions, c)
		changed = true
	}
	if changed {
		w.status(ReasonRevision)
	}
	return true
}

// existing returns the ReplicaSet holding the new ReplicaSet's name when
// Step's create found it taken by one d controlled with d's template
// although d does not claim it (its release is in this sync, which the
// cached copy the create's fallback reads does not show), or nil.
//
// Of several such ReplicaSets (one holds the name), the one the Plan
// resizes is it; when the Plan resizes none, which one does not matter.
func (w *writer) existing() *replicaset.ReplicaSet {
	var first *replicaset.ReplicaSet
	for _, rs := range w.listed {
		if rs != nil && w.rss.get(rs.Name) == nil && w.d.UID != "" && rs.IsControlledBy(w.d.UID) && sameTemplate(&w.d.Spec.Template, &rs.Spec.Template) {
			if slices.ContainsFunc(w.p.Scale, func(r Resize) bool { return r.Name == rs.Name }) {
				return rs
			}
			if first == nil {
				first = rs
			}
		}
	}
	return first
}

// setRevision sets the working Deployment's revision annotation and
// reports whether it changed.
func (w *writer) setRevision(rev string) bool {
	if cur, ok := w.d.Annotations[RevisionAnnotation]; ok && cur == rev {
		return false
	}
	a := maps.Clone(w.d.Annotations)
	if a == nil {
		a = map[string]string{}
	}
	a[RevisionAnnotation] = rev
	w.d.Annotations = a
	return true
}

// scales writes the Plan.Scale entries from the next one on while take
// accepts them, and reports whether one changed a size.
func (w *writer) scales(take func(Resize) bool) bool {
	resized := false
	for ; w.scale < len(w.p.Scale) && take(w.p.Scale[w.scale]); w.scale++ {
		r := w.p.Scale[w.scale]
		rs := deepcopy.New(w.rss.get(r.Name))
		n := r.Replicas
		rs.Spec.Replicas = &n
		if r.Annotations != nil {
			rs.Annotations = maps.Clone(r.Annotations)
		}
		// A stale resize is refused; the error of a rolling update's
		// scale-down of an old ReplicaSet is dropped.
		ignore := r.Stale && (r.Reason == ReasonCleanupUnhealthy || r.Reason == ReasonScaleDownOld)
		w.out = append(w.out, plan.Write{Verb: plan.VerbUpdate, Resource: "replicasets", Namespace: w.d.Namespace, Name: rs.Name, UID: rs.UID, Object: rs,
			FromCache: r.Stale, IgnoreRefusal: ignore, Reason: r.Reason})
		if !r.Stale {
			w.rss.set(rs)
		}
		resized = resized || r.From != r.Replicas
	}
	return resized
}

// deletes writes Plan.Delete.
func (w *writer) deletes() {
	for _, x := range w.p.Delete {
		rs := w.rss.get(x.Name)
		w.out = append(w.out, plan.Write{Verb: plan.VerbDelete, Resource: "replicasets", Namespace: w.d.Namespace, Name: rs.Name, Reason: x.Reason})
	}
}

// byName holds ReplicaSets by name, one per name (the last set): a list
// while they are few (a Deployment keeps a short history), a map past
// byNameScan. Its zero value is empty.
type byName struct {
	list []*replicaset.ReplicaSet
	m    map[string]*replicaset.ReplicaSet
}

const byNameScan = 16

// get returns the ReplicaSet named name, nil when none is.
func (b *byName) get(name string) *replicaset.ReplicaSet {
	if b.m != nil {
		return b.m[name]
	}
	for _, rs := range b.list {
		if rs.Name == name {
			return rs
		}
	}
	return nil
}

// set makes rs the ReplicaSet of its name.
func (b *byName) set(rs *replicaset.ReplicaSet) {
	if b.m != nil {
		b.m[rs.Name] = rs
		return
	}
	for i, x := range b.list {
		if x.Name == rs.Name {
			b.list[i] = rs
			return
		}
	}
	if len(b.list) < byNameScan {
		b.list = append(b.list, rs)
		return
	}
	b.m = make(map[string]*replicaset.ReplicaSet, 2*byNameScan)
	for _, x := range b.list {
		b.m[x.Name] = x
	}
	b.m[rs.Name] = rs
}
