package main

import (
	"encoding/json"
	"github.com/kubesem/kubesem/replicaset"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestExplainGolden: explain on the checked-in cluster dumps (a kubectl
// List of a shop namespace mid-rollout, stuck, paused and recreating; a
// stream of batch objects: CronJobs running, suspended and forbidden, Jobs
// failing, indexed and finished; a List of StatefulSets with their
// ControllerRevisions and claims: a partitioned rolling update, one stuck on
// an unready pod, OnDelete, one whose template revision is unknown; a
// stream of DaemonSets and Nodes: a maxSurge rolling update, a tainted
// node, a NotReady node, an unknown template hash; a stream without Nodes
// and ControllerRevisions) matches the golden outputs, text and JSON;
// -update rewrites them. The JSON output must parse.
func TestExplainGolden(t *testing.T) {
	t.Parallel()
	for _, dumpName := range []string{"shop", "batch", "stateful", "daemons", "nonodes"} {
		for _, format := range []string{"text", "json"} {
			in := filepath.Join("testdata", "explain", dumpName+".json")
			code, out, errOut := runCLI(t, "", "explain", "--now", "2026-11-23T12:00:00Z", "-o", format, in)
			if code != 0 {
				t.Fatalf("explain %s -o %s = %d: %s", dumpName, format, code, errOut)
			}
			if format == "json" {
				var v []map[string]any
				if err := json.Unmarshal([]byte(out), &v); err != nil || len(v) == 0 {
					t.Fatalf("explain %s -o json does not parse: %v", dumpName, err)
				}
			}
			golden := filepath.Join("testdata", "explain", dumpName+"."+format+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if string(want) != out {
				t.Errorf("explain %s -o %s differs from %s (run with -update after checking):\n%s", dumpName, format, golden, out)
			}
		}
	}
	// The same dump as YAML (kubectl get -o yaml) explains the same.
	shopJSON, _ := os.ReadFile(filepath.Join("testdata", "explain", "shop.json"))
	shopYAML, err := yaml.JSONToYAML(shopJSON)
	if err != nil {
		t.Fatal(err)
	}
	_, fromJSON, _ := runCLI(t, string(shopJSON), "explain", "--now", "2026-11-23T12:00:00Z")
	code, fromYAML, errOut := runCLI(t, string(shopYAML), "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 || fromYAML != fromJSON {
		t.Errorf("explain on YAML = %d %s:\n%s", code, errOut, fromYAML)
	}
	// Stdin and a stream of several Lists work too.
	shop, _ := os.ReadFile(filepath.Join("testdata", "explain", "shop.json"))
	batch, _ := os.ReadFile(filepath.Join("testdata", "explain", "batch.json"))
	code, out, errOut := runCLI(t, string(shop)+"\n"+string(batch), "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 || !strings.Contains(out, "Deployment shop/web") || !strings.Contains(out, "CronJob batch/reports") {
		t.Errorf("explain on stdin = %d, %s", code, errOut)
	}
}

// TestExplainAppsNeverGuess: on the StatefulSet and DaemonSet dumps, a
// workload whose nodes or claims the dump cannot tell has outcome Unknown,
// a note saying why and no plan; every other one has a plan; the scenarios
// decide what v1.36.3 decides (the partition's next pod, the pod a
// crash-looping one blocks, the missing pod OnDelete recreates at the new
// revision, the surge's old pod, the NotReady node's old pod, the pod on a
// NoExecute-tainted node). A template no stored revision holds gets the
// revision v1.36.3 creates, named by its exact hash (the k8s adapter's),
// where explain once answered Unknown.
func TestExplainAppsNeverGuess(t *testing.T) {
	t.Parallel()
	type entry struct {
		Kind, Namespace, Name, Outcome string
		Actions, Notes                 []string
		Plan                           map[string]any
	}
	all := map[string]entry{}
	for _, dumpName := range []string{"stateful", "daemons", "nonodes"} {
		code, out, errOut := runCLI(t, "", "explain", "--now", "2026-11-23T12:00:00Z", "-o", "json", filepath.Join("testdata", "explain", dumpName+".json"))
		if code != 0 {
			t.Fatalf("explain %s = %d: %s", dumpName, code, errOut)
		}
		var es []entry
		if err := json.Unmarshal([]byte(out), &es); err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == "Controller" {
				e.Namespace = dumpName
			}
			all[e.Namespace+"/"+e.Name] = e
			if e.Kind != "StatefulSet" && e.Kind != "DaemonSet" {
				continue
			}
			if unknown := e.Outcome == "Unknown"; unknown != (e.Plan == nil) || unknown && len(e.Notes) == 0 {
				t.Errorf("%s %s/%s: outcome %s, plan %v, notes %q", e.Kind, e.Namespace, e.Name, e.Outcome, e.Plan != nil, e.Notes)
			}
		}
	}
	for name, want := range map[string]string{
		"data/db":                  "delete pod db-1 (Outdated)",
		"data/queue":               "Blocked",
		"data/cache":               "create pod cache-1 at revision cache-4b6f8d9c7 (Missing)",
		"data/ledger":              "create ControllerRevision ledger-6684695b94 as revision 2 (NewRevision)",
		"infra/log-agent":          "delete pod log-agent-p4q8w (NewPodAvailable)",
		"kube-system/net-proxy":    "delete pod net-proxy-r9s2t (OldPodUnavailable)",
		"monitoring/node-exporter": "delete pod node-exporter-c5v8b (ShouldNotRun)",
		"kube-system/gpu-plugin":   "create ControllerRevision gpu-plugin-57cccc4f56 as revision 3 (NewRevision)",
		"infra/metrics-relay":      "delete pod metrics-relay-h5j6k (FailedDaemonPod)",
		"infra/agent":              "Unknown",
		"infra/agent-next":         "Unknown",
		"infra/web":                "Unknown",
		"infra/web-noclaims":       "create ControllerRevision web-noclaims-574474567c as revision 1 (NewRevision)",
		"daemons/node-lifecycle":   "add taint node.kubernetes.io/memory-pressure:NoSchedule to Node node-c (ConditionTaints)",
	} {
		e, ok := all[name]
		if !ok {
			t.Errorf("%s: not explained", name)
			continue
		}
		if e.Outcome != want && !slices.Contains(e.Actions, want) {
			t.Errorf("%s: outcome %s, actions %q; want %q", name, e.Outcome, e.Actions, want)
		}
	}
	for name, note := range map[string]string{
		"infra/agent": "the dump holds no Node",
		"infra/web":   "holds no PersistentVolumeClaim",
	} {
		if e := all[name]; !strings.Contains(strings.Join(e.Notes, "\n"), note) {
			t.Errorf("%s: notes %q lack %q", name, e.Notes, note)
		}
	}
}

// TestExplainUnlabelledDaemonSetRevision: a DaemonSet ControllerRevision
// without the controller-revision-hash label stands for its whole name (the
// controller labels it so; daemonset.RevisionHash, as the world reads it),
// not the name without "<ds>-": the revision holds the current template, so
// the pod labelled with that whole name is up to date, nothing is replaced
// and no revision is created. With the rule explain once had (hash "old"),
// the pod would be outdated and deleted.
func TestExplainUnlabelledDaemonSetRevision(t *testing.T) {
	t.Parallel()
	const tmpl = `{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"app","image":"agent:1"}],"tolerations":[{"operator":"Exists"}]}}`
	owner := `"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"ds-uid","controller":true}]`
	dump := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-23T11:59:50Z"}]}}
{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"infra","uid":"ds-uid","generation":1,"annotations":{"deprecated.daemonset.template.generation":"1"}},
 "spec":{"selector":{"matchLabels":{"app":"agent"}},"template":` + tmpl + `,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},"revisionHistoryLimit":10},
 "status":{"currentNumberScheduled":1,"desiredNumberScheduled":1,"numberReady":1,"numberAvailable":1,"updatedNumberScheduled":1,"observedGeneration":1}}
{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"agent-old","namespace":"infra","labels":{"app":"agent"},` + owner + `},
 "data":{"spec":{"template":` + tmpl[:len(tmpl)-1] + `,"$patch":"replace"}}},"revision":1}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"agent-p","namespace":"infra","uid":"p-uid","creationTimestamp":"2026-11-23T10:00:00Z",
 "labels":{"app":"agent","controller-revision-hash":"agent-old","pod-template-generation":"1"},` + owner + `},
 "spec":{"nodeName":"node-a","containers":[{"name":"app","image":"agent:1"}]},
 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-23T10:00:00Z"}]}}
