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
	for f, convert := range apiFormInputs {
		old, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseJSONDoc(old)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !convert(doc) {
			continue
		}
		if !rewrite {
			t.Errorf("%s holds a flattened object; run KUBESEM_REWRITE_VECTORS=1 go test ./conformance -run TestVectorsAPIForm", f)
			continue
		}
		if err := os.WriteFile(f, doc.encode(old), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: rewrote", f)
	}
}

// apiFormInputs are the input files besides the vectors that hold objects
// (the CLI's test inputs), with their conversion. None today: the CLI's
// drain_cluster.json went with simulate drain --cluster, when the
// simulations moved onto the cluster package's world.
var apiFormInputs = map[string]func(*jsonNode) bool{}

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
		{`{"decision":"statefulset.Step","input":{"set":{"spec":{"volumeClaimTemplates":["www",{"metadata":{"name":"x"}}]}},"revisions":[{"name":"web-v1","revision":1},{"metadata":{"name":"m"},"revision":2}],"claims":[{"name":"www-web-0","uid":"u","ownerReferences":[]}]}}`,
			`{"decision":"statefulset.Step","input":{"set":{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"www"}},{"metadata":{"name":"x"}}]}},"revisions":[{"metadata":{"name":"web-v1"},"revision":1},{"metadata":{"name":"m"},"revision":2}],"claims":[{"metadata":{"name":"www-web-0","uid":"u","ownerReferences":[]}}]}}`},
		{`{"decision":"statefulset.ClaimIsStale","input":{"claim":{"name":"c","ownerReferences":[{"uid":"p"}]},"pod":{"name":"web-0"}}}`,
			`{"decision":"statefulset.ClaimIsStale","input":{"claim":{"metadata":{"name":"c","ownerReferences":[{"uid":"p"}]}},"pod":{"name":"web-0"}}}`},
		{`{"decision":"daemonset.Step","input":{"history":{"hash":"h2","revisions":[{"name":"ds-h1","revision":1,"hash":"h1"},{"name":"ds-x","revision":2}]}}}`,
			`{"decision":"daemonset.Step","input":{"history":{"hash":"h2","revisions":[{"metadata":{"name":"ds-h1","labels":{"controller-revision-hash":"h1"}},"revision":1},{"metadata":{"name":"ds-x","labels":{"controller-revision-hash":""}},"revision":2}]}}}`},
		{`{"decision":"pdb.Step","input":{"controllers":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","owner":{"kind":"Deployment","name":"d","uid":"du"},"replicas":3},{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"ju"}]}}`,
			`{"decision":"pdb.Step","input":{"controllers":[{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs","uid":"u","ownerReferences":[{"kind":"Deployment","name":"d","uid":"du","controller":true}]},"spec":{"replicas":3}},{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","uid":"ju"},"spec":{}}]}}`},
		{`{"decision":"pdb.Drain","input":{"cluster":{"nodes":[{"name":"a"},{"name":"b","capacity":2,"unschedulable":true},{"name":"c","capacity":0}],"controllers":[{"apiVersion":"v1","kind":"ReplicationController","name":"db","uid":"db","replicas":4}]}}}`,
			`{"decision":"pdb.Drain","input":{"cluster":{"nodes":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"unschedulable":true},"status":{"allocatable":{"pods":"2"}}},{"metadata":{"name":"c"}}],"controllers":[{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"db","uid":"db"},"spec":{"replicas":4}}]}}}`},
		{`{"decision":"node.Step","input":{"leases":[{"name":"n","renewTime":"t"}],"memory":{"nodes":{"n":{"probeTime":"p","lease":{"name":"n","renewTime":"t0"}}}}},"want":{"memory":{"nodes":{"n":{"lease":{"name":"n","renewTime":"t"}}}}}}`,
			`{"decision":"node.Step","input":{"leases":[{"metadata":{"name":"n"},"spec":{"renewTime":"t"}}],"memory":{"nodes":{"n":{"probeTime":"p","lease":{"metadata":{"name":"n"},"spec":{"renewTime":"t0"}}}}}},"want":{"memory":{"nodes":{"n":{"lease":{"metadata":{"name":"n"},"spec":{"renewTime":"t"}}}}}}}`},
		{`{"decision":"podgc.Step","input":{"pods":[],"nodes":[{"metadata":{"name":"a"},"unlisted":true},{"metadata":{"name":"b"},"unlisted":false},{"metadata":{"name":"c"}}],"now":"x"}}`,
			`{"decision":"podgc.Step","input":{"pods":[],"nodes":[{"metadata":{"name":"b"}},{"metadata":{"name":"c"}}],"unlisted":["a"],"now":"x"}}`},
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
	// wants that hold an object re-shaped here: the node lifecycle
	// controller's memory keeps a Lease
	var wants []*jsonNode
	if w := v.get("want"); w != nil {
		wants = append(wants, w)
	}
	wants = append(wants, v.get("wantOneOf").elems()...)
	switch unquote(v.get("decision")) {
	case "node.Step":
		for _, l := range in.get("leases").elems() {
			changed = leaseToAPI(l) || changed
		}
		for _, m := range append([]*jsonNode{in}, wants...) {
			for _, h := range m.get("memory").get("nodes").members() {
				changed = leaseToAPI(h.get("lease")) || changed
			}
		}
	case "node.UpdateHealth":
		changed = leaseToAPI(in.get("lease"))
		for _, m := range append([]*jsonNode{in}, wants...) {
			changed = leaseToAPI(m.get("health").get("lease")) || changed
		}
	case "statefulset.Step":
		for _, p := range in.get("pods").elems() {
			changed = podVolumesToSpec(p) || changed
		}
		for _, r := range in.get("revisions").elems() {
			changed = flatToMetadata(r, "name", "creationTimestamp") || changed
		}
		for _, c := range in.get("claims").elems() {
			changed = flatToMetadata(c, claimKeys...) || changed
		}
		changed = claimTemplates(in.get("set")) || changed
	case "statefulset.ClaimIsStale", "statefulset.ClaimOwnerRefs", "statefulset.ClaimOwnerUpToDate":
		changed = flatToMetadata(in.get("claim"), claimKeys...)
	case "daemonset.Step":
		for _, r := range in.get("history").get("revisions").elems() {
			changed = daemonRevision(r) || changed
		}
		changed = in.rename("backoff", "memory") || changed
	case "job.Step":
		changed = in.rename("backoff", "memory")
	case "node.EvictionStep":
		changed = in.rename("scheduled", "memory")
	case "podgc.Step":
		changed = unlistedNodes(in)
	case "pdb.ExpectedPods", "pdb.Step":
		changed = pdbControllers(in)
	case "pdb.Drain":
		changed = pdbControllers(in.get("cluster"))
		changed = drainNodes(in.get("cluster")) || changed
	}
	return changed
}

