package podstatus

import (
	"cmp"
	"slices"
	"strings"
)

func podName(p *Pod) string {
	if p == nil {
		return ""
	}
	return p.Name
}

func podUID(p *Pod) string {
	if p == nil {
		return ""
	}
	return p.UID
}

// uidWords are bytes 0-7 and 8-15 of a UID ([prefixWord]): UIDs whose
// words differ order as their words do.
type uidWords struct{ hi, lo uint64 }

func makeUIDWords(uid string) uidWords { return uidWords{prefixWord(uid, 0), prefixWord(uid, 8)} }

// ranker holds one ranking's pods and the buffers it orders them with.
//
// In the logarithmic mode, upstream orders pods whose times fall in one
// bucket by UID, except that pods reaching a time criterion with exactly
// the same time (the same words up to it) go on to the next rule: such
// pods form a cell, which sorts by the smallest UID among its pods, and
// every other pod is its own cell.
//
// The logarithmic mode orders the pods in three steps. The cells sort
// (s) puts the pods of each cell next to one another: a ready cell (pods
// whose ready time applies, equal in rules 1-5 and that time) or, for the
// pods whose ready time does not apply, a creation cell (equal in rules
// 1-5, restarts and creation time). formBlocks then orders each cell's
// pods where they lie, by the rules after the cell's criterion, and cuts
// the cells order into blocks, runs of pods that are consecutive in the
// ranking: a ready cell with one bucket (every ready cell, unless
// monotonic clock readings split it), a creation cell. The blocks sort
// (b) orders the blocks by (rules 1-5, bucket, the cell's smallest UID,
// and for creation cells restarts and creation bucket before it), and
// expand writes their pods out. Two blocks the blocks sort cannot tell
// apart (their cells' smallest UIDs are equal: some UID is repeated) make
// the ranking fall back to comparing pods (rankByComparison).
type ranker struct {
	pods []*Pod
	keys []sortKey
	s, b keySorter
	cell []cellPod
	// touched keeps the keys formBlocks reads ahead from being optimized
	// away.
	touched uint64
}

// The bits of a cells-order element that formBlocks sets once the
// element's prefix is no longer needed.
const (
	blockStart = 1 << 63 // the pod starts a block
	tiedBefore = 1 << 62 // the pod ties with the one before it
	cellStart  = 1 << 61 // the pod starts a cell
	cellHead   = 1 << 60 // the pod's UID is its cell's smallest
)

// compareUID orders pods i and j by UID as strings.Compare does, reading
// the UIDs themselves only when their first 16 bytes agree.
func (r *ranker) compareUID(i, j uint32) int {
	if i == j {
		return 0
	}
	a, b := &r.keys[i], &r.keys[j]
	if a.r[rawUIDHi] != b.r[rawUIDHi] {
		return cmp.Compare(a.r[rawUIDHi], b.r[rawUIDHi])
	}
	if a.r[rawUIDLo] != b.r[rawUIDLo] {
		return cmp.Compare(a.r[rawUIDLo], b.r[rawUIDLo])
	}
	return strings.Compare(podUID(r.pods[i]), podUID(r.pods[j]))
}

// least returns the pod with the smallest UID in a run of elements.
func (r *ranker) least(run []uint64) uint32 {
	m := r.s.index(run[0])
	for _, e := range run[1:] {
		if i := r.s.index(e); r.compareUID(i, m) < 0 {
			m = i
		}
	}
	return m
}

// comparePinned breaks ties by pod name, UID and input position.
func (r *ranker) comparePinned(a, b uint32) int {
	pa, pb := r.pods[a], r.pods[b]
	return cmp.Or(strings.Compare(podName(pa), podName(pb)), strings.Compare(podUID(pa), podUID(pb)), cmp.Compare(a, b))
}

