package check

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// The canonical form of a world, hashed. Two worlds with the same hash are
// explored once. What the form leaves out or rewrites:
//
//   - names the API server generated (a ReplicaSet's or Job's pods, a
//     DaemonSet's) and every UID: a path that creates the same pods in
//     another order gives them other names and UIDs. Generated names are
//     renamed by the sorted content of their objects (canonical renaming),
//     UIDs by the object they name.
//   - node names, with symmetry on: nodes are renamed by the sorted
//     content of the node, its lease, its timers, the controllers' memory
//     of it and the pods bound to it, so that nodes (and the pods on them)
//     that differ only by name are one.
//   - the State's counter (a resourceVersion-like sequence).
//   - absolute time: each instant is read relative to the world's now;
//     instants older than the time cap keep only their order. With a
//     CronJob in the world (its schedule reads the wall clock), instants
//     are kept as they are.
//
// Symmetry is a reduction of the world's own semantics, which break ties
// by name (the scheduler's equally loaded nodes, equally ranked pods): of
// two states that differ only by names, one is explored, so the tie the
// world breaks one way in it stands for the tie broken the other way.

// canon computes canonical hashes, caching each stored object's shape
// for two generations (the explorer ages it at each level of its search:
// a state shares most of its objects with its parent, rarely with states
// far from it).
type canon struct {
	cache    map[any]*shape
	old      map[any]*shape
	symmetry bool
	cap      time.Duration
	absolute bool
	// scratch is the buffer shapes are walked into (see shapeInto).
	scratch shape
	// pool is the clocks' pool of mapRange's values (see mapRange).
	pool map[reflect.Type]*mapSlot
	// views holds the working lists and maps of view, emptied and reused
	// by the next (none of them outlives its view).
	views viewScratch
}

// viewScratch is view's working storage.
type viewScratch struct {
	items     []item
	nodes     []int
	gens      []int
	ren       renames
	nodeNames map[string]bool
	podsOn    map[string][]uint64
	leases    map[string]*item
	box       boxes
}

// reset empties the lists and maps for a view, making the maps on first
// use.
func (s *viewScratch) reset() {
	clear(s.items) // (drop the references to the last world's objects)
	s.items, s.nodes, s.gens = s.items[:0], s.nodes[:0], s.gens[:0]
	if s.ren.m == nil {
		s.ren.m, s.nodeNames, s.podsOn, s.leases = map[uint64]renamed{}, map[string]bool{}, map[string][]uint64{}, map[string]*item{}
		return
	}
	s.ren.reset()
	clear(s.nodeNames)
	for n, sigs := range s.podsOn { // (emptied, their arrays kept)
		s.podsOn[n] = sigs[:0]
	}
	clear(s.leases)
}

// podName is a pod's namespace and name.
type podName struct{ namespace, name string }

// view is a world's canonical hash and the classes of its pods and nodes:
// two pods (nodes) of one class are interchangeable.
type view struct {
	mem       cluster.Memory // the world's, read once per state
	hash      uint64
	podClass  map[podName]uint64
	nodeClass map[string]uint64
}

const cacheLimit = 1 << 18

func newCanon(symmetry bool, cap time.Duration, absolute bool) *canon {
	return &canon{cache: map[any]*shape{}, symmetry: symmetry, cap: cap, absolute: absolute}
}

func (c *canon) shape(o any) *shape {
	if s, ok := c.cache[o]; ok {
		return s
	}
	s, ok := c.old[o]
	if !ok {
		s = shapeInto(o, &c.scratch)
		m := metaOf(o)
		s.nameH, s.uidH = hashOf(m.Name), hashOf(m.UID)
	}
	if len(c.cache) >= cacheLimit {
		c.age()
	}
	c.cache[o] = s
	return s
}

// age starts a new generation of the cache, dropping the oldest.
func (c *canon) age() {
	c.old, c.cache = c.cache, make(map[any]*shape, len(c.cache))
}

// clock reads instants relative to now.
type clock struct {
	now      time.Time
	cap      time.Duration
	absolute bool
	old      []time.Time // instants before now-cap, sorted, unique
	// pool holds mapRange's working values by map type (nil: none).
	pool map[reflect.Type]*mapSlot
	// box holds values direct reads in place (see directIn; nil: none
	// yet).
	box *boxes
}

const (
	tZero uint64 = 0x5a5a5a5a5a5a5a5a
	tOld  uint64 = 0x0123456789abcdef
)

