package daemonset

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

var hNew = History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 1, "new")}}

func step(t *testing.T, ds *DaemonSet, nodes []*node.Node, pods []*podstatus.Pod, mem Backoff, now time.Time, opts Options) Plan {
	t.Helper()
	p, err := Step(ds, nodes, pods, hNew, mem, now, opts)
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	return p
}

func TestStepValidatesFirst(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.Template.Labels = map[string]string{"app": "other"}
	ds.Spec.MinReadySeconds = -5
	p, err := Step(ds, []*node.Node{testNode("a")}, nil, hNew, nil, tNow, Options{})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.template.metadata.labels" || p.Outcome != "" {
		t.Errorf("Step = %+v, %v; want the validation error and a zero Plan", p, err)
	}
	if _, err := Step(nil, nil, nil, hNew, nil, tNow, Options{}); !errors.As(err, &fe) || fe.Path != "daemonSet" {
		t.Errorf("nil DaemonSet: %v", err)
	}
	if _, err := Step(testDS(), nil, nil, History{}, nil, tNow, Options{}); !errors.As(err, &fe) || fe.Path != "history.hash" {
		t.Errorf("no hash: %v", err)
	}
}

func TestStepBeingDeleted(t *testing.T) {
	t.Parallel()
	ds := deletingDS()
	mem := Backoff{"k": {Delay: time.Second, LastUpdate: tHour}}
	p := step(t, ds, []*node.Node{testNode("a")}, nil, mem, tNow, Options{})
	if p.Outcome != ReasonBeingDeleted || p.Create.Count != 0 || p.UpdateStatus || len(p.Revisions) != 0 || len(p.Memory) != 1 {
		t.Errorf("being deleted: %+v", p)
	}
}

func deletingDS() *DaemonSet {
	ds := testDS()
	ds.DeletionTimestamp = &tHour
	return ds
}

