package daemonset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/features"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The replay of testdata/daemonset/step.json and check-*.json (the
// decisions along a counterexample, from kubesem check --vectors) through
// v1.36.3.
//
// Each daemonset.Step vector runs through one syncDaemonSet of upstream's
// DaemonSetsController (the rig of rig_test.go) and through
// daemonset.Step. Every key of the Plan is compared, as upstream reports
// it:
//
//   - adopt, release, adoptRevisions, releaseRevisions: the pods and
//     ControllerRevisions the claim patches (an orphan adopted, one the
//     DaemonSet controls released), each once by name (upstream patches
//     a pod at each of its listings); the claim's recheck reads the
//     DaemonSet as given, and a revision update after its patch is
//     refused with Conflict (the rig's API server);
//   - create: the number of pods created and their target nodes (a
//     multiset: upstream creates concurrently); delete: the names deleted
//     (a multiset). Reasons are kubesem's classification; upstream has
//     none, so they are not compared here (the seed vectors state them).
//   - revisions: the ControllerRevision writes (verb, name, revision
//     number, hash label; the reason is the verb's: NewRevision, Rollback,
//     HistoryLimit, and RevisionLabelled for the first update of a claimed
//     revision given without the controller-revision-hash label), a
//     multiset (upstream deletes in an order that leaves ties of one
//     revision number in its lister's order).
//   - status, updateStatus: the status upstream writes, or the input
//     status and false when it writes none.
//   - events: type, reason and the pod the message names, from a
//     FakeRecorder (a multiset).
//   - requeue: every AddAfter (reason FailedPodBackoff when called before
//     manage sets its expectations, MinReadySeconds after), and a
//     rate-limited NodeNotFound requeue when the sync returns an error
//     (processNextWorkItem's AddRateLimited).
//   - memory: upstream's failed-pod backoff memory after the sync,
//     entry by entry.
//   - outcome, from upstream-observable facts: BeingDeleted when the sync
//     returned before checking expectations; Synced when manage set
//     expectations for any creation or deletion (the rolling update then
//     waits); otherwise, by the defaulted strategy type, OnDelete, or
//     RollingUpdate — NodeNotFound when the sync returned an error.
//
// The vector's own want must agree with upstream on every key it holds
// (wantOneOf: one alternative must), and must hold every top-level key of
// the Plan. KUBESEM_WRITE_VECTORS=1 fills the keys a want lacks from
// upstream's answer (never from kubesem's), ordering multisets as
// kubesem's Plan orders them when the two agree.

// stepVector is one daemonset.Step vector of step.json or check-*.json.
type stepVector struct {
	Decision  string            `json:"decision"`
	Name      string            `json:"name"`
	Options   json.RawMessage   `json:"options,omitempty"`
	Input     stepInput         `json:"input"`
	Want      json.RawMessage   `json:"want,omitempty"`
	WantOneOf []json.RawMessage `json:"wantOneOf,omitempty"`
	WantError json.RawMessage   `json:"wantError,omitempty"`

	// file and index say where the vector was read from.
	file  string
	index int
}

type stepInput struct {
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
	Nodes     []*node.Node        `json:"nodes"`
	Pods      []*podstatus.Pod    `json:"pods"`
	History   daemonset.History   `json:"history"`
	Backoff   daemonset.Backoff   `json:"memory"`
	Now       time.Time           `json:"now"`
}

// claimKeys are the Plan's claim lists and its relabelled pods, omitted
// when empty.
var claimKeys = []string{"adopt", "adoptRevisions", "relabel", "release", "releaseRevisions"}