// pin sorts a run of elements of the cells order, pods that tie, by name,
// UID and input position.
func (r *ranker) pin(run []uint64) {
	sortRun(run, func(x, y uint64) int { return r.comparePinned(r.s.index(x), r.s.index(y)) })
}

// The words of the cells sort are a pod's words, except that the
// restarts and creation words of a pod whose ready time applies are
// fills, the words of the first pod whose ready time does not apply, so
// that they vary no more than those pods' own words do.
//
// The words of the blocks sort are rules 1-5, then for a ready cell
// (bucketWord of its bucket, fill, fill, its smallest UID) and for a
// creation cell (0, restarts, the creation time's bucketWord or 0, its
// smallest UID or the first pod's UID for a zero time). The fills are
// again the first creation cell's words.
const (
	logHead = iota
	logRank
	logReady
	logRestarts
	logCreated
	logUIDHi
	logUIDLo
	logWords
)

// bucketWord is the logarithmic-mode word of a time that applies: after
// a time that does not (0), by bucket.
func bucketWord(bucket int8) uint64 { return 1<<63 | uint64(int64(bucket)+1) }

// createdWord is the logarithmic-mode word of k's creation time.
func createdWord(k *sortKey) uint64 {
	if k.createdApplies() {
		return bucketWord(k.createdBucket())
	}
	return 0
}

// plan gathers, while the keys are made, the bits in which the words of
// the cells sort and of the blocks sort vary, and the fills.
type plan struct {
	first sortKey // the first pod's
	fill  sortKey // the first pod's whose ready time does not apply
	idle  bool    // fill is set
	// cells and blocks are the varying bits of the words of r (cells, in
	// place) and of the blocks sort.
	cells              [rawUIDHi]uint64
	blocks             [logWords]uint64
	firstReady, fillCW uint64 // the first pod's logReady word; fill's logCreated
}

// newPlan returns the plan whose first pod is k.
func newPlan(k *sortKey) plan {
	p := plan{first: *k}
	if k.readyApplies() {
		p.firstReady = bucketWord(k.readyBucket())
	}
	return p
}

// add notes the key of the next pod.
func (p *plan) add(k *sortKey) {
	f := &p.first
	p.cells[rawHead] |= k.r[rawHead] ^ f.r[rawHead]
	p.cells[rawRank] |= k.r[rawRank] ^ f.r[rawRank]
	p.cells[rawReadyHi] |= k.r[rawReadyHi] ^ f.r[rawReadyHi]
	p.cells[rawLo] |= (k.r[rawLo] ^ f.r[rawLo]) &^ lo32
	p.blocks[logUIDHi] |= k.r[rawUIDHi] ^ f.r[rawUIDHi]
	p.blocks[logUIDLo] |= k.r[rawUIDLo] ^ f.r[rawUIDLo]
	if k.readyApplies() {
		p.blocks[logReady] |= bucketWord(k.readyBucket()) ^ p.firstReady
		return
	}
	p.blocks[logReady] |= p.firstReady
	if !p.idle {
		p.idle, p.fill, p.fillCW = true, *k, createdWord(k)
	}
	g := &p.fill
	p.cells[rawRestarts] |= k.r[rawRestarts] ^ g.r[rawRestarts]
	p.cells[rawCreatedHi] |= k.r[rawCreatedHi] ^ g.r[rawCreatedHi]
	p.cells[rawLo] |= (k.r[rawLo] ^ g.r[rawLo]) & lo32
	p.blocks[logCreated] |= createdWord(k) ^ p.fillCW
}

