package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// TestReplicaSetRanksCountEveryRelatedPod: a ReplicaSet that scales down
// ranks its pods by the pods on the same node that its siblings'
// (same controller) selectors select — every such pod of the namespace,
// whatever controls it, as upstream's getIndirectlyRelatedPods lists them
// (pods(ns).List(selector) per sibling). Here ReplicaSet a (of Deployment
// web, with sibling b) has a-old on node-1 and a-new on node-2; pod c-1,
// controlled by the standalone ReplicaSet c, carries a's labels and runs
// on node-1: node-1 ranks 2, node-2 ranks 1, and the higher rank goes
// first, so a-old is deleted, although without c-1 the tie would fall to
// a-new, ready more recently.
func TestReplicaSetRanksCountEveryRelatedPod(t *testing.T) {
	yes := true
	one, zero := int32(1), int32(0)
	web := deployment("web", 1, "web:1")
	web.UID = "00000000-0000-4000-8000-0000000000d1"
	rs := func(name, uid string, replicas *int32, labels map[string]string, owner *meta.OwnerReference) *replicaset.ReplicaSet {
		r := &replicaset.ReplicaSet{
			ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: uid, Generation: 1},
			Spec: replicaset.Spec{Replicas: replicas, Selector: &meta.LabelSelector{MatchLabels: labels},
				Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels},
					Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: name + ":1"}}}}},
		}
		if owner != nil {
			r.OwnerReferences = []meta.OwnerReference{*owner}
		}
		return r
	}
	byWeb := &meta.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: web.UID, Controller: &yes}
	webLabels := map[string]string{"app": "web"}
	a := rs("a", "00000000-0000-4000-8000-0000000000a1", &one, webLabels, byWeb)
	b := rs("b", "00000000-0000-4000-8000-0000000000b1", &zero, webLabels, byWeb)
	c := rs("c", "00000000-0000-4000-8000-0000000000c1", &one, map[string]string{"app": "web", "tier": "c"}, nil)
	pod := func(name, uid string, owner *replicaset.ReplicaSet, nodeName string, created time.Duration) *podstatus.Pod {
		at := t0.Add(created)
		return &podstatus.Pod{
			ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: uid, CreationTimestamp: at,
				Labels:          owner.Spec.Template.Labels,
				OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}},
			Spec: podstatus.Spec{NodeName: nodeName, Containers: []podstatus.Container{{Name: "app", Image: owner.Name + ":1"}}},
			Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{
				{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: at.Add(time.Second)}}},
		}
	}
	objs := []any{readyNode("node-1"), readyNode("node-2"), web, a, b, c,
		pod("a-old", "00000000-0000-4000-8000-00000000a001", a, "node-1", -2*time.Hour),
		pod("a-new", "00000000-0000-4000-8000-00000000a002", a, "node-2", -time.Hour),
		pod("c-1", "00000000-0000-4000-8000-00000000c001", c, "node-1", -3*time.Hour),
	}
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: objs}, cluster.Options{Controllers: []string{cluster.CtlReplicaSet}})
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, d := range w.ForceSync(w.Now) {
		if d.Object.Name != "a" {
			continue
		}
		for _, wr := range d.Writes {
			if wr.Verb == plan.VerbDelete && wr.Resource == "pods" {
				deleted = append(deleted, wr.Name)
			}
		}
	}
	if len(deleted) != 1 || deleted[0] != "a-old" {
		t.Errorf("ReplicaSet a deletes %v; want [a-old] (node-1 ranks 2 with c-1)", deleted)
	}
}
