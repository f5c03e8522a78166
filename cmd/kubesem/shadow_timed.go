package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// Controllers with memory. The node lifecycle controller (when it last saw
// each node alive, its zones' tainting queues and rate limiters), the
// taint-eviction controller (the evictions it has scheduled, and when) and
// the pod garbage collector (its quarantine of missing nodes) decide from
// what they remember as much as from the objects: a world built afresh from
// the objects at each prediction is those controllers right after a
// restart, which do nothing for 50 s (node monitor grace period), the
// tolerationSeconds of a pod, or 40 s (quarantine). Shadow runs them
// itself instead, on every state it observes: at each change of a node or
// pod and at each tick, one pass of the controller's package Step over the
// objects it holds, its memory carried from pass to pass. Every write a
// pass predicts is kept for a while; a controller's write the world does
// not explain is explained when one of these passes predicted it in the
// timed controller's allowance before it (shadow's passes run more often
// than the controller's, so they predict its periodic writes first: by up
// to its period, twice, for the memory of a probe or a quarantine entry
// set at one of its passes; the pod GC's delaying queue may hand a node
// back one period later still).

// timedCtl is one controller with memory as shadow runs it.
type timedCtl struct {
	name string
	// allowance is how long after shadow's pass first predicted a write the
	// controller may make it.
	allowance time.Duration
	// early is how much earlier than shadow the controller may have seen
	// a change (the latency of shadow's watch): the pass right after a
	// change runs that much before it, so that a timer it starts fires no
	// later than the controller's.
	early time.Duration
	// pass runs one pass at now from memory mem, returning the writes and
	// the memory after it.
	pass func(in *timedInput, mem any, now time.Time) ([]plan.Write, any, error)
	mem  any
	// preds are the writes predicted recently, by signature.
	preds map[string]*timedPred
	err   string
}

// timedPred is one predicted write: when passes first and last predicted
// it, the distinct objects they predicted, and the memory the first pass
// started from (a missing write is predicted again from it).
type timedPred struct {
	sig         string
	key         cluster.Key
	first, last time.Time
	// writes are the distinct writes predicted, each with the object as
	// the pass had it before the write.
	writes []timedWrite
	// lastWrites are the writes of the signature the last pass predicted.
	lastWrites []timedWrite
	lastPass   time.Time
	memBefore  any
	checked    bool
}

// timedWrite is a predicted write and the object before it.
type timedWrite struct {
	plan.Write
	base any
}

// timedInput is what the controllers with memory read: every node, node
// lease and pod shadow holds.
type timedInput struct {
	nodes  []*node.Node
	leases []node.Lease
	pods   []*podstatus.Pod
}

func (s *shadow) timedInput() *timedInput {
	in := &timedInput{}
	for k, it := range s.state {
		switch x := it.model.(type) {
		case *node.Node:
			in.nodes = append(in.nodes, x)
		case *node.Lease:
			if k.Namespace == leaseNamespace {
				in.leases = append(in.leases, *x)
			}
		case *podstatus.Pod:
			in.pods = append(in.pods, x)
		}
	}
	sort.Slice(in.nodes, func(i, j int) bool { return in.nodes[i].Name < in.nodes[j].Name })
	sort.Slice(in.leases, func(i, j int) bool { return in.leases[i].Name < in.leases[j].Name })
	sort.Slice(in.pods, func(i, j int) bool {
		if in.pods[i].Namespace != in.pods[j].Namespace {
			return in.pods[i].Namespace < in.pods[j].Namespace
		}
		return in.pods[i].Name < in.pods[j].Name
	})
	return in
}

