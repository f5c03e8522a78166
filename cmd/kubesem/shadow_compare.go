package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// path is a field path in an object's JSON (["spec","replicas"]).
type path []string

func (p path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case strings.ContainsAny(s, "./") || s == "":
			fmt.Fprintf(&b, "[%q]", s)
		case i == 0:
			b.WriteString(s)
		default:
			b.WriteString("." + s)
		}
	}
	return b.String()
}

func (p path) under(prefix ...string) bool {
	return len(p) >= len(prefix) && equalPrefix(p[:len(prefix)], prefix)
}

func equalPrefix(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// norm returns an object's JSON as generic values without what shadow
// ignores: resourceVersion, uid, managedFields and an owner reference's
// blockOwnerDeletion (a garbage-collector detail) at any depth,
// metadata.generation, and the value of every timestamp ("<time>").
func norm(model any) any {
	if model == nil {
		return nil
	}
	b, err := json.Marshal(model)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return clean(v, "")
}

func clean(v any, parent string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch {
			case k == "resourceVersion" || k == "uid" || k == "managedFields" || k == "blockOwnerDeletion":
				delete(x, k)
			case k == "generation" && parent == "metadata":
				delete(x, k)
			default:
				x[k] = clean(e, k)
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = clean(e, parent)
		}
		return x
	case string:
		if len(x) >= 20 && x[4] == '-' {
			if _, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return "<time>"
			}
		}
	}
	return v
}

// diffPaths lists the paths where a and b differ: maps are compared key by
// key, anything else (lists included) as a whole.
func diffPaths(a, b any, at path) []path {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		var out []path
		for _, k := range names {
			out = append(out, diffPaths(ma[k], mb[k], append(append(path{}, at...), k))...)
		}
		return out
	}
	if reflect.DeepEqual(a, b) {
		return nil
	}
	return []path{append(path{}, at...)}
}

// get returns the value at p, or nil.
func get(v any, p path) any {
	for _, s := range p {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[s]
	}
	return v
}

