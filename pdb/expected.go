package pdb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// ScaleError is why the expected pod count could not be computed: a pod's
// controller is not among the controllers, or cannot be scaled. The
// controller fails the sync and writes Message into the DisruptionAllowed
// condition (reason SyncFailed).
type ScaleError struct {
	Pod     string `json:"pod"`
	Message string `json:"message"`
}

func (e *ScaleError) Error() string { return e.Message }

// Expected is the result of [ExpectedPods].
type Expected struct {
	// Count is status.expectedPods.
	Count int32 `json:"expectedPods"`
	// DesiredHealthy is status.desiredHealthy.
	DesiredHealthy int32 `json:"desiredHealthy"`
	// Unmanaged names the selected pods without a controller reference,
	// sorted, when the count comes from controllers' scale.
	Unmanaged []string `json:"unmanaged"`
}

func groupOf(apiVersion string) (string, bool) {
	if apiVersion == "" {
		return "", true
	}
	g, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return "", true // "v1": the core group
	}
	if strings.Contains(apiVersion[len(g)+1:], "/") {
		return "", false
	}
	return g, true
}

func isKind(ref *meta.OwnerReference, kind string, groups ...string) bool {
	if ref == nil || ref.Kind != kind {
		return false
	}
	g, ok := groupOf(ref.APIVersion)
	if !ok {
		return false
	}
	for _, want := range groups {
		if g == want {
			return true
		}
	}
	return false
}

func lookup(cs []Controller, kind, name string, groups ...string) *Controller {
	for i := range cs {
		c := &cs[i]
		if c.Kind != kind || c.Name != name {
			continue
		}
		if len(groups) == 0 {
			return c
		}
		if g, ok := groupOf(c.APIVersion); ok {
			for _, want := range groups {
				if g == want {
					return c
				}
			}
		}
	}
	return nil
}

// lookupVersion returns the controller of that exact apiVersion, kind and
// name.
func lookupVersion(cs []Controller, apiVersion, kind, name string) *Controller {
	for i := range cs {
		if c := &cs[i]; c.APIVersion == apiVersion && c.Kind == kind && c.Name == name {
			return c
		}
	}
	return nil
}

// ControllerScale returns the UID and scale of the controller the disruption
// controller counts for a pod with controller reference ref: a
// ReplicationController; a ReplicaSet's Deployment (when the ReplicaSet is
// controlled by one); a ReplicaSet not controlled by a Deployment; a
// StatefulSet (these by group, whatever the version); else the object of
// the reference's apiVersion, kind and name, through its scale subresource
// (a version no controller of that kind is given at is not served). Names
// and UIDs must both match. found is false when no controller is found;
// err is set when the reference's kind has no scale subresource or its
// apiVersion does not parse.
//
// Source: upstream pkg/controller/disruption/disruption.go finders,
// getPodReplicationController, getPodDeployment, getPodReplicaSet,
// getPodStatefulSet, getScaleController (v1.36.3).
func ControllerScale(ref meta.OwnerReference, controllers []Controller) (uid string, scale int32, found bool, err error) {
	if _, ok := groupOf(ref.APIVersion); !ok {
		return "", 0, false, fmt.Errorf("unexpected GroupVersion string: %s", ref.APIVersion)
	}
	replicas := func(c *Controller) int32 {
		if c.Spec.Replicas == nil {
			return 0
		}
		return *c.Spec.Replicas
	}
	if isKind(&ref, "ReplicationController", "") {
		if c := lookup(controllers, "ReplicationController", ref.Name, ""); c != nil && c.UID == ref.UID {
			return c.UID, replicas(c), true, nil
		}
	}
	if isKind(&ref, "ReplicaSet", "apps", "extensions") {
		if rs := lookup(controllers, "ReplicaSet", ref.Name, "apps", "extensions"); rs != nil && rs.UID == ref.UID {
			owner := rs.ControllerRef()
			if isKind(owner, "Deployment", "apps", "extensions") {
				if d := lookup(controllers, "Deployment", owner.Name, "apps", "extensions"); d != nil && d.UID == owner.UID {
					return d.UID, replicas(d), true, nil
				}
			}
			if owner == nil || owner.Kind != "Deployment" {
				return rs.UID, replicas(rs), true, nil
			}
		}
	}
	if isKind(&ref, "StatefulSet", "apps") {
		if c := lookup(controllers, "StatefulSet", ref.Name, "apps"); c != nil && c.UID == ref.UID {
			return c.UID, replicas(c), true, nil
		}
	}
	// The scale subresource of the object, reached through the REST mapping
	// of the reference's group, version and kind: a version the API does not
	// serve (one no controller of that kind is given at) maps to nothing.
	c := lookupVersion(controllers, ref.APIVersion, ref.Kind, ref.Name)
	if c == nil {
		return "", 0, false, nil
	}
	if c.Spec.Replicas == nil {
		return "", 0, false, fmt.Errorf("%s %q does not implement the scale subresource", ref.Kind, ref.Name)
	}
	if c.UID != ref.UID {
		return "", 0, false, nil
	}
	return c.UID, *c.Spec.Replicas, true, nil
}