// newTimedCtls returns the three controllers with memory, their memory
// reconstructed from the objects of in at now (shadow's start): each node
// known, last seen alive at its lease's renewal or its Ready heartbeat,
// whichever is later (not after now); each pod on a node with NoExecute
// taints with its eviction scheduled from the later of the newest such
// taint's timeAdded and the pod's creation; no node in quarantine.
func newTimedCtls(in *timedInput, now time.Time, opts cluster.Options) []*timedCtl {
	nodeMem := node.Memory{Nodes: map[string]node.Health{}}
	leases := map[string]node.Lease{}
	for _, l := range in.leases {
		leases[l.Name] = l
	}
	for _, n := range in.nodes {
		h := node.Health{Known: true}
		if c, ok := n.Condition(node.Ready); ok {
			t := c.LastHeartbeatTime
			h.ReadyHeartbeat, h.ProbeTime = &t, t
		}
		if l, ok := leases[n.Name]; ok {
			l := l
			h.Lease = &l
			if r := l.Spec.RenewTime; r != nil && r.After(h.ProbeTime) {
				h.ProbeTime = *r
			}
		}
		if h.ProbeTime.IsZero() || h.ProbeTime.After(now) {
			h.ProbeTime = now
		}
		nodeMem.Nodes[n.Name] = h
		nodeMem.Known = append(nodeMem.Known, n.Name)
	}
	sort.Strings(nodeMem.Known)

	evictMem := taintMemory{}
	for _, n := range in.nodes {
		taints := noExecuteTaints(n.Spec.Taints)
		if len(taints) == 0 {
			continue
		}
		var since time.Time
		for _, t := range taints {
			if t.TimeAdded != nil && t.TimeAdded.After(since) {
				since = *t.TimeAdded
			}
		}
		seen := taintSeen{taints: taints, pods: map[string]podSeen{}}
		var scheduled []node.ScheduledEviction
		for _, p := range podsOnNode(in.pods, n.Name) {
			seen.pods[p.Name] = podSeen{uid: p.UID, tolerations: p.Spec.Tolerations}
			start := since
			if p.CreationTimestamp.After(start) {
				start = p.CreationTimestamp
			}
			if start.IsZero() || start.After(now) {
				start = now
			}
			if ep, err := node.EvictionStep(n, []*podstatus.Pod{p}, nil, start, opts.Node); err == nil {
				scheduled = append(scheduled, ep.Memory...)
			}
		}
		evictMem[n.Name] = taintNode{seen: seen, evictions: scheduled}
	}

	return []*timedCtl{
		{name: cluster.CtlNode, allowance: 2 * node.DefaultNodeMonitorPeriod, mem: nodeMem,
			pass: func(in *timedInput, mem any, now time.Time) ([]plan.Write, any, error) {
				p, err := node.Step(in.nodes, in.leases, in.pods, mem.(node.Memory), now, opts.Node)
				if err != nil {
					return nil, mem, err
				}
				ws, err := p.Writes(in.nodes, in.pods, now)
				return ws, p.Memory, err
			}},
		{name: cluster.CtlTaintEvictor, allowance: time.Second, early: watchLatency, mem: evictMem,
			pass: func(in *timedInput, mem any, now time.Time) ([]plan.Write, any, error) {
				return taintEvictionPass(in, mem.(taintMemory), now, opts.Node)
			}},
		{name: cluster.CtlPodGC, allowance: 3 * podGCPeriod, mem: podgc.Memory{},
			pass: func(in *timedInput, mem any, now time.Time) ([]plan.Write, any, error) {
				p, err := podgc.Step(in.pods, in.nodes, nil, mem.(podgc.Memory), now, opts.PodGC)
				if err != nil {
					return nil, mem, err
				}
				ws, err := p.Writes(in.pods)
				return ws, p.Memory, err
			}},
	}
}

// watchLatency is how much earlier than shadow a controller may see a
// change.
const watchLatency = 500 * time.Millisecond

// podGCPeriod is how often the pod garbage collector runs (upstream
// podgc gcCheckPeriod).
const podGCPeriod = 20 * time.Second

func podsOnNode(pods []*podstatus.Pod, name string) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, p := range pods {
		if p.Spec.NodeName == name {
			out = append(out, p)
		}
	}
	return out
}