func TestStepRevisions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		h              History
		create, update *history.Write
	}{
		{"current is the newest", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-old", 1, "old"), rev("ds-new", 2, "new")}}, nil, nil},
		{"current renumbered past the old ones", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 1, "new"), rev("ds-old", 4, "old")}}, nil, &history.Write{Verb: plan.VerbUpdate, Name: "ds-new", Revision: 5, Hash: "new", Reason: ReasonRollback}},
		{"no current: created with max+1", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-a", 2, "a"), rev("ds-b", 7, "b")}}, &history.Write{Verb: plan.VerbCreate, Name: "ds-new", Revision: 8, Hash: "new", Reason: ReasonRevisionCreated}, nil},
		{"no revisions: created as 1", History{Hash: "new"}, &history.Write{Verb: plan.VerbCreate, Name: "ds-new", Revision: 1, Hash: "new", Reason: ReasonRevisionCreated}, nil},
		{"two current: the newest is kept", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new-2", 3, "new"), rev("ds-new", 2, "new"), rev("ds-old", 1, "old")}}, nil, nil},
		{"two current of one number: the last is kept", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new-a", 1, "new"), rev("ds-new-b", 1, "new"), rev("ds-old", 3, "old")}}, nil, &history.Write{Verb: plan.VerbUpdate, Name: "ds-new-b", Revision: 4, Hash: "new", Reason: ReasonRollback}},
	} {
		p, err := Step(testDS(), nil, nil, c.h, nil, tNow, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want []history.Write
		for _, w := range []*history.Write{c.create, c.update} {
			if w != nil {
				want = append(want, *w)
			}
		}
		if !slices.Equal(p.Revisions, want) {
			t.Errorf("%s: revisions %+v, want %+v", c.name, p.Revisions, want)
		}
	}
}

func failedOn(n string) *podstatus.Pod {
	return withPhase(testPod("f-"+n, n, "new", tHour, never), podstatus.Failed)
}

func TestStepFailedPodBackoff(t *testing.T) {
	t.Parallel()
	ds := testDS()
	key := BackoffKey(ds, "a")
	capd := DefaultBackoffCap
	for _, c := range []struct {
		name      string
		mem       Backoff
		opts      Options
		deleted   bool
		requeue   time.Duration
		wantDelay time.Duration
		wantLast  time.Time
	}{
		{"no memory: deleted, delay starts at the base", nil, Options{}, true, 0, time.Second, tNow},
		{"in backoff: requeued after the delay", Backoff{key: {time.Second, tNow.Add(-999 * time.Millisecond)}}, Options{}, false, time.Second, time.Second, tNow.Add(-999 * time.Millisecond)},
		{"delay ends exactly now: deleted, delay doubles", Backoff{key: {time.Second, tNow.Add(-time.Second)}}, Options{}, true, 0, 2 * time.Second, tNow},
		{"one ns before the end: still waiting", Backoff{key: {time.Second, tNow.Add(-time.Second + 1)}}, Options{}, false, time.Second, time.Second, tNow.Add(-time.Second + 1)},
		{"doubling is capped", Backoff{key: {10 * time.Minute, tNow.Add(-10 * time.Minute)}}, Options{}, true, 0, capd, tNow},
		{"exactly twice the cap ago: not expired, doubles", Backoff{key: {capd, tNow.Add(-2 * capd)}}, Options{}, true, 0, capd, tNow},
		{"one ns past twice the cap: expired, restarts", Backoff{key: {capd, tNow.Add(-2*capd - 1)}}, Options{}, true, 0, time.Second, tNow},
		{"options bound the backoff", Backoff{key: {3 * time.Second, tNow.Add(-4 * time.Second)}}, Options{BackoffBase: 2 * time.Second, BackoffCap: 5 * time.Second}, true, 0, 5 * time.Second, tNow},
		{"options: expired after twice the option cap", Backoff{key: {5 * time.Second, tNow.Add(-10*time.Second - 1)}}, Options{BackoffBase: 2 * time.Second, BackoffCap: 5 * time.Second}, true, 0, 2 * time.Second, tNow},
		{"another generation's entry is not this one", Backoff{BackoffKey(&DaemonSet{ObjectMeta: ds.ObjectMeta, Status: Status{ObservedGeneration: 7}}, "a"): {time.Minute, tNow}}, Options{}, true, 0, time.Second, tNow},
	} {
		var before Backoff
		if c.mem != nil {
			before = copyBackoff(c.mem)
		}
		p := step(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{failedOn("a")}, c.mem, tNow, c.opts)
		if got := len(p.Delete) == 1; got != c.deleted {
			t.Errorf("%s: deleted %v", c.name, p.Delete)
		}
		var rq []time.Duration
		for _, r := range p.Requeue {
			if r.Reason == ReasonFailedPodBackoff {
				rq = append(rq, r.After)
			}
		}
		if c.requeue != 0 && !slices.Equal(rq, []time.Duration{c.requeue}) || c.requeue == 0 && len(rq) != 0 {
			t.Errorf("%s: requeues %v", c.name, rq)
		}
		if e := p.Memory[key]; e.Delay != c.wantDelay || !e.LastUpdate.Equal(c.wantLast) {
			t.Errorf("%s: memory %+v; want delay %s at %s", c.name, e, c.wantDelay, c.wantLast)
		}
		if c.deleted && (len(p.Events) != 1 || p.Events[0] != (plan.Event{Type: plan.Warning, Reason: ReasonFailedPod, Object: "f-a"})) {
			t.Errorf("%s: events %+v", c.name, p.Events)
		}
		if c.mem != nil && !sameBackoff(c.mem, before) {
			t.Errorf("%s: Step modified its memory", c.name)
		}
	}
}

func sameBackoff(a, b Backoff) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w.Delay != v.Delay || !w.LastUpdate.Equal(v.LastUpdate) {
			return false
		}
	}
	return true
}

func TestBackoffKey(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Status.ObservedGeneration = 3
	if got := BackoffKey(ds, "node-1"); got != "ds-uid/3/node-1" {
		t.Errorf("BackoffKey = %q", got)
	}
}

// Two failed pods on a node: the first goes, and the node is then in
// backoff for the second.
func TestStepTwoFailedPodsOnANode(t *testing.T) {
	t.Parallel()
	f2 := withPhase(testPod("f-b", "a", "new", tHour, never), podstatus.Failed)
	p := step(t, testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{failedOn("a"), f2}, nil, tNow, Options{})
	if len(p.Delete) != 1 || p.Delete[0].Name != "f-a" || len(p.Requeue) != 1 || p.Requeue[0].After != time.Second {
		t.Errorf("delete %v requeue %v", p.Delete, p.Requeue)
	}
}

