package daemonset

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func TestStepManage(t *testing.T) {
	t.Parallel()
	ready := func(name, n, hash string, created time.Time) *podstatus.Pod {
		return testPod(name, n, hash, created, created)
	}
	taintedX := testNode("x", node.Taint{Key: "x", Effect: node.NoExecute})
	for _, c := range []struct {
		name    string
		ds      *DaemonSet
		nodes   []*node.Node
		pods    []*podstatus.Pod
		creates []string
		deletes []string
		outcome Reason
	}{
		{"missing pods created by node", testDS(), []*node.Node{testNode("b"), testNode("a")}, nil, []string{"a:NoDaemonPod", "b:NoDaemonPod"}, nil, ReasonSynced},
		{"succeeded pod deleted", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{withPhase(ready("s", "a", "new", tHour), podstatus.Succeeded)}, nil, []string{"s:SucceededDaemonPod"}, ReasonSynced},
		{"excess pods: the oldest stays", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("young", "a", "new", tNow), ready("old", "a", "new", tHour), ready("mid", "a", "new", tHour.Add(time.Minute))}, nil, []string{"mid:ExcessPod", "young:ExcessPod"}, ReasonSynced},
		{"deleting pods are neither kept nor deleted", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{deleting(ready("d", "a", "new", tHour), tHour), ready("p", "a", "new", tNow)}, nil, nil, ReasonRollingUpdate},
		{"a node that should not run loses its pods", testDS(), []*node.Node{taintedX}, []*podstatus.Pod{ready("p", "x", "new", tHour), deleting(ready("d", "x", "new", tHour), tHour)}, nil, []string{"p:ShouldNotRun"}, ReasonSynced},
		{"unscheduled pod for a missing node goes", testDS(), nil, []*podstatus.Pod{pinned(ready("u", "gone", "new", tHour))}, nil, []string{"u:NodeGone"}, ReasonSynced},
		{"scheduled pod on a missing node is left", testDS(), nil, []*podstatus.Pod{ready("s", "gone", "new", tHour)}, nil, nil, ReasonRollingUpdate},
		{"surge: a node without a running pod gets one", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{withPhase(ready("s", "a", "new", tHour), podstatus.Succeeded)}, []string{"a:SurgeNoPod"}, []string{"s:SucceededDaemonPod"}, ReasonSynced},
		{"surge: old not ready beside new goes", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{testPod("o", "a", "old", tHour, never), testPod("n", "a", "new", tNow, never)}, nil, []string{"o:OldPodNotReady"}, ReasonSynced},
		{"surge: new available, old goes", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour), ready("n", "a", "new", tNow)}, nil, []string{"o:NewPodAvailable"}, ReasonSynced},
		{"surge: extra pods of each kind go", withSurge(testDS(), 1), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour), ready("o2", "a", "old", tNow), ready("n", "a", "new", tHour), ready("n2", "a", "new", tNow)}, nil, []string{"n2:ExcessPod", "o2:ExcessPod", "o:NewPodAvailable"}, ReasonSynced},
		{"OnDelete: nothing to manage", func() *DaemonSet { d := testDS(); d.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}; return d }(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour)}, nil, nil, ReasonOnDelete},
		{"RollingUpdate: the old pod is replaced", testDS(), []*node.Node{testNode("a")}, []*podstatus.Pod{ready("o", "a", "old", tHour)}, nil, []string{"o:UpdateOldPod"}, ReasonRollingUpdate},
	} {
		p := step(t, c.ds, c.nodes, c.pods, nil, tNow, Options{})
		var cr []string
		for _, o := range p.Create.Objects {
			cr = append(cr, o.Node+":"+string(o.Reason))
		}
		var dl []string
		for _, d := range p.Delete {
			dl = append(dl, d.Name+":"+string(d.Reason))
		}
		if !slices.Equal(cr, c.creates) || !slices.Equal(dl, c.deletes) || p.Outcome != c.outcome || p.Create.Count != int32(len(cr)) {
			t.Errorf("%s: %s creates %v deletes %v; want %s %v %v", c.name, p.Outcome, cr, dl, c.outcome, c.creates, c.deletes)
		}
	}
}

func TestStepBurst(t *testing.T) {
	t.Parallel()
	var nodes []*node.Node
	var pods []*podstatus.Pod
	for _, n := range []string{"a", "b", "c", "d"} {
		nodes = append(nodes, testNode(n))
		pods = append(pods, pinned(testPod("u-"+n, "gone-"+n, "new", tHour, tHour)))
	}
	p := step(t, testDS(), nodes, pods, nil, tNow, Options{BurstReplicas: 3})
	if p.Create.Count != 3 || len(p.Create.Objects) != 3 || p.Create.Objects[2].Node != "c" || len(p.Delete) != 3 || p.Delete[2].Name != "u-c" {
		t.Errorf("burst 3: creates %+v deletes %+v", p.Create, p.Delete)
	}
	if p := step(t, testDS(), nodes, pods, nil, tNow, Options{}); p.Create.Count != 4 || len(p.Delete) != 4 {
		t.Errorf("default burst: %d creates, %d deletes", p.Create.Count, len(p.Delete))
	}
}
