package pdb_test

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

var now = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func readyPod(name string, ready bool, owner *meta.OwnerReference) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.UID = name, "default", name+"-uid"
	p.Labels = map[string]string{"app": "web"}
	p.Status.Phase = podstatus.Running
	st := meta.ConditionFalse
	if ready {
		st = meta.ConditionTrue
	}
	p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: st}}
	if owner != nil {
		p.OwnerReferences = []meta.OwnerReference{*owner}
	}
	return p
}

func rsRef(name string) *meta.OwnerReference {
	return &meta.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: name + "-uid", Controller: ptr(true)}
}

func rs(name string, replicas int32) pdb.Controller {
	return pdb.Controller{APIVersion: "apps/v1", Kind: "ReplicaSet", ObjectMeta: meta.ObjectMeta{Name: name, UID: name + "-uid"}, Spec: pdb.ControllerSpec{Replicas: &replicas}}
}

func budget(minAvailable, maxUnavailable *intstr.Value) *pdb.PodDisruptionBudget {
	b := &pdb.PodDisruptionBudget{}
	b.Name, b.Namespace, b.Generation = "web", "default", 1
	b.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
	b.Spec.MinAvailable, b.Spec.MaxUnavailable = minAvailable, maxUnavailable
	return b
}

func manyPods(n int) ([]*podstatus.Pod, []pdb.Controller) {
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		pods[i] = readyPod("p"+strconv.Itoa(i), i%10 != 0, rsRef("rs"+strconv.Itoa(i%4)))
	}
	cs := []pdb.Controller{rs("rs0", int32(n/4)), rs("rs1", int32(n/4)), rs("rs2", int32(n/4)), rs("rs3", int32(n/4))}
	return pods, cs
}

// nodes are nodes named names, without pod limit.
func nodes(names ...string) []node.Node {
	out := make([]node.Node, len(names))
	for i, n := range names {
		out[i].Name = n
	}
	return out
}
