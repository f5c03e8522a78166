package conformance

// The vectors hold every object in its API form only. This file is the
// generator that rewrote the vectors written in kubesem's earlier
// flattened forms (issue 20, step 1), and the check that none is left:
//
//	KUBESEM_REWRITE_VECTORS=1 go test ./conformance -run TestVectorsAPIForm
//
// rewrites every vector file under testdata in place; without the variable
// the test fails when a file would change. The rewrite only moves values
// (each converted value is the original JSON text), so it never changes a
// want; files it does not touch keep their bytes, and a touched file keeps
// its indentation and the spelling of every value.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestVectorsAPIForm fails when a vector still holds an object in a
// flattened form; with KUBESEM_REWRITE_VECTORS=1 it rewrites those files.
func TestVectorsAPIForm(t *testing.T) {
	rewrite := os.Getenv("KUBESEM_REWRITE_VECTORS") == "1"
	files, err := filepath.Glob("../testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no vector files")
	}
	for _, f := range files {
		old, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseJSONDoc(old)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if doc.kind != '[' {
			t.Fatalf("%s: not a list of vectors", f)
		}
		var changed []string
		for _, v := range doc.vals {
			if toAPIForm(v) {
				changed = append(changed, unquote(v.get("name")))
			}
		}
		if len(changed) == 0 {
			continue
		}
		if !rewrite {
			t.Errorf("%s: %d vectors hold a flattened object (first %q); run KUBESEM_REWRITE_VECTORS=1 go test ./conformance -run TestVectorsAPIForm", f, len(changed), changed[0])
			continue
		}
		if err := os.WriteFile(f, doc.encode(old), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: rewrote %d vectors", f, len(changed))
	}
}

// TestJSONDocRoundTrip checks that the generator's reader and writer give
// back every vector file byte for byte, so that a rewrite touches only what
// it converts.
func TestJSONDocRoundTrip(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseJSONDoc(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := doc.encode(b); !bytes.Equal(got, b) {
			t.Errorf("%s: the generator does not write the file back as it was", f)
		}
	}
}

// TestAPIFormConversions checks each conversion on a small vector.
func TestAPIFormConversions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`{"decision":"statefulset.Step","input":{"pods":[{"metadata":{"name":"web-0"},"volumes":[{"name":"www","claimName":"www-web-0"},{"name":"tmp"}]}],"claims":null}}`,
			`{"decision":"statefulset.Step","input":{"pods":[{"metadata":{"name":"web-0"},"spec":{"volumes":[{"name":"www","persistentVolumeClaim":{"claimName":"www-web-0"}},{"name":"tmp"}]}}],"claims":null}}`},
		{`{"decision":"statefulset.Step","input":{"pods":[{"metadata":{"name":"web-0"},"spec":{"nodeName":"n"},"volumes":[]}]}}`,
			`{"decision":"statefulset.Step","input":{"pods":[{"metadata":{"name":"web-0"},"spec":{"nodeName":"n","volumes":[]}}]}}`},
	} {
		doc, err := parseJSONDoc([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if !toAPIForm(doc) {
			t.Errorf("%s: not converted", c.in)
		}
		if got := string(doc.encode(nil)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
		if toAPIForm(doc) {
			t.Errorf("%s: converted twice", c.in)
		}
	}
}

// toAPIForm rewrites the flattened objects of one vector into their API
// form and reports whether it changed anything.
func toAPIForm(v *jsonNode) bool {
	in := v.get("input")
	if in == nil || in.kind != '{' {
		return false
	}
	changed := false
	switch unquote(v.get("decision")) {
	case "statefulset.Step":
		for _, p := range in.get("pods").elems() {
			changed = podVolumesToSpec(p) || changed
		}
	}
	return changed
}

// podVolumesToSpec moves a statefulset pod's flattened "volumes"
// ([{name, claimName}]) to spec.volumes ([{name, persistentVolumeClaim:
// {claimName}}]); the flattened list was read in preference to spec.volumes.
func podVolumesToSpec(p *jsonNode) bool {
	vols := p.get("volumes")
	if p.kind != '{' || vols == nil {
		return false
	}
	p.del("volumes")
	if vols.kind == '[' {
		for _, vol := range vols.vals {
			if c := vol.get("claimName"); c != nil {
				vol.del("claimName")
				vol.set("persistentVolumeClaim", object("claimName", c))
			}
		}
	}
	spec := p.get("spec")
	if spec == nil || spec.kind != '{' {
		spec = object()
		p.set("spec", spec)
	}
	spec.set("volumes", vols)
	return true
}

// jsonNode is a JSON value that keeps the order of object keys and the
// exact text of every scalar.
type jsonNode struct {
	kind byte     // '{', '[' or 's' (a scalar: string, number, true, false, null)
	keys []string // an object's keys, decoded
	rkey []string // and as written
	vals []*jsonNode
	raw  string // a scalar's text
}

func object(kv ...any) *jsonNode {
	o := &jsonNode{kind: '{'}
	for i := 0; i < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1].(*jsonNode))
	}
	return o
}