`
	// Without the pod-template-generation label, only the hash tells
	// whether the pod is up to date.
	dump = strings.ReplaceAll(dump, `,"pod-template-generation":"1"`, "")
	code, out, errOut := runCLI(t, dump, "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 {
		t.Fatalf("explain = %d: %s", code, errOut)
	}
	if !strings.Contains(out, "DaemonSet infra/agent: RollingUpdate") || !strings.Contains(out, "1 updated") ||
		strings.Contains(out, "delete pod") || strings.Contains(out, "create ControllerRevision") {
		t.Errorf("explain:\n%s", out)
	}
	// The same DaemonSet whose revision's name without "<ds>-" is used as
	// the pods' hash: the pod does not carry the revision's hash, so it is
	// outdated and replaced.
	code, out, errOut = runCLI(t, strings.ReplaceAll(dump, `"controller-revision-hash":"agent-old"`, `"controller-revision-hash":"old"`), "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 || !strings.Contains(out, "delete pod agent-p") {
		t.Errorf("explain with hash %q = %d %s:\n%s", "old", code, errOut, out)
	}
}

// TestExplainTimeline: explain --timeline prints the sync, then the
// predicted timeline of the world from the dump until it settles: the
// rollout of a Deployment whose new ReplicaSet has just been created ends
// with every pod of the new template ready, the old ReplicaSet scaled to 0.
func TestExplainTimeline(t *testing.T) {
	t.Parallel()
	const tmpl = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"web:2"}]}}`
	node := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-23T11:59:55Z"}]}}`
	dep := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","uid":"d-uid","generation":2},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":` + tmpl + `},"status":{"observedGeneration":1}}`
	code, out, errOut := runCLI(t, node+"\n"+dep, "explain", "--now", "2026-11-23T12:00:00Z", "--timeline")
	if code != 0 {
		t.Fatalf("explain --timeline = %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Deployment shop/web: ",
		"predicted timeline from 2026-11-23T12:00:00Z",
		"deployment       create         ReplicaSet shop/web-",
		"scheduler        bind           Pod shop/web-",
		"settled: the last write but heartbeats at",
		"Deployment shop/web: 2 replica(s), 2 updated, 2 ready, 2 available",
	} {
		if !strings.Contains(squash(out), squash(want)) {
			t.Errorf("explain --timeline lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, node+"\n"+dep, "explain", "--now", "2026-11-23T12:00:00Z", "--timeline", "-o", "json")
	var v struct {
		Explanations []map[string]any `json:"explanations"`
		Timeline     struct {
			Settled *bool `json:"settled"`
		} `json:"timeline"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Explanations) == 0 || v.Timeline.Settled == nil || !*v.Timeline.Settled {
		t.Errorf("explain --timeline -o json = %d:\n%.500s", code, out)
	}
}

