package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func TestSchedulerPredicates(t *testing.T) {
	tainted := readyNode("a-tainted")
	tainted.Spec.Taints = []node.Taint{{Key: "dedicated", Value: "gpu", Effect: node.NoSchedule}}
	cordoned := readyNode("b-cordoned")
	cordoned.Spec.Unschedulable = true
	notReady := readyNode("c-notready")
	notReady.Status.Conditions[0].Status = meta.ConditionFalse
	labelled := readyNode("d-labelled")
	labelled.Labels = map[string]string{"disk": "ssd"}
	plain := readyNode("e-plain")
	d := deployment("web", 4, "web:1")
	d.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	anyD := deployment("any", 3, "any:1")
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{tainted, cordoned, notReady, labelled, plain, d, anyD}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	for _, p := range w.State.Pods() {
		switch {
		case p.Labels["app"] == "web" && p.Spec.NodeName != "d-labelled":
			t.Errorf("%s with nodeSelector disk=ssd on %q", p.Name, p.Spec.NodeName)
		case p.Labels["app"] == "any" && p.Spec.NodeName != "d-labelled" && p.Spec.NodeName != "e-plain":
			t.Errorf("%s on ineligible node %q", p.Name, p.Spec.NodeName)
		}
	}
	// Pods bind in name order to the node with the fewest pods, ties by
	// name: any's three go d, e, d; then web's four all to d-labelled.
	if a, b := len(w.State.PodsOnNode("d-labelled")), len(w.State.PodsOnNode("e-plain")); a != 6 || b != 1 {
		t.Errorf("d-labelled holds %d pods, e-plain %d; want 6 and 1", a, b)
	}
}

func TestKubeletRestartBackoff(t *testing.T) {
	d := deployment("web", 1, "web:1")
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n"), d}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Second))
	p := w.State.Pods()[0]
	key := cluster.Key{Kind: cluster.KindPod, Namespace: p.Namespace, Name: p.Name}
	// Two failures: the first restarts at once, the second waits 10 s in
	// CrashLoopBackOff (podstatus.RestartBackoff's initial delay).
	w2, _ := cluster.New(cluster.Scenario{Start: t0, Objects: sc.Objects, Events: []cluster.Event{
		{At: 10 * time.Second, Kind: cluster.EventFailPod, Target: key, ExitCode: 1},
		{At: 20 * time.Second, Kind: cluster.EventFailPod, Target: key, ExitCode: 1},
	}}, cluster.Options{})
	w2.Run(t0.Add(25 * time.Second))
	cs := w2.State.Pod(p.Namespace, p.Name).Status.ContainerStatuses[0]
	if cs.RestartCount != 1 || cs.State.Waiting == nil || cs.State.Waiting.Reason != "CrashLoopBackOff" {
		t.Fatalf("at 25s: restarts %d, state %+v", cs.RestartCount, cs.State)
	}
	w2.Run(t0.Add(31 * time.Second))
	got := w2.State.Pod(p.Namespace, p.Name)
	cs = got.Status.ContainerStatuses[0]
	if cs.RestartCount != 2 || cs.State.Running == nil || !podstatus.IsReady(got) {
		t.Fatalf("at 31s: restarts %d, state %+v, ready %v", cs.RestartCount, cs.State, podstatus.IsReady(got))
	}
}

// TestSchedulerCordonedNode: a cordoned node takes only pods that tolerate
// the node.kubernetes.io/unschedulable:NoSchedule taint, as kube-scheduler's
// NodeUnschedulable filter has it: a DaemonSet's pod (the controller adds
// that toleration) runs there, a Deployment's waits.
func TestSchedulerCordonedNode(t *testing.T) {
	cordoned := readyNode("a-cordoned")
	cordoned.Spec.Unschedulable = true
	p := &podstatus.Pod{}
	if cluster.Fits(p, cordoned) {
		t.Error("a pod without tolerations fits a cordoned node")
	}
	p.Spec.Tolerations = []node.Toleration{{Key: node.TaintUnschedulable, Operator: node.OpExists, Effect: string(node.NoSchedule)}}
	if !cluster.Fits(p, cordoned) {
		t.Error("a pod tolerating node.kubernetes.io/unschedulable does not fit a cordoned node")
	}
	p.Spec.Tolerations[0].Effect = string(node.NoExecute)
	if cluster.Fits(p, cordoned) {
		t.Error("a pod tolerating only the NoExecute effect fits a cordoned node")
	}
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{cordoned, daemonSet("agent"), deployment("web", 1, "web:1")}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	for _, p := range w.State.Pods() {
		switch {
		case p.Labels["ds"] == "agent" && p.Spec.NodeName != "a-cordoned":
			t.Errorf("the DaemonSet's pod %s bound to %q; want a-cordoned", p.Name, p.Spec.NodeName)
		case p.Labels["app"] == "web" && p.Spec.NodeName != "":
			t.Errorf("the Deployment's pod %s bound to the cordoned %q", p.Name, p.Spec.NodeName)
		}
	}
}
