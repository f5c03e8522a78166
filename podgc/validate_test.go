package podgc_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

func TestStepRejects(t *testing.T) {
	t.Parallel()
	pod := gcPod("a", "n", podstatus.Running, 0)
	other := gcPod("a", "n", podstatus.Running, 0)
	other.Namespace = "other"
	unnamed := gcPod("", "n", podstatus.Running, 0)
	b, c := gcPod("b", "n", podstatus.Running, 0), gcPod("c", "n", podstatus.Running, 0)
	n := gcNode("n", "True", false)
	for _, c := range []struct {
		name     string
		pods     []*podstatus.Pod
		nodes    []*node.Node
		unlisted []string
		mem      podgc.Memory
		path     string
		err      error
	}{
		{"nil pod", []*podstatus.Pod{pod, nil}, nil, nil, podgc.Memory{}, "pods[1]", field.ErrRequired},
		{"unnamed pod", []*podstatus.Pod{unnamed}, nil, nil, podgc.Memory{}, "pods[0].metadata.name", field.ErrRequired},
		{"duplicate pod", []*podstatus.Pod{pod, other, pod}, nil, nil, podgc.Memory{}, "pods[2].metadata.name", field.ErrDuplicate},
		{"duplicate neighbours in order", []*podstatus.Pod{pod, b, b, c}, nil, nil, podgc.Memory{}, "pods[2].metadata.name", field.ErrDuplicate},
		{"duplicate after the order breaks", []*podstatus.Pod{pod, c, b, c}, nil, nil, podgc.Memory{}, "pods[3].metadata.name", field.ErrDuplicate},
		{"duplicate of the first after the order breaks", []*podstatus.Pod{b, c, pod, b}, nil, nil, podgc.Memory{}, "pods[3].metadata.name", field.ErrDuplicate},
		{"nil node", nil, []*node.Node{nil}, nil, podgc.Memory{}, "nodes[0]", field.ErrRequired},
		{"unnamed node", nil, []*node.Node{gcNode("", "True", false)}, nil, podgc.Memory{}, "nodes[0].metadata.name", field.ErrRequired},
		{"duplicate node", nil, []*node.Node{n, n}, nil, podgc.Memory{}, "nodes[1].metadata.name", field.ErrDuplicate},
		{"empty unlisted", nil, nil, []string{""}, podgc.Memory{}, "unlisted[0]", field.ErrRequired},
		{"unlisted and listed", nil, []*node.Node{n}, []string{"x", "n"}, podgc.Memory{}, "unlisted[1]", field.ErrDuplicate},
		{"quarantine without node", nil, nil, nil, podgc.Memory{Quarantine: []podgc.Quarantined{{Node: "x"}, {}}}, "memory.quarantine[1].node", field.ErrRequired},
	} {
		_, err := podgc.Step(c.pods, c.nodes, c.unlisted, c.mem, t0, podgc.Options{})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Step error %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
	if _, err := podgc.Step([]*podstatus.Pod{pod, other}, []*node.Node{n}, []string{"m"}, podgc.Memory{}, t0, podgc.Options{}); err != nil {
		t.Errorf("valid input: %v", err)
	}
}
