package difftest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// JSONDiff compares two values as JSON.
func JSONDiff(t *testing.T, up, ks any) string {
	t.Helper()
	ub, err := json.Marshal(up)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := json.Marshal(ks)
	if err != nil {
		t.Fatal(err)
	}
	var um, km any
	_ = json.Unmarshal(ub, &um)
	_ = json.Unmarshal(kb, &km)
	if reflect.DeepEqual(um, km) {
		return ""
	}
	return strings.Join([]string{"\n\tupstream " + string(ub), "\n\tkubesem  " + string(kb)}, "")
}

// Canonical encodes v as the API server would (no HTML escaping), without
// the final newline; it panics when v cannot be encoded.
func Canonical(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// CanonicalRaw is raw re-encoded by Canonical, numbers kept as written
// (json.Number): two JSON values are equal when their CanonicalRaw are.
func CanonicalRaw(raw json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	return Canonical(v)
}

// SameSet reports whether a and b hold the same strings, in any order
// (counting repeats).
func SameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// CompactJSON is b without insignificant space, or b itself when it is
// not JSON.
func CompactJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}