// TestExplainTimelineStuck: without a Node, explain --timeline does not
// call the cluster settled: the Deployment's pods stay unscheduled, and
// the text and the JSON say so.
func TestExplainTimelineStuck(t *testing.T) {
	t.Parallel()
	dep := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","uid":"d-uid","generation":1},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"web:1"}]}}}}`
	code, out, errOut := runCLI(t, dep, "explain", "--now", "2026-11-23T12:00:00Z", "--timeline")
	if code != 0 || !strings.Contains(out, "stuck, not settled") || !strings.Contains(out, "2 pod(s) are unscheduled") || strings.Contains(out, "settled: the last write") {
		t.Errorf("explain --timeline without nodes = %d %s:\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, dep, "explain", "--now", "2026-11-23T12:00:00Z", "--timeline", "-o", "json")
	var v struct {
		Timeline struct {
			Leftovers *struct {
				Unscheduled []map[string]any `json:"unscheduled"`
			} `json:"leftovers"`
		} `json:"timeline"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Timeline.Leftovers == nil || len(v.Timeline.Leftovers.Unscheduled) != 2 {
		t.Errorf("explain --timeline -o json without nodes = %d:\n%.800s", code, out)
	}
}

// TestExplainDumpShapes: overlapping Lists list an object once (the same
// UID twice is one object; another UID under the same name is an error
// naming it); objects of kinds kubesem does not model are listed, one entry
// per kind and namespace, never dropped.
func TestExplainDumpShapes(t *testing.T) {
	t.Parallel()
	const rs = `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"a","namespace":"ns","uid":"u1"},"spec":{"replicas":0,"selector":{"matchLabels":{"x":"y"}},"template":{"metadata":{"labels":{"x":"y"}}}}}`
	dump := `{"kind":"List","items":[` + rs + `]}` + "\n" + `{"kind":"ReplicaSetList","items":[` + strings.Replace(rs, `"kind":"ReplicaSet",`, "", 1) + `]}` + `
{"kind":"ServiceList","items":[{"metadata":{"name":"s1","namespace":"ns"}},{"metadata":{"name":"s2","namespace":"ns"}}]}
{"kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"}}`
	code, out, errOut := runCLI(t, dump, "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 || strings.Count(out, "ReplicaSet ns/a:") != 1 ||
		!strings.Contains(out, "Service ns/(2 objects): NotModelled") || !strings.Contains(out, "does not model this kind's controller yet: s1, s2") ||
		!strings.Contains(out, "ConfigMap ns/c: NotModelled") {
		t.Errorf("explain = %d %s:\n%s", code, errOut, out)
	}
	code, _, errOut = runCLI(t, dump+"\n"+strings.Replace(rs, `"u1"`, `"u2"`, 1), "explain")
	if code != 2 || !strings.Contains(errOut, `ReplicaSet ns/a appears twice, with UIDs "u1" and "u2"`) {
		t.Errorf("two UIDs: exit %d, %s", code, errOut)
	}
}

// TestReplicationControllerSelectorDecoded: an RC's spec.selector, a plain
// label map, is its selector (it was once dropped on decoding, and the
// template's labels stood in: a subset selector then missed pods).
func TestReplicationControllerSelectorDecoded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, selector string
		pod            map[string]string
		want           bool
	}{
		{"a subset selects by the subset", `"selector":{"app":"web"},`, map[string]string{"app": "web"}, true},
		{"a subset does not select another app", `"selector":{"app":"web"},`, map[string]string{"app": "api"}, false},
		{"none is the template's labels", ``, map[string]string{"app": "web"}, false},
	} {
		raw := `{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"web","namespace":"ns"},"spec":{"replicas":1,` +
			c.selector + `"template":{"metadata":{"labels":{"app":"web","tier":"front"}}}}}`
		o, err := readObjects(strings.NewReader(raw), "-", 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		rc, ok := o.models[0].(*replicaset.ReplicaSet)
		if !ok {
			t.Fatalf("%s: decoded %T", c.name, o.models[0])
		}
		if got := rc.PodSelector().Matches(c.pod); got != c.want {
			t.Errorf("%s: selects %v = %v, want %v", c.name, c.pod, got, c.want)
		}
	}
}