func scalar(raw string) *jsonNode { return &jsonNode{kind: 's', raw: raw} }

func (n *jsonNode) get(k string) *jsonNode {
	if n == nil || n.kind != '{' {
		return nil
	}
	if i := slices.Index(n.keys, k); i >= 0 {
		return n.vals[i]
	}
	return nil
}

// set replaces k's value or appends k.
func (n *jsonNode) set(k string, v *jsonNode) {
	if i := slices.Index(n.keys, k); i >= 0 {
		n.vals[i] = v
		return
	}
	n.keys = append(n.keys, k)
	n.rkey = append(n.rkey, strconv.Quote(k))
	n.vals = append(n.vals, v)
}

func (n *jsonNode) del(k string) {
	if i := slices.Index(n.keys, k); i >= 0 {
		n.keys = slices.Delete(n.keys, i, i+1)
		n.rkey = slices.Delete(n.rkey, i, i+1)
		n.vals = slices.Delete(n.vals, i, i+1)
	}
}

// elems returns a list's elements (none for anything else).
func (n *jsonNode) elems() []*jsonNode {
	if n == nil || n.kind != '[' {
		return nil
	}
	return n.vals
}

// unquote returns a string scalar's value ("" for anything else).
func unquote(n *jsonNode) string {
	if n == nil || n.kind != 's' {
		return ""
	}
	s, err := strconv.Unquote(n.raw)
	if err != nil {
		return ""
	}
	return s
}

func parseJSONDoc(b []byte) (*jsonNode, error) {
	p := &jsonParser{b: b}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, fmt.Errorf("offset %d: trailing data", p.i)
	}
	return n, nil
}

type jsonParser struct {
	b []byte
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.b) && strings.IndexByte(" \t\r\n", p.b[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsonParser) value() (*jsonNode, error) {
	p.space()
	if p.i >= len(p.b) {
		return nil, fmt.Errorf("offset %d: unexpected end", p.i)
	}
	switch c := p.b[p.i]; c {
	case '{', '[':
		n := &jsonNode{kind: c}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == end {
			p.i++
			return n, nil
		}
		for {
			if c == '{' {
				p.space()
				k, err := p.str()
				if err != nil {
					return nil, err
				}
				key, err := strconv.Unquote(k)
				if err != nil {
					return nil, fmt.Errorf("offset %d: key %s: %v", p.i, k, err)
				}
				p.space()
				if p.i >= len(p.b) || p.b[p.i] != ':' {
					return nil, fmt.Errorf("offset %d: want ':'", p.i)
				}
				p.i++
				n.keys = append(n.keys, key)
				n.rkey = append(n.rkey, k)
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			p.space()
			if p.i >= len(p.b) {
				return nil, fmt.Errorf("offset %d: unexpected end", p.i)
			}
			if p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.b[p.i] != end {
				return nil, fmt.Errorf("offset %d: want ',' or %q", p.i, end)
			}
			p.i++
			return n, nil
		}
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return scalar(s), nil
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte(",}] \t\r\n", p.b[p.i]) < 0 {
			p.i++
		}
		return scalar(string(p.b[start:p.i])), nil
	}
}

// str reads a JSON string and returns its text with the quotes.
func (p *jsonParser) str() (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", fmt.Errorf("offset %d: want a string", p.i)
	}
	start := p.i
	for p.i++; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return string(p.b[start:p.i]), nil
		}
	}
	return "", fmt.Errorf("offset %d: unterminated string", start)
}

// encode writes n in the layout of orig: indented by orig's unit (the
// white space before its second line's first token; none writes compact
// JSON), empty objects and lists as {} and [], and orig's trailing newline.
func (n *jsonNode) encode(orig []byte) []byte {
	indent := ""
	if i := bytes.IndexByte(orig, '\n'); i >= 0 {
		rest := orig[i+1:]
		j := 0
		for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t') {
			j++
		}
		indent = string(rest[:j])
	}
	var b bytes.Buffer
	n.write(&b, indent, 0)
	if bytes.HasSuffix(orig, []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func (n *jsonNode) write(b *bytes.Buffer, indent string, depth int) {
	if n.kind == 's' {
		b.WriteString(n.raw)
		return
	}
	end := byte('}')
	if n.kind == '[' {
		end = ']'
	}
	b.WriteByte(n.kind)
	if len(n.vals) == 0 {
		b.WriteByte(end)
		return
	}
	newline := func(d int) {
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(indent, d))
		}
	}
	for i, v := range n.vals {
		if i > 0 {
			b.WriteByte(',')
		}
		newline(depth + 1)
		if n.kind == '{' {
			b.WriteString(n.rkey[i])
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
		}
		v.write(b, indent, depth+1)
	}
	newline(depth)
	b.WriteByte(end)
}
