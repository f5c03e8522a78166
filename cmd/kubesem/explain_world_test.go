package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/kubesem/kubesem/k8s"
)

// TestExactNames: the names simulate cluster prints for the example
// scenarios' templates are the adapter's v1.36.3 names computed on the API
// objects themselves (k8s.PodTemplateHash for a Deployment's ReplicaSets,
// k8s.StatefulSetRevisionName for a StatefulSet's revisions), not only the
// namer's own conversion of kubesem's template. (The scenarios' templates
// are written as the API server stores them; upstream defaulting leaves
// them unchanged, and upstream's controller.ComputeHash gives web's
// 5f5794754f and, with nginx:1.27, 8448b6f544 — checked once against
// k8s.io/kubernetes v1.36.3.)
func TestExactNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ scenario, kind, name string }{
		{"rolling-outage-drain", "Deployment", "web"},
		{"statefulset-update", "StatefulSet", "db"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "scenarios", c.scenario+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		run, err := readScenario(data)
		if err != nil {
			t.Fatal(err)
		}
		docs, _ := documents(data)
		var doc struct {
			Objects []json.RawMessage `json:"objects"`
		}
		json.Unmarshal(docs[0], &doc)
		var want string
		for _, raw := range doc.Objects {
			switch c.kind {
			case "Deployment":
				var d appsv1.Deployment
				if json.Unmarshal(raw, &d) == nil && d.Kind == c.kind && d.Name == c.name {
					want = d.Name + "-" + k8s.PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
				}
			case "StatefulSet":
				var s appsv1.StatefulSet
				if json.Unmarshal(raw, &s) == nil && s.Kind == c.kind && s.Name == c.name {
					if want, err = k8s.StatefulSetRevisionName(&s); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if want == "" {
			t.Fatalf("%s: no %s %s", c.scenario, c.kind, c.name)
		}
		res, err := runClusterWorld(run, 0, time.Hour, false)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range res.w.Trace {
			if e.Write != nil && e.Write.Verb == "create" && e.Object.Name == want {
				found = true
			}
		}
		golden, _ := os.ReadFile(filepath.Join("testdata", "scenarios", c.scenario+".golden"))
		if !found || !strings.Contains(string(golden), want) {
			t.Errorf("%s: the world creates no %s (in the golden: %v)", c.scenario, want, strings.Contains(string(golden), want))
		}
	}
}