// sortCells returns the pods in the order of the cells sort.
func (r *ranker) sortCells(p *plan) []uint64 {
	s := &r.s
	var varying [keyWords]uint64
	for w, from := range exactFrom {
		varying[w] = p.cells[from] & exactMask(w)
	}
	p.blocks[logHead], p.blocks[logRank], p.blocks[logRestarts] = varying[wordHead], varying[wordRank], varying[wordRestarts]
	s.plan(varying[:], 64)
	s.packer.ReadFrom(exactFrom[:])
	// The ready words' spans, then the others', packed from fill for the
	// pods whose ready time applies.
	mid, end := s.packer.FieldsBefore(wordRestarts), s.packer.FieldsBefore(keyWords)
	fill := s.packer.PackFields(p.fill.r[:], mid, end)
	for i := range r.keys {
		k := &r.keys[i]
		x := s.packer.PackFields(k.r[:], 0, mid)
		if k.readyApplies() {
			x |= fill
		} else {
			x |= s.packer.PackFields(k.r[:], mid, end)
		}
		s.buf[i] = s.prefixed(x, i)
	}
	order := s.sort(len(r.keys))
	if s.holds(keyWords) {
		return order
	}
	// Runs the prefix leaves undecided, by the keys' own words: a finer
	// order, in which cells still lie together.
	for i, j := 0, 0; i < len(order); i = j {
		for j = i + 1; j < len(order) && s.sameRun(order[i], order[j]); j++ {
		}
		if j-i > 1 {
			s.sortByWords(r.keys, order[i:j])
		}
	}
	return order
}

// cellPod is a pod of a ready cell of three or more pods, read once to
// order the cell.
type cellPod struct {
	restarts, createdHi, created uint64 // created: the logCreated word
	createdLo                    uint32
	idx                          uint32
	cell                         uint32 // the creation cell's smallest-UID pod
	bucket                       int8   // the ready bucket
}

func makeCellPod(k *sortKey, i uint32) cellPod {
	return cellPod{restarts: k.r[rawRestarts], createdHi: k.r[rawCreatedHi], created: createdWord(k),
		createdLo: uint32(k.r[rawLo]), idx: i, cell: i, bucket: k.readyBucket()}
}

// compareInCell orders two pods of one ready cell by the ready bucket (one
// bucket per cell unless monotonic readings split it) and the rules after
// the ready time; 0 is a tie.
func (r *ranker) compareInCell(a, b *cellPod) int {
	if a.bucket != b.bucket {
		return cmp.Compare(a.bucket, b.bucket)
	}
	if a.restarts != b.restarts {
		return cmp.Compare(a.restarts, b.restarts)
	}
	if a.created != b.created {
		return cmp.Compare(a.created, b.created)
	}
	if a.created == 0 {
		return 0
	}
	return r.compareUID(a.cell, b.cell)
}

// compareCreation orders two pods of one ready cell by restarts and
// creation time, so that creation cells lie together.
func compareCreation(a, b *cellPod) int {
	if a.restarts != b.restarts {
		return cmp.Compare(a.restarts, b.restarts)
	}
	if a.createdHi != b.createdHi {
		return cmp.Compare(a.createdHi, b.createdHi)
	}
	return cmp.Compare(a.createdLo, b.createdLo)
}

// comparePlaced orders two pods of one ready cell by the rules, then pins
// ties.
func (r *ranker) comparePlaced(a, b *cellPod) int {
	if v := r.compareInCell(a, b); v != 0 {
		return v
	}
	return r.comparePinned(a.idx, b.idx)
}

// sortCell sorts the pods of a cell by creation (compareCreation) or else
// by comparePlaced: by insertion when there are few, as there usually are.
func (r *ranker) sortCell(c []cellPod, creation bool) {
	if len(c) > 12 {
		if creation {
			slices.SortFunc(c, func(a, b cellPod) int { return compareCreation(&a, &b) })
		} else {
			slices.SortFunc(c, func(a, b cellPod) int { return r.comparePlaced(&a, &b) })
		}
		return
	}
	for i := 1; i < len(c); i++ {
		p := c[i]
		j := i
		for ; j > 0; j-- {
			var v int
			if creation {
				v = compareCreation(&p, &c[j-1])
			} else {
				v = r.comparePlaced(&p, &c[j-1])
			}
			if v >= 0 {
				break
			}
			c[j] = c[j-1]
		}
		c[j] = p
	}
}

