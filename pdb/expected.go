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
// the pods without a controller reference. The sum is an int32 that wraps,
// as upstream's does (two controllers of 2^31−1 replicas sum to −2). A pod
// whose controller cannot be found or scaled is a *ScaleError.
//
// Source: upstream pkg/controller/disruption/disruption.go getExpectedScale
// (v1.36.3).
func ExpectedScale(pods []*podstatus.Pod, controllers []Controller) (count int32, unmanaged []string, err error) {
	if n, un, ok := expectedScaleAnyOrder(pods, controllers); ok {
		return n, un, nil
	}
	return expectedScaleInOrder(sortedPods(pods), controllers)
}

// refKey is what ControllerScale reads of a reference: pods sharing it
// share its answer, looked up once.
type refKey struct{ uid, name, kind, apiVersion string } // (the UID first: keys differ there first)

// scaleOf is ControllerScale's answer for a refKey.
type scaleOf struct {
	uid   string
	scale int32
	found bool
	err   error
}

// expectedScaleAnyOrder is ExpectedScale when the order of the pods cannot
// change it, without sorting them: every pod's controller is found, no
// reference's UID is another reference's controller found through an
// owner (the skip of a counted UID then never skips a controller not yet
// counted) and each controller found has one scale. ok is
// false when one of these fails, or when two references share a UID: the
// answer then may depend on the name order, which expectedScaleInOrder
// walks.
func expectedScaleAnyOrder(pods []*podstatus.Pod, controllers []Controller) (count int32, unmanaged []string, ok bool) {
	w := anyOrderScale{controllers: controllers}
	for _, p := range pods {
		if p != nil {
			w.add(p)
		}
	}
	return w.result()
}

// anyOrderScale is the walk of expectedScaleAnyOrder, fed one pod at a
// time (Step feeds it the selected pods as its own walk finds them).
type anyOrderScale struct {
	controllers []Controller
	// The references seen, with their answers: a scan while there are
	// few, then by UID.
	ents []scaleEntry
	memo map[string]int // by the reference's UID, index into ents
	// scales: by the UID of the controller found
	scales map[string]int32
	// last: the index in ents of the previous pod's reference, looked at
	// first (a controller's pods often come in a run)
	last      int
	unmanaged []string
	failed    bool
}

type scaleEntry struct {
	k refKey
	r scaleOf
}

// add walks one pod (not nil).
func (w *anyOrderScale) add(p *podstatus.Pod) { w.addRef(p, p.ControllerRef()) }

// addRef walks one pod (not nil) whose controller reference is ref.
func (w *anyOrderScale) addRef(p *podstatus.Pod, ref *meta.OwnerReference) {
	if w.failed {
		return
	}
	if ref == nil {
		w.unmanaged = append(w.unmanaged, p.Name)
		return
	}
	i := -1
	switch {
	case w.last < len(w.ents) && w.ents[w.last].k.uid == ref.UID:
		i = w.last
	case w.memo == nil:
		for j := range w.ents {
			if w.ents[j].k.uid == ref.UID {
				i = j
				break
			}
		}
	default:
		if j, ok := w.memo[ref.UID]; ok {
			i = j
		}
	}
	if i >= 0 {
		// (the UID seen: the same reference, or an answer that may
		// depend on the order)
		if k := &w.ents[i].k; k.name != ref.Name || k.kind != ref.Kind || k.apiVersion != ref.APIVersion {
			w.failed = true
		}
		w.last = i
		return
	}
	var r scaleOf
	r.uid, r.scale, r.found, r.err = ControllerScale(*ref, w.controllers)
	if r.err != nil || !r.found {
		w.failed = true
		return
	}
	if s, ok := w.scales[r.uid]; ok && s != r.scale {
		w.failed = true
		return
	}
	w.ents = append(w.ents, scaleEntry{refKey{ref.UID, ref.Name, ref.Kind, ref.APIVersion}, r})
	w.last = len(w.ents) - 1
	switch {
	case w.memo != nil:
		w.memo[ref.UID] = w.last
	case len(w.ents) > 8:
		w.memo = make(map[string]int, 2*len(w.ents))
		for j, e := range w.ents {
			w.memo[e.k.uid] = j
		}
	}
	if w.scales == nil {
		w.scales = map[string]int32{}
	}
	w.scales[r.uid] = r.scale
}

// result is expectedScaleAnyOrder's answer for the pods walked.
func (w *anyOrderScale) result() (count int32, unmanaged []string, ok bool) {
	if w.failed {
		return 0, nil, false
	}
	for _, e := range w.ents {
		if _, ok := w.scales[e.k.uid]; ok && e.r.uid != e.k.uid {
			return 0, nil, false
		}
	}
	var sum int32 // (wrapping, as upstream's)
	for _, s := range w.scales {
		sum += s
	}
	slices.Sort(w.unmanaged)
	return sum, w.unmanaged, true
}

// expectedScaleInOrder is ExpectedScale over pods in name order.
func expectedScaleInOrder(pods []*podstatus.Pod, controllers []Controller) (count int32, unmanaged []string, err error) {
	seen := map[string]int32{}
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
	for _, p := range pods {
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
		k := refKey{ref.UID, ref.Name, ref.Kind, ref.APIVersion}
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
	// (upstream sums in int32: the sum wraps)
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
	if !countsScale(b) {
		return expectedFrom(b, 0, nil, countNonNil(pods))
	}
	n, un, err := ExpectedScale(pods, controllers)
	if err != nil {
		return Expected{}, err
	}
	return expectedFrom(b, n, un, 0)
}

// countsScale reports whether ExpectedPods of b reads the controllers'
// scale (maxUnavailable, or a percentage minAvailable) rather than the
// number of pods.
func countsScale(b *PodDisruptionBudget) bool {
	return b.Spec.MaxUnavailable != nil || b.Spec.MinAvailable != nil && b.Spec.MinAvailable.IsString()
}

// expectedFrom is ExpectedPods given the controllers' scale and the pods
// without a controller (when countsScale), or else the number of pods.
func expectedFrom(b *PodDisruptionBudget, scale int32, unmanaged []string, pods int) (Expected, error) {
	switch {
	case b.Spec.MaxUnavailable != nil:
		mu, err := intstr.Scaled(*b.Spec.MaxUnavailable, scale, intstr.Rounding(true))
		if err != nil {
			return Expected{}, field.At(err, "spec.maxUnavailable")
		}
		return Expected{Count: scale, DesiredHealthy: max(scale-mu, 0), Unmanaged: unmanaged}, nil
	case b.Spec.MinAvailable != nil && !b.Spec.MinAvailable.IsString():
		return Expected{Count: int32(pods), DesiredHealthy: b.Spec.MinAvailable.IntValue()}, nil
	case b.Spec.MinAvailable != nil:
		ma, err := intstr.Scaled(*b.Spec.MinAvailable, scale, intstr.Rounding(true))
		if err != nil {
			return Expected{}, field.At(err, "spec.minAvailable")
		}
		return Expected{Count: scale, DesiredHealthy: ma, Unmanaged: unmanaged}, nil
	}
	return Expected{}, nil
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
