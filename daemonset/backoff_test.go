package daemonset

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

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
	require.Equal(t, "ds-uid/3/node-1", BackoffKey(ds, "node-1"))
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