func show(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// classify tells what an observed change is: a controller's ("create",
// "update", "status", "delete") to be judged, or an input ("" — env
// reports the environment's changes that do not wake a controller: Leases,
// a Node's status, changes of ignored fields only).
func classify(c *change, st map[cluster.Key]*item) (what string, env bool) {
	kind := c.key.Kind
	if kind == cluster.KindLease {
		return "", true
	}
	if c.before == nil {
		if c.after == nil {
			return "", true
		}
		m := objectMeta(c.after.model)
		ctl := controllerOf(m)
		switch kind {
		case cluster.KindPod:
			if ctl != nil && (ctl.Kind == "ReplicaSet" || ctl.Kind == "ReplicationController" || ctl.Kind == "StatefulSet" || ctl.Kind == "DaemonSet" || ctl.Kind == "Job") {
				return "create", false
			}
		case cluster.KindReplicaSet:
			if ctl != nil && ctl.Kind == "Deployment" {
				return "create", false
			}
		case cluster.KindControllerRevision:
			if ctl != nil {
				return "create", false
			}
		case cluster.KindJob:
			if ctl != nil && ctl.Kind == "CronJob" {
				return "create", false
			}
		case cluster.KindPersistentVolumeClaim:
			if claimOfSet(c.key, st) {
				return "create", false
			}
		}
		return "", false
	}
	mb := objectMeta(c.before.model)
	if c.after == nil {
		if mb.DeletionTimestamp != nil {
			return "", false // the end of a graceful deletion (kubelet, garbage collector)
		}
		if kind == cluster.KindPod && evictedByAPI(c.before.model) {
			return "", false // the eviction API's deletion (a user's request)
		}
		switch kind {
		case cluster.KindPod, cluster.KindControllerRevision:
			return "delete", false
		case cluster.KindReplicaSet, cluster.KindJob:
			if ctl := controllerOf(mb); ctl != nil && (ctl.Kind == "Deployment" || ctl.Kind == "CronJob") {
				return "delete", false
			}
		}
		return "", false
	}
	ma := objectMeta(c.after.model)
	if mb.DeletionTimestamp == nil && ma.DeletionTimestamp != nil {
		if kind == cluster.KindPod && !evictedByAPI(c.before.model) {
			return "delete", false
		}
		return "", false
	}
	d := diffPaths(norm(c.before.model), norm(c.after.model), nil)
	if len(d) == 0 {
		return "", true
	}
	all := func(ok func(path) bool) bool {
		for _, p := range d {
			if !ok(p) {
				return false
			}
		}
		return true
	}
	status := func(p path) bool { return p.under("status") }
	switch kind {
	case cluster.KindNode:
		if controllerTaintChanged(c) {
			return "update", false
		}
		if nodeTurnedUnknown(c) {
			return "status", false
		}
		return "", all(status)
	case cluster.KindDeployment:
		if all(status) {
			return "status", false
		}
		if all(func(p path) bool {
			return status(p) || p.under("metadata", "annotations", "deployment.kubernetes.io/revision")
		}) {
			return "update", false
		}
	case cluster.KindReplicaSet, cluster.KindReplicationController:
		if all(status) {
			return "status", false
		}
		if ctl := controllerOf(ma); ctl != nil && ctl.Kind == "Deployment" &&
			all(func(p path) bool { return p.under("spec", "replicas") || p.under("metadata", "annotations") }) {
			return "update", false
		}
	case cluster.KindStatefulSet, cluster.KindDaemonSet, cluster.KindJob, cluster.KindCronJob:
		if all(status) {
			return "status", false
		}
	case cluster.KindPodDisruptionBudget:
		if all(status) {
			if len(disruptedAdded(c)) > 0 {
				return "evict", false
			}
			return "status", false
		}
	case cluster.KindPod:
		for _, p := range d {
			if p.under("metadata", "ownerReferences") || p.under("metadata", "finalizers") {
				return "update", false
			}
		}
		if disruptionTargetAdded(c) {
			if evictedByAPI(c.after.model) {
				return "", false // the eviction API's condition (a user's request)
			}
			return "status", false
		}
	case cluster.KindControllerRevision:
		return "update", false
	case cluster.KindPersistentVolumeClaim:
		for _, p := range d {
			if p.under("metadata", "ownerReferences") {
				return "update", false
			}
		}
	}
	return "", false
}

// controllerTaints are the taints the node lifecycle controller writes;
// a user's taints (node.kubernetes.io/out-of-service among them) are
// inputs.
var controllerTaints = map[string]bool{node.TaintNotReady: true, node.TaintUnreachable: true, node.TaintUnschedulable: true,
	node.TaintMemoryPressure: true, node.TaintDiskPressure: true, node.TaintPIDPressure: true, node.TaintNetworkUnavailable: true}

// controllerTaintChanged reports whether a node's change adds or removes
// a taint the node lifecycle controller writes.
func controllerTaintChanged(c *change) bool {
	b, okB := c.before.model.(*node.Node)
	a, okA := c.after.model.(*node.Node)
	if !okB || !okA {
		return false
	}
	id := func(t node.Taint) string { return t.Key + "=" + t.Value + ":" + string(t.Effect) }
	count := map[string]int{}
	for _, t := range b.Spec.Taints {
		if controllerTaints[t.Key] {
			count[id(t)]--
		}
	}
	for _, t := range a.Spec.Taints {
		if controllerTaints[t.Key] {
			count[id(t)]++
		}
	}
	for _, n := range count {
		if n != 0 {
			return true
		}
	}
	return false
}

// controllerOf is the owner reference marked controller, or nil.
func controllerOf(m *meta.ObjectMeta) *meta.OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// conditions returns the conditions of an object's status, by type.
func conditions(model any) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := get(norm(model), path{"status", "conditions"}).([]any)
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			if t, ok := m["type"].(string); ok {
				out[t] = m
			}
		}
	}
	return out
}

func nodeTurnedUnknown(c *change) bool {
	b, a := conditions(c.before.model), conditions(c.after.model)
	for t, ac := range a {
		if ac["status"] == "Unknown" && (b[t] == nil || b[t]["status"] != "Unknown") {
			return true
		}
	}
	return false
}

func disruptionTargetAdded(c *change) bool {
	b, a := conditions(c.before.model), conditions(c.after.model)
	ac, bc := a["DisruptionTarget"], b["DisruptionTarget"]
	return ac != nil && (bc == nil || bc["status"] != ac["status"])
}

