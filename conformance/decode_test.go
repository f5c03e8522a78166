package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	root "github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/podstatus"
)

// TestDecodeAsAPIServer: for every decision in the registry, the input of
// one of its vectors read as the API server reads JSON. A key that matches
// a field only when case is ignored is dropped inside the objects the input
// holds (the answer does not change although the variant carries a value
// that could not be read) and is an Unsupported error among the input's
// own keys and in the options; a key given twice is a Duplicate error at
// its path, wherever it is.
func TestDecodeAsAPIServer(t *testing.T) {
	t.Parallel()
	vs, err := Load(root.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]Vector{}
	for _, v := range vs {
		if b, ok := base[v.Decision]; !ok || b.WantError != nil && v.WantError == nil {
			base[v.Decision] = v
		}
	}
	impl := Kubesem()
	checks := 0
	defer func() { t.Logf("%d checks", checks) }()
	for _, d := range Registry() {
		v, ok := base[d.Name]
		if !ok {
			t.Errorf("%s: no vector", d.Name)
			continue
		}
		input, err := parseNode(v.Input)
		if err != nil {
			t.Fatalf("%s/%s: %v", v.Package, v.Name, err)
		}
		want, err := impl.Decide(d.Name, v.Options, v.Input)
		if err != nil {
			t.Fatalf("%s/%s: %v", v.Package, v.Name, err)
		}
		decide := func(what string, options, in json.RawMessage) json.RawMessage {
			got, err := impl.Decide(d.Name, options, in)
			if err != nil {
				t.Fatalf("%s/%s: %s: %v", v.Package, v.Name, what, err)
			}
			checks++
			return got
		}
		wantError := func(what string, got json.RawMessage, path, kind string) {
			var e errorOut
			if json.Unmarshal(got, &e) != nil || e.Error.Field != path || e.Error.Kind != kind {
				t.Errorf("%s/%s (%s): %s: got %s; want a %s error at %q", v.Package, v.Name, d.Name, what, got, kind, path)
			}
		}

		// The input's own keys: a case variant is unknown, a repeat is a
		// duplicate.
		if input.isObj && len(input.obj) > 0 {
			k := input.obj[0].key
			if vk, ok := caseVariant(k, jsonKeys(d.Input)); ok {
				m := input.clone()
				m.insert(1, vk, garbage(m.obj[0].val))
				wantError("top-level case variant "+vk, decide("variant", v.Options, m.encode()), vk, "Unsupported")
			}
			m := input.clone()
			m.insert(1, k, m.obj[0].val)
			wantError("top-level key "+k+" twice", decide("duplicate", v.Options, m.encode()), k, "Duplicate")
		}

		// Inside the objects: case variants dropped, repeats an error.
		n := 0
		forObjects(input, d.Input, "", func(obj *jnode, typ reflect.Type, path string) bool {
			for i, mem := range obj.obj {
				vk, ok := caseVariant(mem.key, jsonKeys(typ))
				if !ok || obj.has(vk) {
					continue
				}
				saved := obj.obj
				obj.obj = append([]jmember(nil), saved...)
				obj.insert(i+1, vk, garbage(mem.val))
				got := decide("variant", v.Options, input.encode())
				if !bytes.Equal(got, want) {
					t.Errorf("%s/%s (%s): %s: adding case variant %q changed the answer\n got: %s\nwant: %s", v.Package, v.Name, d.Name, path, vk, got, want)
				}
				obj.obj = append([]jmember(nil), saved...)
				obj.insert(i+1, mem.key, mem.val)
				wantError(path+" key twice", decide("duplicate", v.Options, input.encode()), joinKey(path, mem.key), "Duplicate")
				obj.obj = saved
				n++
				break
			}
			return n < 8
		})

		// Options: a misspelt key, a case variant and a repeat.
		wantError("misspelt option", decide("option", json.RawMessage(`{"noSuchOption":true}`), v.Input), "options.noSuchOption", "Unsupported")
		if opt, ok := firstKey(d.Options); ok {
			vk, _ := caseVariant(opt, nil)
			wantError("option case variant", decide("option", json.RawMessage(`{"`+vk+`":null}`), v.Input), "options."+vk, "Unsupported")
			wantError("option twice", decide("option", json.RawMessage(`{"`+opt+`":null,"`+opt+`":null}`), v.Input), "options."+opt, "Duplicate")
		}
	}
	if checks < 4*len(Registry()) {
		t.Errorf("only %d checks for %d decisions", checks, len(Registry()))
	}
}

// garbage is a value of another JSON kind than v, which no field that v
// fits can read.
func garbage(v *jnode) *jnode {
	if v.isArr {
		return &jnode{raw: json.RawMessage(`{"kubesem":"case variant"}`)}
	}
	return &jnode{raw: json.RawMessage(`[["case variant"]]`)}
}

// caseVariant returns k with its first letter's case flipped, when that
// is not a key of keys.
func caseVariant(k string, keys map[string]reflect.Type) (string, bool) {
	r, size := utf8.DecodeRuneInString(k)
	if !unicode.IsLetter(r) {
		return "", false
	}
	f := unicode.ToUpper(r)
	if unicode.IsUpper(r) {
		f = unicode.ToLower(r)
	}
	vk := string(f) + k[size:]
	_, clash := keys[vk]
	return vk, !clash
}

// firstKey returns the first tagged JSON key of the options type t.
func firstKey(t reflect.Type) (string, bool) {
	for _, f := range jsontag.Fields(t) {
		if f.Tagged {
			return f.Name, true
		}
	}
	return "", false
}

var templateType = reflect.TypeFor[podstatus.Template]()

