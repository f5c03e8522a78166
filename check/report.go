package check

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
)

// Report is what an exploration found: for each property, whether it held
// on every path within the bounds, or a shortest counterexample; and how
// much was explored.
type Report struct {
	// States is the number of distinct states explored (tick continuations
	// for liveness included); Transitions the transitions taken.
	States      int `json:"states"`
	Transitions int `json:"transitions"`
	// Depth is the deepest level of the breadth-first search.
	Depth int `json:"depth"`
	// Complete is false when Options.MaxStates stopped the search: a
	// property reported held held only on the paths explored.
	Complete bool `json:"complete"`
	// Start is the offset from the scenario's start at which the
	// exploration began (after the settling run, unless FromStart).
	Start time.Duration `json:"start"`
	// The bounds.
	MaxDepth int           `json:"maxDepth"`
	Horizon  time.Duration `json:"horizon"`
	Window   time.Duration `json:"window"`
	TimeCap  time.Duration `json:"timeCap"`
	Symmetry bool          `json:"symmetry"`
	Shard    Shard         `json:"shard,omitzero"`
	Alphabet Alphabet      `json:"alphabet"`
	Results  []Result      `json:"results"`
}

// Result is one property's outcome.
type Result struct {
	Property string `json:"property"`
	Doc      string `json:"doc"`
	Liveness bool   `json:"liveness,omitempty"`
	// Form is how it was checked: "state" (Holds), "write" (Allows) or
	// "liveness" (Wants).
	Form string `json:"form"`
	Held bool   `json:"held"`
	// Checked counts the states (or writes) the property was checked on.
	Checked        int             `json:"checked"`
	Counterexample *Counterexample `json:"counterexample,omitempty"`
}

// Counterexample is a shortest path that violates a property: the events
// of the alphabet that happened on it, each at its instant (an offset from
// the scenario's start), so that the scenario with these events replays
// it (see [Counterexample.Scenario]).
type Counterexample struct {
	Message string `json:"message"`
	// Depth is the number of transitions from the exploration's start.
	Depth  int             `json:"depth"`
	Events []cluster.Event `json:"events"`
	// Sources gives, for each of Events, its index in Alphabet.Events, or
	// -1 for an event of the alphabet's bounds (a pod failure, a node
	// outage or return, an eviction, a drain).
	Sources []int `json:"sources"`
	// At is when the violation happens; Until is how long to run the
	// replay to see it: At for a safety property, the end of the settled
	// cycle (or of the window) for a liveness property. (Depth 0 at 0 is
	// the scenario's first state, before anything ran.)
	At    time.Duration `json:"at"`
	Until time.Duration `json:"until"`
	// Path describes each transition: "tick" or the event.
	Path []string `json:"path"`
	// Hash is the canonical hash of the state at At (see [Fingerprint]).
	Hash uint64 `json:"hash"`
}

// Scenario returns sc with the counterexample's events added: the world
// of it, run until Start+Until, replays the counterexample.
func (cx *Counterexample) Scenario(sc cluster.Scenario) cluster.Scenario {
	out := sc
	out.Events = append(slices.Clone(sc.Events), cx.Events...)
	return out
}

// Failed returns the results that did not hold.
func (r *Report) Failed() []Result {
	var out []Result
	for _, x := range r.Results {
		if !x.Held {
			out = append(out, x)
		}
	}
	return out
}

// StuckProperty names the report's result for a world that got stuck
// (cluster.ErrStuck: a modelling error, never a behaviour of Kubernetes).
const StuckProperty = "world-not-stuck"

func (e *explorer) report() *Report {
	e.liveness()
	r := &Report{States: len(e.nodes), Transitions: e.transitions, Depth: e.deepest, Complete: e.complete,
		Start: e.root.Now.Sub(e.root.Start), MaxDepth: e.o.maxDepth(), Horizon: e.o.horizon(), Window: e.o.window(),
		TimeCap: e.canon.cap, Symmetry: !e.o.NoSymmetry, Shard: e.o.Shard, Alphabet: e.a}
	for i, p := range e.props {
		res := Result{Property: p.Name, Doc: p.Doc, Liveness: p.IsLiveness(), Form: form(p), Held: e.viol[i] == nil, Checked: e.checked[i]}
		if v := e.viol[i]; v != nil {
			res.Counterexample = e.counterexample(v, p)
		}
		r.Results = append(r.Results, res)
	}
	if v := e.viol[-1]; v != nil {
		r.Results = append(r.Results, Result{Property: StuckProperty, Doc: "the world never gets stuck (cluster.ErrStuck)", Form: "state",
			Counterexample: e.counterexample(v, Property{})})
	}
	return r
}

