package k8s

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
)

// maxRevisionPrefix is the longest owner name a ControllerRevision name
// keeps; a longer name is cut so that the name stays a valid object name.
const maxRevisionPrefix = 223

// ControllerRevisionHash returns the hash v1.36.3 gives rev in its name and
// controller-revision-hash label: FNV-1 (32-bit; not FNV-1a, which the
// pod-template-hash uses) over rev.Data.Raw or, when rev.Data.Object is
// set, over its dump.ForHash rendering instead (upstream hashes Raw, then
// resets the hash to write Object), then, when collisionCount is set, over
// its decimal digits; the sum printed in decimal and spelled in
// rand.SafeEncodeString's alphabet. StatefulSets always pass a count (0
// when status.collisionCount is unset); see [StatefulSetRevisionName].
//
// Source: upstream pkg/controller/history HashControllerRevision (v1.36.3).
func ControllerRevisionHash(rev *appsv1.ControllerRevision, collisionCount *int32) string {
	var sum uint32
	if rev.Data.Object != nil {
		// upstream's hashutil.DeepHashObject resets the hash: Raw drops out
		h := fnv.New32()
		fmt.Fprintf(h, "%v", dump.ForHash(rev.Data.Object))
		sum = h.Sum32()
	} else {
		sum = fnv1(fnv1Offset, rev.Data.Raw)
	}
	if collisionCount != nil {
		var buf [20]byte
		sum = fnv1(sum, strconv.AppendInt(buf[:0], int64(*collisionCount), 10))
	}
	var digits [10]byte
	return rand.SafeEncodeString(string(strconv.AppendUint(digits[:0], uint64(sum), 10)))
}

// FNV-1, 32-bit (hash/fnv New32), without the hash.Hash interface.
const (
	fnv1Offset uint32 = 2166136261
	fnv1Prime  uint32 = 16777619
)

func fnv1(h uint32, b []byte) uint32 {
	for _, c := range b {
		h *= fnv1Prime
		h ^= uint32(c)
	}
	return h
}

// ControllerRevisionName is the name of the ControllerRevision of owner
// with hash: "<owner>-<hash>", the owner name cut to its first 223 bytes.
//
// Source: upstream pkg/controller/history ControllerRevisionName (v1.36.3).
func ControllerRevisionName(owner, hash string) string {
	if len(owner) > maxRevisionPrefix {
		owner = owner[:maxRevisionPrefix]
	}
	return owner + "-" + hash
}

// templatePatch is the revision data both controllers store: the strategic
// merge patch {"spec":{"template":{"$patch":"replace",…}}} holding the
// template as encoding/json writes it, re-read into generic JSON values
// and written again (so object keys come out sorted). decode is how the
// generic values are read, which decides how large integers come out.
func templatePatch(template *corev1.PodTemplateSpec, decode func([]byte, any) error) ([]byte, error) {
	b, err := json.Marshal(template)
	if err != nil {
		return nil, fmt.Errorf("k8s: encoding the pod template: %w", err)
	}
	var t map[string]any
	if err := decode(b, &t); err != nil {
		return nil, fmt.Errorf("k8s: decoding the pod template: %w", err)
	}
	if t == nil {
		t = map[string]any{}
	}
	t["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
}

// StatefulSetRevisionData returns the Data.Raw of the ControllerRevision
// v1.36.3 builds for set's template: {"spec":{"template":{"$patch":"replace",
// …}}} with the template's keys sorted. Integers pass through float64 on
// the way (encoding/json into interface{}), so an integer field above 2^53
// (terminationGracePeriodSeconds, activeDeadlineSeconds, …) is stored
// rounded, as upstream stores it.
//
// Source: upstream pkg/controller/statefulset getPatch (v1.36.3).
func StatefulSetRevisionData(set *appsv1.StatefulSet) ([]byte, error) {
	return templatePatch(&set.Spec.Template, json.Unmarshal)
}

// DaemonSetRevisionData returns the Data.Raw of the ControllerRevision
// v1.36.3 builds for ds's template, the same patch as
// [StatefulSetRevisionData] except that integers keep every digit (the
// DaemonSet controller re-reads the template with apimachinery's JSON,
// which keeps int64 values).
//
// Source: upstream pkg/controller/daemon getPatch (v1.36.3).
func DaemonSetRevisionData(ds *appsv1.DaemonSet) ([]byte, error) {
	return templatePatch(&ds.Spec.Template, utiljson.Unmarshal)
}

// StatefulSetRevisionName returns the name of the ControllerRevision
// v1.36.3 builds for set's current template: "<set>-<hash>", the hash
// taken over [StatefulSetRevisionData] and status.collisionCount (0 when
// unset). Pods of that revision carry this name as their
// controller-revision-hash label; it is kubesem's Spec.TemplateRevision
// when no existing revision holds the same template (see
// [StatefulSetUpdateRevision]).
//
// Source: upstream pkg/controller/statefulset getStatefulSetRevisions,
// newRevision; history.NewControllerRevision (v1.36.3).
func StatefulSetRevisionName(set *appsv1.StatefulSet) (string, error) {
	data, err := StatefulSetRevisionData(set)
	if err != nil {
		return "", err
	}
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	rev := appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: data}}
	return ControllerRevisionName(set.Name, ControllerRevisionHash(&rev, &cc)), nil
}

