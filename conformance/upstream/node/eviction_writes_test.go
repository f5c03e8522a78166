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

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
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
// With KUBESEM_WRITE_VECTORS=1 it writes upstream's whole EvictionPlan
// into every node.EvictionStep want instead (testdata/node/eviction.json).
func TestNodeEvictionStepWritesUpstream(t *testing.T) {
	file := difftest.Repo("testdata/node/eviction.json")
	if os.Getenv("KUBESEM_WRITE_VECTORS") == "1" {
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
		p, err := node.EvictionStep(&in.Node, in.Pods, in.Scheduled, in.Now, node.Options{})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		ws, err := p.Writes(&in.Node, in.Pods, in.Now)
		if err != nil {
			t.Fatalf("%s: Writes: %v", v.Name, err)
		}
		var keys []difftest.WriteKey
		for _, w := range ws {
			keys = append(keys, difftest.WriteKeyOf(w))
		}
		if err := samePerPod(keys, upWrites); err != nil {
			t.Errorf("%s: %v", v.Name, err)
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
				t.Errorf("%s: upstream did not patch %s", v.Name, w.Name)
				continue
			}
			var a, b []string
			for _, c := range obj.Status.Conditions {
				a = append(a, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message))
			}
			for _, c := range u.Status.Conditions {
				b = append(b, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message))
			}
			if !slices.Equal(a, b) {
				t.Errorf("%s: patched %s conditions %q, upstream %q", v.Name, w.Name, a, b)
			}
		}
		checked++
		writes += len(ws)
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
