package daemonset_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// One sync of a DaemonSet whose template changed (revision hash v2) on
// three nodes: node-3 has no daemon pod yet, so the sync creates one there
// and leaves the rolling update to the next sync; in that one, with the new
// pod ready, maxUnavailable 1 lets it delete one old pod. Plan.Memory (the
// failed-pod backoff) is carried from sync to sync.
func ExampleStep() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ds := &daemonset.DaemonSet{}
	ds.Name, ds.Namespace, ds.UID, ds.Generation = "agent", "kube-system", "ds-uid", 2
	ds.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "agent"})
	ds.Spec.Template.Labels = map[string]string{"app": "agent"}
	one := intstr.Int(1)
	ds.Spec.UpdateStrategy = daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &daemonset.RollingParams{MaxUnavailable: &one}}
	// The pods and revisions the DaemonSet controls name it as their
	// controller (an orphan it selects would be adopted: Plan.Adopt).
	owner := []meta.OwnerReference{meta.NewControllerRef("apps/v1", "DaemonSet", ds.Name, ds.UID)}
	hist := daemonset.History{Hash: "v2", Revisions: []history.ControllerRevision{
		{ObjectMeta: meta.ObjectMeta{Name: "agent-v1", Namespace: "kube-system", Labels: map[string]string{"app": "agent", history.HashLabel: "v1"}, OwnerReferences: owner}, Revision: 1},
		{ObjectMeta: meta.ObjectMeta{Name: "agent-v2", Namespace: "kube-system", Labels: map[string]string{"app": "agent", history.HashLabel: "v2"}, OwnerReferences: owner}, Revision: 2},
	}}
	var nodes []*node.Node
	for _, n := range []string{"node-1", "node-2", "node-3"} {
		nodes = append(nodes, &node.Node{ObjectMeta: meta.ObjectMeta{Name: n}})
	}
	pod := func(name, nodeName, hash string) *podstatus.Pod {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "kube-system", UID: "uid-" + name,
			Labels: map[string]string{"app": "agent", history.HashLabel: hash}, OwnerReferences: owner}}
		p.Spec.NodeName = nodeName
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now.Add(-time.Hour)}}
		return p
	}
	pods := []*podstatus.Pod{pod("agent-a", "node-1", "v1"), pod("agent-b", "node-2", "v1")}

	p, err := daemonset.Step(ds, nodes, pods, hist, nil, now, daemonset.Options{})
	if err != nil {
		panic(err)
	}
	for _, c := range p.Create.Objects {
		fmt.Println(p.Outcome, "create on", c.Node, c.Reason)
	}

	pods = append(pods, pod("agent-c", "node-3", "v2"))
	p, _ = daemonset.Step(ds, nodes, pods, hist, p.Memory, now.Add(time.Minute), daemonset.Options{})
	for _, d := range p.Delete {
		fmt.Println(p.Outcome, "delete", d.Name, d.Reason)
	}
	// Output:
	// Synced create on node-3 NoDaemonPod
	// RollingUpdate delete agent-a UpdateOldPod
}
