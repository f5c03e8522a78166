package node

import "slices"

// zoneCount is one zone's (region, zone) and its node counts.
type zoneCount struct {
	region, zone    string
	ready, notReady int
}

// zoneTable indexes zones by (region, zone): up to zoneScan zones by a
// scan of the list, more with open addressing on a cheap hash of the two
// strings (a cluster has few zones and many nodes, so each node costs one
// hash and usually one comparison). Its zero value is an empty table.
type zoneTable struct {
	slots []int32 // 1 + index into zones; 0 is empty; len is a power of two; nil while scanned
	zones []zoneCount
}

// zoneScan is the most zones a zoneTable finds by scanning.
const zoneScan = 8

func zoneHash(region, zone string) uint64 {
	return hashString(hashString(0, zone), region)
}

// hashString mixes s into h: eight bytes at a time, the last zero to eight
// bytes with two overlapping loads, the length included, so every byte
// counts.
func hashString(h uint64, s string) uint64 {
	h ^= uint64(len(s))
	for len(s) > 8 {
		h = mix64(h ^ (uint64(load32(s)) | uint64(load32(s[4:]))<<32))
		s = s[8:]
	}
	var w uint64
	switch n := len(s); {
	case n >= 4:
		w = uint64(load32(s)) | uint64(load32(s[n-4:]))<<32
	case n > 0:
		w = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return mix64(h ^ w)
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func mix64(h uint64) uint64 {
	h *= 0x9E3779B97F4A7C15
	return h ^ h>>32
}

// index returns the zone's index, adding the zone when it is new.
func (t *zoneTable) index(region, zone string) int {
	if t.slots == nil {
		for j := range t.zones {
			if z := &t.zones[j]; z.zone == zone && z.region == region {
				return j
			}
		}
		if len(t.zones) < zoneScan {
			if t.zones == nil {
				t.zones = make([]zoneCount, 0, zoneScan)
			}
			t.zones = append(t.zones, zoneCount{region: region, zone: zone})
			return len(t.zones) - 1
		}
		// Many zones: from here on, hashed.
		t.zones = slices.Grow(t.zones, 32-len(t.zones))
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := zoneHash(region, zone) & mask; ; i = (i + 1) & mask {
		j := t.slots[i]
		if j == 0 {
			return t.add(i, region, zone)
		}
		if z := &t.zones[j-1]; z.zone == zone && z.region == region {
			return int(j - 1)
		}
	}
}

func (t *zoneTable) add(slot uint64, region, zone string) int {
	t.zones = append(t.zones, zoneCount{region: region, zone: zone})
	t.slots[slot] = int32(len(t.zones))
	if len(t.zones)*2 > len(t.slots) {
		t.grow()
	}
	return len(t.zones) - 1
}

func (t *zoneTable) grow() {
	n := max(2*len(t.slots), 64)
	t.slots = make([]int32, n)
	mask := uint64(n - 1)
	for j, z := range t.zones {
		i := zoneHash(z.region, z.zone) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(j + 1)
	}
}
