package daemonset_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	khistory "github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
)

// TestAdapterRealDaemonSetUpstream: the kubectl get -o json objects of a
// DaemonSet whose image changed (k8s/testdata/real), unmodified, give the
// same sync through the adapter and Step as through one upstream
// syncDaemonSet: the ControllerRevision created (name, data, labels), one
// old pod deleted (either: upstream walks a map), no pod created, the
// status.
func TestAdapterRealDaemonSetUpstream(t *testing.T) {
	var ds appsv1.DaemonSet
	b, err := os.ReadFile(difftest.Repo("k8s", "testdata", "real", "daemonset.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ds); err != nil {
		t.Fatal(err)
	}
	revs := difftest.ReadRealList[appsv1.ControllerRevision](t, "daemonset-controllerrevisions.json")
	nodes := difftest.ReadRealList[corev1.Node](t, "nodes.json")
	pods := difftest.ReadRealList[corev1.Pod](t, "daemonset-pods.json")

	// Upstream: its informer holds the revisions' stored, compact data.
	h := newHarness(t)
	var objs []any
	for _, r := range revs {
		c := r.DeepCopy()
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Data.Raw); err != nil {
			t.Fatal(err)
		}
		c.Data.Raw = buf.Bytes()
		objs = append(objs, c)
	}
	if err := h.factory.Apps().V1().ControllerRevisions().Informer().GetStore().Replace(objs, "1"); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	h.clock.SetTime(now)
	if err := h.sync(t, &ds, nodes, pods); err != nil {
		t.Fatal(err)
	}

	// kubesem through the adapter, on the objects as kubectl printed them.
	hist, err := k8s.DaemonSetHistory(&ds, revs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := daemonset.Step(difftest.Must(k8s.FromDaemonSet(&ds)), difftest.MustList(k8s.FromNodes(nodes)), difftest.MustList(k8s.FromPods(pods)), hist, nil, now, daemonset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.revs) != 1 || len(p.Revisions) == 0 || p.Revisions[0].Verb != plan.VerbCreate {
		t.Fatalf("revisions created: upstream %d, kubesem %+v", len(h.revs), p.Revisions)
	}
	created := p.Revisions[0]
	want, err := k8s.NewDaemonSetRevision(&ds, created.Revision)
	if err != nil {
		t.Fatal(err)
	}
	if d := difftest.RevisionDiff(want, h.revs[0]); d != "" || want.Name != created.Name {
		t.Fatalf("created revision %s (%s): %s", want.Name, created.Name, d)
	}
	if len(h.created) != 0 || p.Create.Count != 0 || len(h.deleted) != 1 || len(p.Delete) != 1 {
		t.Fatalf("creates upstream %v kubesem %d; deletes upstream %v kubesem %v", h.created, p.Create.Count, h.deleted, p.Delete)
	}
	if (h.status != nil) != p.UpdateStatus {
		t.Fatalf("status written: upstream %v, kubesem %v", h.status != nil, p.UpdateStatus)
	}
	if h.status != nil {
		s, k := h.status, p.Status
		if s.DesiredNumberScheduled != k.DesiredNumberScheduled || s.CurrentNumberScheduled != k.CurrentNumberScheduled || s.NumberReady != k.NumberReady ||
			s.UpdatedNumberScheduled != k.UpdatedNumberScheduled || s.NumberAvailable != k.NumberAvailable || s.NumberUnavailable != k.NumberUnavailable || s.ObservedGeneration != k.ObservedGeneration {
			t.Fatalf("status: upstream %+v\nkubesem %+v", *s, k)
		}
	}

	// Rolled back to the old template, with a collision count since: the
	// stored revision (kubectl printed it indented) is current, no revision
	// is created and every pod is up to date.
	old := ds.DeepCopy()
	old.Name, old.UID = "node-agent-old", "uid-old"
	old.Spec.Template.Spec.Containers[0].Image = "registry.example.com/node-agent:2.0"
	one := int32(1)
	old.Status.CollisionCount = &one
	oldRevs := make([]*appsv1.ControllerRevision, len(revs))
	var oldObjs []any
	for i, r := range revs {
		c := r.DeepCopy()
		c.OwnerReferences[0].Name, c.OwnerReferences[0].UID = old.Name, old.UID
		oldRevs[i] = c
		s := c.DeepCopy()
		var buf bytes.Buffer
		if err := json.Compact(&buf, s.Data.Raw); err != nil {
			t.Fatal(err)
		}
		s.Data.Raw = buf.Bytes()
		oldObjs = append(oldObjs, s)
	}
	oldPods := make([]*corev1.Pod, len(pods))
	for i, pod := range pods {
		c := pod.DeepCopy()
		c.OwnerReferences[0].Name, c.OwnerReferences[0].UID = old.Name, old.UID
		oldPods[i] = c
	}
	h2 := newHarness(t)
	h2.clock.SetTime(now)
	if err := h2.factory.Apps().V1().ControllerRevisions().Informer().GetStore().Replace(oldObjs, "1"); err != nil {
		t.Fatal(err)
	}
	if err := h2.sync(t, old, nodes, oldPods); err != nil {
		t.Fatal(err)
	}
	hist2, err := k8s.DaemonSetHistory(old, oldRevs)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := daemonset.Step(difftest.Must(k8s.FromDaemonSet(old)), difftest.MustList(k8s.FromNodes(nodes)), difftest.MustList(k8s.FromPods(oldPods)), hist2, nil, now, daemonset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h2.revs) != 0 || slices.ContainsFunc(p2.Revisions, func(w khistory.Write) bool { return w.Verb == plan.VerbCreate }) || len(h2.deleted) != 0 || len(p2.Delete) != 0 || len(h2.created) != 0 || p2.Create.Count != 0 {
		t.Fatalf("old template: upstream revisions %d deletes %v creates %v; kubesem %+v", len(h2.revs), h2.deleted, h2.created, p2)
	}
	if h2.status == nil || h2.status.UpdatedNumberScheduled != 2 || p2.Status.UpdatedNumberScheduled != 2 {
		t.Fatalf("old template status: upstream %+v, kubesem %+v", h2.status, p2.Status)
	}
}
