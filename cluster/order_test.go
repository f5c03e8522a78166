package cluster_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/field"
)

// firstWriters lists, in trace order, the controllers that wrote at the
// scenario's first instant, each once.
func firstWriters(tr []cluster.Entry) []string {
	var out []string
	for _, e := range tr {
		if e.Write == nil || !e.Time.Equal(t0) || !slices.Contains(cluster.ControllerNames(), e.Controller) {
			continue
		}
		if !slices.Contains(out, e.Controller) {
			out = append(out, e.Controller)
		}
	}
	return out
}

// TestOrder: Options.Order and EventOrder decide which controller syncs
// first in a round. A StatefulSet and a ReplicaSet, both new at the start:
// in Sync's order the ReplicaSet controller writes first; with the
// StatefulSet controller first (from the options, or from an order event
// at the start) it does; the trace records the event, World.Order says the
// order.
func TestOrder(t *testing.T) {
	t.Parallel()
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a"), replicaSet("web", 1), statefulSet("db", 1)}}
	run := func(sc cluster.Scenario, opts cluster.Options) *cluster.World {
		t.Helper()
		w, err := cluster.New(sc, opts)
		if err != nil {
			t.Fatal(err)
		}
		w.Run(t0)
		return w
	}
	if got := firstWriters(run(sc, cluster.Options{}).Trace); len(got) < 2 || got[0] != cluster.CtlReplicaSet {
		t.Fatalf("Sync's order: first writers %v, want replicaset first", got)
	}
	w := run(sc, cluster.Options{Order: []string{cluster.CtlStatefulSet}})
	if got := firstWriters(w.Trace); len(got) < 2 || got[0] != cluster.CtlStatefulSet {
		t.Errorf("Order [statefulset]: first writers %v, want statefulset first", got)
	}
	if got := w.Order(); got[0] != cluster.CtlStatefulSet || len(got) != len(cluster.ControllerNames()) {
		t.Errorf("World.Order() = %v", got)
	}
	ev := sc
	ev.Events = []cluster.Event{{Kind: cluster.EventOrder, Order: []string{cluster.CtlStatefulSet, cluster.CtlDeployment}}}
	w = run(ev, cluster.Options{})
	if got := firstWriters(w.Trace); len(got) < 2 || got[0] != cluster.CtlStatefulSet {
		t.Errorf("EventOrder [statefulset deployment]: first writers %v, want statefulset first", got)
	}
	if got := w.Order(); got[0] != cluster.CtlStatefulSet || got[1] != cluster.CtlDeployment || got[2] != cluster.CtlReplicaSet {
		t.Errorf("after EventOrder World.Order() = %v", got)
	}
	if e := w.Trace[0]; e.Controller != cluster.CtlWorld || e.Reason != cluster.ReasonOrder || e.Event == nil {
		t.Errorf("the trace's first entry is %+v, want the order event", e)
	}
	// A clone keeps its order; changing the clone's leaves the original's.
	c := w.Clone()
	c.Inject(cluster.Event{At: time.Second, Kind: cluster.EventOrder, Order: []string{cluster.CtlReplicaSet}})
	c.Run(t0.Add(time.Second))
	if c.Order()[0] != cluster.CtlReplicaSet || w.Order()[0] != cluster.CtlStatefulSet {
		t.Errorf("clone's order %v, original's %v", c.Order(), w.Order())
	}
}

// TestOrderInvalid: an unknown or repeated controller name is refused
// with its field path.
func TestOrderInvalid(t *testing.T) {
	t.Parallel()
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a")}}
	for _, c := range []struct {
		opts  []string
		event []string
		path  string
	}{
		{opts: []string{"kubelet"}, path: "options.order[0]"},
		{opts: []string{cluster.CtlJob, cluster.CtlJob}, path: "options.order[1]"},
		{event: []string{}, path: "events[0].order"},
		{event: []string{cluster.CtlJob, "nope"}, path: "events[0].order[1]"},
	} {
		s := sc
		if c.event != nil {
			s.Events = []cluster.Event{{Kind: cluster.EventOrder, Order: c.event}}
		}
		_, err := cluster.New(s, cluster.Options{Order: c.opts})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path {
			t.Errorf("order %v / event %v: error %v, want one at %s", c.opts, c.event, err, c.path)
		}
	}
}
