package daemonset_test

import (
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func readyPod(name, nodeName, hash string, created, readyAt time.Time, ready bool, phase podstatus.Phase) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.UID, p.CreationTimestamp = name, "uid-"+name, created
	p.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "DaemonSet", "ds", "ds-uid")}
	p.Labels = map[string]string{"app": "d", history.HashLabel: hash}
	p.Spec.NodeName = nodeName
	p.Status.Phase = phase
	st := meta.ConditionFalse
	if ready {
		st = meta.ConditionTrue
	}
	p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: st, LastTransitionTime: readyAt}}
	return p
}

func genDS(t *rapid.T) *daemonset.DaemonSet {
	ds := &daemonset.DaemonSet{}
	ds.Name, ds.UID, ds.Generation = "ds", "ds-uid", 2
	ds.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "d"}}
	ds.Spec.Template.Labels = map[string]string{"app": "d"}
	ds.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 10}).Draw(t, "minReady")
	if rapid.IntRange(0, 4).Draw(t, "ondelete") == 0 {
		ds.Spec.UpdateStrategy.Type = daemonset.OnDelete
	} else {
		ds.Spec.UpdateStrategy.Type = daemonset.RollingUpdate
		// Exactly one of maxUnavailable and maxSurge is non-zero, as the
		// API requires.
		mu := intstr.Int(rapid.Int32Range(1, 3).Draw(t, "mu"))
		if rapid.Bool().Draw(t, "mup") {
			mu = intstr.String(rapid.SampledFrom([]string{"1%", "10%", "50%", "100%"}).Draw(t, "mus"))
		}
		ru := &daemonset.RollingParams{MaxUnavailable: &mu}
		if rapid.Bool().Draw(t, "surge") {
			zero := intstr.Int(0)
			ms := intstr.Int(rapid.Int32Range(1, 3).Draw(t, "ms"))
			ru.MaxUnavailable, ru.MaxSurge = &zero, &ms
		}
		ds.Spec.UpdateStrategy.RollingUpdate = ru
	}
	if rapid.IntRange(0, 3).Draw(t, "hasSel") == 0 {
		ds.Spec.Template.Spec.NodeSelector = map[string]string{"pool": "a"}
	}
	return ds
}

func genCluster(t *rapid.T) ([]*node.Node, []*podstatus.Pod) {
	nn := rapid.IntRange(0, 8).Draw(t, "nodes")
	var nodes []*node.Node
	var pods []*podstatus.Pod
	k := 0
	for i := range nn {
		n := &node.Node{}
		n.Name = fmt.Sprintf("node-%d", i)
		if rapid.Bool().Draw(t, "pool") {
			n.Labels = map[string]string{"pool": "a"}
		}
		switch rapid.IntRange(0, 5).Draw(t, "taint") {
		case 0:
			n.Spec.Taints = []node.Taint{{Key: "x", Effect: node.NoSchedule}}
		case 1:
			n.Spec.Taints = []node.Taint{{Key: "x", Effect: node.NoExecute}}
		case 2:
			n.Spec.Taints = []node.Taint{{Key: node.TaintNotReady, Effect: node.NoExecute}}
		}
		nodes = append(nodes, n)
		for range rapid.IntRange(0, 2).Draw(t, "npods") {
			hash := rapid.SampledFrom([]string{"new", "old"}).Draw(t, "hash")
			phase := rapid.SampledFrom([]podstatus.Phase{podstatus.Running, podstatus.Running, podstatus.Running, podstatus.Pending, podstatus.Failed, podstatus.Succeeded}).Draw(t, "phase")
			created := t0.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "created")) * time.Second)
			p := readyPod(fmt.Sprintf("p-%d", k), n.Name, hash, created, created, rapid.Bool().Draw(t, "ready"), phase)
			if rapid.IntRange(0, 6).Draw(t, "deleting") == 0 {
				d := created.Add(time.Second)
				p.DeletionTimestamp = &d
			}
			pods = append(pods, p)
			k++
		}
	}
	return nodes, pods
}
