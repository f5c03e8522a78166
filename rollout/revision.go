package rollout

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/replicaset"
)

// Annotations the controller reads and writes on ReplicaSets and
// Deployments (desired- and max-replicas: see proportional.go).
const (
	// RevisionAnnotation holds a ReplicaSet's (and its Deployment's)
	// rollout sequence number.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the earlier
	// revisions a ReplicaSet served (after rollbacks to it).
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// RollbackToAnnotation asks for a rollback to a revision (0: the
	// previous one); it carries the deprecated extensions/v1beta1
	// spec.rollbackTo.
	RollbackToAnnotation = "deprecated.deployment.rollback.to"

	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// maxRevisionHistoryChars bounds the revision-history annotation.
	maxRevisionHistoryChars = 2000
)

// notCopied reports whether a Deployment annotation stays off its
// ReplicaSets (and off the Deployment on rollback).
func notCopied(key string) bool {
	switch key {
	case lastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// annotationPath names annotation key of an object's metadata.
func annotationPath(key string) string {
	return "metadata.annotations[" + key + "]"
}

// Revision returns rs's revision: its deployment.kubernetes.io/revision
// annotation as a base-10 int64, 0 when absent.
//
// It returns a *field.Error naming the annotation and wrapping
// field.ErrInvalid (or field.ErrOverflow) when the value does not parse; the
// revision is then 0.
//
// Source: upstream deployment_util.go Revision (v1.36.3).
func Revision(rs *replicaset.ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, parseError(RevisionAnnotation, v, err)
	}
	return n, nil
}

// parseError converts a strconv error on annotation key into a *field.Error.
func parseError(key, value string, err error) error {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return field.New(annotationPath(key), value, field.ErrOverflow)
	}
	return field.New(annotationPath(key), value, field.ErrInvalid)
}

// MaxRevision returns the highest [Revision] among replicaSets, 0 for none.
// ReplicaSets whose revision does not parse, and nil ones, are skipped.
//
// Source: upstream deployment_util.go MaxRevision (v1.36.3).
func MaxRevision(replicaSets []*replicaset.ReplicaSet) int64 {
	var hi int64
	for _, rs := range replicaSets {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err == nil && v > hi {
			hi = v
		}
	}
	return hi
}

// LastRevision returns the second highest [Revision] among replicaSets (the
// revision before the current one; equal to it when two ReplicaSets share the
// highest), 0 when there is none. Unparsable revisions and nil ReplicaSets
// are skipped.
//
// Source: upstream deployment_util.go LastRevision (v1.36.3).
func LastRevision(replicaSets []*replicaset.ReplicaSet) int64 {
	var hi, second int64
	for _, rs := range replicaSets {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		switch {
		case err != nil:
		case v >= hi:
			second, hi = hi, v
		case v > second:
			second = v
		}
	}
	return second
}

// SortByRevision returns replicaSets ordered oldest revision first. Two
// ReplicaSets with the same revision, or either with an unparsable one, are
// ordered by creationTimestamp, then name. nil entries are dropped. The input
// is not modified.
//
// Source: upstream deployment_util.go ReplicaSetsByRevision (v1.36.3), which
// is sorted with the unstable sort.Sort; the order here is the same for every
// input on which that comparison is a strict weak order.
func SortByRevision(replicaSets []*replicaset.ReplicaSet) []*replicaset.ReplicaSet {
	out := make([]*replicaset.ReplicaSet, 0, len(replicaSets))
	for _, rs := range replicaSets {
		if rs != nil {
			out = append(out, rs)
		}
	}
	slices.SortFunc(out, byRevision)
	return out
}

// byRevision compares two ReplicaSets by revision, falling back to age.
func byRevision(a, b *replicaset.ReplicaSet) int {
	ra, ea := Revision(a)
	rb, eb := Revision(b)
	if ea != nil || eb != nil || ra == rb {
		return olderFirst(a, b)
	}
	if ra < rb {
		return -1
	}
	return 1
}

// ReplicasAnnotation returns the non-negative int32 in rs's annotation key
// (desired-replicas or max-replicas), and whether it is present and valid.
//
// It returns a *field.Error naming the annotation, wrapping field.ErrInvalid
// when the value is not a base-10 unsigned number or field.ErrOverflow when
// it exceeds MaxInt32; the value is then 0 and not ok.
//
// Source: upstream deployment_util.go getNonNegativeInt32FromAnnotation (v1.36.3).
func ReplicasAnnotation(rs *replicaset.ReplicaSet, key string) (int32, bool, error) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0, false, parseError(key, v, err)
	}
	if n > math.MaxInt32 {
		return 0, false, field.New(annotationPath(key), v, field.ErrOverflow)
	}
	return int32(n), true, nil
}

