package main

import (
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
)

// Controllers with memory. The node lifecycle controller (when it last saw
// each node alive, its zones' tainting queues and rate limiters), the
// taint-eviction controller (the evictions it has scheduled, and when) and
// the pod garbage collector (its quarantine of missing nodes) decide from
// what they remember as much as from the objects: a world built afresh
// from the objects at each prediction is those controllers right after a
// restart, which do nothing for 50 s (the node monitor grace period), a
// pod's tolerationSeconds, or 40 s (the quarantine). Shadow keeps one world
// of these three controllers for the whole run instead (timedWorld), and
// at every change of a node or pod and at every tick sets its State to the
// objects it holds and syncs it (World.ForceSync): the world carries their
// memory from sync to sync as it does in a simulation. Every write a sync
// predicts is kept for a while; a controller's write that the world of
// each prediction does not explain is explained when one of these syncs
// predicted it in the controller's allowance before it, or, for a node,
// when the world, synced on from the state right before the write,
// predicts it within the allowance after it (the node monitor pass runs
// every 5 s at the world's phase, not the controller's).

// timedControllers are the controllers with memory, in the world's order.
var timedControllers = []string{cluster.CtlPodGC, cluster.CtlNode, cluster.CtlTaintEvictor}

// timedAllowance is how much later than shadow's world a controller with
// memory may make a write: two node monitor periods (5 s) for the node
// lifecycle controller, whose probe times are set at its passes; 1 s for
// taint eviction, whose timers fire on time; three 20 s periods for the
// pod GC, whose quarantine starts at a pass and whose delaying queue may
// hand a node back one period late.
var timedAllowance = map[string]time.Duration{
	cluster.CtlNode:         10 * time.Second,
	cluster.CtlTaintEvictor: time.Second,
	cluster.CtlPodGC:        60 * time.Second,
}

// watchLatency is how much earlier than shadow a controller may see a
// change: the sync right after a change runs that much before it, so that
// a timer it starts fires no later than the controller's.
const watchLatency = 500 * time.Millisecond

// nodeLookAhead is how far the world is synced on from the state before a
// node's change that no earlier sync predicted.
const nodeLookAhead = 10 * time.Second

// timedWorld is the world of the controllers with memory and what its
// syncs predicted.
type timedWorld struct {
	w *cluster.World
	// warm is false until the first sync: a world's first sync is the
	// controllers' after a restart (a node seen for the first time loses
	// its not-ready and unreachable taints), not a prediction.
	warm  bool
	preds map[string]*timedPred
	// fresh are the signatures first predicted by the last sync.
	fresh []string
	// snaps are copies of the world after its recent syncs, each with
	// the last change its objects include: a node's write is looked ahead
	// for from the world as it was before the write.
	snaps []timedSnap
	err   string
}

type timedSnap struct {
	seq int
	at  time.Time
	w   *cluster.World
}

// timedPred is one predicted write: when syncs first and last predicted
// it, the distinct writes they predicted (each with the object as the sync
// had it before the write), those of the last sync that predicted it, and
// the world as it was before the first (a missing write is predicted again
// from it).
type timedPred struct {
	sig, ctl    string
	key         cluster.Key
	first, last time.Time
	writes      []timedWrite
	lastWrites  []timedWrite
	lastSync    time.Time
	before      *cluster.World
	checked     bool
}

// timedWrite is a predicted write and the object before it.
type timedWrite struct {
	plan.Write
	base any
}

// worldState is the objects shadow holds as a State.
func (s *shadow) worldState() *cluster.State {
	return stateOf(s.state)
}

