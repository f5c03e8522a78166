package difftest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/go-logr/logr"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/plan"
)

// TB is what the oracles need of *testing.T and *rapid.T.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Log discards what upstream logs; Kubesem is the conformance binding
// the oracles compare with.
var (
	Log     = logr.Discard()
	Kubesem = conformance.Kubesem()
)

// DecideJSON asks kubesem through the conformance binding and returns its
// JSON answer (an input error is an answer too: {"error": ...}).
func DecideJSON(t TB, decision string, options, input any) json.RawMessage {
	t.Helper()
	var o json.RawMessage
	if options != nil {
		o = Marshal(t, options)
	}
	out, err := Kubesem.Decide(decision, o, Marshal(t, input))
	if err != nil {
		t.Fatalf("%s: %v", decision, err)
	}
	return out
}

// Marshal is json.Marshal failing t on an error.
func Marshal(t TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// Encode writes an oracle's answer as kubesem writes its outputs
// (plan.Encode: durations as Go duration strings).
func Encode(t TB, v any) json.RawMessage {
	t.Helper()
	b, err := plan.Encode(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// SameValue reports whether two JSON documents are equal as values.
func SameValue(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// Oracle is upstream's answer to one input of a decision, in the
// binding's output shape.
type Oracle func(t TB, decision string, options, input json.RawMessage) json.RawMessage

// CheckWith runs one differential state: kubesem's answer through the
// binding against the upstream oracle's, exactly.
func CheckWith(t TB, oracle Oracle, decision string, options, input any) {
	t.Helper()
	var o json.RawMessage
	if options != nil {
		o = Marshal(t, options)
	}
	in := Marshal(t, input)
	want := oracle(t, decision, o, in)
	got := DecideJSON(t, decision, options, input)
	if !SameValue(want, got) {
		t.Fatalf("%s differs from v1.36.3\ninput:    %s\noptions:  %s\nkubesem:  %s\nupstream: %s", decision, in, o, got, want)
	}
}

// Decode unmarshals raw into v, failing t on an error; an empty raw
// leaves v alone.
func Decode(t TB, raw json.RawMessage, v any) {
	t.Helper()
	if len(raw) == 0 {
		return
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

// SetField sets the field name of the struct *obj to v, exported or not.
func SetField(obj any, name string, v any) {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

// ReplayVector is one vector of testdata/<pkg> as ReadReplayVectors
// reads it.
type ReplayVector struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Options   json.RawMessage `json:"options"`
	Want      json.RawMessage `json:"want"`
	WantError json.RawMessage `json:"wantError"`
}

// ReadReplayVectors reads every vector of testdata/<pkg>/*.json, each
// name prefixed with its file's; files that are not vector lists are
// skipped.
func ReadReplayVectors(t *testing.T, pkg string) []ReplayVector {
	t.Helper()
	files, err := filepath.Glob(Repo("testdata", pkg, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []ReplayVector
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []ReplayVector
		if err := json.Unmarshal(b, &vs); err != nil {
			continue // not a vector file
		}
		for i := range vs {
			vs[i].Name = filepath.Base(f) + ": " + vs[i].Name
		}
		out = append(out, vs...)
	}
	return out
}

// Replay replays the vectors of the given decisions through oracle: each
// want must hold of upstream's answer (conformance.Match: the keys a want
// states), and kubesem's whole answer through the binding must be
// upstream's. A wantError vector (an input API validation refuses) has no
// upstream answer and is left to the registry tests.
func Replay(t *testing.T, pkg string, decisions map[string]int, oracle Oracle) {
	ReplayCanon(t, pkg, decisions, oracle, func(_ TB, raw json.RawMessage) json.RawMessage { return raw })
}

// ReplayCanon is Replay comparing kubesem's and upstream's answers
// after canon.
func ReplayCanon(t *testing.T, pkg string, decisions map[string]int, oracle Oracle, canon func(TB, json.RawMessage) json.RawMessage) {
	impl := Kubesem
	seen := map[string]int{}
	for _, v := range ReadReplayVectors(t, pkg) {
		if _, ok := decisions[v.Decision]; !ok || v.Want == nil {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			up := oracle(t, v.Decision, v.Options, v.Input)
			if ok, why := conformance.Match(v.Want, up); !ok {
				t.Fatalf("the vector's want is not upstream's: %s\nvector:   %s\nupstream: %s", why, CompactJSON(v.Want), up)
			}
			got, err := impl.Decide(v.Decision, v.Options, v.Input)
			if err != nil {
				t.Fatal(err)
			}
			if !SameValue(canon(t, got), canon(t, up)) {
				t.Fatalf("kubesem differs from v1.36.3:\nupstream: %s\nkubesem:  %s", up, got)
			}
			seen[v.Decision]++
		})
	}
	for d, n := range decisions {
		if seen[d] < n {
			t.Errorf("%s: %d vectors replayed, want at least %d", d, seen[d], n)
		}
	}
}
