package cluster_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// orphanDump is a dump of a cluster after `kubectl delete deploy web
// --cascade=orphan` and a re-apply of web: two ready nodes, Deployment web
// (3 replicas of image), and the ReplicaSet web-old1 it left, without owner
// references, whose template is web's with image old, with its 3 ready
// pods.
func orphanDump(image, old string) []any {
	yes := true
	web := deployment("web", 3, image)
	web.UID = "00000000-0000-4000-8000-0000000000d1"
	three := int32(3)
	tmpl := web.Spec.Template
	tmpl.Labels = map[string]string{"app": "web", rollout.HashLabel: "old1"}
	tmpl.Spec.Containers = []podstatus.Container{{Name: "app", Image: old}}
	rs := &replicaset.ReplicaSet{
		ObjectMeta: meta.ObjectMeta{Name: "web-old1", Namespace: "default", UID: "00000000-0000-4000-8000-0000000000a1", Generation: 1,
			CreationTimestamp: t0.Add(-time.Hour), Labels: maps.Clone(tmpl.Labels),
			Annotations: map[string]string{rollout.RevisionAnnotation: "1", rollout.DesiredReplicasAnnotation: "3", rollout.MaxReplicasAnnotation: "4"}},
		Spec:   replicaset.Spec{Replicas: &three, Selector: &meta.LabelSelector{MatchLabels: maps.Clone(tmpl.Labels)}, Template: tmpl},
		Status: replicaset.Status{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 1},
	}
	objs := []any{readyNode("node-1"), readyNode("node-2"), web, rs}
	for i := range 3 {
		at := t0.Add(-time.Hour)
		objs = append(objs, &podstatus.Pod{
			ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("web-old1-%d", i), Namespace: "default", UID: fmt.Sprintf("00000000-0000-4000-8000-00000000b00%d", i),
				CreationTimestamp: at, Labels: maps.Clone(tmpl.Labels),
				OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes, BlockOwnerDeletion: &yes}}},
			Spec: podstatus.Spec{NodeName: fmt.Sprintf("node-%d", i%2+1), Containers: []podstatus.Container{{Name: "app", Image: old}}},
			Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{
				{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: at.Add(time.Second)}}},
		})
	}
	return objs
}

// TestDeploymentAdoptsOrphanReplicaSet: a Deployment finds the orphan
// ReplicaSet its selector selects, adopts it (a patch adding its
// controller reference) and goes on from it, as upstream's
// getReplicaSetsForDeployment claims it: with the same template it is the
// new ReplicaSet and nothing is created; with another template it is an
// old one, scaled down as the new one grows. Without adoption the world
// created a second ReplicaSet beside it and never scaled the orphan down.
func TestDeploymentAdoptsOrphanReplicaSet(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, image string
		wantRSs     int
		wantOld     int32 // the orphan's spec.replicas at the end
	}{
		{"same template", "web:1", 1, 3},
		{"older template", "web:2", 2, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ready := 5 * time.Second
			w, err := cluster.New(cluster.Scenario{Start: t0, Objects: orphanDump(tt.image, "web:1"), Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}, cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := w.RunUntilSettled(time.Hour); !ok {
				t.Fatal("did not settle")
			}
			if testing.Verbose() {
				t.Log("\n" + summary(w.Trace))
			}
			adopted := 0
			for _, e := range w.Trace {
				if e.Write != nil && e.Controller == cluster.CtlDeployment && e.Write.Verb == plan.VerbPatch && e.Write.Name == "web-old1" {
					if e.Reason != rollout.ReasonOrphanSelected || e.Err != "" {
						t.Errorf("patch of web-old1: reason %s, error %q", e.Reason, e.Err)
					}
					adopted++
				}
			}
			if adopted != 1 {
				t.Errorf("web-old1 adopted %d times; want once", adopted)
			}
			rss := w.State.ReplicaSets()
			if len(rss) != tt.wantRSs {
				t.Errorf("%d ReplicaSets; want %d", len(rss), tt.wantRSs)
			}
			d := w.State.Deployments()[0]
			for _, rs := range rss {
				if !rs.IsControlledBy(d.UID) {
					t.Errorf("ReplicaSet %s is not controlled by web: %v", rs.Name, rs.OwnerReferences)
				}
				if rs.Name == "web-old1" && rs.Replicas() != tt.wantOld {
					t.Errorf("web-old1 has %d replicas; want %d", rs.Replicas(), tt.wantOld)
				}
			}
			live := 0
			for _, p := range w.State.Pods() {
				if !p.IsDeleting() {
					live++
				}
			}
			if live != 3 || d.Status.UpdatedReplicas != 3 || d.Status.AvailableReplicas != 3 {
				t.Errorf("%d live pods, status %+v; want 3 updated and available", live, d.Status)
			}
		})
	}
}