func stateOf(st map[cluster.Key]*item) *cluster.State {
	out := cluster.NewState()
	keys := make([]cluster.Key, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	for _, k := range keys {
		out.Put(st[k].model) // an object the State refuses is left out
	}
	return out
}

// startTimed builds the world of the controllers with memory on the objects
// held, and syncs it once.
func (s *shadow) startTimed(now time.Time) {
	opts := worldOptions()
	opts.Controllers = timedControllers
	w, err := newWorld(cluster.Scenario{Start: now}, opts)
	if err != nil {
		fmt.Fprintf(s.out, "shadow: warning: the controllers with memory: %v\n", err)
		return
	}
	s.timed = &timedWorld{w: w, preds: map[string]*timedPred{}}
	s.timedSync(now, false)
}

// timedSync syncs the world of the controllers with memory on the objects
// held, at now (right after a change, watchLatency before it), and records
// the writes it predicts.
func (s *shadow) timedSync(now time.Time, afterChange bool) {
	tw := s.timed
	if tw == nil {
		return
	}
	at := now
	if afterChange {
		at = now.Add(-watchLatency)
	}
	st := s.worldState()
	var before *cluster.World
	if tw.warm {
		before = tw.w.Clone()
	}
	pre := st.Clone()
	tw.w.State = st
	decs := tw.w.ForceSync(at)
	tw.snaps = append(tw.snaps, timedSnap{seq: s.seq, at: now, w: tw.w.Clone()})
	for len(tw.snaps) > 1 && now.Sub(tw.snaps[1].at) > 2*s.o.window+timedGrace {
		tw.snaps = tw.snaps[1:]
	}
	if !tw.warm {
		tw.warm = true
		return
	}
	tw.fresh = tw.fresh[:0]
	defer func() {
		if s.o.verbos {
			for _, sig := range tw.fresh {
				fmt.Fprintf(s.out, "shadow: predicts (with memory): %s\n", sig)
			}
		}
	}()
	for _, d := range decs {
		if d.Err != nil {
			if msg := d.Err.Error(); msg != tw.err {
				tw.err = msg
				fmt.Fprintf(s.out, "shadow: warning: the %s controller: %v\n", d.Controller, d.Err)
			}
			continue
		}
		// The object each write finds: as held, then as the decision's
		// earlier writes leave it.
		cur := map[cluster.Key]any{}
		for i := range d.Writes {
			wr := d.Writes[i]
			k, ok := writeKey(&wr)
			if !ok {
				continue
			}
			base, seen := cur[k]
			if !seen {
				base = pre.Get(k)
			}
			tw.record(d.Controller, k, wr, base, before, at)
			if wr.Verb == plan.VerbDelete {
				cur[k] = nil
			} else if wr.Object != nil {
				cur[k] = wr.Object
			}
		}
	}
	for sig, p := range tw.preds {
		if now.Sub(p.last) > timedAllowance[p.ctl]+2*s.o.window {
			delete(tw.preds, sig)
		}
	}
}

// writeSig names a predicted write: its verb, resource, object and reason.
func writeSig(wr *plan.Write, k cluster.Key) string {
	return string(wr.Verb) + " " + wr.Resource + subresource(wr.Subresource) + " " + objectPath(k) + " (" + string(wr.Reason) + ")"
}

func (tw *timedWorld) record(ctl string, k cluster.Key, wr plan.Write, base any, before *cluster.World, now time.Time) {
	sig := ctl + " " + writeSig(&wr, k)
	p := tw.preds[sig]
	if p == nil {
		p = &timedPred{sig: sig, ctl: ctl, key: k, first: now, before: before}
		tw.preds[sig] = p
		tw.fresh = append(tw.fresh, sig)
	}
	p.last = now
	if !p.lastSync.Equal(now) {
		p.lastSync, p.lastWrites = now, nil
	}
	p.lastWrites = append(p.lastWrites, timedWrite{Write: wr, base: base})
	nw, nb := string(mustJSON(norm(wr.Object))), string(mustJSON(norm(base)))
	for _, w := range p.writes {
		if string(mustJSON(norm(w.Object))) == nw && string(mustJSON(norm(w.base))) == nb {
			return
		}
	}
	// The latest distinct writes: an old one drops out.
	p.writes = append(p.writes, timedWrite{Write: wr, base: base})
	if len(p.writes) > 8 {
		p.writes = p.writes[1:]
	}
}

// timedExplains reports whether the world of the controllers with memory
// predicted the observed change c: a write of c's verb to c's object,
// predicted by a sync no earlier than the controller's allowance before c,
// that sets every field c changed as c leaves it; for a node's change, also
// a write the world, synced on from the state right before c, makes within
// the node lifecycle controller's allowance after c.
func (s *shadow) timedExplains(c *change) (string, bool) {
	tw := s.timed
	if tw == nil {
		return "", false
	}
	for _, p := range tw.preds {
		if p.key != c.key || p.last.Before(c.at.Add(-timedAllowance[p.ctl]-s.o.lag)) {
			continue
		}
		for i := range p.writes {
			if timedMakes(c, &p.writes[i]) {
				return p.ctl, true
			}
		}
	}
	return "", false
}

// timedAhead syncs a copy of the world of the controllers with memory, as
// it was before it saw the node's change c, on from the state right before
// c, every 250 ms for nodeLookAhead, and reports whether it makes c.
func (s *shadow) timedAhead(c *change) (string, bool) {
	tw := s.timed
	if tw == nil || c.key.Kind != cluster.KindNode {
		return "", false
	}
	var from *cluster.World
	for _, sn := range tw.snaps {
		if sn.seq < c.seq {
			from = sn.w
		}
	}
	if from == nil {
		return "", false
	}
	st := s.stateAt(c.seq-1, "")
	if c.before == nil {
		delete(st, c.key)
	} else {
		st[c.key] = c.before
	}
	w := from.Clone()
	w.State = stateOf(st)
	for t := c.at; !t.After(c.at.Add(nodeLookAhead)); t = t.Add(250 * time.Millisecond) {
		pre := w.State.Clone()
		for _, d := range w.ForceSync(t) {
			cur := map[cluster.Key]any{}
			for i := range d.Writes {
				wr := d.Writes[i]
				k, ok := writeKey(&wr)
				if !ok {
					continue
				}
				base, seen := cur[k]
				if !seen {
					base = pre.Get(k)
				}
				if k == c.key && timedMakes(c, &timedWrite{Write: wr, base: base}) {
					return d.Controller, true
				}
				if wr.Verb == plan.VerbDelete {
					cur[k] = nil
				} else if wr.Object != nil {
					cur[k] = wr.Object
				}
			}
		}
	}
	return "", false
}

func timedMakes(c *change, wr *timedWrite) bool {
	switch c.what {
	case "delete":
		return wr.Verb == plan.VerbDelete
	case "create":
		return false
	}
	if wr.Verb == plan.VerbDelete || wr.Verb == plan.VerbCreate || wr.Object == nil {
		return false
	}
	na := norm(c.after.model)
	d := diffPaths(norm(c.before.model), na, nil)
	if len(d) == 0 {
		return false
	}
	np := norm(wr.Object)
	for _, q := range d {
		if q.under("spec", "taints") {
			if !taintsMade(get(norm(c.before.model), q), get(na, q), get(norm(wr.base), q), get(np, q)) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(get(np, q), get(na, q)) {
			return false
		}
	}
	return true
}

// taintsMade reports whether a predicted taint write (from the taints base
// to pred) makes the observed change of a node's taints from before to
// after: every taint the change adds the write adds, every taint it
// removes the write removes. A taint patch adds or removes taints on the
// node as the API server has it, which another writer may have changed
// since the prediction (the node lifecycle controller's NoSchedule and
// NoExecute taints come from two workers): taints are compared one by one,
// by key, value and effect, not as a list.
func taintsMade(before, after, base, pred any) bool {
	b, a, pb, p := taintSet(before), taintSet(after), taintSet(base), taintSet(pred)
	changed := false
	for t := range a {
		if !b[t] {
			changed = true
			if !p[t] || pb[t] {
				return false
			}
		}
	}
	for t := range b {
		if !a[t] {
			changed = true
			if p[t] || !pb[t] {
				return false
			}
		}
	}
	return changed
}

// taintSet is a normalized taint list as a set of key=value:effect.
func taintSet(v any) map[string]bool {
	out := map[string]bool{}
	list, _ := v.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out[fmt.Sprint(m["key"], "=", m["value"], ":", m["effect"])] = true
		}
	}
	return out
}

