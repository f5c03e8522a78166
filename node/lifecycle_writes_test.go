package node

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// A node that stops heartbeating: its status update, then the pods bound
// to it marked not ready (a pod already not ready is left alone), then the
// rate-limited NoExecute taint and the NoSchedule condition taint.
func TestPlanWrites(t *testing.T) {
	t.Parallel()
	nodes := []*Node{readyNode("a", "z1", t0), readyNode("b", "z1", t0)}
	p, err := Step(nodes, nil, nil, Memory{}, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pod := func(name, node string, ready meta.ConditionStatus) *podstatus.Pod {
		q := &podstatus.Pod{}
		q.Name, q.Namespace, q.UID, q.Spec.NodeName = name, "default", name+"-uid", node
		q.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: ready}}
		return q
	}
	pods := []*podstatus.Pod{pod("y", "b", meta.ConditionTrue), pod("x", "b", meta.ConditionTrue), pod("z", "b", meta.ConditionFalse), pod("w", "a", meta.ConditionTrue)}
	now := t0.Add(51 * time.Second)
	nodes[0].Status.Conditions[0].LastHeartbeatTime = now
	p, err = Step(nodes, nil, pods, p.Memory, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// the node's event, then a Warning on each pod whose Ready changes
	var evs []string
	for _, e := range p.Events {
		evs = append(evs, string(e.Type)+" "+string(e.Reason)+" "+e.Object+" "+e.Message)
	}
	wantEv := []string{"Normal NodeNotReady b ", "Warning NodeNotReady x Node is not ready", "Warning NodeNotReady y Node is not ready"}
	if !slices.Equal(evs, wantEv) {
		t.Errorf("events %q; want %q", evs, wantEv)
	}
	if _, err := Step(nodes, nil, []*podstatus.Pod{nil}, p.Memory, now, Options{}); !errors.As(err, new(*field.Error)) {
		t.Errorf("nil pod: %v", err)
	}
	ws, err := p.Writes(nodes, pods, now)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		s := string(w.Verb) + " " + w.Resource
		if w.Subresource != "" {
			s += "/" + w.Subresource
		}
		got = append(got, s+" "+w.Name+" "+string(w.Reason))
	}
	want := []string{
		"update nodes/status b Monitored",
		"update pods/status x MarkPodNotReady",
		"update pods/status y MarkPodNotReady",
		"patch nodes b TaintNode",
		"patch nodes b ConditionTaints",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("writes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := ws[0].Object.(*Node); n.Status.Conditions[0].Status != ConditionUnknown || n == nodes[1] {
		t.Errorf("status object %+v", n.Status)
	}
	q := ws[1].Object.(*podstatus.Pod)
	if c := q.Condition(podstatus.Ready); c.Status != meta.ConditionFalse || !c.LastTransitionTime.Equal(now) || ws[1].UID != "x-uid" {
		t.Errorf("pod write %+v", ws[1])
	}
	if pods[1].Status.Conditions[0].Status != meta.ConditionTrue {
		t.Error("input pod modified")
	}
	// each patch carries the node as the writes so far leave it
	last := ws[4].Object.(*Node)
	if len(last.Spec.Taints) != 2 || last.Status.Conditions[0].Status != ConditionUnknown || len(nodes[1].Spec.Taints) != 0 {
		t.Errorf("last patch %+v; input taints %+v", last.Spec, nodes[1].Spec.Taints)
	}

	// b is Ready again: the reachable write removes each taint with its own
	// patch, unreachable first
	nodes[1].Spec.Taints = last.Spec.Taints
	nodes[1].Spec.Taints = append(nodes[1].Spec.Taints, Taint{Key: TaintNotReady, Effect: NoExecute})
	nodes[1].Status.Conditions[0].Status = ConditionTrue
	nodes[1].Status.Conditions[0].LastHeartbeatTime = now.Add(time.Second)
	p, err = Step(nodes, nil, nil, p.Memory, now.Add(time.Second), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err = p.Writes(nodes, pods, now.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var ready []int
	for _, w := range ws {
		if w.Reason == ReasonNodeReady {
			ready = append(ready, len(w.Object.(*Node).Spec.Taints))
		}
	}
	if len(ready) != 2 || ready[0] != ready[1]+1 {
		t.Errorf("NodeReady patches leave %v taints; want one patch per taint removed", ready)
	}

	// entries naming no given node
	var fe *field.Error
	if _, err := (Plan{MarkPodsNotReady: []string{"a", "nope"}}).Writes(nodes, pods, now); !errors.As(err, &fe) || fe.Path != "markPodsNotReady[1]" {
		t.Errorf("unknown node: %v", err)
	}
	if _, err := (Plan{Taints: []TaintWrite{{Node: "nope"}}}).Writes(nodes, pods, now); !errors.As(err, &fe) || fe.Path != "taints[0].node" {
		t.Errorf("unknown node: %v", err)
	}
	if _, err := (Plan{Conditions: []ConditionWrite{{Node: "nope"}}}).Writes(nodes, pods, now); !errors.As(err, &fe) || fe.Path != "conditions[0].node" {
		t.Errorf("unknown node: %v", err)
	}
}
