package statefulset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// ReasonStatusUpdate is the reason of the status write of a sync.
const ReasonStatusUpdate Reason = "StatusUpdate"

// Writes returns the API requests the sync p sends, in v1.36.3's order,
// given the objects Step read (the set, its pods, revisions and claims):
//
//  0. the claim's patches: each revision of AdoptRevisions, then the pods
//     of Adopt and Release merged by name, then UID (v1.36.3 patches pods
//     in its informer's order, which is arbitrary), each carrying the
//     object as the patch leaves it: the set's controller reference added
//     (with blockOwnerDeletion; one with the same UID replaced, as the
//     strategic merge patch keyed by uid does), or every reference to the
//     set's UID removed; a later update of a patched pod or revision is
//     sent from the cached copy the patch made stale (FromCache);
//  1. the ControllerRevision create or update of Revisions: a created
//     revision is named by its write, in the set's namespace, labelled
//     with the template's labels and controller.kubernetes.io/hash (the
//     name's part after its last dash), annotated with the set's
//     annotations, owned by the set (meta.NewControllerRef("apps/v1",
//     "StatefulSet", …)) and holds spec.template as data ([history.New]);
//     an updated one is the given revision renumbered; the update of a
//     revision adopted in this sync, sent from its stale cached copy, is
//     refused (Conflict), and upstream's retry (UpdateControllerRevision's
//     RetryOnConflict) sends the empty object the client returned with the
//     error, renumbered, without name or namespace, which is refused too
//     and ends the sync: both are listed, the first IgnoreRefusal;
//  2. the pod and claim writes, ordinal by ordinal up the set's range: a
//     failed pod's delete; or the claims created for the pod, the pod
//     created, its claims' owner references updated, the pod updated;
//     then the claim updates of condemned pods and their deletes, from the
//     highest ordinal; then the delete of the rolling update. A created pod
//     is the template of its revision (spec.template for the update
//     revision; the current revision's data otherwise) made by
//     [podstatus.FromTemplate] with generateName [podstatus.PodPrefix] and
//     the set's controller reference, named "<set>-<ordinal>", with the
//     pod-name and pod-index labels, controller-revision-hash, hostname
//     (its name), subdomain (spec.serviceName) and a persistentVolumeClaim
//     volume per volumeClaimTemplate before the template's other volumes.
//     A created claim is its template's metadata named
//     "<template>-<set>-<ordinal>" in the set's namespace, labelled with the
//     selector's matchLabels and owned as the retention policy says
//     ([ClaimOwnerRefs]); an updated claim is the given claim with the
//     Plan's owner references. An updated pod is the given pod with its
//     identity (name, namespace, pod-name and pod-index labels) and claim
//     volumes restored as its reasons say. Deletes carry no precondition
//     and no grace period;
//  3. the status update (subresource status) carrying the set with
//     Status, when UpdateStatus holds;
//  4. the revision deletes of Revisions.
//
// A Parallel set's pod and claim writes are sent concurrently upstream
// (in slow-start batches): the API server may receive those of one batch
// in any order; Writes gives the Plan's. Upstream puts a pod's claim
// volumes in an order drawn from a Go map; Writes puts them in template
// order. The claim spec (storage class, size …) is not modelled: a
// created claim carries its template's metadata only.
//
// It returns a *field.Error when the Plan names a pod, claim or revision
// the inputs do not hold (for the writes after the claim's: none the set
// claims), when a pod is created at a current revision
// given without its data, or when set is nil. Nothing of the inputs is
// modified or shared with the result.
//
// Source: upstream pkg/controller/statefulset stateful_set.go (sync,
// adoptOrphanRevisions, getPodsForStatefulSet), stateful_set_control.go
// (UpdateStatefulSet, performUpdate, processReplica, truncateHistory),
// stateful_pod_control.go (CreateStatefulPod, UpdateStatefulPod,
// createPersistentVolumeClaims), stateful_set_utils.go
// (newVersionedStatefulSetPod, newStatefulSetPod, initIdentity,
// updateIdentity, updateStorage, getPersistentVolumeClaims,
// updateClaimOwnerRefForSetAndPod, newRevision), pkg/controller/history
// NewControllerRevision (v1.36.3).
func (p Plan) Writes(set *StatefulSet, pods []*podstatus.Pod, revisions []history.ControllerRevision, claims []*Claim) ([]plan.Write, error) {
	if set == nil {
		return nil, field.New("statefulSet", "", field.ErrRequired)
	}
	w := &writer{set: set, p: &p, ref: meta.NewControllerRef(setAPIVersion, setKind, set.Name, set.UID),
		revs: map[string]*history.ControllerRevision{}, pods: map[string]*podstatus.Pod{}, byOrd: map[int32]*podstatus.Pod{}, claims: map[string]*Claim{}}
	out, err := w.claimWrites(revisions, pods)
	if err != nil {
		return nil, err
	}
	if set.Spec.Selector != nil {
		// the sync works with what it claims
		c := claimAll(set, pods, revisions)
		pods, revisions = c.pods, c.revisions
	}
	for i := range revisions {
		w.revs[revisions[i].Name] = &revisions[i]
	}
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		w.pods[pod.Name] = pod
		if parent, o, ok := ParentAndOrdinal(pod.Name); ok && parent == set.Name {
			w.byOrd[o] = pod
		}
	}
	for _, c := range claims {
		if c != nil {
			w.claims[c.Name] = c
		}
	}
	var revDeletes []plan.Write
	for i, rw := range p.Revisions {
		path := field.Index("revisions", i)
		switch rw.Verb {
		case plan.VerbCreate:
			hash := rw.Name[strings.LastIndexByte(rw.Name, '-')+1:]
			// NewControllerRevision leaves the namespace to the request.
			r := history.New(rw.Name, "", &set.Spec.Template, history.RevisionHashLabel, hash, set.Annotations, w.ref, rw.Revision)
			out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "controllerrevisions", Namespace: set.Namespace, Object: r, Reason: rw.Reason})
		case plan.VerbUpdate:
			old := w.revs[rw.Name]
			if old == nil {
				return nil, noSuch(field.Child(path, "name"), rw.Name, "revision")
			}
			r := deepcopy.Copy(*old)
			r.Revision = rw.Revision
			stale := w.staleRevs[r.Name]
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "controllerrevisions", Namespace: r.Namespace, Name: r.Name, UID: r.UID, Object: &r,
				FromCache: stale, IgnoreRefusal: stale, Reason: rw.Reason})
			if stale {
				// The retry on the Conflict sends the empty object the
				// client returned with the error, renumbered, which the
				// API server refuses too (not a Conflict: the sync ends).
				out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "controllerrevisions", Object: &history.ControllerRevision{Revision: rw.Revision}, Reason: rw.Reason})
			}
		case plan.VerbDelete:
			if w.revs[rw.Name] == nil {
				return nil, noSuch(field.Child(path, "name"), rw.Name, "revision")
			}
			revDeletes = append(revDeletes, plan.Write{Verb: plan.VerbDelete, Resource: "controllerrevisions", Namespace: set.Namespace, Name: rw.Name, Reason: rw.Reason})
		default:
			return nil, field.New(field.Child(path, "verb"), string(rw.Verb), field.ErrUnsupported)
		}
	}
	podWrites, err := w.podWrites()
	if err != nil {
		return nil, err
	}
	out = append(out, podWrites...)
	if p.UpdateStatus {
		obj := deepcopy.Copy(*set)
		obj.Status = deepcopy.Copy(p.Status)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "statefulsets", Subresource: "status", Namespace: set.Namespace, Name: set.Name, UID: set.UID, Object: &obj, Reason: ReasonStatusUpdate})
	}
	return append(out, revDeletes...), nil
}