func noExecuteTaints(ts []node.Taint) []node.Taint {
	var out []node.Taint
	for _, t := range ts {
		if t.Effect == node.NoExecute {
			out = append(out, t)
		}
	}
	return out
}

// taintMemory is the taint-eviction controller's memory per node: what it
// last saw of the node (its NoExecute taints, each pod's UID and
// tolerations) and the evictions it has scheduled.
type taintMemory map[string]taintNode

type taintNode struct {
	seen      taintSeen
	evictions []node.ScheduledEviction
}

type taintSeen struct {
	taints []node.Taint
	pods   map[string]podSeen
}

type podSeen struct {
	uid         string
	tolerations []podstatus.Toleration
}

// taintEvictionPass is the taint-eviction controller at now over every
// node with NoExecute taints, with evictions scheduled, or whose taints it
// last saw: node.EvictionStep is given the pods the controller's informer
// handlers would make it process — every pod of the node when its NoExecute
// taints changed since it last looked, else new pods, pods whose
// tolerations changed and pods whose eviction is due (as the world of
// package cluster runs it).
func taintEvictionPass(in *timedInput, mem taintMemory, now time.Time, opts node.Options) ([]plan.Write, any, error) {
	next := taintMemory{}
	var writes []plan.Write
	for _, n := range in.nodes {
		old, known := mem[n.Name]
		taints := noExecuteTaints(n.Spec.Taints)
		if !known && len(taints) == 0 {
			continue
		}
		all := podsOnNode(in.pods, n.Name)
		full := !known || !sameList(old.seen.taints, taints)
		due := map[string]bool{}
		for _, e := range old.evictions {
			if !e.FireAt.After(now) {
				due[e.Pod] = true
			}
		}
		seen := taintSeen{taints: taints, pods: make(map[string]podSeen, len(all))}
		present := map[string]bool{}
		var pods []*podstatus.Pod
		for _, p := range all {
			ps, ok := old.seen.pods[p.Name]
			present[p.Name] = !ok || ps.uid == p.UID
			seen.pods[p.Name] = podSeen{uid: p.UID, tolerations: p.Spec.Tolerations}
			if full || !ok || ps.uid != p.UID || !sameList(ps.tolerations, p.Spec.Tolerations) || due[p.Name] {
				pods = append(pods, p)
			}
		}
		var scheduled []node.ScheduledEviction
		for _, e := range old.evictions {
			if present[e.Pod] {
				scheduled = append(scheduled, e)
			}
		}
		p, err := node.EvictionStep(n, pods, scheduled, now, opts)
		if err != nil {
			return nil, mem, err
		}
		ws, err := p.Writes(n, pods, now)
		if err != nil {
			return nil, mem, err
		}
		writes = append(writes, ws...)
		if len(taints) > 0 || len(p.Memory) > 0 {
			next[n.Name] = taintNode{seen: seen, evictions: p.Memory}
		}
	}
	return writes, next, nil
}

// sameList is apimachinery's semantic equality of two lists: nil and
// empty are equal.
func sameList[T any](a, b []T) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// timedPasses runs one pass of each controller with memory at now and
// records the writes it predicts. After a change (afterChange), a
// controller that may have seen it earlier runs its pass that much before
// now.
func (s *shadow) timedPasses(now time.Time, afterChange bool) {
	if s.timed == nil {
		return
	}
	in := s.timedInput()
	for _, tc := range s.timed {
		before := tc.mem
		at := now
		if afterChange {
			at = now.Add(-tc.early)
		}
		ws, mem, err := tc.pass(in, tc.mem, at)
		if err != nil {
			if msg := err.Error(); msg != tc.err {
				tc.err = msg
				fmt.Fprintf(s.out, "shadow: warning: the %s controller's pass: %v\n", tc.name, err)
			}
			continue
		}
		tc.err = ""
		tc.mem = mem
		// The object each write finds: as held, then as the pass's earlier
		// writes leave it.
		cur := map[cluster.Key]any{}
		for i := range ws {
			k, ok := writeKey(&ws[i])
			if !ok {
				continue
			}
			base, seen := cur[k]
			if !seen {
				if it := s.state[k]; it != nil {
					base = it.model
				}
			}
			tc.record(ws[i], base, before, at)
			if ws[i].Verb == plan.VerbDelete {
				cur[k] = nil
			} else if ws[i].Object != nil {
				cur[k] = ws[i].Object
			}
		}
		for sig, p := range tc.preds {
			if now.Sub(p.last) > tc.allowance+2*s.o.window {
				delete(tc.preds, sig)
			}
		}
	}
}

