package pdb_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// drainCluster: three pods of a ReplicaSet of 3 on node-1 and node-2 with a
// budget of minAvailable 2, synced.
func drainCluster() pdb.Cluster {
	var pods []podstatus.Pod
	for _, pn := range [][2]string{{"pod-c", "node-1"}, {"pod-a", "node-1"}, {"pod-b", "node-2"}} {
		p := readyPod(pn[0], true, rsRef("rs"))
		p.Spec.NodeName = pn[1]
		pods = append(pods, *p)
	}
	return pdb.Cluster{
		Nodes:       nodes("node-2", "node-1", "node-3"),
		Pods:        pods,
		Controllers: []pdb.Controller{rs("rs", 3)},
		Budgets:     []pdb.PodDisruptionBudget{*budget(ptr(intstr.Int(2)), nil)},
	}
}

func states(st pdb.DrainStep) map[string]string {
	out := map[string]string{}
	for _, p := range st.Pods {
		out[p.Name] = p.Node + "/" + p.State
	}
	return out
}

func TestDrain(t *testing.T) {
	t.Parallel()
	c := drainCluster()
	script := []pdb.Action{
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-1"},
		{Kind: pdb.ActionTerminate},
		{Kind: pdb.ActionRecreate, Pods: []string{"pod-d"}},
		{Kind: pdb.ActionAdvance, After: time.Minute},
		{Kind: pdb.ActionReady, Pods: []string{"pod-d"}},
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-1"},
	}
	steps, err := pdb.Drain(c, script, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(script) {
		t.Fatalf("Drain = %d steps; want %d", len(steps), len(script))
	}
	if b := steps[0].Budgets[0]; b.DisruptionsAllowed != 1 || b.ExpectedPods != 3 || b.CurrentHealthy != 3 {
		t.Errorf("after Sync budget = %+v; want 1 allowed of 3", b)
	}
	// Drain evicts node-1's pods in name order: pod-a passes, pod-c is refused.
	a := steps[1].Attempts
	if len(a) != 2 || a[0].Pod != "pod-a" || !a[0].Decision.Allowed || a[1].Pod != "pod-c" || a[1].Decision.Code != 429 {
		t.Errorf("Drain node-1 attempts = %+v; want pod-a allowed, pod-c 429", a)
	}
	if s := states(steps[1]); s["pod-a"] != "node-1/terminating" || s["pod-c"] != "node-1/available" {
		t.Errorf("after Drain pods = %v", s)
	}
	if b := steps[1].Budgets[0]; b.DisruptionsAllowed != 0 {
		t.Errorf("after Drain budget = %+v; want 0 allowed (decremented)", b)
	}
	if !slices.Equal(steps[2].Removed, []string{"pod-a"}) {
		t.Errorf("Terminate removed %v; want [pod-a]", steps[2].Removed)
	}
	// Recreate: node-1 is cordoned; node-2 has one pod, node-3 none.
	if !slices.Equal(steps[3].Created, []string{"pod-d"}) || states(steps[3])["pod-d"] != "node-3/starting" {
		t.Errorf("Recreate = %v, %v; want pod-d starting on node-3", steps[3].Created, states(steps[3]))
	}
	if s := states(steps[5]); s["pod-d"] != "node-3/available" {
		t.Errorf("after Ready pods = %v", s)
	}
	if b := steps[6].Budgets[0]; b.DisruptionsAllowed != 1 || b.CurrentHealthy != 3 {
		t.Errorf("after the second Sync budget = %+v; want 1 allowed, 3 healthy", b)
	}
	if a := steps[7].Attempts; len(a) != 1 || a[0].Pod != "pod-c" || !a[0].Decision.Allowed {
		t.Errorf("second Drain attempts = %+v; want pod-c allowed", a)
	}
	// The input is not modified.
	if c.Nodes[1].Spec.Unschedulable || c.Pods[1].DeletionTimestamp != nil || c.Budgets[0].Status.DisruptionsAllowed != 0 {
		t.Errorf("Drain modified its cluster")
	}
}

func TestDrainDryRun(t *testing.T) {
	t.Parallel()
	steps, err := pdb.Drain(drainCluster(), []pdb.Action{{Kind: pdb.ActionSync}, {Kind: pdb.ActionDrain, Node: "node-1", DryRun: true}, {Kind: pdb.ActionRecreate, Pods: []string{"x"}}}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a := steps[1].Attempts; len(a) != 2 || !a[0].Decision.Allowed || a[0].Decision.UpdateStatus || a[0].Decision.DisruptionTarget {
		t.Errorf("dry-run Drain attempts = %+v; want pod-a allowed, nothing written", a)
	}
	if s := states(steps[1]); s["pod-a"] != "node-1/available" {
		t.Errorf("dry-run Drain pods = %v; want pod-a untouched", s)
	}
	if b := steps[1].Budgets[0]; b.DisruptionsAllowed != 1 {
		t.Errorf("dry-run Drain budget = %+v; want 1 allowed still", b)
	}
	if len(steps[2].Created) != 0 {
		t.Errorf("Recreate after a dry run created %v; want nothing (no pod missing)", steps[2].Created)
	}
	// A dry-run drain does not cordon: node-3, empty, still takes the
	// recreated pod.
	steps, err = pdb.Drain(drainCluster(), []pdb.Action{{Kind: pdb.ActionSync}, {Kind: pdb.ActionDrain, Node: "node-3", DryRun: true},
		{Kind: pdb.ActionDrain, Node: "node-1"}, {Kind: pdb.ActionTerminate}, {Kind: pdb.ActionRecreate, Pods: []string{"x"}}}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(steps[4]); s["x"] != "node-3/starting" {
		t.Errorf("Recreate after a dry-run drain of node-3 = %v; want x on node-3", s)
	}
}

func TestDrainCapacity(t *testing.T) {
	t.Parallel()
	c := drainCluster()
	c.Controllers = []pdb.Controller{rs("rs", 6)}
	c.Nodes = nodes("node-1", "node-2", "node-3")
	c.Nodes[0].Status.Allocatable = map[string]string{"pods": "2"}
	c.Nodes[1].Status.Allocatable = map[string]string{"pods": "2"}
	c.Nodes[2].Spec.Unschedulable = true
	steps, err := pdb.Drain(c, []pdb.Action{{Kind: pdb.ActionRecreate, Pods: []string{"n1", "n2", "n3"}}}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// node-2 has one free place, node-1 none; node-3 is cordoned.
	if s := states(steps[0]); s["n1"] != "node-2/starting" || s["n2"] != "/pending" || s["n3"] != "/pending" {
		t.Errorf("Recreate with capacities = %v; want n1 on node-2, the rest pending", s)
	}
	// Equally loaded nodes: the first by name.
	c = drainCluster()
	c.Pods = nil
	c.Nodes = nodes("node-b", "node-c", "node-a")
	steps, err = pdb.Drain(c, []pdb.Action{{Kind: pdb.ActionRecreate, Pods: []string{"x", "y", "z", "w"}}}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(steps[0]); s["x"] != "node-a/starting" || s["y"] != "node-b/starting" || s["z"] != "node-c/starting" {
		t.Errorf("Recreate on empty nodes = %v; want x, y, z on node-a, node-b, node-c", s)
	}
}

func TestDrainErrors(t *testing.T) {
	t.Parallel()
	bad := drainCluster()
	bad.Budgets[0].Spec.MinAvailable = ptr(intstr.Int(-1))
	tests := []struct {
		name   string
		c      pdb.Cluster
		script []pdb.Action
		path   string
		err    error
	}{
		{"invalid budget", bad, nil, "cluster.budgets[0].spec.minAvailable", field.ErrNegative},
		{"unknown node", drainCluster(), []pdb.Action{{Kind: pdb.ActionDrain, Node: "nope"}}, "script[0].node", field.ErrInvalid},
		{"recreate without names", drainCluster(), []pdb.Action{{Kind: pdb.ActionSync}, {Kind: pdb.ActionTerminate}, {Kind: pdb.ActionDrain, Node: "node-1"}, {Kind: pdb.ActionTerminate}, {Kind: pdb.ActionRecreate}}, "script[4].pods", field.ErrRequired},
		{"recreate with a taken name", drainCluster(), []pdb.Action{{Kind: pdb.ActionSync}, {Kind: pdb.ActionDrain, Node: "node-1"}, {Kind: pdb.ActionTerminate}, {Kind: pdb.ActionRecreate, Pods: []string{"pod-b"}}}, "script[3].pods", field.ErrDuplicate},
		{"create a taken name", drainCluster(), []pdb.Action{{Kind: pdb.ActionCreate, Node: "node-3", Pods: []string{"pod-a"}}}, "script[0].pods", field.ErrDuplicate},
		{"ready an unknown pod", drainCluster(), []pdb.Action{{Kind: pdb.ActionReady, Pods: []string{"nope"}}}, "script[0].pods", field.ErrInvalid},
		{"negative advance", drainCluster(), []pdb.Action{{Kind: pdb.ActionAdvance, After: -time.Second}}, "script[0].after", field.ErrNegative},
		{"unknown action", drainCluster(), []pdb.Action{{Kind: "Reboot"}}, "script[0].kind", field.ErrUnsupported},
	}
	for _, tc := range tests {
		_, err := pdb.Drain(tc.c, tc.script, now, pdb.Options{})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != tc.path || !errors.Is(err, tc.err) {
			t.Errorf("Drain(%s) = %v; want %v at %s", tc.name, err, tc.err, tc.path)
		}
	}
}

func TestDrainCreateAndTerminate(t *testing.T) {
	t.Parallel()
	steps, err := pdb.Drain(drainCluster(), []pdb.Action{
		{Kind: pdb.ActionCreate, Node: "node-3", Pods: []string{"bare"}},
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-2"},
		{Kind: pdb.ActionDrain, Node: "node-3"},
		{Kind: pdb.ActionTerminate, Pods: []string{"bare"}},
	}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(steps[0]); s["bare"] != "node-3/available" {
		t.Errorf("Create = %v; want bare available on node-3", s)
	}
	if b := steps[1].Budgets[0]; b.ExpectedPods != 3 || b.DisruptionsAllowed != 1 {
		t.Errorf("Sync with a bare pod = %+v; want 3 expected (a created pod has no labels), 1 allowed", b)
	}
	if a := steps[3].Attempts; len(a) != 1 || a[0].Decision.Reason != pdb.ReasonNoBudget {
		t.Errorf("Drain node-3 attempts = %+v; want bare evicted without a budget", a)
	}
	if !slices.Equal(steps[4].Removed, []string{"bare"}) {
		t.Errorf("Terminate [bare] removed %v; want [bare] only (pod-b stays terminating)", steps[4].Removed)
	}
	if s := states(steps[4]); s["pod-b"] != "node-2/terminating" {
		t.Errorf("after Terminate [bare] pods = %v; want pod-b still terminating", s)
	}
}

// A node's pod limit is status.allocatable.pods: "0" takes no pod, a value
// that is not an integer is an error at the node's path.
func TestDrainAllocatablePods(t *testing.T) {
	t.Parallel()
	c := drainCluster()
	c.Pods = nil
	c.Nodes = nodes("node-a", "node-b")
	c.Nodes[0].Status.Allocatable = map[string]string{"pods": "0", "cpu": "4"}
	steps, err := pdb.Drain(c, []pdb.Action{{Kind: pdb.ActionRecreate, Pods: []string{"x", "y", "z"}}}, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(steps[0]); s["x"] != "node-b/starting" || s["y"] != "node-b/starting" {
		t.Errorf("Recreate with node-a full = %v; want every pod on node-b", s)
	}
	c.Nodes[1].Status.Allocatable = map[string]string{"pods": "1k"}
	_, err = pdb.Drain(c, nil, now, pdb.Options{})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "cluster.nodes[1].status.allocatable.pods" || !errors.Is(err, field.ErrInvalid) {
		t.Errorf("unparsed allocatable pods: %v", err)
	}
}
