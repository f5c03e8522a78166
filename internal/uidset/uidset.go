// Package uidset finds a repeated string in a list, as the Steps check
// that no two pods given share a UID: a set by open addressing, in two
// allocations for any number of strings (a map of strings costs about
// twice as much per string, in time and memory).
package uidset

// Set is a set of strings. Its zero value is empty, and it grows as strings
// are added; New sizes it for a number of strings.
type Set struct {
	keys  []string // the strings added, in order
	slots []int32  // 1 + index into keys; 0 is empty; the length is a power of two
}

// New returns an empty set sized for n strings.
func New(n int) Set {
	return Set{keys: make([]string, 0, n), slots: make([]int32, slotsFor(n))}
}

// slotsFor is the number of slots for n strings: a power of two at least
// twice n, at least 8.
func slotsFor(n int) int {
	m := 8
	for m < 2*n {
		m *= 2
	}
	return m
}

// Add adds k and reports whether it was absent (false: k is in the set
// already, and the set is unchanged).
func (s *Set) Add(k string) bool {
	if 2*(len(s.keys)+1) > len(s.slots) {
		s.grow()
	}
	h := hash(k)
	mask := uint64(len(s.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		i := s.slots[j]
		if i == 0 {
			s.keys = append(s.keys, k)
			s.slots[j] = int32(len(s.keys))
			return true
		}
		if s.keys[i-1] == k {
			return false
		}
	}
}

// grow doubles the slots (or makes the first ones) and places the strings
// again.
func (s *Set) grow() {
	s.slots = make([]int32, slotsFor(len(s.keys)+1))
	mask := uint64(len(s.slots) - 1)
	for i, k := range s.keys {
		j := hash(k) & mask
		for s.slots[j] != 0 {
			j = (j + 1) & mask
		}
		s.slots[j] = int32(i + 1)
	}
}

// hash mixes s eight bytes at a time (the strings are UIDs and names:
// distinct, often with a long common prefix).
func hash(s string) uint64 {
	h := uint64(len(s)) * 0x9e3779b97f4a7c15
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0x100000001b3
	}
	h *= 0x94d049bb133111eb
	return h ^ h>>32
}