func writeSig(wr *plan.Write, k cluster.Key) string {
	return string(wr.Verb) + " " + wr.Resource + subresource(wr.Subresource) + " " + objectPath(k)
}

func (tc *timedCtl) record(wr plan.Write, base, memBefore any, now time.Time) {
	k, ok := writeKey(&wr)
	if !ok {
		return
	}
	sig := writeSig(&wr, k)
	if tc.preds == nil {
		tc.preds = map[string]*timedPred{}
	}
	p := tc.preds[sig]
	if p == nil {
		p = &timedPred{sig: sig, key: k, first: now, memBefore: memBefore}
		tc.preds[sig] = p
	}
	p.last = now
	if !p.lastPass.Equal(now) {
		p.lastPass, p.lastWrites = now, nil
	}
	p.lastWrites = append(p.lastWrites, timedWrite{Write: wr, base: base})
	nw, nb := mustJSON(norm(wr.Object)), mustJSON(norm(base))
	for _, w := range p.writes {
		if string(mustJSON(norm(w.Object))) == string(nw) && string(mustJSON(norm(w.base))) == string(nb) {
			return
		}
	}
	if len(p.writes) < 8 {
		p.writes = append(p.writes, timedWrite{Write: wr, base: base})
	}
}

// timedExplains reports whether a controller with memory predicted the
// observed change c: a write of c's verb to c's object, predicted by a
// pass no earlier than the controller's allowance before c, that sets
// every field c changed as c leaves it.
func (s *shadow) timedExplains(c *change) (string, bool) {
	for _, tc := range s.timed {
		for _, p := range tc.preds {
			if p.key != c.key || p.last.Before(c.at.Add(-tc.allowance-s.o.lag)) {
				continue
			}
			for i := range p.writes {
				if timedMakes(c, &p.writes[i]) {
					return tc.name, true
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
	set := func(v any) map[string]bool {
		out := map[string]bool{}
		list, _ := v.([]any)
		for _, e := range list {
			if m, ok := e.(map[string]any); ok {
				out[fmt.Sprint(m["key"], "=", m["value"], ":", m["effect"])] = true
			}
		}
		return out
	}
	b, a, pb, p := set(before), set(after), set(base), set(pred)
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

// timedLines lists what the controllers with memory predicted for key k
// in the window before at, for a mismatch report.
func (s *shadow) timedLines(k cluster.Key, at time.Time) []string {
	var out []string
	for _, tc := range s.timed {
		for _, p := range tc.preds {
			if p.key == k && !p.last.Before(at.Add(-tc.allowance-s.o.lag)) {
				for _, wr := range p.writes {
					out = append(out, fmt.Sprintf("%s (with memory, predicted %s–%s): %s %s%s (%s)", tc.name,
						p.first.UTC().Format(time.RFC3339Nano), p.last.UTC().Format(time.RFC3339Nano), wr.Verb, wr.Resource, subresource(wr.Subresource), wr.Reason))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// timedMissing reports the writes a controller with memory was predicted
// to make more than its allowance and a window ago that the cluster still
// lacks, when a pass from the memory of the first prediction, over the
// objects now, still makes them.
func (s *shadow) timedMissing(now time.Time) {
	if s.timed == nil {
		return
	}
	var in *timedInput
	for _, tc := range s.timed {
		sigs := make([]string, 0, len(tc.preds))
		for sig := range tc.preds {
			sigs = append(sigs, sig)
		}
		sort.Strings(sigs)
		for _, sig := range sigs {
			p := tc.preds[sig]
			if p.checked || now.Sub(p.first) < tc.allowance+s.o.window {
				continue
			}
			p.checked = true
			pre := cluster.NewState()
			if it := s.state[p.key]; it != nil {
				if err := pre.Put(it.model); err != nil {
					continue
				}
			}
			var wr *plan.Write
			for i := range p.lastWrites {
				if w := onCurrent(&p.lastWrites[i], pre.Get(p.key)); observable(w, p.key, pre) {
					wr = w
					break
				}
			}
			if wr == nil {
				continue
			}
			if in == nil {
				in = s.timedInput()
			}
			ws, _, err := tc.pass(in, p.memBefore, now)
			if err != nil {
				continue
			}
			still := false
			for i := range ws {
				if k, ok := writeKey(&ws[i]); ok && writeSig(&ws[i], k) == sig {
					still = true
				}
			}
			if !still {
				continue
			}
			st := map[cluster.Key]*item{}
			for k, it := range s.state {
				st[k] = it
			}
			ns := p.key.Namespace
			s.mismatch(mismatch{kind: "missing", at: now, st: st, ws: []*plan.Write{wr}, wsKeys: []cluster.Key{p.key},
				ctl: tc.name, obj: p.key, ns: ns, note: []string{fmt.Sprintf("first predicted at %s (the controller's allowance is %v)", p.first.UTC().Format(time.RFC3339Nano), tc.allowance)}})
		}
	}
}

// onCurrent is a predicted write as it would apply to the object as it is
// now: a node's taints are the current ones with the taints the write adds
// added and those it removes removed (a taint patch applies to the node as
// the API server has it).
func onCurrent(tw *timedWrite, cur any) *plan.Write {
	w := tw.Write
	pn, ok1 := tw.Object.(*node.Node)
	bn, ok2 := tw.base.(*node.Node)
	cn, ok3 := cur.(*node.Node)
	if !ok1 || !ok2 || !ok3 {
		return &w
	}
	id := func(t node.Taint) string { return t.Key + "=" + t.Value + ":" + string(t.Effect) }
	in := func(ts []node.Taint, t node.Taint) bool {
		for _, x := range ts {
			if id(x) == id(t) {
				return true
			}
		}
		return false
	}
	var taints []node.Taint
	for _, t := range cn.Spec.Taints {
		if !in(bn.Spec.Taints, t) || in(pn.Spec.Taints, t) {
			taints = append(taints, t)
		}
	}
	for _, t := range pn.Spec.Taints {
		if !in(bn.Spec.Taints, t) && !in(taints, t) {
			taints = append(taints, t)
		}
	}
	n := *pn
	n.Spec.Taints = taints
	if sameTaintSet(taints, cn.Spec.Taints) {
		n.Spec.Taints = cn.Spec.Taints
	}
	w.Object = &n
	return &w
}

func sameTaintSet(a, b []node.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]bool{}
	for _, t := range a {
		m[t.Key+"="+t.Value+":"+string(t.Effect)] = true
	}
	for _, t := range b {
		if !m[t.Key+"="+t.Value+":"+string(t.Effect)] {
			return false
		}
	}
	return true
}

// memoryJSON is a controller's memory for a saved mismatch.
func memoryJSON(tc *timedCtl) json.RawMessage {
	switch m := tc.mem.(type) {
	case taintMemory:
		out := map[string][]node.ScheduledEviction{}
		for n, tn := range m {
			out[n] = tn.evictions
		}
		return mustJSON(out)
	default:
		b, _ := json.Marshal(m)
		return b
	}
}
