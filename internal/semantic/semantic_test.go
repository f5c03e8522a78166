package semantic_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/semantic"
)

type inner struct {
	Values []string
	M      map[string]string
}

type outer struct {
	P      *inner
	At     time.Time
	N      *int32
	L      []inner
	hidden int
}

func TestEqual(t *testing.T) {
	one, two := int32(1), int32(2)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"nil and empty slice", outer{L: nil}, outer{L: []inner{}}, true},
		{"nil and empty map", inner{M: nil}, inner{M: map[string]string{}}, true},
		{"nil pointer and pointer to zero", outer{P: nil}, outer{P: &inner{}}, false},
		{"pointers to equal values", outer{N: &one}, outer{N: func() *int32 { v := int32(1); return &v }()}, true},
		{"pointers to different values", outer{N: &one}, outer{N: &two}, false},
		{"times as instants", outer{At: at}, outer{At: at.In(time.FixedZone("x", 3600))}, true},
		{"different times", outer{At: at}, outer{At: at.Add(1)}, false},
		{"nested empty values", outer{L: []inner{{Values: nil}}}, outer{L: []inner{{Values: []string{}}}}, true},
		{"nested values differ", outer{L: []inner{{Values: []string{"a"}}}}, outer{L: []inner{{Values: []string{"b"}}}}, false},
		{"map values differ", inner{M: map[string]string{"a": "1"}}, inner{M: map[string]string{"a": "2"}}, false},
		{"map keys differ", inner{M: map[string]string{"a": "1"}}, inner{M: map[string]string{"b": "1"}}, false},
		{"unexported fields count", outer{hidden: 1}, outer{hidden: 2}, false},
		{"different types", int32(1), int64(1), false},
		{"both nil", nil, nil, true},
		{"one nil", nil, 1, false},
	} {
		if got := semantic.Equal(c.a, c.b); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
	}
}

// A time behind an unexported field is compared as an instant when it can
// be read through its address, and never panics when it cannot.
func TestEqualValuesUnexportedTime(t *testing.T) {
	type holder struct{ at time.Time }
	utc := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b := &holder{utc}, &holder{utc.In(time.FixedZone("x", 3600))}
	if !semantic.EqualValues(reflect.ValueOf(a), reflect.ValueOf(b)) {
		t.Error("one instant in two zones, through pointers: want equal")
	}
	if semantic.EqualValues(reflect.ValueOf(a), reflect.ValueOf(&holder{utc.Add(time.Second)})) {
		t.Error("two instants: want unequal")
	}
	_ = semantic.Equal(holder{utc}, holder{utc}) // (not addressable: compared field by field, no panic)
	if !semantic.Equal(holder{utc}, holder{utc}) {
		t.Error("equal values: want equal")
	}
}