// timedLines lists what the world of the controllers with memory predicted
// for key k in the window before at, for a mismatch report.
func (s *shadow) timedLines(k cluster.Key, at time.Time) []string {
	if s.timed == nil {
		return nil
	}
	var out []string
	for _, p := range s.timed.preds {
		if p.key == k && !p.last.Before(at.Add(-timedAllowance[p.ctl]-s.o.lag)) {
			for _, wr := range p.writes {
				l := fmt.Sprintf("%s (with memory, predicted %s–%s): %s %s%s (%s)", p.ctl,
					p.first.UTC().Format(time.RFC3339Nano), p.last.UTC().Format(time.RFC3339Nano), wr.Verb, wr.Resource, subresource(wr.Subresource), wr.Reason)
				if k.Kind == cluster.KindNode && wr.Object != nil {
					l += fmt.Sprintf(", taints %v → %v", sortedKeys(taintSet(get(norm(wr.base), path{"spec", "taints"}))), sortedKeys(taintSet(get(norm(wr.Object), path{"spec", "taints"}))))
				}
				out = append(out, l)
			}
		}
	}
	sort.Strings(out)
	return out
}

// timedMissing reports the writes the world of the controllers with memory
// first predicted more than the controller's allowance and a window ago
// that the cluster still lacks, when the world as it was before that
// prediction, synced now on the objects held, still makes them.
func (s *shadow) timedMissing(now time.Time) {
	tw := s.timed
	if tw == nil {
		return
	}
	sigs := make([]string, 0, len(tw.preds))
	for sig := range tw.preds {
		sigs = append(sigs, sig)
	}
	sort.Strings(sigs)
	var st *cluster.State
	for _, sig := range sigs {
		p := tw.preds[sig]
		if p.checked || p.before == nil || now.Sub(p.first) < timedAllowance[p.ctl]+s.o.window {
			continue
		}
		p.checked = true
		if st == nil {
			st = s.worldState()
		}
		var wr *plan.Write
		for i := range p.lastWrites {
			if w := onCurrent(&p.lastWrites[i], st.Get(p.key)); observable(w, p.key, st) {
				wr = w
				break
			}
		}
		if wr == nil {
			continue
		}
		w := p.before.Clone()
		w.State = st.Clone()
		still := false
		for _, d := range w.ForceSync(now) {
			for i := range d.Writes {
				if k, ok := writeKey(&d.Writes[i]); ok && d.Controller+" "+writeSig(&d.Writes[i], k) == sig {
					still = true
				}
			}
		}
		if !still {
			continue
		}
		held := map[cluster.Key]*item{}
		for k, it := range s.state {
			held[k] = it
		}
		s.mismatch(mismatch{kind: "missing", at: now, st: held, ws: []*plan.Write{wr}, wsKeys: []cluster.Key{p.key},
			ctl: p.ctl, obj: p.key, ns: p.key.Namespace,
			note: []string{fmt.Sprintf("first predicted at %s (the %s controller's allowance is %v)", p.first.UTC().Format(time.RFC3339Nano), p.ctl, timedAllowance[p.ctl])}})
	}
}