// planKeys are the top-level keys of a daemonset.Plan's JSON, the claim
// lists included.
func planKeys(t fataler) []string {
	b, err := json.Marshal(daemonset.Plan{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	keys = append(keys, claimKeys...)
	sort.Strings(keys)
	return keys
}

// upstreamCase is a vector's objects as upstream sees them.
type upstreamCase struct {
	ds    *apps.DaemonSet
	nodes []*v1.Node
	pods  []*v1.Pod
	revs  []*apps.ControllerRevision
	// back maps upstream's template hash to the vector's when the vector
	// has no current revision and upstream computes its own.
	back map[string]string
}

// caseFromInput converts a vector input for upstream: the DaemonSet
// apps/v1-defaulted as the API server stores it, pods with their owner
// references as given (those without a controller are orphans it may
// adopt), the history as ControllerRevisions.
func caseFromInput(t fataler, in *stepInput) *upstreamCase {
	uds, err := k8s.ToDaemonSet(&in.DaemonSet)
	if err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(uds)
	if uds.Namespace == "" {
		uds.Namespace = "default"
	}
	c := &upstreamCase{ds: uds, back: map[string]string{}}
	relabel := map[string]string{}
	if !slices.ContainsFunc(in.History.Revisions, func(r history.ControllerRevision) bool { return daemonset.RevisionHash(&r) == in.History.Hash }) {
		real := controller.ComputeHash(&uds.Spec.Template, uds.Status.CollisionCount)
		relabel[in.History.Hash] = real
		c.back[real] = in.History.Hash
	}
	for _, n := range in.Nodes {
		if n == nil {
			continue
		}
		un, err := k8s.ToNode(n)
		if err != nil {
			t.Fatal(err)
		}
		c.nodes = append(c.nodes, un)
	}
	for _, p := range in.Pods {
		if p == nil {
			continue
		}
		up, err := k8s.ToPod(p)
		if err != nil {
			t.Fatal(err)
		}
		if up.Namespace == "" {
			up.Namespace = uds.Namespace
		}
		if h, ok := relabel[up.Labels[apps.DefaultDaemonSetUniqueLabelKey]]; ok {
			up.Labels[apps.DefaultDaemonSetUniqueLabelKey] = h
		}
		c.pods = append(c.pods, up)
	}
	c.revs = revisions(t, uds, in.History)
	return c
}

// rigFor returns a rig configured as the vector's options say: the
// burst and backoff bounds replace upstream's defaults only when the
// vector sets them; the toleration operators gate follows the option.
func rigFor(t *testing.T, opts daemonset.Options) *rig {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.TaintTolerationComparisonOperators, opts.TaintTolerationComparisonOperators)
	r := newRig(t)
	if opts.BurstReplicas > 0 {
		fieldOf(r.dsc, "burstReplicas").SetInt(int64(opts.BurstReplicas))
	}
	if opts.BackoffBase > 0 || opts.BackoffCap > 0 {
		b := backoffBounds(r.backoff)
		if opts.BackoffBase > 0 {
			b[0] = opts.BackoffBase
		}
		if opts.BackoffCap > 0 {
			b[1] = opts.BackoffCap
		}
		fieldOf(r.backoff, "defaultDuration").SetInt(int64(b[0]))
		fieldOf(r.backoff, "maxDuration").SetInt(int64(b[1]))
	}
	return r
}

// upstreamPlan runs the case through upstream and returns its answer as
// a daemonset.Plan (reasons of creations and deletions empty).
func upstreamPlan(t *testing.T, in *stepInput, opts daemonset.Options) (daemonset.Plan, *upResult) {
	c := caseFromInput(t, in)
	r := rigFor(t, opts)
	writeBackoff(r.backoff, in.Backoff)
	res := r.sync(t, c.ds, c.nodes, c.pods, c.revs, in.Now)
	return planFromUpstream(c, res), res
}

// planFromUpstream is the documented mapping from what upstream did to
// a Plan.
func planFromUpstream(c *upstreamCase, res *upResult) daemonset.Plan {
	back := func(h string) string {
		if b, ok := c.back[h]; ok {
			return b
		}
		return h
	}
	p := daemonset.Plan{Delete: []plan.Deletion{}, Revisions: []history.Write{}, Events: []plan.Event{}, Requeue: []plan.Requeue{}, Memory: res.Backoff}
	// the claim's patches, once per listing: an object patched that the
	// DaemonSet controls is released, an orphan adopted
	for _, name := range uniqueSorted(res.PodClaimed) {
		for _, pod := range c.pods {
			if pod.Name != name {
				continue
			}
			if metav1.GetControllerOf(pod) != nil {
				p.Release = append(p.Release, daemonset.ObjectRef{Name: name, UID: string(pod.UID), Reason: daemonset.ReasonSelectorMismatch})
			} else {
				p.Adopt = append(p.Adopt, daemonset.ObjectRef{Name: name, UID: string(pod.UID), Reason: daemonset.ReasonOrphanSelected})
			}
		}
	}
	for _, name := range uniqueSorted(res.RevClaimed) {
		for _, r := range c.revs {
			if r.Name != name {
				continue
			}
			if metav1.GetControllerOf(r) != nil {
				p.ReleaseRevisions = append(p.ReleaseRevisions, daemonset.ObjectRef{Name: name, UID: string(r.UID), Reason: daemonset.ReasonSelectorMismatch})
			} else {
				p.AdoptRevisions = append(p.AdoptRevisions, daemonset.ObjectRef{Name: name, UID: string(r.UID), Reason: daemonset.ReasonOrphanSelected})
			}
		}
	}
	for _, cr := range res.Created {
		p.Create.Objects = append(p.Create.Objects, daemonset.PodCreation{Node: cr.Node})
	}
	p.Create.Count = int32(len(res.Created))
	for _, d := range res.Deleted {
		p.Delete = append(p.Delete, plan.Deletion{Name: d})
	}
	// upstream's revision writes: the label updates (in its lister's
	// order, which is arbitrary: by name here, as kubesem's), then the
	// creation or the renumbering
	labelled := map[string]bool{} // (revisions upstream labelled in this sync)
	var labels, renumbers []history.Write
	for _, cr := range res.RevUpdated {
		w := history.Write{Verb: plan.VerbUpdate, Name: cr.Name, Revision: cr.Revision, Hash: back(cr.Labels[apps.DefaultDaemonSetUniqueLabelKey]), Reason: daemonset.ReasonRollback}
		for _, r := range c.revs {
			ctl := metav1.GetControllerOf(r)
			claimed := ctl != nil && ctl.UID == c.ds.UID || ctl == nil && slices.Contains(res.RevClaimed, r.Name)
			if _, ok := r.Labels[apps.DefaultDaemonSetUniqueLabelKey]; r.Name == cr.Name && claimed && !ok && !labelled[r.Name] {
				// the label update (constructHistory), the revision's
				// number unchanged; a renumbering may follow
				labelled[r.Name] = true
				w.Reason = daemonset.ReasonRevisionLabelled
			}
		}
		if w.Reason == daemonset.ReasonRevisionLabelled {
			labels = append(labels, w)
		} else {
			renumbers = append(renumbers, w)
		}
	}
	slices.SortStableFunc(labels, func(a, b history.Write) int { return strings.Compare(a.Name, b.Name) })
	p.Revisions = append(p.Revisions, labels...)
	// a deleted revision that holds the DaemonSet's template is a
	// duplicate of the current one (dedupCurHistories), deleted before the
	// creation or renumbering; the others, the history limit's, after
	patch, err := getPatch(c.ds)
	if err != nil {
		panic(err)
	}
	var dups, limit []history.Write
	for _, d := range res.RevDeleted {
		w := history.Write{Verb: plan.VerbDelete, Name: d, Reason: daemonset.ReasonHistoryLimit}
		for _, r := range c.revs {
			if r.Name == d {
				w.Revision = r.Revision
				w.Hash = back(r.Name)
				if h, ok := r.Labels[apps.DefaultDaemonSetUniqueLabelKey]; ok {
					w.Hash = back(h)
				}
				if bytes.Equal(r.Data.Raw, patch) {
					w.Reason = daemonset.ReasonDuplicateRevision
				}
			}
		}
		if w.Reason == daemonset.ReasonDuplicateRevision {
			dups = append(dups, w)
		} else {
			limit = append(limit, w)
		}
	}
	slices.SortStableFunc(dups, func(a, b history.Write) int { return strings.Compare(a.Name, b.Name) })
	p.Revisions = append(p.Revisions, dups...)
	for _, cr := range res.RevCreated {
		h := back(cr.Labels[apps.DefaultDaemonSetUniqueLabelKey])
		p.Revisions = append(p.Revisions, history.Write{Verb: plan.VerbCreate, Name: c.ds.Name + "-" + h, Revision: cr.Revision, Hash: h, Reason: daemonset.ReasonRevisionCreated})
	}
	p.Revisions = append(p.Revisions, renumbers...)
	p.Revisions = append(p.Revisions, limit...)
	// the dedup's relabelling patches (every other pod patch is a claim's)
	for _, name := range uniqueSorted(res.PodPatched) {
		for _, pod := range c.pods {
			if pod.Name == name {
				p.Relabel = append(p.Relabel, daemonset.ObjectRef{Name: name, UID: string(pod.UID), Reason: daemonset.ReasonDuplicateRevision})
			}
		}
	}
	st := c.ds.Status
	if res.Status != nil {
		st = *res.Status
		p.UpdateStatus = true
	}
	p.Status = daemonset.Status{
		CurrentNumberScheduled: st.CurrentNumberScheduled, NumberMisscheduled: st.NumberMisscheduled,
		DesiredNumberScheduled: st.DesiredNumberScheduled, NumberReady: st.NumberReady,
		ObservedGeneration: st.ObservedGeneration, UpdatedNumberScheduled: st.UpdatedNumberScheduled,
		NumberAvailable: st.NumberAvailable, NumberUnavailable: st.NumberUnavailable, CollisionCount: st.CollisionCount,
	}
	p.Events = append(p.Events, res.Events...)
	backoff, minReady := res.Afters()
	for _, d := range backoff {
		p.Requeue = append(p.Requeue, plan.Requeue{After: d, Reason: daemonset.ReasonFailedPodBackoff})
	}
	for _, d := range minReady {
		p.Requeue = append(p.Requeue, plan.Requeue{After: d, Reason: daemonset.ReasonMinReadySeconds})
	}
	add, del := res.ManageWrites()
	switch {
	case !res.Queried():
		if slices.ContainsFunc(res.Events, func(e plan.Event) bool { return e.Reason == daemonset.ReasonSelectingAll }) {
			p.Outcome = daemonset.ReasonSelectingAll
		} else {
			p.Outcome = daemonset.ReasonBeingDeleted
		}
	case add+del > 0:
		p.Outcome = daemonset.ReasonSynced
	case c.ds.Spec.UpdateStrategy.Type == apps.OnDeleteDaemonSetStrategyType:
		p.Outcome = daemonset.ReasonOnDelete
	case res.Err != nil:
		p.Outcome = daemonset.ReasonNodeNotFound
	default:
		p.Outcome = daemonset.ReasonRollingUpdate
	}
	if res.Err != nil {
		p.Requeue = append(p.Requeue, plan.Requeue{Reason: daemonset.ReasonNodeNotFound, RateLimited: true})
	}
	return p
}

// uniqueSorted returns the names, each once, sorted.
func uniqueSorted(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

// comparablePlan is a Plan reduced to what upstream reports, multisets
// sorted, as JSON per top-level key.
func comparablePlan(t fataler, p daemonset.Plan) map[string]string {
	q := p
	q.Create.Reason = ""
	q.Create.Objects = nil
	for _, o := range p.Create.Objects {
		q.Create.Objects = append(q.Create.Objects, daemonset.PodCreation{Node: o.Node})
	}
	sort.Slice(q.Create.Objects, func(i, j int) bool { return q.Create.Objects[i].Node < q.Create.Objects[j].Node })
	strip := func(ds []plan.Deletion) []plan.Deletion {
		out := []plan.Deletion{}
		for _, d := range ds {
			out = append(out, plan.Deletion{Name: d.Name})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	q.Delete = strip(p.Delete)
	q.Revisions = slices.Clone(p.Revisions)
	sort.SliceStable(q.Revisions, func(i, j int) bool {
		a, b := q.Revisions[i], q.Revisions[j]
		if (a.Verb == plan.VerbDelete) != (b.Verb == plan.VerbDelete) {
			return b.Verb == plan.VerbDelete
		}
		return a.Verb == plan.VerbDelete && a.Name < b.Name
	})
	if q.Revisions == nil {
		q.Revisions = []history.Write{}
	}
	q.Events = slices.Clone(p.Events)
	sort.Slice(q.Events, func(i, j int) bool { return fmt.Sprint(q.Events[i]) < fmt.Sprint(q.Events[j]) })
	q.Requeue = slices.Clone(p.Requeue)
	sort.Slice(q.Requeue, func(i, j int) bool { return fmt.Sprint(q.Requeue[i]) < fmt.Sprint(q.Requeue[j]) })
	if q.Memory == nil {
		q.Memory = daemonset.Backoff{}
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// diffKeys names the keys where a and b differ, over keys.
func diffKeys(a, b map[string]string, keys []string) []string {
	var out []string
	for _, k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s:\n\tupstream %s\n\tkubesem  %s", k, a[k], b[k]))
		}
	}
	return out
}

// multisetKeys are the Plan keys whose arrays are multisets upstream
// (concurrent writes, map-ordered walks).
var multisetKeys = map[string]bool{"delete": true, "revisions": true, "events": true, "requeue": true}

// wantAgrees returns where a want disagrees with upstream's Plan, key by
// key over the keys the want holds, with the vectors' matching rules
// (objects as subsets) except that multisets match in any order and
// kubesem's reasons for creations and deletions, which upstream cannot
// report, are not compared; held lists the keys the want holds.
func wantAgrees(t fataler, want json.RawMessage, up daemonset.Plan) (why, held []string) {
	var w map[string]json.RawMessage
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	u := comparablePlanRaw(t, up)
	for k := range w {
		held = append(held, k)
	}
	sort.Strings(held)
	for _, k := range held {
		wv := decodeJSON(t, w[k])
		uv := decodeJSON(t, u[k])
		switch {
		case k == "create":
			wc, _ := wv.(map[string]any)
			delete(wc, "reason")
			if objs, ok := wc["objects"].([]any); ok {
				for _, o := range objs {
					delete(o.(map[string]any), "reason")
				}
				uc := uv.(map[string]any)
				if why1 := multiset("create.objects", objs, uc["objects"]); why1 != "" {
					why = append(why, why1)
				}
				delete(wc, "objects")
				delete(uc, "objects")
			}
		case multisetKeys[k]:
			arr, _ := wv.([]any)
			if k == "delete" {
				for _, o := range arr {
					delete(o.(map[string]any), "reason")
					delete(o.(map[string]any), "uid")
				}
			}
			if why1 := multiset(k, arr, uv); why1 != "" {
				why = append(why, why1)
			}
			continue
		}
		if ok, why1 := matchWant(t, wv, uv); !ok {
			why = append(why, k+": "+why1)
		}
	}
	return why, held
}

func decodeJSON(t fataler, raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func matchWant(t fataler, want, got any) (bool, string) {
	wb, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	return conformance.Match(wb, gb)
}

// multiset matches want's elements to got's one to one in any order.
func multiset(key string, want []any, got any) string {
	g, _ := got.([]any)
	if len(want) != len(g) {
		return fmt.Sprintf("%s: want %d elements %v, upstream %d %v", key, len(want), want, len(g), g)
	}
	used := make([]bool, len(g))
	for _, w := range want {
		wb, _ := json.Marshal(w)
		found := false
		for j := range g {
			if used[j] {
				continue
			}
			gb, _ := json.Marshal(g[j])
			if ok, _ := conformance.Match(wb, gb); ok {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return fmt.Sprintf("%s: want element %s not in upstream's %v", key, wb, g)
		}
	}
	return ""
}

// readStepVectors reads the daemonset.Step vectors' files: step.json and
// the check-*.json files of kubesem check --vectors (the decisions along a
// model-checker counterexample), each vector knowing its file and place.
func readStepVectors(t fataler) []stepVector {
	paths, err := filepath.Glob(difftest.Repo("testdata", "daemonset", "check-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	paths = append([]string{difftest.Repo("testdata", "daemonset", "step.json")}, paths...)
	var all []stepVector
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var vs []stepVector
		if err := json.Unmarshal(b, &vs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range vs {
			vs[i].file, vs[i].index = path, i
		}
		all = append(all, vs...)
	}
	return all
}

func decodeOptions(t fataler, raw json.RawMessage) daemonset.Options {
	var o daemonset.Options
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// runs is how many times each vector runs through upstream: its answer
// must not vary unless the vector states the tie set (wantOneOf) or a
// burst cap picks (see tieKeys).
const runs = 8

// TestDaemonSetVectorsUpstream replays every daemonset.Step vector with a
// want or wantOneOf through v1.36.3 (see the top of this file), runs
// times each.
func TestDaemonSetVectorsUpstream(t *testing.T) {
	vs := readStepVectors(t)
	keys := planKeys(t)
	write := os.Getenv("KUBESEM_WRITE_VECTORS") == "1"
	runs := runs
	if write {
		runs = 64
	}
	filled := map[string]map[int]fillResult{} // file → index → fill
	n := 0
	for i := range vs {
		v := &vs[i]
		if v.Decision != "daemonset.Step" || v.WantError != nil {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			opts := decodeOptions(t, v.Options)
			kp, err := daemonset.Step(&v.Input.DaemonSet, v.Input.Nodes, v.Input.Pods, v.Input.History, v.Input.Backoff, v.Input.Now, opts)
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			// The burst cap keeps the first creations and deletions of
			// upstream's node-lister order: kubesem without the cap
			// gives every candidate.
			wide := opts
			wide.BurstReplicas = 1 << 30
			kw, err := daemonset.Step(&v.Input.DaemonSet, v.Input.Nodes, v.Input.Pods, v.Input.History, v.Input.Backoff, v.Input.Now, wide)
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			capped := kw.Create.Count != kp.Create.Count || len(kw.Delete) != len(kp.Delete)
			var ups []daemonset.Plan
			answers := map[string]bool{}
			for range runs {
				up, _ := upstreamPlan(t, &v.Input, opts)
				ups = append(ups, up)
				answers[fmt.Sprint(comparablePlan(t, up))] = true
			}
			tieKeys := tieKeys(t, v, ups)
			if len(tieKeys) > 0 && !capped && len(v.WantOneOf) == 0 && !write {
				t.Errorf("upstream's answer varies (%v) over %d runs: state the tie set (wantOneOf)", tieKeys, runs)
			}
			kc := comparablePlan(t, kp)
			for _, up := range ups {
				uc := comparablePlan(t, up)
				var cmpKeys []string
				for _, k := range keys {
					if !slices.Contains(tieKeys, k) && !(capped && (k == "create" || k == "delete")) {
						cmpKeys = append(cmpKeys, k)
					}
				}
				if d := diffKeys(uc, kc, cmpKeys); len(d) > 0 {
					t.Errorf("kubesem differs from v1.36.3:\n%s", strings.Join(d, "\n"))
				}
				if up.Create.Count != kp.Create.Count || len(up.Delete) != len(kp.Delete) {
					t.Errorf("upstream creates %d, deletes %d; kubesem %d, %d", up.Create.Count, len(up.Delete), kp.Create.Count, len(kp.Delete))
				}
				if capped {
					if d := notWithin(up, kw); d != "" {
						t.Errorf("upstream's picks under the burst cap are not among kubesem's candidates: %s", d)
					}
				}
				if write {
					continue
				}
				wants := v.WantOneOf
				if len(wants) == 0 {
					wants = []json.RawMessage{v.Want}
				}
				matched := false
				var why []string
				for _, w := range wants {
					d, held := wantAgrees(t, w, up)
					if len(d) == 0 {
						matched = true
					}
					why = append(why, d...)
					// (a claim list upstream leaves empty may be omitted)
					upKeys := comparablePlan(t, up)
					if missing := slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
						return slices.Contains(held, k) || slices.Contains(claimKeys, k) && upKeys[k] == ""
					}); len(missing) > 0 {
						t.Fatalf("want omits %v (every Step vector states the whole Plan)", missing)
					}
				}
				if !matched {
					t.Fatalf("want disagrees with v1.36.3:\n%s", strings.Join(why, "\n"))
				}
			}
			if write {
				if filled[v.file] == nil {
					filled[v.file] = map[int]fillResult{}
				}
				filled[v.file][v.index] = fillWant(t, ups, kp, tieKeys, capped)
			}
		})
	}
	if n < 65 {
		t.Fatalf("only %d Step vectors replayed", n)
	}
	if write {
		for path, f := range filled {
			writeFilled(t, path, f)
		}
	}
}

// tieKeys returns the Plan keys whose value is upstream's choice: those
// that differ between the runs, and those that differ between the
// vector's alternatives.
func tieKeys(t fataler, v *stepVector, ups []daemonset.Plan) []string {
	var out []string
	first := comparablePlan(t, ups[0])
	for _, up := range ups[1:] {
		for k, x := range comparablePlan(t, up) {
			if x != first[k] && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	if len(v.WantOneOf) > 1 {
		var w0 map[string]json.RawMessage
		_ = json.Unmarshal(v.WantOneOf[0], &w0)
		for _, alt := range v.WantOneOf[1:] {
			var w map[string]json.RawMessage
			_ = json.Unmarshal(alt, &w)
			for k, x := range w {
				if !bytes.Equal(x, w0[k]) && !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// notWithin says which of up's creations or deletions are not in wide
// (a deletion may also be one an alsoDeletable function admits).
func notWithin(up, wide daemonset.Plan, alsoDeletable ...func(string) bool) string {
	var nodes, names []string
	for _, o := range wide.Create.Objects {
		nodes = append(nodes, o.Node)
	}
	for _, d := range wide.Delete {
		names = append(names, d.Name)
	}
	var bad []string
	for _, o := range up.Create.Objects {
		if !slices.Contains(nodes, o.Node) {
			bad = append(bad, "create on "+o.Node)
		}
	}
	for _, d := range up.Delete {
		if !slices.Contains(names, d.Name) && !slices.ContainsFunc(alsoDeletable, func(f func(string) bool) bool { return f(d.Name) }) {
			bad = append(bad, "delete "+d.Name)
		}
	}
	return strings.Join(bad, ", ")
}

// fillResult is what the generator learnt from upstream for one vector:
// the value of every key that does not depend on upstream's choice, and
// for a tie the alternatives' values of the keys that do.
type fillResult struct {
	keys map[string]json.RawMessage
	alts []map[string]json.RawMessage
}

// fillWant returns upstream's answer as vector JSON: creations and
// deletions without kubesem's reasons (upstream has none), multisets in
// the order kubesem's Plan lists them when the two agree (the order of
// concurrent writes is not observable upstream), else sorted. Under a
// burst cap a creation is its count alone. For a tie (tieKeys), the
// alternatives are every choice upstream can make: the actions all runs
// share, plus any k of those the runs varied over (Go's map order
// reaches only some of them; the rule reaches any), listed as kubesem
// lists its own: the shared ones first, then by node; when other keys
// vary with the choice (the failed-pod event), the answers observed.
func fillWant(t fataler, ups []daemonset.Plan, kp daemonset.Plan, tieKeys []string, capped bool) fillResult {
	up := ups[0]
	uc, kc := comparablePlan(t, up), comparablePlan(t, kp)
	out := comparablePlanRaw(t, up)
	if uc["create"] == kc["create"] {
		c := plan.Creation[nodeOnly]{Count: up.Create.Count}
		for _, o := range kp.Create.Objects {
			c.Objects = append(c.Objects, nodeOnly{Node: o.Node})
		}
		out["create"] = toJSON(t, c)
	}
	if uc["delete"] == kc["delete"] {
		ds := []nameOnly{}
		for _, d := range kp.Delete {
			ds = append(ds, nameOnly{Name: d.Name})
		}
		out["delete"] = toJSON(t, ds)
	}
	if uc["revisions"] == kc["revisions"] {
		out["revisions"] = toJSON(t, kp.Revisions)
	}
	if uc["events"] == kc["events"] {
		out["events"] = toJSON(t, kp.Events)
	}
	if uc["requeue"] == kc["requeue"] {
		out["requeue"] = toJSON(t, kp.Requeue)
	}
	if capped {
		out["create"] = toJSON(t, plan.Creation[nodeOnly]{Count: up.Create.Count})
	}
	f := fillResult{keys: out}
	if len(tieKeys) == 0 || capped {
		return f
	}
	for _, k := range tieKeys {
		delete(f.keys, k)
	}
	onlyActions := !slices.ContainsFunc(tieKeys, func(k string) bool { return k != "create" && k != "delete" })
	if !onlyActions {
		seen := map[string]bool{}
		for _, u := range ups {
			raw := comparablePlanRaw(t, u)
			alt := map[string]json.RawMessage{}
			for _, k := range tieKeys {
				alt[k] = raw[k]
			}
			if id := fmt.Sprint(alt); !seen[id] {
				seen[id] = true
				f.alts = append(f.alts, alt)
			}
		}
		return f
	}
	if len(tieKeys) != 1 {
		t.Fatalf("creations and deletions both tied: %v", tieKeys)
	}
	key := tieKeys[0]
	sets := make([][]string, len(ups))
	for i, u := range ups {
		if key == "create" {
			for _, o := range u.Create.Objects {
				sets[i] = append(sets[i], o.Node)
			}
		} else {
			for _, d := range u.Delete {
				sets[i] = append(sets[i], d.Name)
			}
		}
	}
	forced, pool := slices.Clone(sets[0]), []string{}
	for _, s := range sets {
		forced = slices.DeleteFunc(forced, func(x string) bool { return !slices.Contains(s, x) })
		for _, x := range s {
			if !slices.Contains(pool, x) {
				pool = append(pool, x)
			}
		}
	}
	pool = slices.DeleteFunc(pool, func(x string) bool { return slices.Contains(forced, x) })
	sort.Strings(pool)
	k := len(sets[0]) - len(forced)
	// kubesem lists the shared actions first, in its own order.
	var kforced []string
	if key == "create" {
		for _, o := range kp.Create.Objects {
			if slices.Contains(forced, o.Node) {
				kforced = append(kforced, o.Node)
			}
		}
	} else {
		for _, d := range kp.Delete {
			if slices.Contains(forced, d.Name) {
				kforced = append(kforced, d.Name)
			}
		}
	}
	if len(kforced) != len(forced) {
		t.Fatalf("kubesem lacks the actions every upstream run takes: %v", forced)
	}
	for _, choice := range combinations(pool, k) {
		names := append(slices.Clone(kforced), choice...)
		alt := map[string]json.RawMessage{}
		if key == "create" {
			c := plan.Creation[nodeOnly]{Count: int32(len(names))}
			for _, n := range names {
				c.Objects = append(c.Objects, nodeOnly{Node: n})
			}
			alt[key] = toJSON(t, c)
		} else {
			ds := []nameOnly{}
			for _, n := range names {
				ds = append(ds, nameOnly{Name: n})
			}
			alt[key] = toJSON(t, ds)
		}
		f.alts = append(f.alts, alt)
	}
	return f
}

// combinations returns every k-element subset of sorted pool, each
// sorted, in lexicographic order.
func combinations(pool []string, k int) [][]string {
	if k == 0 {
		return [][]string{nil}
	}
	var out [][]string
	for i := range pool {
		for _, rest := range combinations(pool[i+1:], k-1) {
			out = append(out, append([]string{pool[i]}, rest...))
		}
	}
	return out
}

// comparablePlanRaw is upstream's Plan as raw JSON per key, creations and
// deletions reduced to what upstream reports.
func comparablePlanRaw(t fataler, p daemonset.Plan) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range comparablePlan(t, p) {
		out[k] = json.RawMessage(v)
	}
	c := plan.Creation[nodeOnly]{Count: p.Create.Count}
	for _, o := range p.Create.Objects {
		c.Objects = append(c.Objects, nodeOnly{Node: o.Node})
	}
	sort.Slice(c.Objects, func(i, j int) bool { return c.Objects[i].Node < c.Objects[j].Node })
	out["create"] = toJSON(t, c)
	var ds []plan.Deletion
	_ = json.Unmarshal(out["delete"], &ds)
	names := []nameOnly{}
	for _, d := range ds {
		names = append(names, nameOnly{Name: d.Name})
	}
	out["delete"] = toJSON(t, names)
	return out
}

// writeFilled adds the keys a want lacks and turns a want whose
// answer is upstream's choice into wantOneOf, then rewrites the file in
// its own format (one-space indent, keys in their order, added keys after
// them in the Plan's order). Keys a want holds are kept; an alternative
// keeps kubesem's reason for its actions when the original want gave all
// of them one reason.
func writeFilled(t fataler, path string, filled map[int]fillResult) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vectors []json.RawMessage
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatal(err)
	}
	planKeys := planKeys(t)
	added, converted := 0, 0
	fill := func(w *vectorObject, f fillResult) {
		// A key the Plan no longer has (a renamed field) is dropped and
		// its successor filled from upstream.
		for _, k := range slices.Clone(w.keys) {
			if !slices.Contains(planKeys, k) {
				w.drop(k)
			}
		}
		for _, k := range planKeys {
			v, ok := f.keys[k]
			switch {
			case !ok:
			case !w.has(k):
				w.set(k, v)
				added++
			case k == "create" || k == "status":
				// A creation stated by its count gets upstream's
				// objects, a partial status upstream's other fields.
				have, up := parseObj(t, w.vals[k]), parseObj(t, v)
				for _, f := range up.keys {
					if !have.has(f) {
						have.set(f, up.vals[f])
						added++
					}
				}
				w.vals[k] = have.raw(t)
			}
		}
	}
	for i, f := range filled {
		vec := parseObj(t, vectors[i])
		switch {
		case vec.has("want") && len(f.alts) == 0:
			w := parseObj(t, vec.vals["want"])
			fill(&w, f)
			vec.vals["want"] = w.raw(t)
		case vec.has("want"):
			w := parseObj(t, vec.vals["want"])
			var alts []json.RawMessage
			for _, a := range f.alts {
				alt := vectorObject{vals: map[string]json.RawMessage{}}
				for _, k := range w.keys {
					if _, tied := a[k]; tied {
						alt.set(k, keepReasonRaw(t, a[k], w.vals[k], k))
					} else {
						alt.set(k, w.vals[k])
					}
				}
				for _, k := range planKeys {
					if v, tied := a[k]; tied && !alt.has(k) {
						alt.set(k, v)
					}
				}
				fill(&alt, f)
				alts = append(alts, alt.raw(t))
			}
			vec.rename("want", "wantOneOf")
			vec.vals["wantOneOf"] = toJSON(t, alts)
			converted++
		case vec.has("wantOneOf"):
			var alts []json.RawMessage
			if err := json.Unmarshal(vec.vals["wantOneOf"], &alts); err != nil {
				t.Fatal(err)
			}
			for j := range alts {
				a := parseObj(t, alts[j])
				fill(&a, f)
				alts[j] = a.raw(t)
			}
			vec.vals["wantOneOf"] = toJSON(t, alts)
		}
		vectors[i] = vec.raw(t)
	}
	var compact bytes.Buffer
	compact.WriteByte('[')
	for i, v := range vectors {
		if i > 0 {
			compact.WriteByte(',')
		}
		compact.Write(v)
	}
	compact.WriteByte(']')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", " "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("filled %d keys from upstream into %s; %d wants became wantOneOf", added, path, converted)
}

// vectorObject is a JSON object that keeps its keys' order.
type vectorObject struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObj(t fataler, raw json.RawMessage) vectorObject {
	o := vectorObject{vals: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		o.set(tok.(string), v)
	}
	return o
}

func (o *vectorObject) has(k string) bool { _, ok := o.vals[k]; return ok }

func (o *vectorObject) set(k string, v json.RawMessage) {
	if !o.has(k) {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *vectorObject) drop(k string) {
	o.keys = slices.DeleteFunc(o.keys, func(x string) bool { return x == k })
	delete(o.vals, k)
}

func (o *vectorObject) rename(from, to string) {
	for i, k := range o.keys {
		if k == from {
			o.keys[i] = to
		}
	}
	o.vals[to] = o.vals[from]
	delete(o.vals, from)
}

func (o *vectorObject) raw(t fataler) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		if err := json.Compact(&b, o.vals[k]); err != nil {
			t.Fatal(err)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// keepReasonRaw is keepReason over raw JSON, for the actions keys.
func keepReasonRaw(t fataler, v, orig json.RawMessage, key string) json.RawMessage {
	if key != "create" && key != "delete" {
		return v
	}
	b, err := json.Marshal(keepReason(decodeJSON(t, v), decodeJSON(t, orig)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// keepReason copies the one reason the original value's actions all
// had (create objects or deletions) onto the new value's actions.
func keepReason(v, orig any) any {
	elems := func(x any) []any {
		switch y := x.(type) {
		case []any:
			return y
		case map[string]any:
			o, _ := y["objects"].([]any)
			return o
		}
		return nil
	}
	reason := ""
	for i, e := range elems(orig) {
		r, _ := e.(map[string]any)["reason"].(string)
		if r == "" || i > 0 && r != reason {
			return v
		}
		reason = r
	}
	if reason == "" {
		return v
	}
	for _, e := range elems(v) {
		e.(map[string]any)["reason"] = reason
	}
	return v
}

// TestDaemonSetNumbersVectorsUpstream replays numbers.json: the budget of
// each vector is upstream's updatedDesiredNodeCounts on the apps/v1
// defaulted DaemonSet with that many nodes that should run a pod.
func TestDaemonSetNumbersVectorsUpstream(t *testing.T) {
	b, err := os.ReadFile(difftest.Repo("testdata", "daemonset", "numbers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Name  string `json:"name"`
		Input struct {
			DaemonSet daemonset.DaemonSet `json:"daemonSet"`
			Desired   int32               `json:"desired"`
		} `json:"input"`
		Want *daemonset.Budget `json:"want"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	r := newRig(t)
	n := 0
	for _, v := range vs {
		if v.Want == nil {
			continue
		}
		uds, err := k8s.ToDaemonSet(&v.Input.DaemonSet)
		if err != nil {
			t.Fatal(err)
		}
		legacyscheme.Scheme.Default(uds)
		nodes := make([]*v1.Node, v.Input.Desired)
		for i := range nodes {
			nodes[i] = &v1.Node{}
			nodes[i].Name = fmt.Sprintf("node-%d", i)
		}
		surge, unavailable, desired, err := updatedDesiredNodeCounts(r.dsc, klog.NewContext(context.Background(), klog.Background()), uds, nodes, map[string][]*v1.Pod{})
		if err != nil || int32(desired) != v.Input.Desired {
			t.Errorf("%s: upstream %d desired, %v", v.Name, desired, err)
			continue
		}
		if got := (daemonset.Budget{MaxUnavailable: int32(unavailable), MaxSurge: int32(surge)}); !reflect.DeepEqual(got, *v.Want) {
			t.Errorf("%s: want %+v; upstream %+v", v.Name, *v.Want, got)
		}
		n++
	}
	if n < 15 {
		t.Fatalf("only %d numbers vectors replayed", n)
	}
}

// TestDaemonSetVectorTies (diagnostic, DS_TIES=1) runs every Step vector
// through upstream many times and prints the vectors whose answer varies.
func TestDaemonSetVectorTies(t *testing.T) {
	if os.Getenv("DS_TIES") != "1" {
		t.Skip("DS_TIES=1")
	}
	vs := readStepVectors(t)
	for i := range vs {
		v := &vs[i]
		if v.Decision != "daemonset.Step" || v.WantError != nil {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			opts := decodeOptions(t, v.Options)
			seen := map[string]int{}
			for range 64 {
				up, _ := upstreamPlan(t, &v.Input, opts)
				c := comparablePlan(t, up)
				seen[c["create"]+" | "+c["delete"]+" | "+c["events"]]++
			}
			if len(seen) > 1 {
				t.Logf("TIE %q: %d answers", v.Name, len(seen))
				for k, n := range seen {
					t.Logf("%3d %s", n, k)
				}
			}
		})
	}
}

type nodeOnly struct {
	Node string `json:"node"`
}

type nameOnly struct {
	Name string `json:"name"`
}

func toJSON(t fataler, v any) json.RawMessage {
	b, err := plan.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fataler is the part of testing.TB and rapid.T the helpers use.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}