// ExpectedScale sums the scale of the selected pods' controllers, each
// counted once, found by controller reference (never by selector), and names
// the pods without a controller reference. A pod whose controller cannot be
// found or scaled is a *ScaleError.
//
// Source: upstream pkg/controller/disruption/disruption.go getExpectedScale
// (v1.36.3).
func ExpectedScale(pods []*podstatus.Pod, controllers []Controller) (count int32, unmanaged []string, err error) {
	seen := map[string]int32{}
	// ControllerScale reads only the reference's apiVersion, kind, name and
	// UID: pods sharing them share its answer, looked up once.
	type refKey struct{ apiVersion, kind, name, uid string }
	type scaleOf struct {
		uid   string
		scale int32
		found bool
		err   error
	}
	memo := map[refKey]scaleOf{}
	var sum int64
	// shortcuts for a run of pods of one controller: last, a controller UID
	// found seen (when hasLast); lastKey, the reference of the last pod
	// counted (when counted)
	last, hasLast := "", false
	var lastKey refKey
	counted := false
	// Pods are visited in name order so the first failing pod does not
	// depend on the input order.
	for _, p := range sortedPods(pods) {
		ref := p.ControllerRef()
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if hasLast && ref.UID == last {
			continue // (the previous pod's controller: seen)
		}
		if _, ok := seen[ref.UID]; ok {
			last, hasLast = ref.UID, true
			continue
		}
		k := refKey{ref.APIVersion, ref.Kind, ref.Name, ref.UID}
		if counted && k == lastKey {
			// (the reference of the previous pod, which counted: the
			// same answer, its controller already counted)
			continue
		}
		r, ok := memo[k]
		if !ok {
			r.uid, r.scale, r.found, r.err = ControllerScale(*ref, controllers)
			memo[k] = r
		}
		uid, scale, found, e := r.uid, r.scale, r.found, r.err
		if e != nil {
			return 0, nil, &ScaleError{Pod: p.Name, Message: e.Error()}
		}
		if !found {
			return 0, nil, &ScaleError{Pod: p.Name, Message: fmt.Sprintf("found no controllers for pod %q", p.Name)}
		}
		// Keyed by the UID of the controller found, not the reference's: a
		// ReplicaSet counted through its Deployment is looked up again for
		// each of its pods.
		if _, ok := seen[uid]; !ok {
			sum += int64(scale)
		}
		seen[uid] = scale
		lastKey, counted = k, true
	}
	if sum > 1<<31-1 || sum < -1<<31 {
		return 0, nil, field.Int("controllers", sum, field.ErrOverflow)
	}
	return int32(sum), unmanaged, nil
}

// sortedPods returns pods without nils, by name (stably). Pods already
// so (no nil, names in order, as Step passes them on) are returned as they
// are: callers only read the result.
func sortedPods(pods []*podstatus.Pod) []*podstatus.Pod {
	sorted := true
	for i, p := range pods {
		if p == nil || i > 0 && p.Name < pods[i-1].Name {
			sorted = false
			break
		}
	}
	if sorted {
		return pods
	}
	out := make([]*podstatus.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *podstatus.Pod) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ExpectedPods returns status.expectedPods and status.desiredHealthy for b
// over its selected pods: with maxUnavailable, the controllers' scale minus
// maxUnavailable (a percentage of the scale rounded up), never below 0; with
// an integer minAvailable, the number of selected pods and minAvailable; with
// a percentage minAvailable, the controllers' scale and the percentage of it
// rounded up; with neither, 0 and 0.
//
// Source: upstream pkg/controller/disruption/disruption.go
// getExpectedPodCount (v1.36.3).
func ExpectedPods(b *PodDisruptionBudget, pods []*podstatus.Pod, controllers []Controller) (Expected, error) {
	var e Expected
	switch {
	case b.Spec.MaxUnavailable != nil:
		n, un, err := ExpectedScale(pods, controllers)
		if err != nil {
			return Expected{}, err
		}
		mu, err := intstr.Scaled(*b.Spec.MaxUnavailable, n, intstr.Rounding(true))
		if err != nil {
			return Expected{}, field.At(err, "spec.maxUnavailable")
		}
		e = Expected{Count: n, DesiredHealthy: max(n-mu, 0), Unmanaged: un}
	case b.Spec.MinAvailable != nil && !b.Spec.MinAvailable.IsString():
		e = Expected{Count: int32(countNonNil(pods)), DesiredHealthy: b.Spec.MinAvailable.IntValue()}
	case b.Spec.MinAvailable != nil:
		n, un, err := ExpectedScale(pods, controllers)
		if err != nil {
			return Expected{}, err
		}
		ma, err := intstr.Scaled(*b.Spec.MinAvailable, n, intstr.Rounding(true))
		if err != nil {
			return Expected{}, field.At(err, "spec.minAvailable")
		}
		e = Expected{Count: n, DesiredHealthy: ma, Unmanaged: un}
	}
	return e, nil
}

func countNonNil(pods []*podstatus.Pod) int {
	n := 0
	for _, p := range pods {
		if p != nil {
			n++
		}
	}
	return n
}