func TestStepManage(t *testing.T) {
	t.Parallel()
	ready := func(name, n, hash string, created time.Time) *podstatus.Pod {
		return testPod(name, n, hash, created, created)
	}
	taintedX := testNode("x", node.Taint{Key: "x", Effect: node.NoExecute})
	for _, c := range []struct {
		name    string
		ds      *DaemonSet
		nodes   []*node.Node
		pods    []*podstatus.Pod
		creates []string
		deletes []string
		outcome Reason
	}{
		{"missing pods created by node", testDS(), []*node.Node{testNode("b"), testNode("a")}, nil, []string{"a:NoDaemonPod", "b:NoDaemonPod"}, nil, ReasonSynced},
		{"succeeded pod deleted", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{withPhase(ready("s", "a", "new", tHour), podstatus.Succeeded)}, nil, []string{"s:SucceededDaemonPod"}, ReasonSynced},
		{"excess pods: the oldest stays", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("young", "a", "new", tNow), ready("old", "a", "new", tHour), ready("mid", "a", "new", tHour.Add(time.Minute))}, nil, []string{"mid:ExcessPod", "young:ExcessPod"}, ReasonSynced},
		{"deleting pods are neither kept nor deleted", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{deleting(ready("d", "a", "new", tHour), tHour), ready("p", "a", "new", tNow)}, nil, nil, ReasonRollingUpdate},
		{"a node that should not run loses its pods", testDS(), []*node.Node{taintedX}, []*podstatus.Pod{ready("p", "x", "new", tHour), deleting(ready("d", "x", "new", tHour), tHour)}, nil, []string{"p:ShouldNotRun"}, ReasonSynced},
		{"unscheduled pod for a missing node goes", testDS(), nil, []*podstatus.Pod{pinned(ready("u", "gone", "new", tHour))}, nil, []string{"u:NodeGone"}, ReasonSynced},
		{"scheduled pod on a missing node is left", testDS(), nil, []*podstatus.Pod{ready("s", "gone", "new", tHour)}, nil, nil, ReasonRollingUpdate},
		{"surge: a node without a running pod gets one", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{withPhase(ready("s", "a", "new", tHour), podstatus.Succeeded)}, []string{"a:SurgeNoPod"}, []string{"s:SucceededDaemonPod"}, ReasonSynced},
		{"surge: old not ready beside new goes", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("o", "a", "old", tHour, never), testPod("n", "a", "new", tNow, never)}, nil, []string{"o:OldPodNotReady"}, ReasonSynced},
		{"surge: new available, old goes", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour), ready("n", "a", "new", tNow)}, nil, []string{"o:NewPodAvailable"}, ReasonSynced},
		{"surge: extra pods of each kind go", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour), ready("o2", "a", "old", tNow), ready("n", "a", "new", tHour), ready("n2", "a", "new", tNow)}, nil, []string{"n2:ExcessPod", "o2:ExcessPod", "o:NewPodAvailable"}, ReasonSynced},
		{"OnDelete: nothing to manage", func() *DaemonSet { d := testDS(); d.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}; return d }(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour)}, nil, nil, ReasonOnDelete},
		{"RollingUpdate: the old pod is replaced", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour)}, nil, []string{"o:UpdateOldPod"}, ReasonRollingUpdate},
	} {
		p := step(t, c.ds, c.nodes, c.pods, nil, tNow, Options{})
		var cr []string
		for _, o := range p.Create.Objects {
			cr = append(cr, o.Node+":"+string(o.Reason))
		}
		var dl []string
		for _, d := range p.Delete {
			dl = append(dl, d.Name+":"+string(d.Reason))
		}
		if !slices.Equal(cr, c.creates) || !slices.Equal(dl, c.deletes) || p.Outcome != c.outcome || p.Create.Count != int32(len(cr)) {
			t.Errorf("%s: %s creates %v deletes %v; want %s %v %v", c.name, p.Outcome, cr, dl, c.outcome, c.creates, c.deletes)
		}
	}
}

func TestStepBurst(t *testing.T) {
	t.Parallel()
	var nodes []*node.Node
	var pods []*podstatus.Pod
	for _, n := range []string{"a", "b", "c", "d"} {
		nodes = append(nodes, testNode(n))
		pods = append(pods, pinned(testPod("u-"+n, "gone-"+n, "new", tHour, tHour)))
	}
	p := step(t, testDS(), nodes, pods, nil, tNow, Options{BurstReplicas: 3})
	if p.Create.Count != 3 || len(p.Create.Objects) != 3 || p.Create.Objects[2].Node != "c" || len(p.Delete) != 3 || p.Delete[2].Name != "u-c" {
		t.Errorf("burst 3: creates %+v deletes %+v", p.Create, p.Delete)
	}
	if p := step(t, testDS(), nodes, pods, nil, tNow, Options{}); p.Create.Count != 4 || len(p.Delete) != 4 {
		t.Errorf("default burst: %d creates, %d deletes", p.Create.Count, len(p.Delete))
	}
}