func (k *clock) at(t time.Time) uint64 {
	switch {
	case t.IsZero():
		return tZero
	case k.absolute:
		return uint64(t.UnixNano())
	}
	d := t.Sub(k.now)
	if d >= -k.cap {
		return uint64(d)
	}
	i, _ := slices.BinarySearchFunc(k.old, t, func(a, b time.Time) int { return a.Compare(b) })
	return mix(tOld, uint64(i))
}

func (k *clock) note(ts []time.Time) {
	for _, t := range ts {
		k.noteOne(t)
	}
}

func (k *clock) noteOne(t time.Time) {
	if !t.IsZero() && t.Sub(k.now) < -k.cap {
		k.old = append(k.old, t)
	}
}

func (k *clock) done() {
	slices.SortFunc(k.old, func(a, b time.Time) int { return a.Compare(b) })
	k.old = slices.CompactFunc(k.old, func(a, b time.Time) bool { return a.Equal(b) })
}

// renames maps strings to tokens, keyed by the strings' hashes (hashOf,
// which shapes keep): a lookup hashes no string, and compares strings
// only on a hit. Exact: a string whose hash is another's key is looked
// up in more, which holds the strings whose hash an other string took
// first. bits has bit h%1024 set for each key h: most strings of an
// object are not renamed, and most of those are told so by their bit.
type renames struct {
	m    map[uint64]renamed
	more map[string]uint64
	bits [16]uint64
}

type renamed struct {
	s   string
	tok uint64
}

// set maps s (of hash h) to tok.
func (r *renames) set(s string, h uint64, tok uint64) {
	r.bits[h>>6&15] |= 1 << (h & 63)
	if e, ok := r.m[h]; ok && e.s != s {
		if r.more == nil {
			r.more = map[string]uint64{}
		}
		r.more[s] = tok
		return
	}
	r.m[h] = renamed{s, tok}
}

// get returns the token of s (of hash h).
func (r *renames) get(s string, h uint64) (uint64, bool) {
	if r.bits[h>>6&15]&(1<<(h&63)) == 0 {
		return 0, false
	}
	e, ok := r.m[h]
	switch {
	case !ok:
		return 0, false
	case e.s == s:
		return e.tok, true
	case r.more == nil:
		return 0, false
	}
	t, ok := r.more[s]
	return t, ok
}

func (r *renames) reset() {
	clear(r.m)
	r.more = nil
	r.bits = [16]uint64{}
}

// renamer maps strings to tokens; self, when set, maps an object's own
// name and UID (selfNameH, selfIDH: their hashes).
type renamer struct {
	m                  *renames
	selfName, selfID   string
	selfNameH, selfIDH uint64
	selfTok            uint64
}

// setSelf makes the name and UID of the object of shape sh self.
func (r *renamer) setSelf(m *meta.ObjectMeta, sh *shape, tok uint64) {
	r.selfName, r.selfID, r.selfNameH, r.selfIDH, r.selfTok = m.Name, m.UID, sh.nameH, sh.uidH, tok
}

// str returns the token of s (of hash hs): its own when self, the
// renamed one, else its hash.
func (r *renamer) str(s string, hs uint64) uint64 {
	if r.selfTok != 0 && (hs == r.selfNameH || hs == r.selfIDH) && s != "" {
		switch s {
		case r.selfName:
			return r.selfTok
		case r.selfID:
			return r.selfTok + 1
		}
	}
	if t, ok := r.m.get(s, hs); ok {
		return t
	}
	return hs
}

func (r *renamer) hash(sh *shape, k *clock) uint64 {
	h := sh.sum
	for i, hs := range sh.strH {
		h = mix(h, r.str(sh.strs[i], hs))
	}
	for _, t := range sh.times {
		h = mix(h, k.at(t))
	}
	return final(h)
}

// item is one stored object with what the canonical form needs of it.
type item struct {
	obj  any
	kind cluster.Kind
	m    *meta.ObjectMeta
	sh   *shape
	gen  bool // its name was generated
	sig  uint64
}

// generated reports whether m's name was completed from generateName.
func generated(m *meta.ObjectMeta) bool {
	return m.GenerateName != "" && len(m.Name) > len(m.GenerateName) && strings.HasPrefix(m.Name, m.GenerateName)
}

