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
	keys []sortKey // keys[i] is pods[i]'s
	s, b keySorter
	cell []cellPod // orderCell's
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

// cellPod is a pod of a ready cell of two or more pods, read once to
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

// sharedCreation reports whether two pods of c share their restarts and
// creation time: by pairs in a small cell, by sorting a copy's times in a
// large one.
func sharedCreation(c []cellPod) bool {
	if len(c) <= 8 {
		for a := range c {
			for b := a + 1; b < len(c); b++ {
				if compareCreation(&c[a], &c[b]) == 0 {
					return true
				}
			}
		}
		return false
	}
	return true // the creation sort finds out
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
	// The creation cells: pods with the same restarts and creation time,
	// which few cells hold (every pod starts as its own).
	if sharedCreation(c) {
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

// orderPair is orderCell for a ready cell of two pods, read straight from
// their keys.
func (r *ranker) orderPair(run []uint64) uint32 {
	i, j := r.s.index(run[0]), r.s.index(run[1])
	ki, kj := &r.keys[i], &r.keys[j]
	uid := r.compareUID(i, j)
	head := i
	if uid > 0 {
		head = j
	}
	// compareInCell, where each pod is its own creation cell unless both
	// share restarts and creation time.
	bi, bj := ki.readyBucket(), kj.readyBucket()
	v := cmp.Compare(bi, bj)
	if v == 0 {
		v = cmp.Compare(ki.r[rawRestarts], kj.r[rawRestarts])
	}
	if v == 0 {
		ci, cj := createdWord(ki), createdWord(kj)
		v = cmp.Compare(ci, cj)
		if v == 0 && ci != 0 && (ki.r[rawCreatedHi] != kj.r[rawCreatedHi] || uint32(ki.r[rawLo]) != uint32(kj.r[rawLo])) {
			v = uid
		}
	}
	if v > 0 || v == 0 && r.comparePinned(i, j) > 0 {
		i, j = j, i
	}
	run[0], run[1] = uint64(i)|blockStart|cellStart, uint64(j)
	switch {
	case bi != bj:
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