func form(p Property) string {
	switch {
	case p.Wants != nil:
		return "liveness"
	case p.Allows != nil:
		return "write"
	}
	return "state"
}

// path returns the transitions from the root to node i.
func (e *explorer) path(i int32) []*cluster.Event {
	var out []*cluster.Event
	for ; i > 0; i = e.nodes[i].parent {
		out = append(out, e.nodes[i].ev)
	}
	slices.Reverse(out)
	return out
}

// counterexample re-executes the path of v from the root (a liveness
// violation: then its chain of ticks until it closes its cycle or passes
// the window) and records its events.
func (e *explorer) counterexample(v *violation, p Property) *Counterexample {
	live := p.IsLiveness()
	moves := e.path(v.idx)
	if v.trans {
		moves = append(moves, v.ev)
	}
	w := e.root.Clone()
	w.Trace = nil
	cx := &Counterexample{Message: v.msg, Depth: len(moves)}
	for _, m := range moves {
		cx.Path = append(cx.Path, e.step(w, m, cx))
	}
	cx.At = w.Now.Sub(w.Start)
	cx.Hash = e.canon.view(w).hash
	if live {
		seen := map[int32]bool{}
		i := v.idx
		limit := w.Now.Add(e.o.window() + e.canon.cap + 10*time.Minute)
		for i >= 0 && !seen[i] && !w.Now.After(limit) {
			seen[i] = true
			if !tick(w, e.o.quiet()) {
				break
			}
			cx.Path = append(cx.Path, "tick")
			i = e.nodes[i].tick
		}
		if p.Unmet != nil {
			if why := p.Unmet(snapshot(w, e.failed(e.nodes[v.idx].b), e.sc.Pods)); why != "" {
				cx.Message += ": " + why
			}
		}
	}
	cx.Until = w.Now.Sub(w.Start)
	return cx
}

// step performs one move of a counterexample on w and describes it.
func (e *explorer) step(w *cluster.World, m *cluster.Event, cx *Counterexample) string {
	if m == nil {
		tick(w, e.o.quiet())
		return "tick"
	}
	e.advance(w, m)
	t := w.Now.Sub(w.Start)
	ev := *m
	ev.At = t
	cx.Events = append(cx.Events, ev)
	src := -1
	for i := range e.a.Events {
		if m == &e.a.Events[i] {
			src = i
		}
	}
	cx.Sources = append(cx.Sources, src)
	if ev.Kind == cluster.EventOrder {
		return "order: " + strings.Join(ev.Order, ", ") + " first, at +" + durationText(t)
	}
	return string(ev.Kind) + " " + ev.Target.String() + " at +" + durationText(t)
}

// Merge combines the reports of the shards of one search (or of searches
// of one scenario): the states and transitions add up, a property holds
// when it held in every report, and its counterexample is the shortest.
func Merge(reports ...*Report) *Report {
	if len(reports) == 0 {
		return &Report{Complete: true}
	}
	out := *reports[0]
	out.Results = slices.Clone(out.Results)
	out.Shard = Shard{}
	for _, r := range reports[1:] {
		out.States += r.States
		out.Transitions += r.Transitions
		out.Depth = max(out.Depth, r.Depth)
		out.Complete = out.Complete && r.Complete
		for _, x := range r.Results {
			i := slices.IndexFunc(out.Results, func(y Result) bool { return y.Property == x.Property })
			if i < 0 {
				out.Results = append(out.Results, x)
				continue
			}
			y := &out.Results[i]
			y.Checked += x.Checked
			y.Held = y.Held && x.Held
			if x.Counterexample != nil && (y.Counterexample == nil || shorter(x.Counterexample, y.Counterexample)) {
				y.Counterexample = x.Counterexample
			}
		}
	}
	return &out
}

func shorter(a, b *Counterexample) bool {
	return cmp.Or(cmp.Compare(a.Depth, b.Depth), cmp.Compare(a.At, b.At), cmp.Compare(a.Hash, b.Hash)) < 0
}
