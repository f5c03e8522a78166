package cluster_test

import (
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

// memoOp is one move of a branch: an event injected at the world's next
// due instant, then that instant run (ev set), or a Step until.
type memoOp struct {
	ev    *cluster.Event
	until time.Time
}

func (o memoOp) do(w *cluster.World) bool {
	if o.ev != nil {
		w.Inject(*o.ev)
	}
	return w.Step(o.until)
}

// checkPassMemoExact: a world and its clones, each branch given its own
// events at its own instants (so that their node monitor passes repeat
// one another's, as an exploration's states do), run with the memo of
// node monitor passes they share, end as the same moves made on a world
// that runs every pass.
func checkPassMemoExact(t *rapid.T) {
	sc := drawScenario(t)
	var nodes []string
	var deps []cluster.Key
	for _, o := range sc.Objects {
		k, _ := cluster.KindOf(o)
		switch meta := cluster.MetaOf(o); k {
		case cluster.KindNode:
			nodes = append(nodes, meta.Name)
		case cluster.KindDeployment:
			deps = append(deps, cluster.Key{Kind: k, Namespace: meta.Namespace, Name: meta.Name})
		}
	}
	until := t0.Add(15 * time.Minute)
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type branch struct {
		w   *cluster.World
		ops []memoOp
	}
	branches := []*branch{{w: w}}
	live := []*branch{branches[0]}
	for steps := 0; len(live) > 0 && steps < 400; steps++ {
		i := rapid.IntRange(0, len(live)-1).Draw(t, "branch")
		b := live[i]
		switch rapid.IntRange(0, 9).Draw(t, "move") {
		case 0:
			if len(branches) < 8 {
				c := &branch{w: b.w.Clone(), ops: append([]memoOp(nil), b.ops...)}
				branches, live = append(branches, c), append(live, c)
				continue
			}
		case 1:
			at, ok := b.w.NextDue()
			if !ok || !at.After(b.w.Now) || at.After(until) {
				break
			}
			ev := drawEvent(t, nodes, deps)
			ev.At = at.Sub(b.w.Start)
			op := memoOp{ev: &ev, until: at}
			b.ops = append(b.ops, op)
			op.do(b.w)
			continue
		}
		op := memoOp{until: until}
		b.ops = append(b.ops, op)
		if !op.do(b.w) {
			live = append(live[:i], live[i+1:]...)
		}
	}
	for i, b := range branches {
		r, err := cluster.New(sc, cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cluster.NoPassMemo(r)
		for _, op := range b.ops {
			op.do(r)
		}
		if !reflect.DeepEqual(b.w.Trace, r.Trace) {
			t.Fatalf("branch %d diverges from its moves without the memo:\n%s\n---\n%s", i, summary(b.w.Trace), summary(r.Trace))
		}
		if !reflect.DeepEqual(b.w.State.Objects(), r.State.Objects()) || !reflect.DeepEqual(b.w.Memory(), r.Memory()) || !b.w.Now.Equal(r.Now) {
			t.Fatalf("branch %d ends unlike its moves without the memo", i)
		}
	}
}

// drawEvent draws an event among scale, image, stop and start node,
// cordon, drain and delete.
func drawEvent(t *rapid.T, nodes []string, deps []cluster.Key) cluster.Event {
	n := cluster.Key{Kind: cluster.KindNode, Name: nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]}
	d := cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "d0"}
	if len(deps) > 0 {
		d = deps[rapid.IntRange(0, len(deps)-1).Draw(t, "dep")]
	}
	switch rapid.IntRange(0, 6).Draw(t, "kind") {
	case 0:
		r := int32(rapid.IntRange(0, 6).Draw(t, "scale"))
		return cluster.Event{Kind: cluster.EventScale, Target: d, Replicas: &r}
	case 1:
		return cluster.Event{Kind: cluster.EventImage, Target: d, Image: "img:" + rapid.StringMatching("[0-9]").Draw(t, "img")}
	case 2:
		return cluster.Event{Kind: cluster.EventStopNode, Target: n}
	case 3:
		return cluster.Event{Kind: cluster.EventStartNode, Target: n}
	case 4:
		return cluster.Event{Kind: cluster.EventCordon, Target: n}
	case 5:
		return cluster.Event{Kind: cluster.EventDrain, Target: n}
	}
	return cluster.Event{Kind: cluster.EventDelete, Target: d}
}

func TestPassMemoExact(t *testing.T) { rapid.Check(t, checkPassMemoExact) }
func FuzzPassMemoExact(f *testing.F) { fuzzlimit.Rapid(f, checkPassMemoExact) }

// TestPassMemoHits: an exploration's worlds find their passes in the memo
// (the property above would hold with a memo that never gives one).
func TestPassMemoHits(t *testing.T) {
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	a, b := w.Clone(), w.Clone()
	a.Run(t0.Add(5 * time.Minute))
	before := cluster.PassMemoHits(w)
	b.Run(t0.Add(5 * time.Minute))
	if got := cluster.PassMemoHits(w) - before; got < 40 {
		t.Fatalf("the second clone found %d of its passes, want all 48", got)
	}
	if !reflect.DeepEqual(a.Trace, b.Trace) || !reflect.DeepEqual(a.Memory(), b.Memory()) {
		t.Fatal("the clones differ")
	}
}
