package podstatus

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

// blockPacker packs the blocks sort's words (see plan): rules 1-5 and
// the UID straight from keys, the other words from tables.
type blockPacker struct {
	s                         *keySorter
	ready, restarts, uid, end int        // the packer's first fields of these words
	readyBits                 [66]uint64 // bits of logReady for no time (0) and buckets -1 to 64 (1 to 66)
	fillBits                  uint64     // bits of the fills of logRestarts and logCreated
}

func newBlockPacker(s *keySorter, p *plan, limit uint) blockPacker {
	s.plan(p.blocks[:], limit)
	s.packer.ReadFrom([]int{rawHead, rawRank, logReady, logRestarts, logCreated, rawUIDHi, rawUIDLo})
	bp := blockPacker{s: s, ready: s.packer.FieldsBefore(logReady), restarts: s.packer.FieldsBefore(logRestarts),
		uid: s.packer.FieldsBefore(logUIDHi), end: s.packer.FieldsBefore(logWords)}
	var w [logWords]uint64
	for i := range bp.readyBits {
		if i > 0 {
			w[logReady] = bucketWord(int8(i - 2))
		}
		bp.readyBits[i] = s.packer.PackFields(w[:], bp.ready, bp.restarts)
	}
	w[logRestarts], w[logCreated] = p.fill.r[rawRestarts], p.fillCW
	bp.fillBits = s.packer.PackFields(w[:], bp.restarts, bp.uid)
	return bp
}

// ready returns the element, for the block at position pos, of a ready
// cell of k's rules 1-5 and bucket whose smallest UID is head's.
func (bp *blockPacker) readyCell(k, head *sortKey, pos int) uint64 {
	pk := &bp.s.packer
	x := pk.PackFields(k.r[:], 0, bp.ready) | bp.readyBits[k.readyBucket()+2] | bp.fillBits | pk.PackFields(head.r[:], bp.uid, bp.end)
	return bp.s.prefixed(x, pos)
}

// creationCell returns the element, for the block at position pos, of a
// creation cell of k's words whose smallest UID is head's.
func (bp *blockPacker) creationCell(k, head *sortKey, pos int) uint64 {
	pk := &bp.s.packer
	w := [logWords]uint64{logRestarts: k.r[rawRestarts], logCreated: createdWord(k)}
	x := pk.PackFields(k.r[:], 0, bp.ready) | bp.readyBits[0] | pk.PackFields(w[:], bp.restarts, bp.uid) | pk.PackFields(head.r[:], bp.uid, bp.end)
	return bp.s.prefixed(x, pos)
}