// evictedByAPI reports whether a pod carries the DisruptionTarget
// condition the eviction API sets before it deletes the pod.
func evictedByAPI(model any) bool {
	p, ok := model.(*podstatus.Pod)
	if !ok {
		return false
	}
	c := p.Condition(podstatus.DisruptionTarget)
	return c != nil && c.Status == meta.ConditionTrue && c.Reason == podstatus.ReasonEvictionByEvictionAPI
}

// disruptedAdded lists the pods a budget's status change adds to
// disruptedPods: only the eviction API adds them (the disruption
// controller only removes them).
func disruptedAdded(c *change) []string {
	b, okB := c.before.model.(*pdb.PodDisruptionBudget)
	a, okA := c.after.model.(*pdb.PodDisruptionBudget)
	if !okB || !okA {
		return nil
	}
	var out []string
	for name := range a.Status.DisruptedPods {
		if _, ok := b.Status.DisruptedPods[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// claimOfSet reports whether a claim is named as a StatefulSet of its
// namespace names its pods' claims (<template>-<set>-<ordinal>).
func claimOfSet(k cluster.Key, st map[cluster.Key]*item) bool {
	for sk, it := range st {
		set, ok := it.model.(*statefulset.StatefulSet)
		if !ok || sk.Namespace != k.Namespace {
			continue
		}
		for _, t := range set.Spec.VolumeClaimTemplates {
			if regexp.MustCompile(`^` + regexp.QuoteMeta(t.Name+"-"+set.Name+"-") + `[0-9]+$`).MatchString(k.Name) {
				return true
			}
		}
	}
	return false
}

// stateAt returns the objects of namespace ns's world (its objects, the
// cluster-scoped ones and the node Leases; all for "") as they were right
// after change seq.
func (s *shadow) stateAt(seq int, ns string) map[cluster.Key]*item {
	in := func(k cluster.Key) bool {
		return ns == "" || k.Namespace == ns || k.Namespace == "" || k.Namespace == leaseNamespace
	}
	st := map[cluster.Key]*item{}
	for k, it := range s.state {
		if in(k) {
			st[k] = it
		}
	}
	for i := len(s.hist) - 1; i >= 0 && s.hist[i].seq > seq; i-- {
		c := s.hist[i]
		if !in(c.key) {
			continue
		}
		if c.before == nil {
			delete(st, c.key)
		} else {
			st[c.key] = c.before
		}
	}
	return st
}

// candidates are the changes after which the states a controller's change
// c may have been decided on stand: the one right before c first, then
// those after it within the lag (events of other watches arrive in any
// order), then earlier ones within the window, nearest first; only those
// that changed c's namespace's world. Every state in the window is a
// candidate (a write is unexpected only when none predicts it): a judge
// stops at the first that does, usually among the first few, and the
// history is pruned to a few windows.
func (s *shadow) candidates(c *change) []int {
	in := func(x *change) bool {
		return x.key.Namespace == c.key.Namespace || x.key.Namespace == "" || x.key.Namespace == leaseNamespace
	}
	idx := -1
	for i, x := range s.hist {
		if x == c {
			idx = i
		}
	}
	out := []int{c.seq - 1}
	if idx < 0 {
		return out
	}
	for i := idx + 1; i < len(s.hist) && !s.hist[i].at.After(c.at.Add(s.o.lag)); i++ {
		if in(s.hist[i]) && s.hist[i].key.Kind != cluster.KindLease {
			out = append(out, s.hist[i].seq)
		}
	}
	for i := idx - 1; i >= 0 && !s.hist[i].at.Before(c.at.Add(-s.o.window)); i-- {
		if i > 0 && in(s.hist[i]) && s.hist[i].key.Kind != cluster.KindLease {
			out = append(out, s.hist[i-1].seq)
		}
	}
	return out
}

// judge looks for a state in the window from which kubesem makes the
// controller change c, and reports a mismatch when there is none.
func (s *shadow) judge(c *change) {
	s.observed++
	if c.what == "evict" {
		s.judgeEviction(c)
		return
	}
	var first struct {
		st    map[cluster.Key]*item
		pre   *cluster.State
		after *cluster.State
		decs  []cluster.Decision
	}
	for i, seq := range s.candidates(c) {
		st := s.stateAt(seq, c.key.Namespace)
		if c.before == nil {
			delete(st, c.key)
		} else {
			st[c.key] = c.before
		}
		w, pre, decs, err := predict(objectsIn(st, c.key.Namespace), c.at)
		if err != nil {
			if !s.loadErrs[err.Error()] {
				s.loadErrs[err.Error()] = true
				fmt.Fprintf(s.out, "shadow: warning: kubesem cannot load the cluster's objects: %v\n", err)
			}
			continue
		}
		if i == 0 {
			first.st, first.pre, first.after, first.decs = st, pre, w.State, decs
		}
		if consistent(c, pre, w.State, decs) {
			s.explained++
			if s.o.verbos {
				fmt.Fprintf(s.out, "shadow: %s %s %s: as kubesem predicts\n", c.what, c.resource, objectPath(c.key))
			}
			return
		}
	}
	ctl, ok := s.timedExplains(c)
	if !ok {
		ctl, ok = s.timedAhead(c)
	}
	if ok {
		s.explained++
		if s.o.verbos {
			fmt.Fprintf(s.out, "shadow: %s %s %s: as kubesem predicts (%s, with memory)\n", c.what, c.resource, objectPath(c.key), ctl)
		}
		return
	}
	s.mismatch(mismatch{kind: "unexpected", at: c.at, c: c, st: first.st, pre: first.pre, after: first.after, decs: first.decs, note: s.timedLines(c.key, c.at)})
}

// consistent reports whether the observed change c is one the sync from
// pre to post, which made the writes of decs, makes. An update may be any
// of the sync's writes of the object, not only its last: a controller may
// write an object more than once in one sync (the Job controller flushes
// its status before it removes the pods' finalizers and writes it again).
func consistent(c *change, pre, post *cluster.State, decs []cluster.Decision) bool {
	switch c.what {
	case "create":
		m := objectMeta(c.after.model)
		if m.GenerateName != "" && strings.HasPrefix(m.Name, m.GenerateName) {
			for _, k := range post.Keys(c.key.Kind) {
				if k.Namespace != c.key.Namespace || pre.Get(k) != nil {
					continue
				}
				p := post.Get(k)
				if pm := objectMeta(p); pm != nil && pm.GenerateName == m.GenerateName && sameCreate(c.key.Kind, p, c.after.model) {
					return true
				}
			}
			return false
		}
		p := post.Get(c.key)
		return p != nil && pre.Get(c.key) == nil && sameCreate(c.key.Kind, p, c.after.model)
	case "delete":
		if pre.Get(c.key) == nil {
			return false
		}
		if deletedIn(c.key, pre, post) {
			return true
		}
		// Which of several tied pods a scale-down deletes is upstream's
		// cache order: another pod of the same controller, phase and
		// readiness deleted instead counts.
		if c.key.Kind != cluster.KindPod {
			return false
		}
		for _, k := range pre.Keys(cluster.KindPod) {
			if k != c.key && k.Namespace == c.key.Namespace && deletedIn(k, pre, post) && tiedPods(pre.Get(k), c.before.model) {
				return true
			}
		}
		return false
	}
	na := norm(c.after.model)
	d := diffPaths(norm(c.before.model), na, nil)
	if len(d) == 0 {
		return false
	}
	makes := func(obj any) bool {
		if obj == nil {
			return false
		}
		np := norm(obj)
		for _, q := range d {
			if !reflect.DeepEqual(get(np, q), get(na, q)) {
				return false
			}
		}
		return true
	}
	if makes(post.Get(c.key)) {
		return true
	}
	for _, dec := range decs {
		for i := range dec.Writes {
			wr := &dec.Writes[i]
			if k, ok := writeKey(wr); ok && k == c.key && wr.Verb != plan.VerbCreate && wr.Verb != plan.VerbDelete && makes(wr.Object) {
				return true
			}
		}
	}
	return false
}

// judgeEviction judges a budget's status change by the eviction API (a
// pod added to disruptedPods): kubesem's pdb.Evict of that pod, from a
// state in the window, must allow the eviction and decrement this budget
// to the status written.
func (s *shadow) judgeEviction(c *change) {
	added := disruptedAdded(c)
	var note []string
	var first map[cluster.Key]*item
	for i, seq := range s.candidates(c) {
		st := s.stateAt(seq, c.key.Namespace)
		st[c.key] = c.before
		if i == 0 {
			first = st
		}
		ok, why := evictionMakes(c, st, added)
		if ok {
			s.explained++
			if s.o.verbos {
				fmt.Fprintf(s.out, "shadow: eviction of %s: %s %s: as kubesem predicts\n", strings.Join(added, ", "), c.resource, objectPath(c.key))
			}
			return
		}
		if i == 0 {
			note = why
		}
	}
	s.mismatch(mismatch{kind: "unexpected", at: c.at, c: c, st: first, note: note})
}

// evictionMakes reports whether the eviction of the pod added to c's
// budget's disruptedPods, applied by the world's API server (State.Apply of
// pods/eviction: pdb.Evict against the namespace's budgets) to the objects
// of st at c's time, writes the status c leaves (all of it), and otherwise
// says what it does.
func evictionMakes(c *change, st map[cluster.Key]*item, added []string) (bool, []string) {
	if len(added) != 1 {
		return false, []string{fmt.Sprintf("an eviction adds one pod to disruptedPods; this change adds %v", added)}
	}
	pk := cluster.Key{Kind: cluster.KindPod, Namespace: c.key.Namespace, Name: added[0]}
	if st[pk] == nil {
		return false, []string{fmt.Sprintf("the evicted pod %s is not in the cluster", added[0])}
	}
	state := stateOf(st)
	_, err := state.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "eviction", Namespace: pk.Namespace, Name: pk.Name}, c.at, nil)
	if err != nil {
		return false, []string{fmt.Sprintf("the eviction of %s is refused: %v", added[0], err)}
	}
	got := state.Get(c.key)
	if got == nil {
		return false, []string{fmt.Sprintf("the eviction of %s leaves no budget %s", added[0], c.key.Name)}
	}
	// The eviction writes the whole status: compare all of it.
	np, na := norm(got), norm(c.after.model)
	d := diffPaths(get(np, path{"status"}), get(na, path{"status"}), path{"status"})
	why := []string{fmt.Sprintf("the eviction of %s is allowed; the budget's status differs:", added[0])}
	for _, q := range d {
		why = append(why, fmt.Sprintf("%s: %s", q, clip(mustJSON(get(np, q)), 300)))
	}
	return len(d) == 0, why
}

// deletedIn reports whether the sync deletes k (removes it, or sets its
// deletionTimestamp).
func deletedIn(k cluster.Key, pre, post *cluster.State) bool {
	b := pre.Get(k)
	if b == nil || objectMeta(b).DeletionTimestamp != nil {
		return false
	}
	p := post.Get(k)
	return p == nil || objectMeta(p).DeletionTimestamp != nil
}

// tiedPods reports whether two pods have the same controller, phase and
// readiness.
func tiedPods(a, b any) bool {
	ca, cb := controllerOf(objectMeta(a)), controllerOf(objectMeta(b))
	if ca == nil || cb == nil || ca.UID != cb.UID {
		return false
	}
	na, nb := norm(a), norm(b)
	ra, rb := conditions(a)["Ready"], conditions(b)["Ready"]
	return reflect.DeepEqual(get(na, path{"status", "phase"}), get(nb, path{"status", "phase"})) &&
		(ra == nil) == (rb == nil) && (ra == nil || ra["status"] == rb["status"])
}

// sameCreate compares a predicted created object with the one observed on
// the fields shadow compares for a create.
func sameCreate(kind cluster.Kind, pred, obs any) bool {
	np, no := norm(pred), norm(obs)
	subset := func(p path) bool {
		pm, _ := get(np, p).(map[string]any)
		om, _ := get(no, p).(map[string]any)
		for k, v := range pm {
			if !reflect.DeepEqual(om[k], v) {
				return false
			}
		}
		return true
	}
	eq := func(p path) bool { return reflect.DeepEqual(get(np, p), get(no, p)) }
	if !subset(path{"metadata", "labels"}) || !subset(path{"metadata", "annotations"}) || !eq(path{"metadata", "ownerReferences"}) {
		return false
	}
	switch kind {
	case cluster.KindReplicaSet, cluster.KindReplicationController:
		return eq(path{"spec"})
	case cluster.KindPod:
		return eq(path{"spec", "hostname"}) && eq(path{"spec", "subdomain"}) && eq(path{"spec", "nodeName"}) && eq(path{"spec", "affinity"})
	case cluster.KindControllerRevision:
		return eq(path{"revision"})
	}
	return true
}

// createdDiff describes a created object by the fields compared.
func changeLines(before, after any) []string {
	var out []string
	if before == nil && after == nil {
		return []string{"no write to this object"}
	}
	if after == nil {
		return []string{"deleted"}
	}
	if before == nil {
		a := norm(after)
		out = append(out, "created")
		for _, p := range []path{{"metadata", "name"}, {"metadata", "generateName"}, {"metadata", "labels"}, {"metadata", "annotations"}, {"metadata", "ownerReferences"}, {"spec"}, {"revision"}} {
			if v := get(a, p); v != nil {
				out = append(out, fmt.Sprintf("%s: %s", p, clip(mustJSON(v), 400)))
			}
		}
		return out
	}
	for _, p := range diffPaths(norm(before), norm(after), nil) {
		out = append(out, fmt.Sprintf("%s: %s → %s", p, clip(mustJSON(get(norm(before), p)), 300), clip(mustJSON(get(norm(after), p)), 300)))
	}
	if len(out) == 0 {
		out = append(out, "no change (but ignored fields)")
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	if v == nil {
		return json.RawMessage(`null`)
	}
	b, _ := json.Marshal(v)
	return b
}

func objectPath(k cluster.Key) string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// quietCheck predicts the writes on namespace ns's quiet world (the
// cluster-scoped objects' for "") and reports those the controllers have
// not made for a window.
func (s *shadow) quietCheck(ns string, now time.Time) {
	st := map[cluster.Key]*item{}
	for k, it := range s.state {
		st[k] = it
	}
	w, pre, decs, err := predict(objectsIn(st, ns), now)
	if err != nil {
		if !s.loadErrs[err.Error()] {
			s.loadErrs[err.Error()] = true
			fmt.Fprintf(s.out, "shadow: warning: kubesem cannot load the cluster's objects: %v\n", err)
		}
		return
	}
	seen := map[string]bool{}
	for _, d := range decs {
		// A decision about an object this sync created (a ReplicaSet's
		// first pods) follows from another: only the first is reported.
		if d.Object.Name != "" && pre.Get(d.Object) == nil {
			continue
		}
		var ws []*plan.Write
		var keys []cluster.Key
		for i := range d.Writes {
			wr := &d.Writes[i]
			k, ok := writeKey(wr)
			if !ok || k.Namespace != ns || !observable(wr, k, pre) {
				continue
			}
			ws, keys = append(ws, wr), append(keys, k)
		}
		if len(ws) == 0 {
			continue
		}
		sig := ns + "\x00" + d.Controller + " " + d.Object.String()
		for i, wr := range ws {
			sig += " " + string(wr.Verb) + " " + wr.Resource + subresource(wr.Subresource) + " " + keys[i].Name
			if keys[i].Name == "" {
				sig += objectMeta(wr.Object).GenerateName
			}
		}
		seen[sig] = true
		first, ok := s.firstPredicted[sig]
		if !ok {
			s.firstPredicted[sig] = now
			continue
		}
		if now.Sub(first) >= s.o.window && !s.reported[sig] {
			s.reported[sig] = true
			s.mismatch(mismatch{kind: "missing", at: now, st: st, pre: pre, after: w.State, decs: decs, ws: ws, wsKeys: keys, ctl: d.Controller, obj: d.Object, ns: ns})
		}
	}
	for sig := range s.firstPredicted {
		if strings.HasPrefix(sig, ns+"\x00") && !seen[sig] {
			delete(s.firstPredicted, sig)
		}
	}
	if s.o.verbos && len(seen) == 0 {
		fmt.Fprintf(s.out, "shadow: quiet: %s: kubesem predicts no write\n", spaceName(ns))
	}
}

func spaceName(ns string) string {
	if ns == "" {
		return "cluster-scoped objects"
	}
	return "namespace " + ns
}

// writeKey is the key of the object a write writes.
func writeKey(wr *plan.Write) (cluster.Key, bool) {
	kind, ok := cluster.KindOfResource(wr.Resource)
	if !ok {
		return cluster.Key{}, false
	}
	k := cluster.Key{Kind: kind, Namespace: wr.Namespace, Name: wr.Name}
	if m := objectMeta(wr.Object); m != nil {
		if k.Name == "" {
			k.Name = m.Name
		}
		if k.Namespace == "" {
			k.Namespace = m.Namespace
		}
	}
	return k, true
}

// observable reports whether a predicted write would change what the
// cluster holds (an update that leaves every compared field as it is
// cannot be observed, and is not missing).
func observable(wr *plan.Write, k cluster.Key, pre *cluster.State) bool {
	cur := pre.Get(k)
	switch wr.Verb {
	case plan.VerbCreate:
		return wr.Subresource == "" && (k.Name == "" || cur == nil)
	case plan.VerbDelete:
		return cur != nil && objectMeta(cur).DeletionTimestamp == nil
	}
	if cur == nil || wr.Object == nil {
		return wr.Subresource != "binding"
	}
	a, b := norm(cur), norm(wr.Object)
	for _, p := range diffPaths(a, b, nil) {
		if (wr.Subresource == "status") == p.under("status") {
			return true
		}
	}
	return false
}

// mismatch is one difference between kubesem and the controllers.
type mismatch struct {
	kind string // unexpected or missing
	at   time.Time
	// unexpected: the observed change.
	c *change
	// the state kubesem predicted from, its world before and after the
	// sync, and the decisions.
	st         map[cluster.Key]*item
	pre, after *cluster.State
	decs       []cluster.Decision
	// missing: the decision and its predicted writes.
	ws     []*plan.Write
	wsKeys []cluster.Key
	ctl    string
	obj    cluster.Key
	ns     string
	// note is what kubesem decides instead, when no world was synced
	// (an eviction).
	note []string
}

func (s *shadow) mismatch(m mismatch) {
	s.mismatches++
	var b strings.Builder
	var name, resource string
	var before, after any
	rec := map[string]any{"decision": "cluster.Sync"}
	switch m.kind {
	case "unexpected":
		c := m.c
		name, resource = c.key.Name, c.resource
		fmt.Fprintf(&b, "shadow: mismatch %d (unexpected) at %s: %s %s %s\n", s.mismatches, c.at.UTC().Format(time.RFC3339Nano), c.what, c.resource, objectPath(c.key))
		fmt.Fprintf(&b, "  observed:\n")
		for _, l := range changeLines(modelOf(c.before), modelOf(c.after)) {
			fmt.Fprintf(&b, "    %s\n", l)
		}
		fmt.Fprintf(&b, "  kubesem, from the state right before:\n")
		if m.pre != nil {
			for _, l := range changeLines(m.pre.Get(c.key), m.after.Get(c.key)) {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			for _, w := range writesIn(m.decs, c.key.Namespace) {
				fmt.Fprintf(&b, "    write: %s\n", w)
			}
			for _, l := range m.note {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		} else if len(m.note) > 0 {
			for _, l := range m.note {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		} else {
			fmt.Fprintf(&b, "    (no state could be loaded)\n")
		}
		before, after = apiOf(c.before), apiOf(c.after)
		rec["name"] = fmt.Sprintf("shadow: %s %s %s not predicted", c.what, c.resource, objectPath(c.key))
		rec["want"] = map[string]any{"writes": []any{map[string]any{"verb": c.what, "resource": c.resource, "namespace": c.key.Namespace, "name": c.key.Name,
			"changed": changeLines(modelOf(c.before), modelOf(c.after)), "object": after}}}
	case "missing":
		k := m.wsKeys[0]
		if m.obj.Name != "" {
			k = m.obj
		}
		name, resource = k.Name, k.Kind.Resource()
		fmt.Fprintf(&b, "shadow: mismatch %d (missing) at %s: kubesem predicts the %s controller's writes for %s %s, not made within %v of quiet\n", s.mismatches, m.at.UTC().Format(time.RFC3339Nano),
			m.ctl, k.Kind, objectPath(k), s.o.window)
		var want []any
		for i, wr := range m.ws {
			wk := m.wsKeys[i]
			target := wk.Name
			if target == "" {
				target = objectMeta(wr.Object).GenerateName + "…"
			}
			fmt.Fprintf(&b, "  %s %s%s %s (%s):\n", wr.Verb, wr.Resource, subresource(wr.Subresource), target, wr.Reason)
			var cur any
			if m.pre != nil && wk.Name != "" {
				cur = m.pre.Get(wk)
			}
			var next any = wr.Object
			if wr.Verb == plan.VerbDelete {
				next = nil
			}
			for _, l := range changeLines(cur, next) {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			want = append(want, wr)
		}
		for _, l := range m.note {
			fmt.Fprintf(&b, "  %s\n", l)
		}
		if it := m.st[k]; it != nil {
			before = apiOf(it)
		}
		rec["name"] = fmt.Sprintf("shadow: the %s controller's writes for %s %s not made", m.ctl, k.Kind, objectPath(k))
		rec["want"] = map[string]any{"writes": []any{}}
		rec["predicted"] = want
	}
	if before != nil {
		fmt.Fprintf(&b, "  before: %s\n", clip(mustJSON(before), 4000))
	}
	if after != nil {
		fmt.Fprintf(&b, "  after: %s\n", clip(mustJSON(after), 4000))
	}
	rec["source"] = fmt.Sprintf("kubesem shadow at %s", m.at.UTC().Format(time.RFC3339Nano))
	rec["input"] = map[string]any{"now": m.at.UTC(), "objects": listOf(m.st)}
	var got []plan.Write
	for _, d := range m.decs {
		got = append(got, d.Writes...)
	}
	rec["got"] = map[string]any{"writes": got}

	rec["before"], rec["after"] = before, after
	if s.o.out != "" {
		file := filepath.Join(s.o.out, fmt.Sprintf("%04d-%s-%s.json", s.mismatches, resource, safeName(name)))
		data, err := plan.Encode(rec)
		if err == nil {
			var pretty strings.Builder
			pretty.Write(indentJSON(data))
			err = os.WriteFile(file, []byte(pretty.String()+"\n"), 0o644)
		}
		if err != nil {
			fmt.Fprintf(&b, "  not saved: %v\n", err)
		} else {
			fmt.Fprintf(&b, "  saved: %s\n", file)
		}
	}
	fmt.Fprint(s.out, b.String())
}

func subresource(s string) string {
	if s == "" {
		return ""
	}
	return "/" + s
}

func modelOf(it *item) any {
	if it == nil {
		return nil
	}
	return it.model
}

// apiOf is an item's API object as JSON with its kind.
func apiOf(it *item) any {
	if it == nil {
		return nil
	}
	raw, err := json.Marshal(it.api)
	if err != nil {
		return nil
	}
	for _, k := range apiKinds {
		if cluster.Kind(k.Kind) == key(it.model).Kind {
			if r, err := withKind(raw, k); err == nil {
				raw = r
			}
		}
	}
	return json.RawMessage(raw)
}

// listOf is the objects of st as a List explain reads.
func listOf(st map[cluster.Key]*item) any {
	keys := make([]cluster.Key, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	items := make([]any, 0, len(keys))
	for _, k := range keys {
		items = append(items, apiOf(st[k]))
	}
	return map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
}

// writesIn lists the writes of the decisions to objects of namespace ns.
func writesIn(decs []cluster.Decision, ns string) []string {
	var out []string
	for _, d := range decs {
		for i := range d.Writes {
			wr := &d.Writes[i]
			k, ok := writeKey(wr)
			if !ok || k.Namespace != ns {
				continue
			}
			name := k.Name
			if name == "" {
				name = objectMeta(wr.Object).GenerateName + "…"
			}
			out = append(out, fmt.Sprintf("%s: %s %s%s %s (%s)", d.Controller, wr.Verb, wr.Resource, subresource(wr.Subresource), name, wr.Reason))
		}
	}
	if len(out) > 12 {
		out = append(out[:12], fmt.Sprintf("… (%d in all)", len(out)))
	}
	return out
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeName(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

func indentJSON(b []byte) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return b
	}
	return out
}
