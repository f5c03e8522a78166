package k8s_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/statefulset"
)

// realStatefulSet reads the kubectl get -o json objects of a StatefulSet
// in mid-update (template changed from nginx:1.26 to nginx:1.27, not yet
// synced): the set, its ControllerRevision, pods and claims.
func realStatefulSet(t *testing.T) (*appsv1.StatefulSet, []*appsv1.ControllerRevision, []*corev1.Pod, []*corev1.PersistentVolumeClaim) {
	t.Helper()
	rd := func(name string, v any) {
		b, err := os.ReadFile(filepath.Join("testdata", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	var set appsv1.StatefulSet
	var revs appsv1.ControllerRevisionList
	var pods corev1.PodList
	var claims corev1.PersistentVolumeClaimList
	rd("statefulset.json", &set)
	rd("controllerrevisions.json", &revs)
	rd("statefulset-pods.json", &pods)
	rd("persistentvolumeclaims.json", &claims)
	var rp []*appsv1.ControllerRevision
	for i := range revs.Items {
		rp = append(rp, &revs.Items[i])
	}
	var pp []*corev1.Pod
	for i := range pods.Items {
		pp = append(pp, &pods.Items[i])
	}
	var cp []*corev1.PersistentVolumeClaim
	for i := range claims.Items {
		cp = append(cp, &claims.Items[i])
	}
	return &set, rp, pp, cp
}

// TestRealStatefulSet: the real objects, unmodified, through the adapter:
// the stored revision's hash is its label, the changed template is a new
// revision, and Step creates it and deletes web-2 (the rolling update
// starts at the highest ordinal); the pod recreated later is the whole
// new template.
func TestRealStatefulSet(t *testing.T) {
	set, revs, pods, claims := realStatefulSet(t)
	// kubectl prints the revision data indented; the hash is over the
	// stored, compact bytes.
	var stored bytes.Buffer
	if err := json.Compact(&stored, revs[0].Data.Raw); err != nil {
		t.Fatal(err)
	}
	compact := revs[0].DeepCopy()
	compact.Data.Raw = stored.Bytes()
	zero := int32(0)
	if h := k8s.ControllerRevisionHash(compact, &zero); revs[0].Labels[history.RevisionHashLabel] != h || revs[0].Name != "web-"+h {
		t.Fatalf("stored revision %s labelled %v; hash %s", revs[0].Name, revs[0].Labels, h)
	}
	// Rolled back to the old template after a newer revision, with a
	// collision count since (so a new revision would have another name):
	// the stored revision, printed indented, is found by its data.
	old := set.DeepCopy()
	old.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
	one := int32(1)
	old.Status.CollisionCount = &one
	newer, err := k8s.NewStatefulSetRevision(set, 2)
	if err != nil {
		t.Fatal(err)
	}
	if name, _ := k8s.StatefulSetUpdateRevision(old, append(revs, newer)); name != revs[0].Name {
		t.Fatalf("the old template's revision = %s; want the stored %s", name, revs[0].Name)
	}
	ks, err := k8s.FromStatefulSetWithRevisions(set, revs)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := k8s.StatefulSetRevisionName(set)
	if ks.Spec.TemplateRevision != fresh || fresh == revs[0].Name {
		t.Fatalf("TemplateRevision %s; want the new revision %s", ks.Spec.TemplateRevision, fresh)
	}
	kp, err := k8s.FromPods(pods)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := k8s.FromPersistentVolumeClaims(claims)
	if err != nil {
		t.Fatal(err)
	}
	p, err := statefulset.Step(ks, kp, k8s.FromControllerRevisions(revs), kc, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), statefulset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Revisions) != 1 || p.Revisions[0].Verb != plan.VerbCreate || p.Revisions[0].Name != fresh || p.Revisions[0].Revision != 2 ||
		len(p.Delete) != 1 || p.Delete[0].Name != "web-2" || p.Create.Count != 0 {
		b, _ := json.Marshal(p)
		t.Fatalf("Plan %s", b)
	}
	rev, err := k8s.NewStatefulSetRevision(set, 2)
	if err != nil {
		t.Fatal(err)
	}
	pod, err := k8s.StatefulSetPod(set, rev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if pod.Spec.Containers[0].Image != "nginx:1.27" || pod.Spec.Containers[0].Env[0].Value != "4" || pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "www-web-2" ||
		pod.Labels[history.HashLabel] != fresh || pod.Spec.Containers[0].Resources.Limits.Memory().String() != "256Mi" {
		t.Fatalf("recreated pod %+v", pod)
	}
}

func readList[T any](t *testing.T, name string) []*T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Items []T `json:"items"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	out := make([]*T, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out
}

// TestRealDaemonSet: the kubectl get -o json objects of a DaemonSet whose
// image changed (2.0 to 2.1) on two nodes, unmodified: the stored revision
// (printed indented) is the old template's, the new template gets a new
// revision named by its pod-template-hash, and Step deletes one old pod
// (maxUnavailable 1).
func TestRealDaemonSet(t *testing.T) {
	var ds appsv1.DaemonSet
	b, err := os.ReadFile(filepath.Join("testdata", "real", "daemonset.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ds); err != nil {
		t.Fatal(err)
	}
	revs := readList[appsv1.ControllerRevision](t, "daemonset-controllerrevisions.json")
	nodes := readList[corev1.Node](t, "nodes.json")
	pods := readList[corev1.Pod](t, "daemonset-pods.json")
	// The old template with a collision count since: the stored revision,
	// printed indented, is found by its data and gives its label.
	old := ds.DeepCopy()
	old.Spec.Template.Spec.Containers[0].Image = "registry.example.com/node-agent:2.0"
	one := int32(1)
	old.Status.CollisionCount = &one
	if h, err := k8s.DaemonSetHistory(old, revs); err != nil || h.Hash != pods[0].Labels[history.HashLabel] {
		t.Fatalf("the old template's hash %s, %v; pods carry %s", h.Hash, err, pods[0].Labels[history.HashLabel])
	}
	hist, err := k8s.DaemonSetHistory(&ds, revs)
	if err != nil {
		t.Fatal(err)
	}
	if want := k8s.PodTemplateHash(&ds.Spec.Template, nil); hist.Hash != want {
		t.Fatalf("hash %s; want the new template's %s", hist.Hash, want)
	}
	kds, err := k8s.FromDaemonSet(&ds)
	if err != nil {
		t.Fatal(err)
	}
	kn, err := k8s.FromNodes(nodes)
	if err != nil {
		t.Fatal(err)
	}
	kp, err := k8s.FromPods(pods)
	if err != nil {
		t.Fatal(err)
	}
	p, err := daemonset.Step(kds, kn, kp, hist, nil, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), daemonset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Revisions) == 0 || p.Revisions[0].Verb != plan.VerbCreate || p.Revisions[0].Name != "node-agent-"+hist.Hash || p.Revisions[0].Revision != 2 || len(p.Delete) != 1 || p.Create.Count != 0 {
		b, _ := json.Marshal(p)
		t.Fatalf("Plan %s", b)
	}
}
