package podstatus

import (
	"cmp"
)

// formBlocks orders every cell of order, the cells order, in place, cuts
// it into blocks (see ranker) and returns the blocks sort's elements: the
// blocks' packed words above their start positions.
func (r *ranker) formBlocks(order []uint64, p *plan, limit uint) []uint64 {
	s := &r.s
	bp := newBlockPacker(&r.b, p, limit)
	out := r.b.buf[:0]
	mask := uint64(1)<<s.idxBits - 1
	// Pods of a run agree on their ready words: on the element bits above
	// readyShift, and on their keys unless the elements hold them all.
	readyShift := s.idxBits + s.top - min(s.packer.UpTo[wordReadyLo+1], s.top)
	readyHeld := s.holds(wordReadyLo + 1)
	// The keys are read in the cells order, at random. Touching the next
	// window of them in a loop that does nothing else lets their cache
	// misses overlap, where the cells' work between them would not.
	var touched uint64
	window := 0
	for i, j := 0, 0; i < len(order); i = j {
		e := order[i]
		if i >= window {
			window = min(i+touchWindow, len(order))
			for _, e := range order[i:window] {
				touched ^= r.keys[e&mask].r[rawHead]
			}
		}
		for j = i + 1; j < len(order) && (order[j]^e)>>readyShift == 0; j++ {
			if !readyHeld && !r.keys[e&mask].same(&r.keys[order[j]&mask], wordReadyLo+1) {
				break
			}
		}
		first := uint32(e & mask)
		k := &r.keys[first]
		if k.readyApplies() {
			run := order[i:j]
			head := first
			switch len(run) {
			case 1:
				run[0] = uint64(first) | blockStart | cellStart | cellHead
				out = append(out, bp.readyCell(k, k, i))
				continue
			case 2:
				head = r.orderPair(run)
			default:
				head = r.orderCell(run)
			}
			for q, e := range run {
				if e&blockStart != 0 {
					out = append(out, bp.readyCell(&r.keys[e&mask], &r.keys[head], i+q))
				}
			}
			continue
		}
		// Creation cells, each a block of pods that tie.
		run := order[i:j]
		for a, c := 0, 0; a < len(run); a = c {
			c = s.runEnd(r.keys, run, a, keyWords)
			cell := run[a:c]
			kc := &r.keys[cell[0]&mask]
			head := r.least(cell)
			u := &p.first
			if kc.createdApplies() {
				u = &r.keys[head]
			}
			if len(cell) > 1 {
				r.pin(cell)
			}
			for q, e := range cell {
				cell[q] = e&mask | tiedBefore
				if uint32(e&mask) == head {
					cell[q] |= cellHead
				}
			}
			cell[0] ^= tiedBefore | blockStart | cellStart
			out = append(out, bp.creationCell(kc, u, i+a))
		}
	}
	r.touched = touched
	return out
}

// touchWindow is how many keys formBlocks touches at once: 8 KB.
const touchWindow = 128

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
	shift := b.topShift(logPrefixBits) // the bits the blocks sort ordered by
	for i, j := 0, 0; i < len(blocks); i = j {
		for j = i + 1; j < len(blocks) && (blocks[i]^blocks[j])>>shift == 0; j++ {
		}
		run := blocks[i:j]
		if len(run) > 1 {
			// By the prefix bits below those, then the blocks whose
			// prefixes are equal by the blocks themselves.
			sortRun(run, func(x, y uint64) int { return cmp.Compare(x>>b.idxBits, y>>b.idxBits) })
			for a, c := 0, 0; a < len(run); a = c {
				for c = a + 1; c < len(run) && b.sameRun(run[a], run[c]); c++ {
				}
				same := run[a:c]
				if len(same) == 1 {
					continue
				}
				sortRun(same, func(x, y uint64) int { return r.compareBlocks(order, int(x&mask), int(y&mask)) })
				for q := 1; q < len(same); q++ {
					if r.compareBlocks(order, int(same[q-1]&mask), int(same[q]&mask)) == 0 {
						return false
					}
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
