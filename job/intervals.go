package job

import (
	"fmt"
	"math"
	"strconv"

	"github.com/kubesem/kubesem/field"
)

// Interval is a closed range of completion indexes, First through Last.
type Interval struct {
	First int `json:"first"`
	Last  int `json:"last"`
}

// Indexes is a list of completion-index intervals in the order the
// completedIndexes or failedIndexes string lists them. Well-formed values are
// sorted, disjoint and non-adjacent; ParseIndexes keeps whatever order the
// string had.
type Indexes []Interval

// ParseIndexes parses a completedIndexes or failedIndexes string such as
// "1,3-5,7" for a job with the given completions. Entries are read left to
// right: an entry whose first index is not a decimal number (an optional '+'
// and digits within int64), or whose "-last" part is not one, is skipped; the
// first entry starting at or beyond completions ends the parse; a last index
// at or beyond completions is clamped to completions-1; an entry that starts
// right after the previous one ends is merged into it. Anything after a
// second '-' in an entry is ignored. It never fails: corrupt entries are
// dropped, as the controller does.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// parseIndexesFromString (v1.36.3).
func ParseIndexes(s string, completions int) Indexes {
	if s == "" {
		return nil
	}
	var out Indexes
	for {
		entry := s
		rest, more := "", false
		for i := 0; i < len(s); i++ {
			if s[i] == ',' {
				entry, rest, more = s[:i], s[i+1:], true
				break
			}
		}
		iv, ok, stop := parseInterval(entry, completions)
		if stop {
			break
		}
		if ok {
			if n := len(out); n > 0 && out[n-1].Last == iv.First-1 {
				out[n-1].Last = iv.Last
			} else {
				out = append(out, iv)
			}
		}
		if !more {
			break
		}
		s = rest
	}
	return out
}

// parseInterval parses one "a" or "a-b" entry. ok is false for a corrupt
// entry; stop is true when the entry starts at or beyond completions.
func parseInterval(entry string, completions int) (iv Interval, ok, stop bool) {
	first, second, hasDash := entry, "", false
	for i := 0; i < len(entry); i++ {
		if entry[i] == '-' {
			first, second, hasDash = entry[:i], entry[i+1:], true
			for j := 0; j < len(second); j++ {
				if second[j] == '-' {
					second = second[:j]
					break
				}
			}
			break
		}
	}
	a, okA := atoi(first)
	if !okA {
		return Interval{}, false, false
	}
	if a >= int64(completions) {
		return Interval{}, false, true
	}
	iv.First = int(a)
	iv.Last = iv.First
	if hasDash {
		b, okB := atoi(second)
		if !okB {
			return Interval{}, false, false
		}
		if b >= int64(completions) {
			b = int64(completions) - 1
		}
		iv.Last = int(b)
	}
	return iv, true, false
}

// atoi parses an optionally '+'-signed decimal that fits in int64, the
// inputs strconv.Atoi accepts once '-' has been split off, without
// allocating.
func atoi(s string) (int64, bool) {
	if s != "" && s[0] == '+' {
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// MaxIndex is the largest completion index: indexes lie below
// spec.completions, an int32.
const MaxIndex = math.MaxInt32 - 1

// ValidateIndexes reports whether x is a list of completion-index intervals
// that a completedIndexes or failedIndexes value can hold: every index is
// between 0 and [MaxIndex], every interval's First is at most its Last, and
// the intervals are in increasing order without overlap (each First after
// the previous Last; touching intervals, which "1-3,4" writes, are
// accepted). The first interval that is not is returned as a *field.Error at
// path[i]: ErrNegative for a negative index, ErrOverflow for one beyond
// MaxIndex, ErrInvalid for a reversed, overlapping or out-of-order interval.
// [Indexes.String], [Indexes.Total] and [Indexes.Has] take such lists; what
// they make of others is upstream's behaviour on values it never builds.
//
// Source: upstream pkg/apis/batch/validation/validation.go
// validateIndexesFormat, parseIndexInterval (v1.36.3).
func ValidateIndexes(path string, x Indexes) error {
	for i, v := range x {
		var err error
		switch {
		case v.First < 0 || v.Last < 0:
			err = field.ErrNegative
		case v.First > MaxIndex || v.Last > MaxIndex:
			err = field.ErrOverflow
		case v.First > v.Last:
			err = errReversed
		case i > 0 && v.First <= x[i-1].Last:
			err = errUnordered
		}
		if err != nil {
			return field.New(field.Index(path, i), "["+strconv.Itoa(v.First)+","+strconv.Itoa(v.Last)+"]", err)
		}
	}
	return nil
}

var (
	errReversed  = fmt.Errorf("%w: first index after last", field.ErrInvalid)
	errUnordered = fmt.Errorf("%w: interval not after the previous one (intervals are increasing and disjoint)", field.ErrInvalid)
)

// String formats the intervals as "1,3-5,7": a single index as itself, two
// consecutive indexes as "3,4", three or more as "first-last". An interval
// whose Last is below its First is written as its First alone.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// orderedIntervals.String (v1.36.3).
func (x Indexes) String() string {
	if len(x) == 0 {
		return ""
	}
	buf := make([]byte, 0, len(x)*8)
	for i, v := range x {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(v.First), 10)
		if v.Last > v.First {
			if v.Last == v.First+1 {
				buf = append(buf, ',')
			} else {
				buf = append(buf, '-')
			}
			buf = strconv.AppendInt(buf, int64(v.Last), 10)
		}
	}
	return string(buf)
}

// Total returns the number of indexes the intervals cover, summing
// Last-First+1 over the intervals as written (an inverted interval counts
// negatively, as upstream's does).
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// orderedIntervals.total (v1.36.3).
func (x Indexes) Total() int {
	n := 0
	for _, v := range x {
		n += v.Last - v.First + 1
	}
	return n
}

// Has reports whether index i lies in one of the intervals, by binary search
// over intervals sorted by Last.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// orderedIntervals.has (v1.36.3).
func (x Indexes) Has(i int) bool {
	lo, hi := 0, len(x)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if x[mid].Last >= i {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi < len(x) && x[hi].First <= i
}

// merge returns the union of two interval lists, walking both by First and
// folding each interval into the previous one when they overlap or touch.
func (x Indexes) merge(y Indexes) Indexes {
	if len(x)+len(y) == 0 {
		return nil
	}
	out := make(Indexes, 0, len(x)+len(y))
	add := func(v Interval) {
		n := len(out)
		if n == 0 || v.First > out[n-1].Last+1 {
			out = append(out, v)
		} else if out[n-1].Last < v.Last {
			out[n-1].Last = v.Last
		}
	}
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		if x[i].First < y[j].First {
			add(x[i])
			i++
		} else {
			add(y[j])
			j++
		}
	}
	for ; i < len(x); i++ {
		add(x[i])
	}
	for ; j < len(y); j++ {
		add(y[j])
	}
	return out
}

// withIndexes returns x merged with the sorted, distinct indexes ix.
func (x Indexes) withIndexes(ix []int) Indexes {
	single := make(Indexes, len(ix))
	for k, i := range ix {
		single[k] = Interval{i, i}
	}
	return x.merge(single)
}
