package daemonset

import (
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Builders for the package's own (white-box) tests.

var (
	tNow  = time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	tHour = tNow.Add(-time.Hour)
	// never: a pod that has not been ready.
	never time.Time
)

// testDS is a valid DaemonSet: selector and template labels app=d,
// RollingUpdate with maxUnavailable 1, generation 1.
func testDS() *DaemonSet {
	ds := &DaemonSet{}
	ds.Name, ds.Namespace, ds.UID, ds.Generation = "ds", "default", "ds-uid", 1
	ds.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "d"})
	ds.Spec.Template.Labels = map[string]string{"app": "d"}
	one := intstr.Int(1)
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingParams{MaxUnavailable: &one}}
	return ds
}

// withSurge makes ds surge by n nodes (maxUnavailable 0).
func withSurge(ds *DaemonSet, n int32) *DaemonSet {
	zero, s := intstr.Int(0), intstr.Int(n)
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingParams{MaxUnavailable: &zero, MaxSurge: &s}}
	return ds
}

func testNode(name string, taints ...node.Taint) *node.Node {
	n := &node.Node{}
	n.Name = name
	n.Spec.Taints = taints
	return n
}

// testPod is a pod of hash on nodeName, created at created; ready since
// readyAt unless readyAt is zero; phase Running; controlled by testDS.
func testPod(name, nodeName, hash string, created, readyAt time.Time) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.UID, p.CreationTimestamp = name, "default", "uid-"+name, created
	p.OwnerReferences = []meta.OwnerReference{testRef}
	p.Labels = map[string]string{"app": "d", history.HashLabel: hash}
	p.Spec.NodeName = nodeName
	p.Status.Phase = podstatus.Running
	if !readyAt.IsZero() {
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: readyAt}}
	}
	return p
}

func withPhase(p *podstatus.Pod, ph podstatus.Phase) *podstatus.Pod {
	p.Status.Phase = ph
	return p
}

func deleting(p *podstatus.Pod, at time.Time) *podstatus.Pod {
	p.DeletionTimestamp = &at
	return p
}

// pinned makes p unscheduled, pinned to its node by affinity.
func pinned(p *podstatus.Pod) *podstatus.Pod {
	p.Spec.Affinity = PinToNode(nil, p.Spec.NodeName)
	p.Spec.NodeName = ""
	return p
}

// rev is ControllerRevision name numbered n with the labels app=d and
// the hash label hash, controlled by testDS.
func rev(name string, n int64, hash string) history.ControllerRevision {
	return history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "d", history.HashLabel: hash},
		OwnerReferences: []meta.OwnerReference{testRef}}, Revision: n}
}

// testRef is testDS's controller reference.
var testRef = meta.NewControllerRef("apps/v1", "DaemonSet", "ds", "ds-uid")
