package rollout

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// HashLabel is the label the Deployment controller puts on a ReplicaSet, its
// template and selector, and its pods, to tell templates apart.
const HashLabel = "pod-template-hash"

// sameTemplate reports whether two pod templates are equal apart from the
// pod-template-hash label, the way upstream's semantic equality compares
// them once the API server has decoded and defaulted them: nil and empty
// slices and maps are equal, times compare as instants, defaults spelt or
// left out alike, and the unmodelled part is read as decoding reads it
// (podstatus.Template.Comparable: resources: {} is no resources,
// quantities by value; podstatus/normal.go lists the residual
// differences).
//
// Source: upstream deployment_util.go EqualIgnoreHash (v1.36.3).
func sameTemplate(a, b *podstatus.Template) bool {
	if !sameLabelsIgnoringHash(a.Labels, b.Labels) {
		return false
	}
	ca, cb := *a, *b
	ca.Labels, cb.Labels = nil, nil
	return podstatus.Equal(&ca, &cb)
}

func sameLabelsIgnoringHash(a, b map[string]string) bool {
	n := 0
	for k, v := range a {
		if k == HashLabel {
			continue
		}
		n++
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	for k := range b {
		if k != HashLabel {
			n--
		}
	}
	return n == 0
}

var timeType = reflect.TypeFor[time.Time]()

// timeOf reads a time.Time value, even one reached through unexported fields.
func timeOf(v reflect.Value) time.Time {
	if v.CanInterface() {
		return v.Interface().(time.Time)
	}
	c := reflect.New(timeType).Elem()
	c.Set(reflect.NewAt(timeType, v.Addr().UnsafePointer()).Elem())
	return c.Interface().(time.Time)
}

// templateHash is kubesem's own pod-template-hash, used to name a created
// ReplicaSet when the caller gives no Deployment.TemplateHash: FNV-32a over a
// canonical walk of the modelled template (labels without pod-template-hash,
// map keys sorted) and the collision count, spelled in the same alphabet as
// upstream. It is stable across runs but is not the value Kubernetes computes.
func templateHash(t *podstatus.Template, collisionCount *int32) string {
	h := fnv.New32a()
	c := t.Comparable()
	if _, ok := c.Labels[HashLabel]; ok {
		c.Labels = nil
		for k, v := range t.Labels {
			if k != HashLabel {
				if c.Labels == nil {
					c.Labels = map[string]string{}
				}
				c.Labels[k] = v
			}
		}
	}
	hashValue(h, reflect.ValueOf(&c).Elem())
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:], uint32(*collisionCount))
		h.Write(b[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

func hashValue(h hash.Hash32, v reflect.Value) {
	var b [8]byte
	put := func(tag byte, n uint64) {
		binary.LittleEndian.PutUint64(b[:], n)
		h.Write([]byte{tag})
		h.Write(b[:])
	}
	if v.Type() == timeType {
		put('t', uint64(timeOf(v).UnixNano()))
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			put('n', 0)
			return
		}
		put('p', 0)
		hashValue(h, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			hashValue(h, v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		put('l', uint64(v.Len()))
		for i := range v.Len() {
			hashValue(h, v.Index(i))
		}
	case reflect.Map:
		put('m', uint64(v.Len()))
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int {
			if x.String() < y.String() {
				return -1
			}
			if x.String() > y.String() {
				return 1
			}
			return 0
		})
		for _, k := range keys {
			hashValue(h, k)
			hashValue(h, v.MapIndex(k))
		}
	case reflect.String:
		put('s', uint64(v.Len()))
		h.Write([]byte(v.String()))
	case reflect.Bool:
		if v.Bool() {
			put('b', 1)
		} else {
			put('b', 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		put('i', uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		put('u', v.Uint())
	case reflect.Float32, reflect.Float64:
		put('f', math.Float64bits(v.Float()))
	}
}

// safeEncode maps each byte of s into an alphabet without vowels or
// look-alike characters, as upstream's rand.SafeEncodeString does.
func safeEncode(s string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	b := []byte(s)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