// NewStatefulSetRevision returns the ControllerRevision v1.36.3 creates
// for set's current template with the given revision number: named
// [StatefulSetRevisionName], in set's namespace, labelled with the
// template's labels and [history.RevisionHashLabel], annotated with set's
// annotations, controlled by set, holding [StatefulSetRevisionData].
//
// Source: upstream pkg/controller/statefulset newRevision;
// history.NewControllerRevision and realHistory.CreateControllerRevision
// (v1.36.3).
func NewStatefulSetRevision(set *appsv1.StatefulSet, revision int64) (*appsv1.ControllerRevision, error) {
	data, err := StatefulSetRevisionData(set)
	if err != nil {
		return nil, err
	}
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	cr := &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: data}, Revision: revision}
	hash := ControllerRevisionHash(cr, &cc)
	cr.APIVersion, cr.Kind = "apps/v1", "ControllerRevision"
	cr.Name, cr.Namespace = ControllerRevisionName(set.Name, hash), set.Namespace
	cr.Labels = make(map[string]string, len(set.Spec.Template.Labels)+1)
	maps.Copy(cr.Labels, set.Spec.Template.Labels)
	cr.Labels[history.RevisionHashLabel] = hash
	cr.Annotations = make(map[string]string, len(set.Annotations))
	maps.Copy(cr.Annotations, set.Annotations)
	cr.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}
	return cr, nil
}

// StatefulSetUpdateRevision returns the name of the revision v1.36.3 makes
// set's update revision among its existing revisions: the last, in
// revision order, whose Data.Raw is byte-equal to
// [StatefulSetRevisionData] (compared compacted, so that revisions read
// from kubectl's indented output match as the stored bytes do); else, when the newest revision holds the same
// template re-encoded (see below), the newest; else the new revision's
// name, [StatefulSetRevisionName]. Use it as Spec.TemplateRevision when
// the set has revisions.
//
// Upstream's StatefulSetSemanticRevisionComparison (on by default) also
// keeps the newest revision when restoring it and applying API defaulting
// gives the same template; the adapter cannot default, so it compares the
// newest revision's template re-encoded by this module's k8s.io/api, which
// covers serialization changes between releases but not a template that
// differs from the stored one only by defaults.
//
// Source: upstream pkg/controller/statefulset getStatefulSetRevisions,
// setMatchesLatestExistingRevision; history.FindEqualRevisions (v1.36.3).
func StatefulSetUpdateRevision(set *appsv1.StatefulSet, revisions []*appsv1.ControllerRevision) (string, error) {
	data, err := StatefulSetRevisionData(set)
	if err != nil {
		return "", err
	}
	sorted := sortedRevisions(revisions)
	for i := len(sorted) - 1; i >= 0; i-- {
		if bytes.Equal(storedData(sorted[i].Data.Raw), data) && sorted[i].Data.Object == nil {
			return sorted[i].Name, nil
		}
	}
	if n := len(sorted); n > 0 {
		latest := sorted[n-1]
		var stored struct {
			Spec struct {
				Template corev1.PodTemplateSpec `json:"template"`
			} `json:"spec"`
		}
		if json.Unmarshal(latest.Data.Raw, &stored) == nil {
			re := appsv1.StatefulSet{}
			re.Spec.Template = stored.Spec.Template
			if again, err := StatefulSetRevisionData(&re); err == nil && bytes.Equal(again, data) {
				return latest.Name, nil
			}
		}
	}
	return StatefulSetRevisionName(set)
}

// storedData returns raw as the API server stores a controller's revision
// data: compact JSON. Revisions read from kubectl's output carry it
// indented; the controllers, reading from their informers, see the stored
// bytes. Data that is not JSON is returned as is.
func storedData(raw []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// sortedRevisions returns the non-nil revisions sorted as upstream sorts
// them: by revision number, then creation time, then name (stable).
func sortedRevisions(revisions []*appsv1.ControllerRevision) []*appsv1.ControllerRevision {
	out := make([]*appsv1.ControllerRevision, 0, len(revisions))
	for _, r := range revisions {
		if r != nil {
			out = append(out, r)
		}
	}
	// insertion sort keeps it stable without a comparator allocation
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && revisionLess(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func revisionLess(a, b *appsv1.ControllerRevision) bool {
	if a.Revision != b.Revision {
		return a.Revision < b.Revision
	}
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.CreationTimestamp.Before(&b.CreationTimestamp)
	}
	return a.Name < b.Name
}

// NewDaemonSetRevision returns the ControllerRevision v1.36.3 creates for
// ds's current template with the given revision number: named
// "<ds>-<hash>" where hash is [PodTemplateHash] of the template and
// status.collisionCount (the DaemonSet controller names revisions by the
// template hash, not by [ControllerRevisionHash]), labelled with the
// template's labels and controller-revision-hash, annotated with ds's
// annotations, controlled by ds, holding [DaemonSetRevisionData].
//
// Source: upstream pkg/controller/daemon snapshot (v1.36.3).
func NewDaemonSetRevision(ds *appsv1.DaemonSet, revision int64) (*appsv1.ControllerRevision, error) {
	data, err := DaemonSetRevisionData(ds)
	if err != nil {
		return nil, err
	}
	hash := PodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount)
	cr := &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: data}, Revision: revision}
	cr.APIVersion, cr.Kind = "apps/v1", "ControllerRevision"
	cr.Name, cr.Namespace = ds.Name+"-"+hash, ds.Namespace
	cr.Labels = make(map[string]string, len(ds.Spec.Template.Labels)+1)
	maps.Copy(cr.Labels, ds.Spec.Template.Labels)
	cr.Labels[history.HashLabel] = hash
	if ds.Annotations != nil {
		cr.Annotations = maps.Clone(ds.Annotations)
	}
	cr.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("DaemonSet"))}
	return cr, nil
}