func TestStepMinReadyRequeue(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.MinReadySeconds = 30
	young := testPod("y", "a", "new", tHour, tNow.Add(-10*time.Second))
	p := step(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{young}, nil, tNow, Options{})
	if !slices.Equal(p.Requeue, []plan.Requeue{{After: 30 * time.Second, Reason: ReasonMinReadySeconds}}) {
		t.Errorf("ready, not available: requeue %+v", p.Requeue)
	}
	if p := step(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{young}, nil, tNow.Add(20*time.Second), Options{}); len(p.Requeue) != 0 {
		t.Errorf("available at exactly minReadySeconds: requeue %+v", p.Requeue)
	}
}

func TestStepNodeNotFound(t *testing.T) {
	t.Parallel()
	h := History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 5, "new"), rev("ds-o1", 1, "o1"), rev("ds-o2", 2, "o2")}}
	ds := withSurge(testDS(), 1)
	zero := int32(0)
	ds.Spec.RevisionHistoryLimit = &zero
	p, err := Step(ds, []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("pa", "a", "new", tHour, tHour), testPod("p", "gone", "old", tHour, tHour)}, h, nil, tNow, Options{})
	if err != nil || p.Outcome != ReasonNodeNotFound || len(p.Revisions) != 0 ||
		!slices.Equal(p.Requeue, []plan.Requeue{{Reason: ReasonNodeNotFound, RateLimited: true}}) || !p.UpdateStatus {
		t.Errorf("Step = %+v, %v; want NodeNotFound, a rate-limited requeue, no history cleanup, the status written", p, err)
	}
}

func TestCleanupHistory(t *testing.T) {
	t.Parallel()
	old := []revision{{name: "r3", revision: 3, hash: "h3"}, {name: "r1", revision: 1, hash: "h1"}, {name: "r2", revision: 2, hash: "h2"}, {name: "r4", revision: 4, hash: "h4"}}
	one := int32(1)
	ds := testDS()
	ds.Spec.RevisionHistoryLimit = &one
	live := deleting(withPhase(testPod("p", "a", "h1", tHour, never), podstatus.Failed), tHour) // terminal deleting pods keep their hash live
	got := cleanupHistory(ds, old, []*podstatus.Pod{live})
	var gotNames []string
	for _, d := range got {
		gotNames = append(gotNames, d.Name)
		if d.Reason != ReasonHistoryLimit {
			t.Errorf("reason %s", d.Reason)
		}
	}
	if want := []string{"r2", "r3", "r4"}; !slices.Equal(gotNames, want) {
		t.Errorf("limit 1: deleted %v; want %v (oldest first, r1's hash is live, so one more is kept than the limit)", gotNames, want)
	}
	ds.Spec.RevisionHistoryLimit = nil
	var ten []revision
	for i := range 10 {
		ten = append(ten, revision{name: fmt.Sprint("r", i), revision: int64(i), hash: fmt.Sprint("h", i)})
	}
	if got := cleanupHistory(ds, ten, nil); len(got) != 0 {
		t.Errorf("no limit reads as 10: 10 old revisions, deleted %v", got)
	}
	if got := cleanupHistory(ds, append(ten, revision{name: "r10", revision: 10, hash: "h10"}), nil); len(got) != 1 || got[0].Name != "r0" {
		t.Errorf("no limit reads as 10: 11 old revisions, deleted %v", got)
	}
}

func TestGroupNodesDeduplicatesAndSorts(t *testing.T) {
	t.Parallel()
	states, index := groupNodes(testDS(), []*node.Node{testNode("b"), nil, testNode("a"), testNode("b")}, []*podstatus.Pod{nil, testPod("p", "z", "new", tHour, tHour), testPod("q", "c", "new", tHour, tHour)}, Options{})
	var got []string
	for _, s := range states {
		got = append(got, s.name)
	}
	if want := []string{"a", "b", "c", "z"}; !slices.Equal(got, want) {
		t.Errorf("states %v; want listed nodes by name, then pods' nodes by name", got)
	}
	for i, s := range states {
		if index[s.name] != i {
			t.Errorf("index[%s] = %d; want %d", s.name, index[s.name], i)
		}
	}
}
