package plan_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/kubesem/kubesem/plan"
)

type inner struct {
	N int32 `json:"n"`
}

type sample struct {
	inner
	Requeue []plan.Requeue        `json:"requeue"`
	Events  []plan.Event          `json:"events,omitempty"`
	At      time.Time             `json:"at"`
	Zero    time.Time             `json:"zero,omitzero"`
	Ptr     *time.Time            `json:"ptr,omitempty"`
	Labels  map[string]int        `json:"labels"`
	Skip    string                `json:"-"`
	Plain   int                   // no tag: Go name
	Raw     json.RawMessage       `json:"raw,omitempty"`
	Create  plan.Creation[string] `json:"create"`
	hidden  int
}

func TestEncode(t *testing.T) {
	t.Parallel()
	zone := time.FixedZone("X", 3600)
	s := sample{
		inner:   inner{N: 7},
		Requeue: []plan.Requeue{{After: 90 * time.Second, Reason: "R"}},
		At:      time.Date(2026, 1, 2, 4, 5, 6, 500, zone),
		Labels:  map[string]int{"b": 2, "a": 1},
		Skip:    "x",
		Plain:   3,
		Raw:     json.RawMessage(`{ "k" : 1 }`),
		hidden:  1,
	}
	got, err := plan.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"n":7,"requeue":[{"after":"1m30s","reason":"R"}],"at":"2026-01-02T03:05:06.0000005Z","labels":{"a":1,"b":2},"Plain":3,"raw":{"k":1},"create":{"count":0}}`
	if string(got) != want {
		t.Errorf("Encode = %s\nwant     %s", got, want)
	}
	if _, err := plan.Encode(math.NaN()); err == nil {
		t.Error("Encode(NaN): want an error")
	}
	if _, err := plan.Encode(make(chan int)); err == nil {
		t.Error("Encode(chan): want an error")
	}
	got, err = plan.Encode(struct {
		S []int          `json:"s"`
		M map[string]int `json:"m"`
		H string         `json:"h"`
	}{H: "<&>"})
	if err != nil || string(got) != `{"s":[],"m":{},"h":"<&>"}` {
		t.Errorf("Encode(nil slice, nil map) = %s, %v", got, err)
	}
}

// selfMarshal implements MarshalJSON with Encode: the top-level call must not
// recurse, a nested one must use it.
type selfMarshal struct {
	D time.Duration `json:"d"`
}

func (s selfMarshal) MarshalJSON() ([]byte, error) { return plan.Encode(s) }

func TestEncodeMarshalerPlans(t *testing.T) {
	t.Parallel()
	got, err := json.Marshal([]selfMarshal{{D: time.Second}})
	if err != nil || string(got) != `[{"d":"1s"}]` {
		t.Errorf("json.Marshal = %s, %v", got, err)
	}
}