// orderCell orders the pods of a ready cell of three or more (run,
// elements of the cells order) in place, marks its ties and blocks, and
// returns the pod with the smallest UID.
func (r *ranker) orderCell(run []uint64) uint32 {
	s := &r.s
	c := r.cell[:0]
	head := s.index(run[0])
	for _, e := range run {
		i := s.index(e)
		if r.compareUID(i, head) < 0 {
			head = i
		}
		c = append(c, makeCellPod(&r.keys[i], i))
	}
	// The creation cells: pods with the same restarts and creation time.
	r.sortCell(c, true)
	for a, b := 0, 0; a < len(c); a = b {
		m := c[a].idx
		for b = a + 1; b < len(c) && compareCreation(&c[a], &c[b]) == 0; b++ {
			if r.compareUID(c[b].idx, m) < 0 {
				m = c[b].idx
			}
		}
		for q := a; q < b; q++ {
			c[q].cell = m
		}
	}
	r.sortCell(c, false)
	for q := range c {
		e := uint64(c[q].idx)
		if c[q].idx == head {
			e |= cellHead
		}
		switch {
		case q == 0 || c[q].bucket != c[q-1].bucket:
			e |= blockStart
		case r.compareInCell(&c[q-1], &c[q]) == 0:
			e |= tiedBefore
		}
		run[q] = e
	}
	run[0] |= cellStart
	r.cell = c
	return head
}

// orderPair is orderCell for a ready cell of two pods.
func (r *ranker) orderPair(run []uint64) uint32 {
	i, j := r.s.index(run[0]), r.s.index(run[1])
	a, b := makeCellPod(&r.keys[i], i), makeCellPod(&r.keys[j], j)
	uid := r.compareUID(i, j)
	head := i
	if uid > 0 {
		head = j
	}
	if compareCreation(&a, &b) == 0 {
		// One creation cell.
		a.cell, b.cell = head, head
	}
	v := r.compareInCell(&a, &b)
	if v == 0 && r.comparePinned(i, j) > 0 || v > 0 {
		i, j, a.bucket, b.bucket = j, i, b.bucket, a.bucket
	}
	run[0], run[1] = uint64(i)|blockStart|cellStart, uint64(j)
	switch {
	case a.bucket != b.bucket:
		run[1] |= blockStart
	case v == 0:
		run[1] |= tiedBefore
	}
	if head == i {
		run[0] |= cellHead
	} else {
		run[1] |= cellHead
	}
	return head
}

