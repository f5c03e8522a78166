package daemonset_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/podstatus"
)

var now = t0.Add(time.Hour)

// Step is independent of the order of its node and pod lists.
func checkStepOrderIndependent(t *rapid.T) {
	ds := genDS(t)
	nodes, pods := genCluster(t)
	h := daemonset.History{Hash: "new"}
	p1, err1 := daemonset.Step(ds, nodes, pods, h, nil, now, daemonset.Options{})
	sn := rapid.Permutation(nodes).Draw(t, "pn")
	sp := rapid.Permutation(pods).Draw(t, "pp")
	p2, err2 := daemonset.Step(ds, sn, sp, h, nil, now, daemonset.Options{})
	a, _ := json.Marshal(p1)
	b, _ := json.Marshal(p2)
	if (err1 == nil) != (err2 == nil) || string(a) != string(b) {
		t.Fatalf("order changed the plan:\n%s\n%s", a, b)
	}
	if err1 != nil {
		return
	}
	before, _ := json.Marshal([]any{ds, pods})
	w1, err1 := p1.Writes(ds, pods, h)
	w2, err2 := p2.Writes(ds, sp, h)
	if err1 != nil || err2 != nil {
		t.Fatalf("Writes: %v, %v", err1, err2)
	}
	a, _ = json.Marshal(w1)
	b, _ = json.Marshal(w2)
	if string(a) != string(b) {
		t.Fatalf("order changed the writes:\n%s\n%s", a, b)
	}
	if after, _ := json.Marshal([]any{ds, pods}); string(after) != string(before) {
		t.Fatal("Writes modified its inputs")
	}
}

func TestStepOrderIndependent(t *testing.T) { t.Parallel(); rapid.Check(t, checkStepOrderIndependent) }

// Without surge, the available old pods a rolling update deletes never
// take the unavailable count past maxUnavailable; only old pods that are
// already unavailable are replaced beyond it (upstream knowingly exceeds
// the budget there, as they are unavailable anyway).
func checkStepRollingBudget(t *rapid.T) {
	ds := genDS(t)
	nodes, pods := genCluster(t)
	p, err := daemonset.Step(ds, nodes, pods, daemonset.History{Hash: "new"}, nil, now, daemonset.Options{})
	if err != nil || p.Outcome != daemonset.ReasonRollingUpdate || daemonset.AllowsSurge(ds) {
		return
	}
	var desired int32
	for _, n := range nodes {
		if daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{}).ShouldRun {
			desired++
		}
	}
	b, _ := daemonset.UnavailableNumbers(ds, desired)
	updates := 0
	for _, d := range p.Delete {
		if d.Reason == daemonset.ReasonUpdateOldPod {
			updates++
		}
	}
	if int32(updates) > b.MaxUnavailable {
		t.Fatalf("%d available old pods deleted, budget %d", updates, b.MaxUnavailable)
	}
}

func TestStepRollingBudget(t *testing.T) { t.Parallel(); rapid.Check(t, checkStepRollingBudget) }

// Applying Plans (created pods become ready at once, pending and unready
// pods by the next sync, deleted pods vanish)
// converges to exactly one pod of the current template on every node that
// should run one, and none where none may continue; a node that may only
// keep its pod keeps at most one, possibly old.
func checkStepConverges(t *rapid.T) {
	ds := genDS(t)
	nodes, pods := genCluster(t)
	var live []*podstatus.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			live = append(live, p)
		}
	}
	clock := now
	var mem daemonset.Backoff
	k := 0
	for range 60 {
		p, err := daemonset.Step(ds, nodes, live, daemonset.History{Hash: "new"}, mem, clock, daemonset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mem = p.Memory
		gone := map[string]bool{}
		for _, d := range p.Delete {
			gone[d.Name] = true
		}
		var next []*podstatus.Pod
		for _, x := range live {
			if !gone[x.Name] {
				next = append(next, x)
			}
		}
		for _, c := range p.Create.Objects {
			next = append(next, readyPod(fmt.Sprintf("c-%d", k), c.Node, "new", clock, clock.Add(-time.Hour), true, podstatus.Running))
			k++
		}
		// The kubelet starts every pod by the next sync.
		for i, x := range next {
			if x.Status.Phase == podstatus.Running && podstatus.IsReady(&podstatus.Pod{Status: x.Status}) {
				continue
			}
			if x.Status.Phase == podstatus.Running || x.Status.Phase == podstatus.Pending {
				next[i] = readyPod(x.Name, x.Spec.NodeName, x.Labels[history.HashLabel], x.CreationTimestamp, clock.Add(-time.Hour), true, podstatus.Running)
			}
		}
		live = next
		clock = clock.Add(20 * time.Minute)
	}
	per := map[string]int{}
	old := map[string]bool{}
	for _, x := range live {
		if x.Labels[history.HashLabel] != "new" {
			old[x.Spec.NodeName] = true
		}
		per[x.Spec.NodeName]++
	}
	for _, n := range nodes {
		e := daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{})
		c := per[n.Name]
		switch {
		case e.ShouldRun && c != 1:
			t.Fatalf("node %s has %d pods", n.Name, c)
		case e.ShouldRun && old[n.Name] && ds.Spec.UpdateStrategy.Type == daemonset.RollingUpdate:
			// A node that should only keep its pod (an untolerated
			// NoSchedule taint) may keep an old one: its update is
			// never forced, as upstream.
			t.Fatalf("old pod left on %s", n.Name)
		case !e.ShouldContinueRunning && c != 0:
			t.Fatalf("node %s should run none, has %d", n.Name, c)
		case c > 1:
			t.Fatalf("node %s has %d pods", n.Name, c)
		}
	}
}

func TestStepConverges(t *testing.T) { t.Parallel(); rapid.Check(t, checkStepConverges) }
