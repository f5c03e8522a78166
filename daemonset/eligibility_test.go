package daemonset

import (
	"slices"
	"testing"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func TestNodeShouldRunDaemonPod(t *testing.T) {
	t.Parallel()
	taint := func(k string, e node.TaintEffect) node.Taint { return node.Taint{Key: k, Effect: e} }
	for _, c := range []struct {
		name      string
		node      *node.Node
		ds        func(*DaemonSet)
		run, cont bool
	}{
		{"plain node", testNode("n"), nil, true, true},
		{"template nodeName elsewhere", testNode("n"), func(d *DaemonSet) { d.Spec.Template.Spec.NodeName = "m" }, false, false},
		{"template nodeName here", testNode("n"), func(d *DaemonSet) { d.Spec.Template.Spec.NodeName = "n" }, true, true},
		{"nodeSelector label missing", testNode("n"), func(d *DaemonSet) { d.Spec.Template.Spec.NodeSelector = map[string]string{"pool": "a"} }, false, false},
		{"required affinity not matching", testNode("n"), func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = PinToNode(nil, "m") }, false, false},
		{"required affinity matching", testNode("n"), func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = PinToNode(nil, "n") }, true, true},
		{"NoSchedule untolerated: may stay, no new pod", testNode("n", taint("x", node.NoSchedule)), nil, false, true},
		{"NoExecute untolerated: neither", testNode("n", taint("x", node.NoExecute)), nil, false, false},
		{"NoExecute after NoSchedule still stops both", testNode("n", taint("y", node.NoSchedule), taint("x", node.NoExecute)), nil, false, false},
		{"PreferNoSchedule is ignored", testNode("n", taint("x", node.PreferNoSchedule)), nil, true, true},
		{"template toleration", testNode("n", taint("x", node.NoExecute)), func(d *DaemonSet) {
			d.Spec.Template.Spec.Tolerations = []node.Toleration{{Key: "x", Operator: node.OpExists}}
		}, true, true},
		{"default: not-ready NoExecute", testNode("n", taint(node.TaintNotReady, node.NoExecute)), nil, true, true},
		{"default: unreachable NoExecute", testNode("n", taint(node.TaintUnreachable, node.NoExecute)), nil, true, true},
		{"not-ready NoSchedule is not a default", testNode("n", taint(node.TaintNotReady, node.NoSchedule)), nil, false, true},
		{"default: disk-pressure", testNode("n", taint(node.TaintDiskPressure, node.NoSchedule)), nil, true, true},
		{"default: memory-pressure", testNode("n", taint(node.TaintMemoryPressure, node.NoSchedule)), nil, true, true},
		{"default: pid-pressure", testNode("n", taint(node.TaintPIDPressure, node.NoSchedule)), nil, true, true},
		{"default: unschedulable", testNode("n", taint(node.TaintUnschedulable, node.NoSchedule)), nil, true, true},
		{"disk-pressure NoExecute is not a default", testNode("n", taint(node.TaintDiskPressure, node.NoExecute)), nil, false, false},
		{"network-unavailable without host network", testNode("n", taint(node.TaintNetworkUnavailable, node.NoSchedule)), nil, false, true},
		{"network-unavailable with host network", testNode("n", taint(node.TaintNetworkUnavailable, node.NoSchedule)), func(d *DaemonSet) { d.Spec.Template.Spec.HostNetwork = true }, true, true},
		{"cordoned node runs daemon pods", func() *node.Node { n := testNode("n"); n.Spec.Unschedulable = true; return n }(), nil, true, true},
		{"nil node", nil, nil, false, false},
	} {
		ds := testDS()
		if c.ds != nil {
			c.ds(ds)
		}
		got := NodeShouldRunDaemonPod(c.node, ds, Options{})
		if got != (Eligibility{ShouldRun: c.run, ShouldContinueRunning: c.cont}) {
			t.Errorf("%s: %+v; want run %v, continue %v", c.name, got, c.run, c.cont)
		}
	}
	if got := NodeShouldRunDaemonPod(testNode("n"), nil, Options{}); got != (Eligibility{}) {
		t.Errorf("nil DaemonSet: %+v", got)
	}
}