// formBlocks orders every cell of order, the cells order, in place, cuts
// it into blocks (see ranker) and returns the blocks sort's elements: the
// blocks' packed words above their start positions.
func (r *ranker) formBlocks(order []uint64, p *plan, limit uint) []uint64 {
	s, b := &r.s, &r.b
	b.plan(p.blocks[:], limit)
	out := b.buf[:0]
	f := &p.fill
	// The keys are read in the cells order, at random: touching two of
	// them prefetchDistance pods ahead, for a run of 1.5 pods on average,
	// lets their cache misses overlap.
	var touched uint64
	for i, j := 0, 0; i < len(order); i = j {
		if a := i + prefetchDistance; a+1 < len(order) {
			touched ^= r.keys[s.index(order[a])].r[rawHead] ^ r.keys[s.index(order[a+1])].r[rawHead]
		}
		j = s.runEnd(r.keys, order, i, wordReadyLo+1)
		run := order[i:j]
		first := s.index(run[0])
		k := &r.keys[first]
		w := [logWords]uint64{logHead: k.r[rawHead] & headRules, logRank: k.r[rawRank]}
		if k.readyApplies() {
			head := first
			switch len(run) {
			case 1:
				run[0] = uint64(first) | blockStart | cellStart | cellHead
			case 2:
				head = r.orderPair(run)
			default:
				head = r.orderCell(run)
			}
			w[logRestarts], w[logCreated] = f.r[rawRestarts], p.fillCW
			w[logUIDHi], w[logUIDLo] = r.keys[head].r[rawUIDHi], r.keys[head].r[rawUIDLo]
			for q, e := range run {
				if e&blockStart != 0 {
					w[logReady] = bucketWord(r.keys[s.index(e)].readyBucket())
					out = append(out, b.element(w[:], i+q))
				}
			}
			continue
		}
		// Creation cells, each a block of pods that tie.
		for a, c := 0, 0; a < len(run); a = c {
			c = s.runEnd(r.keys, run, a, keyWords)
			cell := run[a:c]
			kc := &r.keys[s.index(cell[0])]
			head := r.least(cell)
			w[logRestarts], w[logCreated] = kc.r[rawRestarts], createdWord(kc)
			u := &p.first
			if w[logCreated] != 0 {
				u = &r.keys[head]
			}
			w[logUIDHi], w[logUIDLo] = u.r[rawUIDHi], u.r[rawUIDLo]
			if len(cell) > 1 {
				r.pin(cell)
			}
			for q, e := range cell {
				cell[q] = uint64(s.index(e)) | tiedBefore
				if s.index(e) == head {
					cell[q] |= cellHead
				}
			}
			cell[0] ^= tiedBefore | blockStart | cellStart
			out = append(out, b.element(w[:], i+a))
		}
	}
	r.touched = touched
	return out
}

// prefetchDistance is how many pods ahead formBlocks touches the keys.
const prefetchDistance = 16

// compareBlocks orders the blocks starting at positions x and y of the
// cells order by what places them (see plan): rules 1-5, then the ready
// bucket or, for a creation cell, the restarts and creation bucket, then
// the cell's smallest UID; 0 means the blocks' pods interleave.
func (r *ranker) compareBlocks(order []uint64, x, y int) int {
	ka, kb := &r.keys[r.s.index(order[x])], &r.keys[r.s.index(order[y])]
	if c := cmp.Or(cmp.Compare(ka.r[rawHead]&headRules, kb.r[rawHead]&headRules), cmp.Compare(ka.r[rawRank], kb.r[rawRank])); c != 0 {
		return c
	}
	ra, rb := ka.readyApplies(), kb.readyApplies()
	switch {
	case ra != rb:
		if ra {
			return 1
		}
		return -1
	case ra:
		if c := cmp.Compare(ka.readyBucket(), kb.readyBucket()); c != 0 {
			return c
		}
		return r.compareUID(r.cellHead(order, x), r.cellHead(order, y))
	}
	if c := cmp.Or(cmp.Compare(ka.r[rawRestarts], kb.r[rawRestarts]), cmp.Compare(createdWord(ka), createdWord(kb))); c != 0 || !ka.createdApplies() {
		return c
	}
	return r.compareUID(r.cellHead(order, x), r.cellHead(order, y))
}

// cellHead returns the pod with the smallest UID in the cell of the block
// starting at position x of the cells order, as formBlocks marked it.
func (r *ranker) cellHead(order []uint64, x int) uint32 {
	for order[x]&cellStart == 0 {
		x--
	}
	for order[x]&cellHead == 0 {
		x++
	}
	return r.s.index(order[x])
}

