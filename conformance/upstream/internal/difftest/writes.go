package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kubesem/kubesem/plan"
)

// WriteKey is what the Writes replays compare of one API request: verb,
// resource, subresource, namespace, name, the uid it names (a patch's or
// delete's precondition, an update's object's uid) and a delete's grace
// period ("" when the request leaves it to the object).
type WriteKey struct {
	Verb, Resource, Subresource, Namespace, Name, UID, Grace string
}

func (k WriteKey) String() string {
	s := k.Verb + " " + k.Resource
	if k.Subresource != "" {
		s += "/" + k.Subresource
	}
	s += " " + k.Namespace + "/" + k.Name
	if k.UID != "" {
		s += " uid=" + k.UID
	}
	if k.Grace != "" {
		s += " grace=" + k.Grace
	}
	return s
}

// WriteKeyOfAction reads a fake clientset's action as a WriteKey; ok is
// false for reads (get, list, watch).
func WriteKeyOfAction(a clienttesting.Action) (k WriteKey, ok bool, err error) {
	k = WriteKey{Verb: a.GetVerb(), Resource: a.GetResource().Resource, Subresource: a.GetSubresource(), Namespace: a.GetNamespace()}
	switch x := a.(type) {
	case clienttesting.DeleteAction:
		k.Name = x.GetName()
		o := x.GetDeleteOptions()
		if o.GracePeriodSeconds != nil {
			k.Grace = strconv.FormatInt(*o.GracePeriodSeconds, 10)
		}
		if o.Preconditions != nil && o.Preconditions.UID != nil {
			k.UID = string(*o.Preconditions.UID)
		}
	case clienttesting.PatchAction:
		k.Name = x.GetName()
		var p struct {
			Metadata struct {
				UID string `json:"uid"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(x.GetPatch(), &p); err != nil {
			return k, false, fmt.Errorf("patch %s: %v", x.GetPatch(), err)
		}
		k.UID = p.Metadata.UID
	case clienttesting.UpdateAction:
		m, err := meta.Accessor(x.GetObject())
		if err != nil {
			return k, false, err
		}
		k.Name, k.UID = m.GetName(), string(m.GetUID())
	case clienttesting.CreateAction:
		m, err := meta.Accessor(x.GetObject())
		if err != nil {
			return k, false, err
		}
		k.Name = m.GetName()
	default:
		return k, false, nil
	}
	return k, true, nil
}

// WriteKeyOf reads a kubesem plan.Write as a WriteKey.
func WriteKeyOf(w plan.Write) WriteKey {
	k := WriteKey{Verb: string(w.Verb), Resource: w.Resource, Subresource: w.Subresource, Namespace: w.Namespace, Name: w.Name, UID: w.UID}
	if w.GracePeriodSeconds != nil {
		k.Grace = strconv.FormatInt(*w.GracePeriodSeconds, 10)
	}
	return k
}

// WriteKeysOfActions reads every write among actions, in order.
func WriteKeysOfActions(as []clienttesting.Action) ([]WriteKey, error) {
	var out []WriteKey
	for _, a := range as {
		k, ok, err := WriteKeyOfAction(a)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, k)
		}
	}
	return out, nil
}

// RewriteVectorWants rewrites the wants of a vector file: for each vector
// (its keys in the file's order decision, name, source, options, input,
// want, wantError), want(v) returns the new want, or nil to keep it. The
// file is written indented with indent, other vectors byte for byte as
// JSON values. It returns how many wants changed.
func RewriteVectorWants(file, indent string, want func(v map[string]json.RawMessage) (json.RawMessage, error)) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var vs []map[string]json.RawMessage
	if err := json.Unmarshal(data, &vs); err != nil {
		return 0, err
	}
	order := []string{"decision", "name", "source", "options", "input", "want", "wantError"}
	var out [][]byte
	n := 0
	for _, v := range vs {
		for k := range v {
			if !slices.Contains(order, k) {
				return 0, fmt.Errorf("%s: unexpected key %q", v["name"], k)
			}
		}
		w, err := want(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", v["name"], err)
		}
		if w != nil {
			var a, b bytes.Buffer
			_ = json.Compact(&a, v["want"])
			if err := json.Compact(&b, w); err != nil {
				return 0, err
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				v["want"] = b.Bytes()
				n++
			}
		}
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		for _, k := range order {
			if v[k] == nil {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(v[k])
		}
		b.WriteByte('}')
		out = append(out, b.Bytes())
	}
	var b bytes.Buffer
	raw := append([]byte("["), bytes.Join(out, []byte(","))...)
	raw = append(raw, ']')
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return 0, err
	}
	if err := json.Indent(&b, c.Bytes(), "", indent); err != nil {
		return 0, err
	}
	if bytes.HasSuffix(data, []byte("\n")) {
		b.WriteByte('\n')
	}
	return n, os.WriteFile(file, b.Bytes(), 0o644)
}
