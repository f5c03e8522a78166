package node_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TestNodeEvictionStepWritesUpstream replays the node.EvictionStep vectors
// through the v1.36.3 taint-eviction controller (upEvictionStepWrites)
// and checks that node.EvictionStep's Plan.Writes are the requests the fake
// clientset received: per pod (pods by name; upstream fires due work in
// goroutines), the same sequence of verb, resource, subresource,
// namespace, name, uid and grace period — the DisruptionTarget status
// patch, then the delete — and each patched pod's conditions (type,
// status, reason, message) as upstream's patch left them. Reads (the GET
// before the patch) are not writes.
//
// The node.EvictionStep vectors of testdata/node/check-*.json (the
// decisions along a model-checker counterexample, written by kubesem check
// --vectors with want {}) are checked the same way, and each want must be
// upstream's whole EvictionPlan and kubesem's answer must match it
// (checkEvictionVectorsUpstream).
//
// With KUBESEM_WRITE_VECTORS=1 it writes upstream's whole EvictionPlan
// into every node.EvictionStep want of testdata/node/eviction.json instead,
// and into each empty want of a check-*.json file.
func TestNodeEvictionStepWritesUpstream(t *testing.T) {
	file := difftest.Repo("testdata/node/eviction.json")
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	nc := checkEvictionVectorsUpstream(t, write)
	t.Logf("%d node.EvictionStep vectors of check-*.json replayed through upstream", nc)
	if write {
		n, err := difftest.RewriteVectorWants(file, "  ", func(v map[string]json.RawMessage) (json.RawMessage, error) {
			if string(v["decision"]) != `"node.EvictionStep"` || v["want"] == nil {
				return nil, nil
			}
			var in evictionVecUpIn
			if err := json.Unmarshal(v["input"], &in); err != nil {
				return nil, err
			}
			p, _, _ := upEvictionStepWrites(t, &in.Node, in.Pods, in.Scheduled, in.Now)
			return json.Marshal(p)
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d node.EvictionStep wants", n)
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Decision string          `json:"decision"`
		Name     string          `json:"name"`
		Input    json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	checked, writes := 0, 0
	for _, v := range vs {
		if v.Decision != "node.EvictionStep" {
			continue
		}
		var up evictionVecUpIn
		var in struct {
			Node      node.Node                `json:"node"`
			Pods      []*podstatus.Pod         `json:"pods"`
			Scheduled []node.ScheduledEviction `json:"memory"`
			Now       time.Time                `json:"now"`
		}
		if err := json.Unmarshal(v.Input, &up); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatal(err)
		}
		_, upWrites, patched := upEvictionStepWrites(t, &up.Node, up.Pods, up.Scheduled, up.Now)
		n, errs := sameEvictionWrites(t, in.Node, in.Pods, in.Scheduled, in.Now, upWrites, patched)
		for _, err := range errs {
			t.Errorf("%s: %v", v.Name, err)
		}
		checked++
		writes += n
	}
	if checked < 6 || writes == 0 {
		t.Fatalf("checked %d vectors, %d writes", checked, writes)
	}
	t.Logf("%d node.EvictionStep vectors: %d writes as upstream sends them", checked, writes)
}

// evictionVecUpIn is a node.EvictionStep vector's input as upstream
// reads it.
type evictionVecUpIn struct {
	Node      v1.Node                  `json:"node"`
	Pods      []*v1.Pod                `json:"pods"`
	Scheduled []node.ScheduledEviction `json:"memory"`
	Now       time.Time                `json:"now"`
}

// samePerPod compares two request lists pod by pod: the same pods, each
// with the same requests in the same order, and in got each pod's requests
// adjacent and the pods in name order.
func samePerPod(got, up []difftest.WriteKey) error {
	group := func(keys []difftest.WriteKey) (map[string][]string, []string) {
		g := map[string][]string{}
		var order []string
		for _, k := range keys {
			pod := k.Namespace + "/" + k.Name
			if len(order) == 0 || order[len(order)-1] != pod {
				order = append(order, pod)
			}
			g[pod] = append(g[pod], k.String())
		}
		return g, order
	}
	g, order := group(got)
	u, _ := group(up)
	if !reflect.DeepEqual(g, u) {
		return fmt.Errorf("writes %v, upstream %v", g, u)
	}
	if !slices.IsSorted(order) || len(slices.Compact(slices.Clone(order))) != len(order) {
		return fmt.Errorf("writes not grouped by pod in name order: %v", order)
	}
	return nil
}

// sameEvictionWrites checks node.EvictionStep's Plan.Writes on a vector's
// input against upstream's requests (upWrites) and patched pods, as
// TestNodeEvictionStepWritesUpstream says; it returns the writes.
func sameEvictionWrites(t *testing.T, n node.Node, pods []*podstatus.Pod, scheduled []node.ScheduledEviction, now time.Time, upWrites []difftest.WriteKey, patched []*v1.Pod) (int, []error) {
	p, err := node.EvictionStep(&n, pods, scheduled, now, node.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(&n, pods, now)
	if err != nil {
		t.Fatalf("Writes: %v", err)
	}
	var errs []error
	var keys []difftest.WriteKey
	for _, w := range ws {
		keys = append(keys, difftest.WriteKeyOf(w))
	}
	if err := samePerPod(keys, upWrites); err != nil {
		errs = append(errs, err)
	}
	for _, w := range ws {
		if w.Object == nil {
			continue
		}
		obj := w.Object.(*podstatus.Pod)
		var u *v1.Pod
		for _, x := range patched {
			if x.Name == w.Name {
				u = x
			}
		}
		if u == nil {
			errs = append(errs, fmt.Errorf("upstream did not patch %s", w.Name))
			continue
		}
		var a, b []string
		for _, c := range obj.Status.Conditions {
			a = append(a, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration))
		}
		for _, c := range u.Status.Conditions {
			b = append(b, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration))
		}
		if !slices.Equal(a, b) {
			errs = append(errs, fmt.Errorf("patched %s conditions %q, upstream %q", w.Name, a, b))
		}
	}
	return len(ws), errs
}

// checkEvictionVectorsUpstream replays the node.EvictionStep vectors of
// testdata/node/check-*.json through the taint-eviction controller
// (upEvictionStepWrites): each want must be upstream's whole
// EvictionPlan, Plan.Writes upstream's requests (sameEvictionWrites), and
// kubesem's answer (conformance.Kubesem, with the vector's options) must
// match the want. A want {} states nothing: it fails, save with write
// (KUBESEM_WRITE_VECTORS=1), which fills it with upstream's EvictionPlan,
// never kubesem's. It returns the vectors replayed.
func checkEvictionVectorsUpstream(t *testing.T, write bool) int {
	n := 0
	for _, file := range difftest.CheckFiles(t, "node") {
		fills := map[string]map[string]any{} // vector → key → value
		for _, v := range readNodeStepVectors(t, file) {
			if v.Decision != "node.EvictionStep" {
				continue
			}
			n++
			t.Run(v.Name, func(t *testing.T) {
				if v.WantError != nil {
					t.Fatalf("wantError %s: a check vector's input is one the world's Step accepted", v.WantError)
				}
				if opts := stepOptions(t, v); !reflect.DeepEqual(opts, node.Options{}) {
					t.Fatalf("options %s: the replay runs v1.36.3's defaults", v.Options)
				}
				var up evictionVecUpIn
				var in struct {
					Node      node.Node                `json:"node"`
					Pods      []*podstatus.Pod         `json:"pods"`
					Scheduled []node.ScheduledEviction `json:"memory"`
					Now       time.Time                `json:"now"`
				}
				if err := json.Unmarshal(v.raw, &up); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(v.raw, &in); err != nil {
					t.Fatal(err)
				}
				upPlan, upWrites, patched := upEvictionStepWrites(t, &up.Node, up.Pods, up.Scheduled, up.Now)
				want := v.Want
				if difftest.EmptyWant(want) {
					if !write {
						t.Fatal("want {} states nothing; fill it from upstream: KUBESEM_WRITE_VECTORS=1 go -C conformance/upstream test -run TestNodeEvictionStepWritesUpstream ./node/")
					}
					b, err := plan.Encode(upPlan)
					if err != nil {
						t.Fatal(err)
					}
					var m map[string]json.RawMessage
					if err := json.Unmarshal(b, &m); err != nil {
						t.Fatal(err)
					}
					fills[v.Name] = map[string]any{}
					for k, x := range m {
						fills[v.Name][k] = x // as plan.Encode wrote it
					}
					want = b
				}
				if !sameJSON(upPlan, want) {
					t.Errorf("the want is not upstream's:\nwant:     %s\nupstream: %s", difftest.CompactJSON(want), toJSON(upPlan))
				}
				_, errs := sameEvictionWrites(t, in.Node, in.Pods, in.Scheduled, in.Now, upWrites, patched)
				for _, err := range errs {
					t.Errorf("upstream: %v", err)
				}
				got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.raw)
				if err != nil {
					t.Fatalf("kubesem: %v", err)
				}
				if ok, why := conformance.Match(want, got); !ok {
					t.Errorf("kubesem differs from v1.36.3: %s\nwant:    %s\nkubesem: %s", why, difftest.CompactJSON(want), got)
				}
			})
		}
		if write && len(fills) > 0 && !t.Failed() {
			difftest.WriteFills(t, file, "node.EvictionStep", fills, difftest.PlanKeysOf(reflect.TypeFor[node.EvictionPlan]()), nil, "TestNodeEvictionStepWritesUpstream")
		}
	}
	return n
}