// ReplicasAnnotationsNeedUpdate reports whether rs's desired-replicas and
// max-replicas annotations differ from desired and maxReplicas (as decimal
// strings; a missing annotation differs).
//
// Source: upstream deployment_util.go ReplicasAnnotationsNeedUpdate (v1.36.3).
func ReplicasAnnotationsNeedUpdate(rs *replicaset.ReplicaSet, desired, maxReplicas int32) bool {
	return !annotationIs(rs.Annotations, DesiredReplicasAnnotation, desired) ||
		!annotationIs(rs.Annotations, MaxReplicasAnnotation, maxReplicas)
}

// annotationIs reports whether annotations[key] is n in decimal, without
// allocating.
func annotationIs(annotations map[string]string, key string, n int32) bool {
	v, ok := annotations[key]
	if !ok {
		return false
	}
	var buf [12]byte
	return v == string(strconv.AppendInt(buf[:0], int64(n), 10))
}

// appendRevisionHistory returns history with old appended, dropping the
// oldest entries so that the result stays within limit characters; history
// unchanged (and false) when even old alone does not fit. A history whose
// first entry is empty is replaced by old.
func appendRevisionHistory(history, old string, limit int) (string, bool) {
	if history == "" || history[0] == ',' {
		return old, true
	}
	entries := strings.Split(history, ",")
	total := len(history) + len(old) + 1
	start := 0
	for total > limit && start < len(entries) {
		total -= len(entries[start]) + 1
		start++
	}
	if total > limit {
		return history, false
	}
	return strings.Join(append(entries[start:], old), ","), true
}

// Origin says whether [NewReplicaSetAnnotations] annotates a ReplicaSet the
// sync creates or one that already exists.
type Origin bool

// Origins.
const (
	Existing Origin = false
	Creating Origin = true
)

// NewReplicaSetAnnotations returns the annotations the controller writes on
// newReplicaSet when it is (or is created as) d's new ReplicaSet with
// revision newRevision, and whether they differ from newReplicaSet's:
//
//   - every annotation of d is copied except last-applied-configuration,
//     revision, revision-history, desired-replicas, max-replicas and the
//     rollback request;
//   - the revision is raised to newRevision only when the current one is
//     lower (a missing or empty one counts as 0);
//   - when an existing revision is raised (a rollback to this ReplicaSet),
//     it is appended to revision-history, oldest entries dropped to stay
//     within 2000 characters;
//   - with origin Creating, desired-replicas is spec.replicas and max-replicas is
//     spec.replicas + [Deployment.MaxSurge].
//
// When the current revision does not parse, only the copied annotations are
// returned, reported as unchanged, as upstream does. newReplicaSet is not
// modified.
//
// Source: upstream deployment_util.go SetNewReplicaSetAnnotations,
// copyDeploymentAnnotationsToReplicaSet, SetReplicasAnnotations and
// sync.go maxRevHistoryLengthInChars (v1.36.3).
func NewReplicaSetAnnotations(d *Deployment, newReplicaSet *replicaset.ReplicaSet, newRevision int64, origin Origin) (map[string]string, bool) {
	out := make(map[string]string, len(newReplicaSet.Annotations)+len(d.Annotations)+3)
	for k, v := range newReplicaSet.Annotations {
		out[k] = v
	}
	changed := false
	for k, v := range d.Annotations {
		if cur, ok := out[k]; notCopied(k) || (ok && cur == v) {
			continue
		}
		out[k] = v
		changed = true
	}
	oldText, had := out[RevisionAnnotation]
	old, err := strconv.ParseInt(oldText, 10, 64)
	if err != nil {
		if oldText != "" {
			return out, false
		}
		old = 0
	}
	if old < newRevision {
		out[RevisionAnnotation] = strconv.FormatInt(newRevision, 10)
		changed = true
		if had {
			if h, ok := appendRevisionHistory(out[RevisionHistoryAnnotation], oldText, maxRevisionHistoryChars); ok {
				out[RevisionHistoryAnnotation] = h
			}
		}
	}
	if origin == Creating {
		replicas := d.Replicas()
		desired := strconv.FormatInt(int64(replicas), 10)
		maxReplicas := strconv.FormatInt(int64(replicas+d.MaxSurge()), 10)
		if out[DesiredReplicasAnnotation] != desired || out[MaxReplicasAnnotation] != maxReplicas {
			changed = true
		}
		out[DesiredReplicasAnnotation] = desired
		out[MaxReplicasAnnotation] = maxReplicas
	}
	return out, changed
}
