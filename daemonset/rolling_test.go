package daemonset

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

func TestFindUpdated(t *testing.T) {
	t.Parallel()
	n1 := testPod("n1", "x", "new", tHour, tHour)
	n2 := testPod("n2", "x", "new", tHour, tHour)
	o1 := testPod("o1", "x", "old", tHour, tHour)
	o2 := testPod("o2", "x", "old", tHour, tHour)
	gone := deleting(testPod("gone", "x", "new", tHour, tHour), tHour)
	for _, c := range []struct {
		pods       []*podstatus.Pod
		newP, oldP *podstatus.Pod
		ok         bool
	}{
		{[]*podstatus.Pod{n1, o1}, n1, o1, true},
		{[]*podstatus.Pod{n1}, n1, nil, true},
		{[]*podstatus.Pod{o1}, nil, o1, true},
		{nil, nil, nil, true},
		{[]*podstatus.Pod{n1, n2}, nil, nil, false},
		{[]*podstatus.Pod{o1, o2}, nil, nil, false},
		{[]*podstatus.Pod{gone, n1}, n1, nil, true}, // a deleting pod is not counted
	} {
		n, o, ok := findUpdated(c.pods, "new", 0, false)
		if n != c.newP || o != c.oldP || ok != c.ok {
			t.Errorf("findUpdated(%d pods) = %v, %v, %v", len(c.pods), n, o, ok)
		}
	}
}

// rollingCase runs rollingUpdate on listed nodes with the given pods.
func rollingCase(t *testing.T, ds *DaemonSet, nodes []*node.Node, pods []*podstatus.Pod) (rollingResult, error) {
	t.Helper()
	states, index := groupNodes(ds, nodes, pods, Options{})
	return rollingUpdate(ds, states, index, "new", 0, false, tNow, Options{})
}

func delNames(ds []plan.Deletion) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name+":"+string(d.Reason))
	}
	return out
}

func createNodes(cs []PodCreation) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Node+":"+string(c.Reason))
	}
	return out
}

func TestRollingUpdateUnavailableBudget(t *testing.T) {
	t.Parallel()
	nodes := []*node.Node{testNode("a"), testNode("b"), testNode("c"), testNode("d")}
	ready := func(name, n, hash string) *podstatus.Pod { return testPod(name, n, hash, tHour, tHour) }
	for _, c := range []struct {
		name string
		mu   int32
		pods []*podstatus.Pod
		want []string
	}{
		{"budget 1 takes the first old pod by node", 1, []*podstatus.Pod{ready("pa", "a", "old"), ready("pb", "b", "old"), ready("pc", "c", "old"), ready("pd", "d", "old")}, []string{"pa:UpdateOldPod"}},
		{"budget 2", 2, []*podstatus.Pod{ready("pa", "a", "old"), ready("pb", "b", "old"), ready("pc", "c", "old"), ready("pd", "d", "old")}, []string{"pa:UpdateOldPod", "pb:UpdateOldPod"}},
		{"an unavailable old pod goes regardless, and uses the budget", 1, []*podstatus.Pod{ready("pa", "a", "old"), testPod("pb", "b", "old", tHour, never), ready("pc", "c", "old"), ready("pd", "d", "old")}, []string{"pb:OldPodUnavailable"}},
		{"an unavailable new pod uses the budget", 1, []*podstatus.Pod{testPod("pa", "a", "new", tHour, never), ready("pb", "b", "old"), ready("pc", "c", "old"), ready("pd", "d", "old")}, []string{}},
		{"a node without a pod uses the budget", 2, []*podstatus.Pod{ready("pb", "b", "old"), ready("pc", "c", "old"), ready("pd", "d", "old")}, []string{"pb:UpdateOldPod"}},
		{"old and new on a node count as unavailable", 2, []*podstatus.Pod{ready("pa", "a", "old"), ready("pa2", "a", "new"), ready("pc", "c", "old"), ready("pd", "d", "new")}, []string{}},
		{"available new pods leave the budget", 1, []*podstatus.Pod{ready("pa", "a", "new"), ready("pb", "b", "new"), ready("pc", "c", "old"), ready("pd", "d", "new")}, []string{"pc:UpdateOldPod"}},
	} {
		ds := testDS()
		ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = iv(c.mu)
		r, err := rollingCase(t, ds, nodes, c.pods)
		if err != nil || !slices.Equal(delNames(r.deletes), c.want) || len(r.creates) != 0 {
			t.Errorf("%s: deletes %v, creates %v, %v; want %v", c.name, delNames(r.deletes), r.creates, err, c.want)
		}
	}
}