type writer struct {
	set    *StatefulSet
	p      *Plan
	ref    meta.OwnerReference
	revs   map[string]*history.ControllerRevision
	pods   map[string]*podstatus.Pod
	byOrd  map[int32]*podstatus.Pod
	claims map[string]*Claim
	// stalePods and staleRevs name the pods and revisions the claim
	// patched: the sync's cached copies of them are out of date.
	stalePods, staleRevs map[string]bool
}

// claimWrites returns the claim's patches: the revisions adopted, then
// the pods adopted and released merged by name, then UID, each carrying
// the object as the patch leaves it (the set's controller reference
// added with blockOwnerDeletion, replacing one with the same UID; or every
// reference to the set's UID removed), with its UID as precondition. The
// objects patched are stale in the sync's cache from then on: their later
// updates are FromCache.
func (w *writer) claimWrites(revisions []history.ControllerRevision, pods []*podstatus.Pod) ([]plan.Write, error) {
	p := w.p
	if len(p.AdoptRevisions)+len(p.Adopt)+len(p.Release) == 0 {
		return nil, nil
	}
	out := make([]plan.Write, 0, len(p.AdoptRevisions)+len(p.Adopt)+len(p.Release))
	for i, a := range p.AdoptRevisions {
		var r *history.ControllerRevision
		for j := range revisions {
			if revisions[j].Name == a.Name && (a.UID == "" || revisions[j].UID == a.UID) {
				r = &revisions[j]
			}
		}
		if r == nil {
			return nil, noSuch(field.Child(field.Index("adoptRevisions", i), "name"), a.Name, "revision")
		}
		c := deepcopy.Copy(*r)
		c.OwnerReferences = meta.MergeOwnerRef(c.OwnerReferences, w.ref)
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "controllerrevisions", Namespace: cmp.Or(c.Namespace, w.set.Namespace), Name: c.Name, UID: c.UID,
			Object: &c, Reason: cmp.Or(a.Reason, ReasonOrphanSelected)})
	}
	type claim struct {
		pod   *podstatus.Pod
		adopt bool
		why   Reason
	}
	var cs []claim
	find := func(path string, i int, r ObjectRef) (*podstatus.Pod, error) {
		for _, pod := range pods {
			if pod != nil && pod.Name == r.Name && (r.UID == "" || pod.UID == r.UID) {
				return pod, nil
			}
		}
		return nil, noSuch(field.Child(field.Index(path, i), "name"), r.Name, "pod")
	}
	for i, r := range p.Adopt {
		pod, err := find("adopt", i, r)
		if err != nil {
			return nil, err
		}
		cs = append(cs, claim{pod, true, cmp.Or(r.Reason, ReasonOrphanSelected)})
	}
	for i, r := range p.Release {
		pod, err := find("release", i, r)
		if err != nil {
			return nil, err
		}
		cs = append(cs, claim{pod, false, cmp.Or(r.Reason, ReasonSelectorMismatch)})
	}
	slices.SortStableFunc(cs, func(a, b claim) int {
		return cmp.Or(strings.Compare(a.pod.Name, b.pod.Name), strings.Compare(a.pod.UID, b.pod.UID))
	})
	for _, c := range cs {
		pod := deepcopy.New(c.pod)
		if c.adopt {
			pod.OwnerReferences = meta.MergeOwnerRef(pod.OwnerReferences, w.ref)
		} else {
			pod.OwnerReferences = meta.RemoveOwnerRef(pod.OwnerReferences, w.set.UID)
		}
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: cmp.Or(pod.Namespace, w.set.Namespace), Name: pod.Name, UID: pod.UID, Object: pod, Reason: c.why})
	}
	w.stalePods = names(p.Adopt, p.Release)
	w.staleRevs = names(p.AdoptRevisions)
	return out, nil
}

