package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
)

// apiObjects decodes every object of a checked-in dump into its typed API
// object (what an API server would hold).
func apiObjects(t *testing.T, path string) []runtime.Object {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := documents(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []runtime.Object
	var add func(raw []byte)
	add = func(raw []byte) {
		var l struct {
			Items []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(raw, &l) == nil && l.Items != nil {
			for _, it := range l.Items {
				add(it)
			}
			return
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, obj)
	}
	for _, d := range docs {
		add(d)
	}
	return out
}

// fakeCluster is a fake clientset holding the objects of a dump, and the
// reader over it.
func fakeCluster(t *testing.T, path string) (*fake.Clientset, reader) {
	c := fake.NewClientset(apiObjects(t, path)...)
	return c, reader{c: c}
}

// readOnlyVerbs are the only verbs kubesem may send to a cluster.
var readOnlyVerbs = map[string]bool{"list": true, "watch": true, "get": true}

// requireReadOnly fails unless every request the fake clientset received
// reads.
func requireReadOnly(t *testing.T, c *fake.Clientset) {
	t.Helper()
	if len(c.Actions()) == 0 {
		t.Fatal("no request reached the fake cluster")
	}
	for _, a := range c.Actions() {
		if !readOnlyVerbs[a.GetVerb()] {
			t.Errorf("kubesem sent %s %s to the cluster", a.GetVerb(), a.GetResource().Resource)
		}
	}
}

// TestReaderSendsNoWrite: explain on a live cluster sends only list
// requests, whatever the scope and output; the check itself fails on a
// write (a create through the same clientset is caught).
func TestReaderSendsNoWrite(t *testing.T) {
	t.Parallel()
	for _, sc := range []scope{{all: true}, {namespace: "shop"}} {
		for _, output := range []string{"text", "json"} {
			c, r := fakeCluster(t, filepath.Join("testdata", "explain", "shop.json"))
			var out, errOut bytes.Buffer
			now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
			if err := explainLive(r, sc, nil, now, output, defaultMaxDump, true, time.Hour, &out, &errOut); err != nil {
				t.Fatalf("explain live: %v (%s)", err, errOut.String())
			}
			requireReadOnly(t, c)
			for _, a := range c.Actions() {
				if a.GetVerb() != "list" {
					t.Errorf("explain sent %s %s, want only list", a.GetVerb(), a.GetResource().Resource)
				}
			}
		}
	}
	// The check can fail.
	c, _ := fakeCluster(t, filepath.Join("testdata", "explain", "shop.json"))
	c.CoreV1().Pods("shop").Delete(context.Background(), "web-5d8f7c6b9-aaaaa", metav1.DeleteOptions{})
	var writes int
	for _, a := range c.Actions() {
		if !readOnlyVerbs[a.GetVerb()] {
			writes++
		}
	}
	if writes != 1 {
		t.Errorf("a delete through the fake clientset shows as %d write(s), want 1", writes)
	}
}

// TestExplainLiveSameAsDump: explain through a cluster (a fake clientset
// holding a checked-in dump's objects) prints what explain prints on the
// dump itself, text and JSON, for every checked-in dump (with an empty
// PersistentVolumeClaimList: a live read lists claims, and a fresh
// StatefulSet with claim templates is then decided, not Unknown).
func TestExplainLiveSameAsDump(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"shop", "batch", "stateful", "daemons", "nonodes"} {
		for _, output := range []string{"text", "json"} {
			path := filepath.Join("testdata", "explain", name+".json")
			// A live read lists every kind: the dump says so for claims
			// with an empty PersistentVolumeClaimList.
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			stdin := string(data) + "\n" + `{"kind":"PersistentVolumeClaimList","apiVersion":"v1","items":[]}`
			code, want, errOut := runCLI(t, stdin, "explain", "--now", "2026-11-23T12:00:00Z", "-o", output)
			if code != 0 {
				t.Fatalf("explain %s: %d %s", name, code, errOut)
			}
			c, r := fakeCluster(t, path)
			var out, stderr bytes.Buffer
			now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
			if err := explainLive(r, scope{all: true}, nil, now, output, defaultMaxDump, false, time.Hour, &out, &stderr); err != nil {
				t.Fatalf("explain live %s: %v", name, err)
			}
			if out.String() != want {
				t.Errorf("explain through the cluster of %s -o %s:\n%s\nwant (on the dump):\n%s", name, output, out.String(), want)
			}
			requireReadOnly(t, c)
		}
	}
}

// TestExplainLiveFocus: TYPE/NAME keeps the named objects (a Deployment
// with its ReplicaSets), an unknown TYPE is a usage error, an absent
// object exits 1.
func TestExplainLiveFocus(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "explain", "shop.json")
	_, r := fakeCluster(t, path)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	fs, err := parseFocus([]string{"deploy/web"})
	if err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if err := explainLive(r, scope{namespace: "shop"}, fs, now, "text", defaultMaxDump, false, time.Hour, &out, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Deployment shop/web") || strings.Count(out.String(), "\n\n") != 1 {
		t.Errorf("explain deploy/web:\n%s", out.String())
	}
	if _, err := parseFocus([]string{"secret/x"}); err == nil {
		t.Error("secret/x: no error")
	}
	if _, err := parseFocus([]string{"web"}); err == nil {
		t.Error("web: no error")
	}
	fs, _ = parseFocus([]string{"sts/nothere"})
	err = explainLive(r, scope{namespace: "shop"}, fs, now, "text", defaultMaxDump, false, time.Hour, &out, &stderr)
	if _, ok := err.(interface{ Unwrap() error }); !ok || !strings.Contains(err.Error(), `StatefulSet "nothere" not found in namespace shop`) {
		t.Errorf("sts/nothere: %v", err)
	}
}

// TestParseInterleaved: flags after positional arguments are parsed, as
// kubectl's are.
func TestParseInterleaved(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, "", "explain", "deploy/web", "-n", "shop", "--kubeconfig", filepath.Join(t.TempDir(), "none"))
	if code != 1 || !strings.Contains(errOut, "kubeconfig") {
		t.Errorf("explain deploy/web -n shop --kubeconfig none = %d, %q; want exit 1 naming the kubeconfig", code, errOut)
	}
}