// TestOrphanDeleteThenReapply: `kubectl delete deploy web
// --cascade=orphan`, then web applied again. The API server marks web
// with the orphan finalizer; the garbage collector removes web's
// references from its ReplicaSet, then the finalizer, and web goes; the
// ReplicaSet and its pods stay, true orphans, which the new web adopts
// (same template: nothing is created, no pod replaced), as upstream's
// garbage collector (orphanDependents) and claim make it. Before, the
// ReplicaSet kept a dangling controller reference to the old web, so the
// new one could not adopt it and started a second ReplicaSet of 3 pods.
func TestOrphanDeleteThenReapply(t *testing.T) {
	t.Parallel()
	ready := 5 * time.Second
	web := deployment("web", 3, "web:1")
	key := cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-1"), readyNode("node-2"), web},
		Pods: []cluster.PodBehavior{{ReadyDelay: &ready}},
		Events: []cluster.Event{
			{At: 2 * time.Minute, Kind: cluster.EventDelete, Target: key, PropagationPolicy: cluster.PropagationOrphan},
			{At: 3 * time.Minute, Kind: cluster.EventCreate, Object: deployment("web", 3, "web:1")},
		}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var first string // the first web's UID
	var orphaned bool
	for w.Step(t0.Add(10 * time.Minute)) {
		if d, ok := w.State.Get(key).(*rollout.Deployment); ok && first == "" {
			first = d.UID
		}
		if w.Now.Equal(t0.Add(2 * time.Minute)) {
			if w.State.Get(key) != nil {
				t.Errorf("web is still stored after its orphaning at 2m")
			}
			for _, rs := range w.State.ReplicaSets() {
				if len(rs.OwnerReferences) != 0 {
					t.Errorf("ReplicaSet %s keeps %v after web's orphan delete", rs.Name, rs.OwnerReferences)
				}
				orphaned = true
			}
		}
	}
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
	if !orphaned {
		t.Fatal("no ReplicaSet left at 2m")
	}
	var deleted, created []string
	for _, e := range w.Trace {
		if e.Write == nil || e.Err != "" || e.Time.Before(t0.Add(2*time.Minute)) {
			continue
		}
		switch {
		case e.Write.Verb == plan.VerbDelete && e.Controller != cluster.CtlUser:
			deleted = append(deleted, e.Object.String())
		case e.Write.Verb == plan.VerbCreate && e.Controller != cluster.CtlUser:
			created = append(created, e.Object.String())
		}
	}
	if len(deleted) != 0 || len(created) != 0 {
		t.Errorf("after the orphan delete: deleted %v, created %v; want none", deleted, created)
	}
	d := w.State.Deployments()[0]
	rss := w.State.ReplicaSets()
	if d.UID == first || len(rss) != 1 || !rss[0].IsControlledBy(d.UID) {
		t.Fatalf("web %s (first %s), ReplicaSets %d; want the new web to control the one left", d.UID, first, len(rss))
	}
	if d.Status.AvailableReplicas != 3 || d.Status.UpdatedReplicas != 3 {
		t.Errorf("status %+v; want 3 updated and available", d.Status)
	}
}

// orphaned returns the objects of a world settled from sc as a dump after
// `kubectl delete <kind> <name> --cascade=orphan`: owner is gone and its
// dependents (pods, ControllerRevisions) keep no reference to it; owner is
// then applied again (again, as sc gave it).
func orphaned(t *testing.T, sc cluster.Scenario, owner cluster.Key, again any) []any {
	t.Helper()
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("the first world did not settle")
	}
	var uid string
	for _, o := range w.State.Objects() {
		if k, _ := cluster.KindOf(o); k == owner.Kind && cluster.MetaOf(o).Name == owner.Name {
			uid = cluster.MetaOf(o).UID
		}
	}
	var out []any
	for _, o := range w.State.Objects() {
		m := cluster.MetaOf(o)
		if m.UID == uid {
			continue
		}
		if slices.ContainsFunc(m.OwnerReferences, func(r meta.OwnerReference) bool { return r.UID == uid }) {
			c := cluster.Shallow(o)
			cm := cluster.MetaOf(c)
			cm.OwnerReferences = slices.DeleteFunc(slices.Clone(cm.OwnerReferences), func(r meta.OwnerReference) bool { return r.UID == uid })
			o = c
		}
		out = append(out, o)
	}
	return append(out, again)
}