// expand writes the pods of the blocks, in the order blocks, out as a
// Ranking, or reports that two blocks cannot be told apart.
func (r *ranker) expand(order, blocks []uint64, out Ranking) bool {
	s, b := &r.s, &r.b
	mask := uint64(1)<<s.idxBits - 1
	pos := 0
	for i, j := 0, 0; i < len(blocks); i = j {
		for j = i + 1; j < len(blocks) && b.sameRun(blocks[i], blocks[j]); j++ {
		}
		run := blocks[i:j]
		if len(run) > 1 {
			sortRun(run, func(x, y uint64) int { return r.compareBlocks(order, int(x&mask), int(y&mask)) })
			for q := 1; q < len(run); q++ {
				if r.compareBlocks(order, int(run[q-1]&mask), int(run[q]&mask)) == 0 {
					return false
				}
			}
		}
		for _, e := range run {
			p := int(e & mask)
			e := order[p]
			out.Order[pos], out.start[pos] = int(e&mask), uint64(pos)
			pos++
			for p++; p < len(order) && order[p]&blockStart == 0; p++ {
				e := order[p]
				out.Order[pos], out.start[pos] = int(e&mask), uint64(pos)
				if e&tiedBefore != 0 {
					out.start[pos] = out.start[pos-1]
				}
				pos++
			}
		}
	}
	return true
}

// rankByComparison ranks the pods by comparing them, for the rankings in
// which two cells' smallest UIDs are equal: it recomputes the cells with
// the cells sort, gives every pod its ready and creation cell and sorts
// the pods by the rules.
func (r *ranker) rankByComparison(p *plan, out Ranking) {
	order := r.sortCells(p)
	s := &r.s
	n := len(order)
	ready, created := make([]uint32, n), make([]uint32, n)
	for i := range ready {
		ready[i], created[i] = uint32(i), uint32(i)
	}
	for i, j := 0, 0; i < n; i = j {
		j = s.runEnd(r.keys, order, i, wordReadyLo+1)
		run := order[i:j]
		if r.keys[s.index(run[0])].readyApplies() {
			g := r.least(run)
			for _, e := range run {
				ready[s.index(e)] = g
			}
			// Creation cells inside, by the pods' own words.
			s.sortByWords(r.keys, run)
		}
		for a, c := 0, 0; a < len(run); a = c {
			for c = a + 1; c < len(run) && r.keys[s.index(run[a])].same(&r.keys[s.index(run[c])], keyWords); c++ {
			}
			g := r.least(run[a:c])
			for _, e := range run[a:c] {
				created[s.index(e)] = g
			}
		}
	}
	compareTime := func(ta, tb bool, ba, bb int8, ca, cb uint32) int {
		switch {
		case ta != tb:
			if ta {
				return 1
			}
			return -1
		case !ta:
			return 0
		}
		return cmp.Or(cmp.Compare(ba, bb), r.compareUID(ca, cb))
	}
	compareLog := func(a, b uint32) int {
		ka, kb := &r.keys[a], &r.keys[b]
		return cmp.Or(cmp.Compare(ka.r[rawHead]&headRules, kb.r[rawHead]&headRules), cmp.Compare(ka.r[rawRank], kb.r[rawRank]),
			compareTime(ka.readyApplies(), kb.readyApplies(), ka.readyBucket(), kb.readyBucket(), ready[a], ready[b]),
			cmp.Compare(ka.r[rawRestarts], kb.r[rawRestarts]),
			compareTime(ka.createdApplies(), kb.createdApplies(), ka.createdBucket(), kb.createdBucket(), created[a], created[b]))
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	slices.SortFunc(idx, func(a, b uint32) int { return cmp.Or(compareLog(a, b), r.comparePinned(a, b)) })
	for pos, i := range idx {
		out.Order[pos], out.start[pos] = int(i), uint64(pos)
		if pos > 0 && compareLog(idx[pos-1], i) == 0 {
			out.start[pos] = out.start[pos-1]
		}
	}
}

// settleExact turns order, the pods sorted by their exact-mode words, into
// a Ranking: each run of equal words is a tie, pinned.
func (r *ranker) settleExact(order []uint64, out Ranking) {
	s := &r.s
	for i, j := 0, 0; i < len(order); i = j {
		j = s.runEnd(r.keys, order, i, keyWords)
		if j-i > 1 {
			r.pin(order[i:j])
		}
		for pos := i; pos < j; pos++ {
			out.Order[pos], out.start[pos] = int(s.index(order[pos])), uint64(i)
		}
	}
}