func TestRollingUpdateSurge(t *testing.T) {
	t.Parallel()
	nodes := []*node.Node{testNode("a"), testNode("b"), testNode("c")}
	ready := func(name, n, hash string) *podstatus.Pod { return testPod(name, n, hash, tHour, tHour) }
	for _, c := range []struct {
		name            string
		surge           int32
		nodes           []*node.Node
		pods            []*podstatus.Pod
		creates, delete []string
	}{
		{"surge 1 creates beside the first old pod", 1, nodes, []*podstatus.Pod{ready("pa", "a", "old"), ready("pb", "b", "old"), ready("pc", "c", "old")}, []string{"a:SurgeOldPod"}, []string{}},
		{"surge 2", 2, nodes, []*podstatus.Pod{ready("pa", "a", "old"), ready("pb", "b", "old"), ready("pc", "c", "old")}, []string{"a:SurgeOldPod", "b:SurgeOldPod"}, []string{}},
		{"an unavailable old pod gets a new one regardless", 1, nodes, []*podstatus.Pod{ready("pa", "a", "old"), testPod("pb", "b", "old", tHour, never), ready("pc", "c", "old")}, []string{"b:OldPodUnavailable", "a:SurgeOldPod"}, []string{}},
		{"new available: the old goes", 1, nodes, []*podstatus.Pod{ready("pa", "a", "old"), ready("pa2", "a", "new"), ready("pc", "c", "new")}, []string{}, []string{"pa:NewPodAvailable"}},
		{"new not available uses the surge", 1, nodes, []*podstatus.Pod{ready("pa", "a", "old"), testPod("pa2", "a", "new", tHour, never), ready("pb", "b", "old"), ready("pc", "c", "new")}, []string{}, []string{}},
		{"old pod on a node that should not run, surplus available", 1, []*node.Node{testNode("a"), testNode("b", node.Taint{Key: "x", Effect: node.NoSchedule})},
			[]*podstatus.Pod{ready("pa", "a", "new"), ready("pb", "b", "old")}, []string{}, []string{"pb:ShouldNotRun"}},
		{"unavailable old pod on a node that should not run goes", 1, []*node.Node{testNode("a", node.Taint{Key: "x", Effect: node.NoSchedule})},
			[]*podstatus.Pod{testPod("pa", "a", "old", tHour, never)}, []string{}, []string{"pa:ShouldNotRun"}},
		{"no surplus: the old pod on a node that should not run stays", 1, []*node.Node{testNode("a"), testNode("b", node.Taint{Key: "x", Effect: node.NoSchedule})},
			[]*podstatus.Pod{testPod("pa", "a", "new", tHour, never), ready("pb", "b", "old")}, []string{}, []string{}},
	} {
		r, err := rollingCase(t, withSurge(testDS(), c.surge), c.nodes, c.pods)
		if err != nil || !slices.Equal(createNodes(r.creates), c.creates) || !slices.Equal(delNames(r.deletes), c.delete) {
			t.Errorf("%s: creates %v, deletes %v, %v; want %v, %v", c.name, createNodes(r.creates), delNames(r.deletes), err, c.creates, c.delete)
		}
	}
}

// With surge, an old pod on a node missing from the node list fails the
// rolling update (upstream's node lister Get fails).
func TestRollingUpdateSurgeNodeNotFound(t *testing.T) {
	t.Parallel()
	_, err := rollingCase(t, withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("p", "gone", "old", tHour, tHour)})
	if !errors.Is(err, errNodeNotFound) {
		t.Errorf("err = %v; want errNodeNotFound", err)
	}
	// Without surge the same pod is just an update candidate (node a,
	// without a pod, takes one of the two).
	ds := testDS()
	ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = iv(2)
	r, err := rollingCase(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("p", "gone", "old", tHour, tHour)})
	if err != nil || !slices.Equal(delNames(r.deletes), []string{"p:UpdateOldPod"}) {
		t.Errorf("no surge: %v, %v", delNames(r.deletes), err)
	}
}

func TestWalkOrder(t *testing.T) {
	t.Parallel()
	ds := testDS()
	nodes := []*node.Node{testNode("b"), testNode("d"), testNode("x", node.Taint{Key: "x", Effect: node.NoExecute})}
	pods := []*podstatus.Pod{testPod("p1", "c", "old", tHour, tHour), testPod("p2", "a", "old", tHour, tHour), testPod("p3", "d", "old", tHour, tHour)}
	states, _ := groupNodes(ds, nodes, pods, Options{})
	var got []string
	for _, i := range walkOrder(states) {
		got = append(got, states[i].name)
	}
	// Listed nodes that should run or hold pods, and the nodes of pods
	// not in the list, all by name; x (should not run, no pod) is not
	// walked.
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("walkOrder = %v; want %v", got, want)
	}
}

func ExampleUnavailableNumbers() {
	ds := testDS()
	ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = sv("25%")
	b, _ := UnavailableNumbers(ds, 10)
	fmt.Println(b.MaxUnavailable, b.MaxSurge)
	// Output: 3 0
}
