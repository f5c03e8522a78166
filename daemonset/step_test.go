package daemonset

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

var hNew = History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 1, "new")}}

func step(t *testing.T, ds *DaemonSet, nodes []*node.Node, pods []*podstatus.Pod, mem Backoff, now time.Time, opts Options) Plan {
	t.Helper()
	p, err := Step(ds, nodes, pods, hNew, mem, now, opts)
	require.NoError(t, err, "Step")
	return p
}

func TestStepValidatesFirst(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.Template.Labels = map[string]string{"app": "other"}
	ds.Spec.MinReadySeconds = -5
	p, err := Step(ds, []*node.Node{testNode("a")}, nil, hNew, nil, tNow, Options{})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.template.metadata.labels" || p.Outcome != "" {
		t.Errorf("Step = %+v, %v; want the validation error and a zero Plan", p, err)
	}
	if _, err := Step(nil, nil, nil, hNew, nil, tNow, Options{}); !errors.As(err, &fe) || fe.Path != "daemonSet" {
		t.Errorf("nil DaemonSet: %v", err)
	}
	if _, err := Step(testDS(), nil, nil, History{}, nil, tNow, Options{}); !errors.As(err, &fe) || fe.Path != "history.hash" {
		t.Errorf("no hash: %v", err)
	}
}

func TestStepBeingDeleted(t *testing.T) {
	t.Parallel()
	ds := deletingDS()
	mem := Backoff{"k": {Delay: time.Second, LastUpdate: tHour}}
	p := step(t, ds, []*node.Node{testNode("a")}, nil, mem, tNow, Options{})
	if p.Outcome != ReasonBeingDeleted || p.Create.Count != 0 || p.UpdateStatus || len(p.Revisions) != 0 || len(p.Memory) != 1 {
		t.Errorf("being deleted: %+v", p)
	}
}

func deletingDS() *DaemonSet {
	ds := testDS()
	ds.DeletionTimestamp = &tHour
	return ds
}

func TestStepMinReadyRequeue(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.MinReadySeconds = 30
	young := testPod("y", "a", "new", tHour, tNow.Add(-10*time.Second))
	p := step(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{young}, nil, tNow, Options{})
	if !slices.Equal(p.Requeue, []plan.Requeue{{After: 30 * time.Second, Reason: ReasonMinReadySeconds}}) {
		t.Errorf("ready, not available: requeue %+v", p.Requeue)
	}
	if p := step(t, ds, []*node.Node{testNode("a")}, []*podstatus.Pod{young}, nil, tNow.Add(20*time.Second), Options{}); len(p.Requeue) != 0 {
		t.Errorf("available at exactly minReadySeconds: requeue %+v", p.Requeue)
	}
}

func TestStepNodeNotFound(t *testing.T) {
	t.Parallel()
	h := History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 5, "new"), rev("ds-o1", 1, "o1"), rev("ds-o2", 2, "o2")}}
	ds := withSurge(testDS(), 1)
	zero := int32(0)
	ds.Spec.RevisionHistoryLimit = &zero
	p, err := Step(ds, []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("pa", "a", "new", tHour, tHour), testPod("p", "gone", "old", tHour, tHour)}, h, nil, tNow, Options{})
	if err != nil || p.Outcome != ReasonNodeNotFound || len(p.Revisions) != 0 ||
		!slices.Equal(p.Requeue, []plan.Requeue{{Reason: ReasonNodeNotFound, RateLimited: true}}) || !p.UpdateStatus {
		t.Errorf("Step = %+v, %v; want NodeNotFound, a rate-limited requeue, no history cleanup, the status written", p, err)
	}
}

func TestGroupNodesDeduplicatesAndSorts(t *testing.T) {
	t.Parallel()
	states, index := groupNodes(testDS(), []*node.Node{testNode("b"), nil, testNode("a"), testNode("b")}, []*podstatus.Pod{nil, testPod("p", "z", "new", tHour, tHour), testPod("q", "c", "new", tHour, tHour)}, Options{})
	var got []string
	for _, s := range states {
		got = append(got, s.name)
	}
	if want := []string{"a", "b", "c", "z"}; !slices.Equal(got, want) {
		t.Errorf("states %v; want listed nodes by name, then pods' nodes by name", got)
	}
	for i, s := range states {
		if index[s.name] != i {
			t.Errorf("index[%s] = %d; want %d", s.name, index[s.name], i)
		}
	}
}