// onCurrent is a predicted write as it would apply to the object as it is
// now (cur): a taint write's taints are the current ones with those the
// write adds added and those it removes removed (a taint patch applies to
// the node as the API server has it).
func onCurrent(tw *timedWrite, cur any) *plan.Write {
	w := tw.Write
	if tw.Verb == plan.VerbDelete || tw.Object == nil || cur == nil || tw.base == nil {
		return &w
	}
	np, nb, nc := norm(tw.Object), norm(tw.base), norm(cur)
	p, b, c := taintSet(get(np, path{"spec", "taints"})), taintSet(get(nb, path{"spec", "taints"})), taintSet(get(nc, path{"spec", "taints"}))
	if len(p) == 0 && len(b) == 0 {
		return &w
	}
	for t := range c {
		if b[t] && !p[t] {
			return &w // a taint the write removes is still there
		}
	}
	for t := range p {
		if !b[t] && !c[t] {
			return &w // a taint the write adds is not there yet
		}
	}
	// The taints are as the write leaves them: compare the rest.
	w.Object = withTaintsOf(tw.Object, cur)
	return &w
}

// withTaintsOf is the node obj with the taints of the node cur.
func withTaintsOf(obj, cur any) any {
	n, ok1 := obj.(*node.Node)
	c, ok2 := cur.(*node.Node)
	if !ok1 || !ok2 {
		return obj
	}
	out := *n
	out.Spec.Taints = c.Spec.Taints
	return &out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