// drainNodes rewrites the nodes of a drain cluster, formerly {name,
// capacity?, unschedulable?}, as node.Node objects: {metadata: {name},
// spec: {unschedulable}, status: {allocatable: {pods}}}; a capacity of 0
// meant no limit, which is no allocatable pods.
func drainNodes(cluster *jsonNode) bool {
	changed := false
	for _, n := range cluster.get("nodes").elems() {
		if n.kind != '{' || n.get("metadata") != nil {
			continue
		}
		name, capacity, unsched := n.get("name"), n.get("capacity"), n.get("unschedulable")
		out := object("metadata", object())
		if name != nil {
			out.get("metadata").set("name", name)
		}
		if unsched != nil {
			out.set("spec", object("unschedulable", unsched))
		}
		if capacity != nil && capacity.raw != "0" && capacity.raw != "null" {
			out.set("status", object("allocatable", object("pods", scalar(strconv.Quote(capacity.raw)))))
		}
		*n = *out
		changed = true
	}
	return changed
}

// pdbControllers rewrites the flattened controllers of a disruption
// controller input ({apiVersion, kind, name, uid, owner?, replicas?}) as
// the API objects they stand for: {apiVersion, kind, metadata: {name, uid,
// ownerReferences: [owner]}, spec: {replicas}}. The former owner was the
// object's controller reference whatever its controller mark; it becomes
// one marked controller: true.
func pdbControllers(in *jsonNode) bool {
	changed := false
	for _, c := range in.get("controllers").elems() {
		if c.kind != '{' || c.get("metadata") != nil {
			continue
		}
		md := object()
		for _, k := range []string{"name", "uid"} {
			if v := c.get(k); v != nil {
				md.set(k, v)
			}
		}
		if o := c.get("owner"); o != nil && o.raw != "null" {
			if o.kind == '{' {
				o.set("controller", scalar("true"))
			}
			md.set("ownerReferences", &jsonNode{kind: '[', vals: []*jsonNode{o}})
		}
		spec := object()
		if r := c.get("replicas"); r != nil {
			spec.set("replicas", r)
		}
		for _, k := range []string{"name", "uid", "owner", "replicas"} {
			c.del(k)
		}
		c.set("metadata", md)
		c.set("spec", spec)
		changed = true
	}
	return changed
}

// leaseToAPI rewrites a node Lease's flattened form {name, renewTime} as
// the API object {metadata: {name}, spec: {renewTime}}.
func leaseToAPI(l *jsonNode) bool {
	if l == nil || l.kind != '{' || l.get("metadata") != nil || l.get("spec") != nil {
		return false
	}
	name, rt := l.get("name"), l.get("renewTime")
	if name == nil && rt == nil {
		return false
	}
	md, spec := object(), object()
	if name != nil {
		md.set("name", name)
	}
	if rt != nil {
		spec.set("renewTime", rt)
	}
	l.del("name")
	l.del("renewTime")
	l.keys = append([]string{"metadata", "spec"}, l.keys...)
	l.rkey = append([]string{`"metadata"`, `"spec"`}, l.rkey...)
	l.vals = append([]*jsonNode{md, spec}, l.vals...)
	return true
}

// claimKeys are the metadata fields of the former flattened claim.
var claimKeys = []string{"name", "uid", "deletionTimestamp", "ownerReferences"}

