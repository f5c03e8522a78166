package check

import (
	"reflect"
	"testing"
)

// TestStringMapWalk: a map of strings walks, through stringMap, to the
// shape walk gives any map (a map in an unexported field is walked by
// reflection).
func TestStringMapWalk(t *testing.T) {
	type exported struct{ M map[string]string }
	type unexported struct{ m map[string]string }
	for _, m := range []map[string]string{nil, {}, {"a": "1"}, {"b": "2", "a": "1", "app": "web", "": "x"}} {
		var x, y shape
		hx := x.walk(reflect.ValueOf(exported{m}), 0)
		hy := y.walk(reflect.ValueOf(unexported{m}), 0)
		if hx != hy || !reflect.DeepEqual(x.strs, y.strs) || !reflect.DeepEqual(x.strH, y.strH) {
			t.Fatalf("%v: %x %v, want %x %v", m, hx, x.strs, hy, y.strs)
		}
	}
}