// forObjects calls fn, depth first, on every object of n below the top
// that decodes into a struct by its fields (not a map, not a type with
// its own JSON form other than those that read their fields, not a pod
// template, which keeps what it does not model), until fn returns false.
func forObjects(n *jnode, t reflect.Type, path string, fn func(*jnode, reflect.Type, string) bool) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == templateType || opaque(t):
		return true
	case t.Kind() == reflect.Struct && n.isObj:
		if path != "" && !fn(n, t, path) {
			return false
		}
		keys := jsonKeys(t)
		for _, m := range n.obj {
			if ft, ok := keys[m.key]; ok && !forObjects(m.val, ft, joinKey(path, m.key), fn) {
				return false
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.isArr:
		for i, e := range n.arr {
			if !forObjects(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i), fn) {
				return false
			}
		}
	case t.Kind() == reflect.Slice && n.isObj:
		// A List object given for a list.
		for _, m := range n.obj {
			if m.key == "items" {
				return forObjects(m.val, t, joinKey(path, "items"), fn)
			}
		}
	case t.Kind() == reflect.Map && n.isObj:
		for _, m := range n.obj {
			if !forObjects(m.val, t.Elem(), joinKey(path, m.key), fn) {
				return false
			}
		}
	}
	return true
}

func joinKey(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// jnode is a JSON value whose objects keep their keys in order and may
// repeat one.
type jnode struct {
	isObj, isArr bool
	obj          []jmember
	arr          []*jnode
	raw          json.RawMessage
}

type jmember struct {
	key string
	val *jnode
}

func parseNode(raw json.RawMessage) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return readNode(dec)
}

func readNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		n := &jnode{isObj: true}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.obj = append(n.obj, jmember{kt.(string), v})
		}
		_, err := dec.Token()
		return n, err
	case json.Delim('['):
		n := &jnode{isArr: true}
		for dec.More() {
			v, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, v)
		}
		_, err := dec.Token()
		return n, err
	}
	b, err := json.Marshal(tok)
	return &jnode{raw: b}, err
}

func (n *jnode) encode() json.RawMessage {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

func (n *jnode) write(w io.Writer) {
	switch {
	case n.isObj:
		io.WriteString(w, "{")
		for i, m := range n.obj {
			if i > 0 {
				io.WriteString(w, ",")
			}
			k, _ := json.Marshal(m.key)
			w.Write(k)
			io.WriteString(w, ":")
			m.val.write(w)
		}
		io.WriteString(w, "}")
	case n.isArr:
		io.WriteString(w, "[")
		for i, e := range n.arr {
			if i > 0 {
				io.WriteString(w, ",")
			}
			e.write(w)
		}
		io.WriteString(w, "]")
	default:
		w.Write(n.raw)
	}
}

func (n *jnode) clone() *jnode {
	c := *n
	c.obj = append([]jmember(nil), n.obj...)
	return &c
}

func (n *jnode) insert(i int, key string, v *jnode) {
	n.obj = append(n.obj[:i], append([]jmember{{key, v}}, n.obj[i:]...)...)
}

func (n *jnode) has(key string) bool {
	for _, m := range n.obj {
		if m.key == key {
			return true
		}
	}
	return false
}

// TestDecodeSavedLease: a node health record's saved lease written with
// more of the Lease than kubesem keeps (namespace, uid, holderIdentity, as
// an older memory or a live object carries) decodes as the API server
// reads an object: the other fields are dropped and the answer is that of
// the name and renew time alone. A renew time given as null is none.
func TestDecodeSavedLease(t *testing.T) {
	t.Parallel()
	impl := Kubesem()
	in := func(saved string) json.RawMessage {
		return json.RawMessage(`{"node":{"metadata":{"name":"n","creationTimestamp":"2026-01-01T00:00:00Z"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}]}},` +
			`"lease":{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:55Z"}},` +
			`"health":{"probeTime":"2026-01-01T00:00:00Z","readyHeartbeat":"2026-01-01T00:00:00Z","known":true,"lease":` + saved + `},"now":"2026-01-01T00:01:00Z"}`)
	}
	decide := func(saved string) string {
		got, err := impl.Decide("node.UpdateHealth", nil, in(saved))
		if err != nil {
			t.Fatalf("%s: %v", saved, err)
		}
		return string(got)
	}
	for _, c := range []struct{ plain, more string }{
		{`{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:00Z"}}`,
			`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"n","namespace":"kube-node-lease","uid":"u"},"spec":{"holderIdentity":"n","leaseDurationSeconds":40,"renewTime":"2026-01-01T00:00:00Z"}}`},
		{`{"metadata":{"name":"n"},"spec":{}}`, `{"metadata":{"name":"n","namespace":"kube-node-lease"},"spec":{"renewTime":null}}`},
	} {
		if got, want := decide(c.more), decide(c.plain); got != want {
			t.Errorf("saved lease %s:\n got: %s\nwant: %s", c.more, got, want)
		}
	}
	// a saved lease without a renew time is not replaced by the renewal:
	// the probe time stays, the grace period runs out (and the status
	// write saves the lease seen); one with an earlier renew time is
	n := `"health":{"probeTime":"2026-01-01T00:00:00Z"`
	if got := decide(`{"metadata":{"name":"n"},"spec":{}}`); !strings.Contains(got, n) || !strings.Contains(got, `"write":true`) {
		t.Errorf("a saved lease without a renew time: %s", got)
	}
	if got := decide(`{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:00Z"}}`); strings.Contains(got, n) || !strings.Contains(got, `"write":false`) {
		t.Errorf("a saved lease renewed earlier: %s", got)
	}
}