// flatToMetadata moves an object's flattened metadata fields keys (the
// former form of a PersistentVolumeClaim or a StatefulSet's
// ControllerRevision) under "metadata", in that order, first in the
// object. The former decoder read a flattened object only when its "name"
// was set, and otherwise the metadata; the flattened fields it then
// ignored are dropped.
func flatToMetadata(o *jsonNode, keys ...string) bool {
	if o == nil || o.kind != '{' {
		return false
	}
	var found bool
	for _, k := range keys {
		found = found || o.get(k) != nil
	}
	if !found {
		return false
	}
	md := o.get("metadata")
	if name := o.get("name"); md != nil && (name == nil || unquote(name) == "") {
		for _, k := range keys {
			o.del(k)
		}
		return true
	}
	md = object()
	for _, k := range keys {
		if v := o.get(k); v != nil {
			md.set(k, v)
			o.del(k)
		}
	}
	o.del("metadata")
	o.keys = append([]string{"metadata"}, o.keys...)
	o.rkey = append([]string{`"metadata"`}, o.rkey...)
	o.vals = append([]*jsonNode{md}, o.vals...)
	return true
}

// daemonRevision rewrites a DaemonSet's flattened revision {name,
// revision, hash} as a ControllerRevision whose controller-revision-hash
// label is the hash (an empty label for an absent hash: the former form's
// hash was then empty, where an unlabelled revision stands for its name).
func daemonRevision(r *jsonNode) bool {
	if r == nil || r.kind != '{' {
		return false
	}
	name, hash := r.get("name"), r.get("hash")
	if name == nil && hash == nil {
		return false
	}
	if md := r.get("metadata"); md != nil && (name == nil || unquote(name) == "") {
		if hash != nil && unquote(hash) != "" {
			labels := md.get("labels")
			if labels == nil {
				labels = object()
				md.set("labels", labels)
			}
			labels.set("controller-revision-hash", hash)
		}
		r.del("name")
		r.del("hash")
		return true
	}
	if hash == nil {
		hash = scalar(`""`)
	}
	md := object()
	if name != nil {
		md.set("name", name)
	}
	md.set("labels", object("controller-revision-hash", hash))
	r.del("name")
	r.del("hash")
	r.del("metadata")
	r.keys = append([]string{"metadata"}, r.keys...)
	r.rkey = append([]string{`"metadata"`}, r.rkey...)
	r.vals = append([]*jsonNode{md}, r.vals...)
	return true
}

// claimTemplates rewrites a StatefulSet's volume claim templates given by
// name as PersistentVolumeClaims with that name.
func claimTemplates(set *jsonNode) bool {
	changed := false
	for i, t := range set.get("spec").get("volumeClaimTemplates").elems() {
		if t.kind == 's' {
			set.get("spec").get("volumeClaimTemplates").vals[i] = object("metadata", object("name", t))
			changed = true
		}
	}
	return changed
}

// unlistedNodes moves the podgc nodes marked "unlisted": true (the API has
// them, the informer cache does not) out of input.nodes into the list of
// names input.unlisted, after nodes; the collector read nothing but the
// name of such a node.
func unlistedNodes(in *jsonNode) bool {
	nodes := in.get("nodes")
	var names []*jsonNode
	if nodes != nil && nodes.kind == '[' {
		kept := nodes.vals[:0:0]
		for _, n := range nodes.vals {
			if u := n.get("unlisted"); u != nil {
				if u.raw == "true" {
					names = append(names, n.get("metadata").get("name"))
					continue
				}
				n.del("unlisted")
			}
			kept = append(kept, n)
		}
		if len(kept) == len(nodes.vals) && names == nil {
			return false
		}
		nodes.vals = kept
	}
	if names == nil {
		return true
	}
	list := &jsonNode{kind: '['}
	list.vals = names
	if prev := in.get("unlisted"); prev != nil {
		list.vals = append(prev.elems(), names...)
	}
	in.setAfter("unlisted", "nodes", list)
	return true
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

// setAfter replaces k's value or inserts k right after the key after (at
// the end when there is none).
func (n *jsonNode) setAfter(k, after string, v *jsonNode) {
	if i := slices.Index(n.keys, k); i >= 0 {
		n.vals[i] = v
		return
	}
	i := slices.Index(n.keys, after) + 1
	if i == 0 {
		i = len(n.keys)
	}
	n.keys = slices.Insert(n.keys, i, k)
	n.rkey = slices.Insert(n.rkey, i, strconv.Quote(k))
	n.vals = slices.Insert(n.vals, i, v)
}

// rename renames key k to to in place (VOCABULARY.md §1: controller
// memory is "memory" in every input and Plan) and reports whether it did.
func (n *jsonNode) rename(k, to string) bool {
	i := slices.Index(n.keys, k)
	if i < 0 || slices.Contains(n.keys, to) {
		return false
	}
	n.keys[i], n.rkey[i] = to, strconv.Quote(to)
	return true
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

// members returns an object's values (none for anything else).
func (n *jsonNode) members() []*jsonNode {
	if n == nil || n.kind != '{' {
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
