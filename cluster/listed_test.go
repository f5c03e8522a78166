package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// TestControllerListsByIndexKey: a pod whose controller reference carries a
// Job's or a StatefulSet's UID under another name or kind, or that lives
// in another namespace, is not the controller's (upstream's pod index keys
// by namespace, kind, name and UID; FilterPodsByOwner): the controller
// neither counts nor releases it, and creates its one pod beside it.
func TestControllerListsByIndexKey(t *testing.T) {
	for _, owner := range []string{"Job", "StatefulSet"} {
		for _, c := range []struct {
			name, refName, refKind, ns string
			want                       int // the owner's pods in default at the end, the odd one included
		}{
			{"its own pod", "w", owner, "default", 1},
			{"another name", "other", owner, "default", 2},
			{"another kind", "w", "ReplicaSet", "default", 2},
			{"another namespace", "w", owner, "elsewhere", 1},
		} {
			t.Run(owner+"/"+c.name, func(t *testing.T) {
				var obj any
				labels := map[string]string{"app": "w"}
				switch owner {
				case "Job":
					j := batchJob("w", false)
					j.UID, j.Spec.Parallelism, j.Spec.Completions = "w-uid", i32(1), i32(1)
					j.Spec.Template.Labels = labels
					obj = j
				default:
					s := statefulSet("w", 1)
					s.UID = "w-uid"
					s.Spec.Selector, s.Spec.Template.Labels = &meta.LabelSelector{MatchLabels: labels}, labels
					obj = s
				}
				yes := true
				odd := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "w-0", Namespace: c.ns, UID: "odd-uid", Labels: labels,
					OwnerReferences: []meta.OwnerReference{{APIVersion: "v1", Kind: c.refKind, Name: c.refName, UID: "w-uid", Controller: &yes}}},
					Spec: podstatus.Spec{NodeName: "n0", RestartPolicy: "Never", Containers: []podstatus.Container{{Name: "app", Image: "app:1"}}}}
				if c.ns == "default" && c.want == 2 {
					odd.Name = "odd" // (not the StatefulSet's pod name, which it would find taken)
				}
				odd.Status.Phase = podstatus.Running
				w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), obj, odd}}, cluster.Options{})
				if err != nil {
					t.Fatal(err)
				}
				runBounded(t, w, t0.Add(10*time.Second), 5000)
				n := 0
				for _, p := range w.State.Pods() {
					if p.Namespace == "default" {
						n++
					}
				}
				if n != c.want {
					t.Fatalf("%d pods in default, want %d:\n%s", n, c.want, summary(w.Trace))
				}
				for _, e := range w.Trace {
					if e.Write != nil && e.Object.Name == odd.Name && e.Object.Namespace == odd.Namespace && e.Controller != "kubelet/n0" && c.want == 2 {
						t.Fatalf("the controller wrote the pod it does not list:\n%s", summary(w.Trace))
					}
				}
			})
		}
	}
}
