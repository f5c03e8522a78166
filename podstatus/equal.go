package podstatus

import (
	"github.com/kubesem/kubesem/internal/semantic"
	"reflect"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// Equal reports whether a and b are the same pod template to v1.36.3: their
// Comparable forms (defaulted as the API server defaults a template, the
// unmodelled part read as its decoding reads it) are equal as upstream's
// semantic equality compares objects — nil and empty lists and maps alike,
// times as instants, a JSON string never equal to a JSON number.
//
// The modelled fields are compared field by field, without copies; the
// unmodelled parts only when the modelled fields agree. Two templates
// built in Go (neither decoded from JSON) have no unmodelled part but the
// defaults their modelled fields imply, which are then equal, so their
// JSON is not built (TestEqualMatchesComparable checks both against the
// comparison of their Comparable forms).
//
// Source: upstream deployment_util.go EqualIgnoreHash (equality.Semantic
// .DeepEqual of decoded, defaulted templates), v1.36.3.
func Equal(a, b *Template) bool {
	if !equalMeta(&a.ObjectMeta, &b.ObjectMeta) || !equalSpec(&a.Spec, &b.Spec) {
		return false
	}
	if a.norm.Get() == nil && b.norm.Get() == nil && a.rest.Get() == nil && b.rest.Get() == nil {
		return true
	}
	return equalJSON(a.normal(), b.normal())
}

// normal is t's unmodelled part as comparisons see it (Comparable's).
func (t *Template) normal() any {
	if n := t.norm.Get(); n != nil {
		return n
	}
	c := *t // only this copy escapes (to encoding/json), not t
	return c.Comparable().norm.Get()
}

func equalMeta(a, b *meta.ObjectMeta) bool {
	if a.Name != b.Name || a.GenerateName != b.GenerateName || a.Namespace != b.Namespace || a.UID != b.UID ||
		a.Generation != b.Generation || !a.CreationTimestamp.Equal(b.CreationTimestamp) ||
		!equalPtr(a.DeletionTimestamp, b.DeletionTimestamp, time.Time.Equal) ||
		!equalPtr(a.DeletionGracePeriodSeconds, b.DeletionGracePeriodSeconds, eq) ||
		!equalMap(a.Labels, b.Labels) || !equalMap(a.Annotations, b.Annotations) ||
		!equalSlice(a.Finalizers, b.Finalizers, eq) {
		return false
	}
	return equalSlice(a.OwnerReferences, b.OwnerReferences, func(x, y meta.OwnerReference) bool {
		return x.APIVersion == y.APIVersion && x.Kind == y.Kind && x.Name == y.Name && x.UID == y.UID &&
			equalPtr(x.Controller, y.Controller, eq) && equalPtr(x.BlockOwnerDeletion, y.BlockOwnerDeletion, eq)
	})
}

func equalSpec(a, b *Spec) bool {
	ra, rb := a.RestartPolicy, b.RestartPolicy
	if ra == "" {
		ra = RestartAlways
	}
	if rb == "" {
		rb = RestartAlways
	}
	ga, gb := int64(30), int64(30)
	if a.TerminationGracePeriodSeconds != nil {
		ga = *a.TerminationGracePeriodSeconds
	}
	if b.TerminationGracePeriodSeconds != nil {
		gb = *b.TerminationGracePeriodSeconds
	}
	return ra == rb && ga == gb && a.NodeName == b.NodeName && a.Hostname == b.Hostname &&
		a.Subdomain == b.Subdomain && a.HostNetwork == b.HostNetwork &&
		equalMap(a.NodeSelector, b.NodeSelector) && equalPtr(a.Priority, b.Priority, eq) &&
		equalPtr(a.ActiveDeadlineSeconds, b.ActiveDeadlineSeconds, eq) &&
		equalSlice(a.Volumes, b.Volumes, func(x, y Volume) bool {
			return x.Name == y.Name && equalPtr(x.PersistentVolumeClaim, y.PersistentVolumeClaim, func(p, q PersistentVolumeClaimVolumeSource) bool { return p == q })
		}) &&
		equalSlice(a.InitContainers, b.InitContainers, equalContainer) &&
		equalSlice(a.Containers, b.Containers, equalContainer) &&
		equalSlice(a.ReadinessGates, b.ReadinessGates, func(x, y ReadinessGate) bool { return x == y }) &&
		equalPtr(a.Affinity, b.Affinity, equalAffinity) &&
		equalSlice(a.Tolerations, b.Tolerations, func(x, y Toleration) bool {
			return x.Key == y.Key && x.Operator == y.Operator && x.Value == y.Value && x.Effect == y.Effect &&
				equalPtr(x.TolerationSeconds, y.TolerationSeconds, eq)
		})
}

func equalContainer(a, b Container) bool {
	return a.Name == b.Name && a.Image == b.Image && equalPtr(a.RestartPolicy, b.RestartPolicy, eq) &&
		equalSlice(a.RestartPolicyRules, b.RestartPolicyRules, func(x, y RestartRule) bool {
			return x.Action == y.Action && equalPtr(x.ExitCodes, y.ExitCodes, func(p, q ExitCodesMatcher) bool {
				return p.Operator == q.Operator && equalSlice(p.Values, q.Values, eq)
			})
		})
}

func equalAffinity(a, b Affinity) bool {
	return equalPtr(a.NodeAffinity, b.NodeAffinity, func(x, y NodeAffinity) bool {
		return equalPtr(x.RequiredDuringSchedulingIgnoredDuringExecution, y.RequiredDuringSchedulingIgnoredDuringExecution, func(p, q NodeSelector) bool {
			return equalSlice(p.NodeSelectorTerms, q.NodeSelectorTerms, func(s, t NodeSelectorTerm) bool {
				return equalSlice(s.MatchExpressions, t.MatchExpressions, equalRequirement) &&
					equalSlice(s.MatchFields, t.MatchFields, equalRequirement)
			})
		})
	})
}

func equalRequirement(a, b NodeSelectorRequirement) bool {
	return a.Key == b.Key && a.Operator == b.Operator && equalSlice(a.Values, b.Values, eq)
}

func eq[T comparable](a, b T) bool { return a == b }

// equalPtr: both nil, or both set and equal.
func equalPtr[T any](a, b *T, same func(T, T) bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return same(*a, *b)
}

// equalSlice: nil and empty alike.
func equalSlice[T any](a, b []T, same func(T, T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// equalMap: nil and empty alike.
func equalMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// equalJSON compares two unmodelled parts (normal.go's values: JSON
// objects and lists, scalars, quantity and time values): as deepEqual
// does, nil and empty objects and lists alike, scalars of different
// types never equal.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && equalSlice(x, y, equalJSON)
	case nil:
		return b == nil
	}
	if !reflect.TypeOf(a).Comparable() {
		return deepEqualAny(a, b)
	}
	return a == b
}

// deepEqualAny is deepEqual of two values (apart, so that equalJSON's
// arguments stay on the stack).
func deepEqualAny(a, b any) bool {
	return deepEqual(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem())
}

// deepEqual is reflect.DeepEqual with nil equal to empty for slices and maps
// and time.Time compared with Equal (the API's semantic equality:
// semantic.EqualValues). Templates hold no cycles.
func deepEqual(a, b reflect.Value) bool { return semantic.EqualValues(a, b) }