// DaemonSetHistory returns the daemonset.History of ds and its
// ControllerRevisions: each revision with its controller-revision-hash
// label (its name when unlabelled, as the controller labels it), and the
// current hash: the label of the revision ds claims
// (daemonset.ClaimRevision: owned or adopted) whose Data.Raw (compacted, as
// for [StatefulSetUpdateRevision]) equals [DaemonSetRevisionData] (the highest-numbered when several do; among
// equally numbered ones upstream takes the last its informer cache lists,
// in no set order, and the adapter the last in revisions), else the [PodTemplateHash] the controller
// names a new revision with.
//
// The other claimed revisions holding the template under another hash
// (label or name) are listed in Same, so that Step deduplicates them as
// upstream does. kubesem's daemonset package otherwise tells the current
// revision by its hash where upstream compares data: an old revision
// labelled with the current hash (possible only when revisions were written
// by hand) counts as current there.
//
// Source: upstream pkg/controller/daemon constructHistory, Match,
// dedupCurHistories, snapshot (v1.36.3).
func DaemonSetHistory(ds *appsv1.DaemonSet, revisions []*appsv1.ControllerRevision) (daemonset.History, error) {
	data, err := DaemonSetRevisionData(ds)
	if err != nil {
		return daemonset.History{}, err
	}
	kds, err := FromDaemonSet(ds)
	if err != nil {
		return daemonset.History{}, err
	}
	var h daemonset.History
	var cur *appsv1.ControllerRevision
	var same []*appsv1.ControllerRevision // (claimed, holding the template)
	for _, r := range revisions {
		if r == nil {
			continue
		}
		hr := FromControllerRevision(r)
		h.Revisions = append(h.Revisions, hr)
		if c := daemonset.ClaimRevision(kds, &hr); c != daemonset.Owned && c != daemonset.Adopt {
			continue // (not among those the controller claims)
		}
		if bytes.Equal(storedData(r.Data.Raw), data) {
			same = append(same, r)
			if cur == nil || r.Revision >= cur.Revision {
				cur = r
			}
		}
	}
	if cur == nil {
		h.Hash = PodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount)
		return h, nil
	}
	h.Hash = revisionHashLabel(cur)
	for _, r := range same {
		if revisionHashLabel(r) != h.Hash {
			h.Same = append(h.Same, r.Name)
		}
	}
	return h, nil
}

// revisionHashLabel is r's controller-revision-hash label, or its name when
// the label is absent (constructHistory adds it so).
func revisionHashLabel(r *appsv1.ControllerRevision) string {
	if v, ok := r.Labels[history.HashLabel]; ok {
		return v
	}
	return r.Name
}

// FromControllerRevision converts a ControllerRevision (a StatefulSet's or
// a DaemonSet's): its metadata, revision number and, when its data is the
// controllers' patch of a pod template ({"spec":{"template":…}}), the
// template as history.Data (nil otherwise).
func FromControllerRevision(r *appsv1.ControllerRevision) history.ControllerRevision {
	out := history.ControllerRevision{ObjectMeta: fromObjectMeta(&r.ObjectMeta), Revision: r.Revision}
	if len(r.Data.Raw) > 0 {
		var d history.Data
		if err := json.Unmarshal(r.Data.Raw, &d); err == nil {
			out.Data = &d
		}
	}
	return out
}

// FromControllerRevisions converts every non-nil revision of a list.
func FromControllerRevisions(revisions []*appsv1.ControllerRevision) []history.ControllerRevision {
	out := make([]history.ControllerRevision, 0, len(revisions))
	for _, r := range revisions {
		if r != nil {
			out = append(out, FromControllerRevision(r))
		}
	}
	return out
}

// ToControllerRevision converts r back to an apps/v1 ControllerRevision
// (metadata and revision number; no data).
func ToControllerRevision(r history.ControllerRevision) *appsv1.ControllerRevision {
	out := &appsv1.ControllerRevision{ObjectMeta: toObjectMeta(&r.ObjectMeta), Revision: r.Revision}
	out.APIVersion, out.Kind = "apps/v1", "ControllerRevision"
	return out
}