// TestStatefulSetAdoptsOrphans: a StatefulSet applied again after an
// orphan delete finds its pods and its ControllerRevision without a
// controller, adopts the revision first, then the pods (patches adding its
// controller reference), and goes on from them: the same revision, no pod
// created or deleted, as upstream's adoptOrphanRevisions and
// getPodsForStatefulSet claim them. Without adoption the world tried to
// create the pods and the revision again (AlreadyExists) and never synced.
func TestStatefulSetAdoptsOrphans(t *testing.T) {
	t.Parallel()
	ready := 5 * time.Second
	db := statefulSet("db", 2)
	db.Spec.VolumeClaimTemplates = nil
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-1"), db}, Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	again := statefulSet("db", 2)
	again.Spec.VolumeClaimTemplates, again.UID = nil, "db-again"
	objs := orphaned(t, sc, cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "db"}, again)
	w, err := cluster.New(cluster.Scenario{Start: t0.Add(time.Hour), Objects: objs, Pods: sc.Pods}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("did not settle")
	}
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
	var patched []string
	for _, e := range w.Trace {
		if e.Write == nil || e.Controller != cluster.CtlStatefulSet {
			continue
		}
		switch {
		case e.Write.Verb == plan.VerbPatch && e.Err == "":
			patched = append(patched, e.Write.Resource+"/"+e.Write.Name)
		case e.Write.Verb == plan.VerbCreate || e.Write.Verb == plan.VerbDelete:
			t.Errorf("%s %s %s (%s)", e.Write.Verb, e.Write.Resource, e.Object, e.Err)
		}
	}
	set := w.State.StatefulSets()[0]
	revs := w.State.ControllerRevisions()
	if len(revs) != 1 || !slices.Equal(patched, []string{"controllerrevisions/" + revs[0].Name, "pods/db-0", "pods/db-1"}) {
		t.Errorf("patched %v; want the revision, then db-0 and db-1", patched)
	}
	for _, o := range append([]any{revs[0]}, anySlice(w.State.Pods())...) {
		if m := cluster.MetaOf(o); !m.IsControlledBy(set.UID) {
			t.Errorf("%s is not controlled by db: %v", m.Name, m.OwnerReferences)
		}
	}
	if set.Status.ReadyReplicas != 2 || set.Status.CurrentRevision != revs[0].Name {
		t.Errorf("status %+v; want 2 ready at %s", set.Status, revs[0].Name)
	}
}

func anySlice[T any](l []T) []any {
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = x
	}
	return out
}

// TestDaemonSetOrphanDeleteThenReapply: a DaemonSet deleted with
// propagationPolicy Orphan and created again as it was adopts its pods and
// its ControllerRevision (patches adding its controller reference; no pod
// created or deleted, no revision created), as upstream's
// controlledHistories and getDaemonPods claim them; created again with
// other labels (a selector that selects none of them), it adopts nothing,
// creates its own revision and a pod on each node, and the old pods stay
// orphans. Before, the world gave a DaemonSet only what it controls: the
// first re-create created a second pod on each node beside the orphans.
func TestDaemonSetOrphanDeleteThenReapply(t *testing.T) {
	t.Parallel()
	ready := 5 * time.Second
	key := cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}
	relabelled := daemonSet("agent")
	relabelled.Spec.Selector = labelSel("ds", "agent-2")
	relabelled.Spec.Template.Labels = map[string]string{"ds": "agent-2"}
	for _, c := range []struct {
		name  string
		again *daemonset.DaemonSet
		adopt bool
	}{{"as it was", daemonSet("agent"), true}, {"relabelled", relabelled, false}} {
		t.Run(c.name, func(t *testing.T) {
			sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-1"), readyNode("node-2"), daemonSet("agent")},
				Pods: []cluster.PodBehavior{{ReadyDelay: &ready}},
				Events: []cluster.Event{
					{At: 2 * time.Minute, Kind: cluster.EventDelete, Target: key, PropagationPolicy: cluster.PropagationOrphan},
					{At: 3 * time.Minute, Kind: cluster.EventCreate, Object: c.again},
				}}
			w, err := cluster.New(sc, cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var before []string // the pods' names before the delete
			for w.Step(t0.Add(10 * time.Minute)) {
				if w.Now.Before(t0.Add(2 * time.Minute)) {
					before = before[:0]
					for _, p := range w.State.Pods() {
						before = append(before, p.Name)
					}
				}
			}
			if testing.Verbose() {
				t.Log("\n" + summary(w.Trace))
			}
			var patched, created []string
			for _, e := range w.Trace {
				if e.Write == nil || e.Err != "" || e.Controller != cluster.CtlDaemonSet || e.Time.Before(t0.Add(3*time.Minute)) {
					continue
				}
				switch e.Write.Verb {
				case plan.VerbPatch:
					patched = append(patched, e.Write.Resource+"/"+e.Write.Name)
				case plan.VerbCreate:
					created = append(created, e.Write.Resource)
				case plan.VerbDelete:
					t.Errorf("deleted %s", e.Object)
				}
			}
			ds := w.State.DaemonSets()[0]
			revs := w.State.ControllerRevisions()
			var mine, orphans []string
			for _, p := range w.State.Pods() {
				switch {
				case p.IsControlledBy(ds.UID):
					mine = append(mine, p.Name)
				case p.ControllerRef() == nil:
					orphans = append(orphans, p.Name)
				default:
					t.Errorf("pod %s is controlled by %v", p.Name, p.OwnerReferences)
				}
			}
			if len(before) != 2 {
				t.Fatalf("pods before the delete %v; want 2", before)
			}
			if c.adopt {
				if len(revs) != 1 || !revs[0].IsControlledBy(ds.UID) || len(created) != 0 {
					t.Errorf("revisions %d, created %v; want the one left, adopted, and nothing created", len(revs), created)
				}
				if !slices.Equal(mine, before) || len(orphans) != 0 {
					t.Errorf("pods %v, orphans %v; want %v adopted", mine, orphans, before)
				}
				if len(patched) == 0 || patched[0] != "controllerrevisions/"+revs[0].Name {
					t.Errorf("patched %v; want the revision first, then the pods", patched)
				}
				if ds.Status.NumberAvailable != 2 || ds.Status.UpdatedNumberScheduled != 2 {
					t.Errorf("status %+v; want 2 updated and available", ds.Status)
				}
				return
			}
			if len(patched) != 0 || len(mine) != 2 || !slices.Equal(orphans, before) || len(revs) != 2 {
				t.Errorf("patched %v, pods %v, orphans %v, revisions %d; want no adoption, two new pods, the old ones orphans, a new revision", patched, mine, orphans, len(revs))
			}
		})
	}
}

