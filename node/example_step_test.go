package node_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Two nodes in one zone; node-b stops renewing its lease. The first pass
// registers both nodes; 51 s later (past the 50 s grace period, strict)
// node-b is Unknown, tainted unreachable and its pods are marked not
// ready. Plan.Writes turns the pass into the API requests it makes.
func ExampleStep() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	nodes := []*node.Node{}
	leases := []node.Lease{}
	for _, name := range []string{"node-a", "node-b"} {
		n := &node.Node{}
		n.Name = name
		n.Labels = map[string]string{node.LabelTopologyZone: "zone-1"}
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, LastHeartbeatTime: t0, LastTransitionTime: t0.Add(-time.Hour)}}
		nodes = append(nodes, n)
		renew := t0
		leases = append(leases, node.Lease{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "kube-node-lease"}, Spec: node.LeaseSpec{RenewTime: &renew}})
	}
	web := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "web-1", Namespace: "shop"}}
	web.Spec.NodeName = "node-b"
	web.Status.Phase = podstatus.Running
	web.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue}}
	pods := []*podstatus.Pod{web}

	p, _ := node.Step(nodes, leases, pods, node.Memory{}, t0, node.Options{})
	mem := p.Memory

	now := t0.Add(51 * time.Second)
	renewed := now
	leases[0].Spec.RenewTime = &renewed // node-a keeps renewing
	p, err := node.Step(nodes, leases, pods, mem, now, node.Options{})
	if err != nil {
		panic(err)
	}
	// p.Memory is the controller's memory for the next pass.
	for _, c := range p.Conditions {
		fmt.Println(c.Node, c.Conditions[0].Type, c.Conditions[0].Status)
	}
	for _, w := range p.Taints {
		for _, t := range w.Add {
			fmt.Println(w.Node, "add", t.Key+":"+string(t.Effect))
		}
	}
	fmt.Println("mark pods not ready on", p.MarkPodsNotReady)
	ws, _ := p.Writes(nodes, pods, now)
	for _, w := range ws {
		resource := w.Resource
		if w.Subresource != "" {
			resource += "/" + w.Subresource
		}
		fmt.Println(w.Verb, resource, w.Name)
	}
	// Output:
	// node-b Ready Unknown
	// node-b add node.kubernetes.io/unreachable:NoExecute
	// node-b add node.kubernetes.io/unreachable:NoSchedule
	// mark pods not ready on [node-b]
	// update nodes/status node-b
	// update pods/status web-1
	// patch nodes node-b
	// patch nodes node-b
}

// The seed's shutdown configuration, shutdownGracePeriod 30s with 10s for
// critical pods: regular pods get 20 s, then system-critical pods 10 s.
func ExampleShutdown() {
	critical := int32(2000000000)
	pods := []*podstatus.Pod{{ObjectMeta: meta.ObjectMeta{Name: "web"}}, {ObjectMeta: meta.ObjectMeta{Name: "dns"}}}
	pods[1].Spec.Priority = &critical
	groups, err := node.Shutdown(node.ShutdownPeriods(nil, 30*time.Second, 10*time.Second), pods)
	if err != nil {
		panic(err)
	}
	for _, g := range groups {
		for _, p := range g.Pods {
			fmt.Printf("%s: grace %ds, from %v to %v\n", p.Name, p.GracePeriodSeconds, g.Start, g.End)
		}
	}
	// Output:
	// web: grace 20s, from 0s to 20s
	// dns: grace 10s, from 20s to 30s
}