// view computes w's canonical hash and classes.
func (c *canon) view(w *cluster.World) view {
	objs := w.State.Objects()
	sc := &c.views
	sc.reset()
	items := slices.Grow(sc.items, len(objs))
	if c.pool == nil {
		c.pool = map[reflect.Type]*mapSlot{}
	}
	k := &clock{now: w.Now, cap: c.cap, absolute: c.absolute, pool: c.pool, box: &c.views.box}
	mem := w.Memory()
	for _, o := range objs {
		kind, _ := cluster.KindOf(o)
		m := metaOf(o)
		it := item{obj: o, kind: kind, m: m, sh: c.shape(o), gen: generated(m)}
		k.note(it.sh.times)
		items = append(items, it)
	}
	if !c.absolute {
		memTimes(reflect.ValueOf(mem), k)
		for _, e := range mem.Events {
			k.noteOne(w.Start.Add(e.At))
		}
	}
	k.done()

	// Tokens of objects with names of their own: their UID names them.
	ren := &sc.ren
	nodes := sc.nodes
	nodeNames := sc.nodeNames
	for i := range items {
		if items[i].kind == cluster.KindNode {
			nodes = append(nodes, i)
			nodeNames[items[i].m.Name] = true
		}
	}
	for i := range items {
		it := &items[i]
		// With symmetry, the UIDs of nodes and of objects named after
		// them (their leases) get their tokens once nodes have theirs.
		if !it.gen && it.m.UID != "" && !(c.symmetry && nodeNames[it.m.Name]) {
			ren.set(it.m.UID, it.sh.uidH, mix(mix(hashOf("uid"), hashOf(string(it.kind))), mix(hashOf(it.m.Namespace), it.sh.nameH)))
		}
	}
	genTok := hashOf("\x00generated")
	nodeTok := hashOf("\x00node")
	base := &renamer{m: ren}
	// sig0: a generated object's content without its own name, node
	// names and other generated names taken as one.
	for i := range items {
		if items[i].gen {
			it := &items[i]
			ren.set(it.m.Name, it.sh.nameH, genTok)
			ren.set(it.m.UID, it.sh.uidH, genTok)
		}
	}
	if c.symmetry {
		for _, i := range nodes {
			ren.set(items[i].m.Name, items[i].sh.nameH, nodeTok)
		}
	}
	podsOn := sc.podsOn
	for i := range items {
		it := &items[i]
		if it.kind != cluster.KindPod {
			continue
		}
		r := *base
		if it.gen {
			r.setSelf(it.m, it.sh, hashOf("\x00self"))
		}
		it.sig = r.hash(it.sh, k)
		if p := it.obj.(*podstatus.Pod); p.Spec.NodeName != "" {
			podsOn[p.Spec.NodeName] = append(podsOn[p.Spec.NodeName], it.sig)
		}
	}
	// Nodes: by content (with symmetry), else by name.
	v := view{mem: mem, podClass: map[podName]uint64{}, nodeClass: map[string]uint64{}}
	if c.symmetry {
		leases := sc.leases
		for i := range items {
			if items[i].kind == cluster.KindLease {
				leases[items[i].m.Name] = &items[i]
			}
		}
		self := hashOf("\x00self")
		for _, i := range nodes {
			it := &items[i]
			r := *base
			r.setSelf(it.m, it.sh, self)
			h := r.hash(it.sh, k)
			if l := leases[it.m.Name]; l != nil {
				lr := *base
				lr.setSelf(l.m, l.sh, self)
				h = mix(h, lr.hash(l.sh, k))
			}
			h = mix(h, nodeMemory(mem, it.m.Name, &r, k))
			sigs := podsOn[it.m.Name]
			slices.Sort(sigs)
			for _, s := range sigs {
				h = mix(h, s)
			}
			it.sig = final(h)
		}
		slices.SortStableFunc(nodes, func(a, b int) int { return cmpU(items[a].sig, items[b].sig) })
		for n, i := range nodes {
			it := &items[i]
			ren.set(it.m.Name, it.sh.nameH, mix(nodeTok, uint64(n+1)))
			ren.set(it.m.UID, it.sh.uidH, mix(nodeTok, uint64(n+1)+1<<32))
			v.nodeClass[it.m.Name] = it.sig
		}
	} else {
		for _, i := range nodes {
			v.nodeClass[items[i].m.Name] = hashOf(items[i].m.Name)
		}
	}
	// Generated objects: sig1 with node tokens, then renamed by sorted
	// content within their kind, namespace and generateName.
	gens := sc.gens
	for i := range items {
		it := &items[i]
		if !it.gen {
			if it.kind == cluster.KindPod {
				v.podClass[podName{it.m.Namespace, it.m.Name}] = hashOf(it.m.Namespace + "/" + it.m.Name)
			}
			continue
		}
		r := *base
		r.setSelf(it.m, it.sh, hashOf("\x00self"))
		h := r.hash(it.sh, k)
		if kp, ok := mem.Kubelet[it.m.UID]; ok {
			h = mix(h, directIn(kp, &sc.box.kubelet, &r, k))
		}
		it.sig = final(mix(h, hashOf(string(it.kind))))
		gens = append(gens, i)
	}
	slices.SortStableFunc(gens, func(a, b int) int {
		x, y := &items[a], &items[b]
		if x.kind != y.kind {
			return strings.Compare(string(x.kind), string(y.kind))
		}
		if x.m.Namespace != y.m.Namespace {
			return strings.Compare(x.m.Namespace, y.m.Namespace)
		}
		if x.m.GenerateName != y.m.GenerateName {
			return strings.Compare(x.m.GenerateName, y.m.GenerateName)
		}
		return cmpU(x.sig, y.sig)
	})
	for n, i := range gens {
		it := &items[i]
		t := mix(mix(hashOf("\x00gen"), hashOf(string(it.kind)+"/"+it.m.Namespace+"/"+it.m.GenerateName)), uint64(n))
		ren.set(it.m.Name, it.sh.nameH, t)
		ren.set(it.m.UID, it.sh.uidH, t+1)
		if it.kind == cluster.KindPod {
			v.podClass[podName{it.m.Namespace, it.m.Name}] = it.sig
		}
	}
	// Leases of nodes and other UIDs named after renamed names.
	for i := range items {
		it := &items[i]
		if !it.gen && it.m.UID != "" && it.kind != cluster.KindNode {
			if t, ok := ren.get(it.m.Name, it.sh.nameH); ok {
				ren.set(it.m.UID, it.sh.uidH, mix(mix(hashOf("uid"), hashOf(string(it.kind))), mix(hashOf(it.m.Namespace), t)))
			}
		}
	}
	// The hash: objects summed (their order is that of names), memory.
	full := &renamer{m: ren}
	var sum uint64
	for i := range items {
		sum += final(mix(full.hash(items[i].sh, k), hashOf(string(items[i].kind))))
	}
	h := mix(sum, memoryHash(mem, w.Start, full, k))
	if c.absolute {
		h = mix(h, uint64(w.Now.UnixNano()))
	}
	v.hash = final(h)
	sc.items, sc.nodes, sc.gens = items, nodes, gens // (grown: kept for the next view)
	return v
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// metaOf returns the metadata of a stored object.
func metaOf(o any) *meta.ObjectMeta {
	switch x := o.(type) {
	case *podstatus.Pod:
		return &x.ObjectMeta
	case *node.Node:
		return &x.ObjectMeta
	case *node.Lease:
		return &x.ObjectMeta
	case *rollout.Deployment:
		return &x.ObjectMeta
	case *replicaset.ReplicaSet:
		return &x.ObjectMeta
	case *statefulset.StatefulSet:
		return &x.ObjectMeta
	case *daemonset.DaemonSet:
		return &x.ObjectMeta
	case *job.Job:
		return &x.ObjectMeta
	case *cronjob.CronJob:
		return &x.ObjectMeta
	case *pdb.PodDisruptionBudget:
		return &x.ObjectMeta
	case *history.ControllerRevision:
		return &x.ObjectMeta
	case *statefulset.Claim:
		return &x.ObjectMeta
	}
	return &meta.ObjectMeta{}
}

// Fingerprint returns the canonical hash of w as [Explore] computes it for
// scenario sc, alphabet a and opts: worlds with equal fingerprints are
// one state of the exploration (equal up to generated names, UIDs, node
// names with symmetry on, and a shift of time; see the canonical form
// above). Counterexample.Hash is the fingerprint of its state at At.
func Fingerprint(w *cluster.World, sc cluster.Scenario, a Alphabet, opts Options) uint64 {
	cp := opts.TimeCap
	if cp <= 0 {
		cp = timeCap(sc, a, opts.World)
	}
	return newCanon(!opts.NoSymmetry, cp, hasCronJob(sc, a)).view(w).hash
}