// A DaemonSet's revision stored without the controller-revision-hash
// label (left by an old controller or written by hand) is labelled with
// its name at the DaemonSet's first sync, as v1.36.3's constructHistory
// does; being the template's revision, its name is then the hash the
// DaemonSet's pods carry.
func TestDaemonSetLabelsUnlabelledRevision(t *testing.T) {
	t.Parallel()
	ds := daemonSet("agent")
	ds.UID = "uid-agent"
	r := history.New("agent-legacy", "kube-system", &ds.Spec.Template, history.HashLabel, "x", nil,
		meta.NewControllerRef("apps/v1", "DaemonSet", "agent", ds.UID), 1)
	delete(r.Labels, history.HashLabel)
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{readyNode("node-1"), ds, r}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Step(t0.Add(time.Minute))
	revs := w.State.ControllerRevisions()
	if len(revs) != 1 || revs[0].Labels[history.HashLabel] != "agent-legacy" {
		t.Fatalf("revisions %+v; want agent-legacy labelled with its name", revs)
	}
	pods := w.State.Pods()
	if len(pods) != 1 || pods[0].Labels[history.HashLabel] != "agent-legacy" {
		t.Fatalf("pods %+v; want one carrying the revision's name as its hash", pods)
	}
}

// Two revisions hold a DaemonSet's template under different hashes (left
// by hand or by an old controller): the DaemonSet controller keeps the
// newer, deletes the other and labels its pods with the kept hash, as
// v1.36.3's dedupCurHistories does.
func TestDaemonSetDeduplicatesRevisions(t *testing.T) {
	t.Parallel()
	ds := daemonSet("agent")
	ds.UID = "uid-agent"
	ref := meta.NewControllerRef("apps/v1", "DaemonSet", "agent", ds.UID)
	older := history.New("agent-older", "kube-system", &ds.Spec.Template, history.HashLabel, "x", nil, ref, 1)
	newer := history.New("agent-newer", "kube-system", &ds.Spec.Template, history.HashLabel, "y", nil, ref, 2)
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{readyNode("node-1"), ds, older, newer}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Step(t0.Add(time.Minute))
	revs := w.State.ControllerRevisions()
	if len(revs) != 1 || revs[0].Name != "agent-newer" {
		t.Fatalf("revisions %v; want agent-newer alone", revs)
	}
	pods := w.State.Pods()
	if len(pods) != 1 || pods[0].Labels[history.HashLabel] != "y" {
		t.Fatalf("pods %+v; want one of hash y", pods)
	}
}