// keyed is a pod or claim write with its place in the sync: phase 0 the
// set's range (by slot, then step within the slot), 1 condemned claims,
// 2 condemned deletes, 3 the rolling update's delete.
type keyed struct {
	phase int
	slot  int64
	step  int
	w     plan.Write
}

// Steps within a slot.
const (
	stepDeleteFailed = iota
	stepClaims       // claim writes before the pod's creation (creates)
	stepCreate
	stepClaimsAfter // claim writes after it
	stepUpdate
)

func (w *writer) inRange(o int64) bool {
	start := int64(w.set.Start())
	return o >= start && o < start+int64(w.set.Replicas())
}

// slotOf is the slot of the pod named name: its ordinal, or past every
// slot for a name of another parent ("<set>--1", created for an ordinal
// beyond int32).
func (w *writer) slotOf(name string) int64 {
	parent, o, ok := ParentAndOrdinal(name)
	if !ok || parent != w.set.Name {
		return 1 << 62
	}
	return int64(o)
}

func (w *writer) podWrites() ([]plan.Write, error) {
	set, p := w.set, w.p
	var ks []keyed
	created := map[int64]bool{}
	for i, np := range p.Create.Objects {
		pod, err := w.newPod(np, i)
		if err != nil {
			return nil, err
		}
		slot := w.slotOf(np.Name)
		created[slot] = true
		ks = append(ks, keyed{0, slot, stepCreate, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: set.Namespace, Object: pod, Reason: p.Create.Reason}})
	}
	for i, cw := range p.Claims {
		c, err := w.claimWrite(cw, field.Index("claims", i))
		if err != nil {
			return nil, err
		}
		// A claim write belongs to the pod the controller was processing:
		// a pod of the set's range (or one created), or a condemned pod.
		slot := w.slotOf(cw.Pod)
		if cw.Pod == "" {
			slot = int64(ParseOrdinal(cw.Name))
		}
		k := keyed{phase: 1, slot: -slot, w: c}
		if w.inRange(slot) || created[slot] {
			k.phase, k.slot, k.step = 0, slot, stepClaims
			if created[slot] && cw.Verb == ClaimUpdate {
				k.step = stepClaimsAfter
			}
		}
		ks = append(ks, k)
	}
	for i, u := range p.Update {
		pod, err := w.updatedPod(u, field.Index("update", i), ks)
		if err != nil {
			return nil, err
		}
		ks = append(ks, keyed{0, w.slotOf(u.Name), stepUpdate, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: pod,
			FromCache: w.stalePods[u.Name], Reason: u.Reasons[0]}})
	}
	for i, d := range p.Delete {
		ns := set.Namespace // a pod this sync created
		if pod := w.pods[d.Name]; pod != nil && (d.UID == "" || pod.UID == d.UID) {
			ns = pod.Namespace
		} else if d.UID != "" || !slices.ContainsFunc(p.Create.Objects, func(n NewPod) bool { return n.Name == d.Name }) {
			return nil, noSuch(field.Child(field.Index("delete", i), "name"), d.Name, "pod")
		}
		k := keyed{w: plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: ns, Name: d.Name, Reason: d.Reason}}
		switch d.Reason {
		case ReasonPodFailed:
			k.phase, k.slot, k.step = 0, w.slotOf(d.Name), stepDeleteFailed
		case ReasonCondemned:
			k.phase = 2
		default:
			k.phase = 3
		}
		ks = append(ks, k)
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.phase != b.phase {
			return a.phase - b.phase
		}
		if a.phase == 0 || a.phase == 1 {
			if a.slot != b.slot {
				if a.slot < b.slot {
					return -1
				}
				return 1
			}
			return a.step - b.step
		}
		return 0
	})
	out := make([]plan.Write, len(ks))
	for i := range ks {
		out[i] = ks[i].w
	}
	return out, nil
}

func noSuch(path, name, kind string) error {
	return field.New(path, name, fmt.Errorf("%w: no such %s among the inputs", field.ErrInvalid, kind))
}