// Lt and Gt tolerations tolerate only with the gate.
func TestNodeShouldRunDaemonPodComparisonGate(t *testing.T) {
	t.Parallel()
	n := testNode("n", node.Taint{Key: "gen", Value: "5", Effect: node.NoExecute})
	ds := testDS()
	ds.Spec.Template.Spec.Tolerations = []node.Toleration{{Key: "gen", Operator: node.OpGt, Value: "3"}}
	if got := NodeShouldRunDaemonPod(n, ds, Options{}); got.ShouldContinueRunning {
		t.Errorf("gate off: %+v", got)
	}
	if got := NodeShouldRunDaemonPod(n, ds, Options{TaintTolerationComparisonOperators: true}); !got.ShouldRun {
		t.Errorf("gate on: %+v", got)
	}
}

func TestDefaultTolerations(t *testing.T) {
	t.Parallel()
	keys := func(ts []node.Toleration) []string {
		var out []string
		for _, x := range ts {
			out = append(out, x.Key+"/"+x.Effect)
			if x.Operator != node.OpExists || x.TolerationSeconds != nil || x.Value != "" {
				t.Errorf("%+v: want Exists, no value, forever", x)
			}
		}
		return out
	}
	want := []string{node.TaintNotReady + "/NoExecute", node.TaintUnreachable + "/NoExecute", node.TaintDiskPressure + "/NoSchedule",
		node.TaintMemoryPressure + "/NoSchedule", node.TaintPIDPressure + "/NoSchedule", node.TaintUnschedulable + "/NoSchedule"}
	if got := keys(DefaultTolerations(&podstatus.Spec{})); !slices.Equal(got, want) {
		t.Errorf("DefaultTolerations(hostNetwork false) = %v", got)
	}
	if got := keys(DefaultTolerations(nil)); !slices.Equal(got, want) {
		t.Errorf("DefaultTolerations(nil) = %v", got)
	}
	if got := keys(DefaultTolerations(&podstatus.Spec{HostNetwork: true})); !slices.Equal(got, append(want, node.TaintNetworkUnavailable+"/NoSchedule")) {
		t.Errorf("DefaultTolerations(hostNetwork true) = %v", got)
	}
}

func TestPodTolerations(t *testing.T) {
	t.Parallel()
	secs := int64(30)
	spec := &podstatus.Spec{}
	spec.Tolerations = []node.Toleration{
		{Key: "mine", Operator: node.OpExists},
		{Key: node.TaintNotReady, Operator: node.OpExists, Effect: "NoExecute", TolerationSeconds: &secs},
		{Key: node.TaintNotReady, Operator: node.OpExists, Effect: "NoExecute"},
		{Key: node.TaintUnreachable, Operator: node.OpExists, Effect: "NoSchedule"},
	}
	got := PodTolerations(spec)
	if len(got) != 4+5 {
		t.Fatalf("PodTolerations = %d tolerations %+v; want the 4 of the template and 5 defaults appended", len(got), got)
	}
	// Both equal not-ready tolerations are replaced in place by the
	// default: tolerationSeconds dropped.
	for _, i := range []int{1, 2} {
		if got[i].TolerationSeconds != nil || got[i].Key != node.TaintNotReady {
			t.Errorf("[%d] = %+v; want the default not-ready toleration", i, got[i])
		}
	}
	// An unreachable toleration with another effect is not the default:
	// kept, and the default appended.
	if got[3].Effect != "NoSchedule" || got[4].Key != node.TaintUnreachable || got[4].Effect != "NoExecute" {
		t.Errorf("[3], [4] = %+v, %+v", got[3], got[4])
	}
	if spec.Tolerations[1].TolerationSeconds == nil {
		t.Error("the template was modified")
	}
}
