package live

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/core/install" // the core API's defaulting, for samePod
	"k8s.io/utils/ptr"
)

// setState reads a StatefulSet's objects back from the server.
func setState(t *testing.T, ns, name string) (*appsv1.StatefulSet, []*appsv1.ControllerRevision, []*corev1.Pod, []*corev1.PersistentVolumeClaim) {
	t.Helper()
	ctx := context.Background()
	set, err := client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	check(t, err)
	rl, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
	check(t, err)
	var revs []*appsv1.ControllerRevision
	for i := range rl.Items {
		revs = append(revs, &rl.Items[i])
	}
	cl, err := client.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	check(t, err)
	var claims []*corev1.PersistentVolumeClaim
	for i := range cl.Items {
		claims = append(claims, &cl.Items[i])
	}
	return set, revs, pods(t, ns), claims
}

func statefulSetStep(t *testing.T, set *appsv1.StatefulSet, revs []*appsv1.ControllerRevision, ps []*corev1.Pod, claims []*corev1.PersistentVolumeClaim) (statefulset.Plan, k8s.StatefulSetWrites) {
	t.Helper()
	ks, err := k8s.FromStatefulSetWithRevisions(set, revs)
	check(t, err)
	kp, err := k8s.FromPods(ps)
	check(t, err)
	kc, err := k8s.FromPersistentVolumeClaims(claims)
	check(t, err)
	p, err := statefulset.Step(ks, kp, k8s.FromControllerRevisions(revs), kc, time.Now(), statefulset.Options{})
	check(t, err)
	w, err := k8s.ToStatefulSetWrites(set, revs, ps, claims, p)
	check(t, err)
	return p, w
}

// setSettled waits until the set's pods are all Running and Ready with
// updated of them at the update revision, and kubesem, fed the objects read
// back, has nothing to write (the controller's last status write included).
func setSettled(t *testing.T, ns, name string, updated int32) (*appsv1.StatefulSet, []*appsv1.ControllerRevision, []*corev1.Pod, []*corev1.PersistentVolumeClaim) {
	t.Helper()
	var (
		set    *appsv1.StatefulSet
		revs   []*appsv1.ControllerRevision
		ps     []*corev1.Pod
		claims []*corev1.PersistentVolumeClaim
	)
	eventually(t, 20*time.Second, func() (bool, string) {
		set, revs, ps, claims = setState(t, ns, name)
		s := set.Status
		if s.ObservedGeneration != set.Generation || s.ReadyReplicas != *set.Spec.Replicas || s.AvailableReplicas != *set.Spec.Replicas || s.UpdatedReplicas != updated || len(ps) != int(*set.Spec.Replicas) {
			return false, "StatefulSet settled: " + jsonish(s)
		}
		p, _ := statefulSetStep(t, set, revs, ps, claims)
		if len(p.Revisions) != 0 || p.Create.Count != 0 || len(p.Claims) != 0 || len(p.Update) != 0 || len(p.Delete) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write on the settled StatefulSet, but: " + jsonish(p) + "\nserver status " + jsonish(s)
		}
		return true, ""
	})
	return set, revs, ps, claims
}

// TestStatefulSetPartitionedUpdate creates the StatefulSet "web" (three
// replicas, a claim template) and then updates it with a partition, and
// checks that kubesem, fed the objects read back from the server, predicts
// the revision, claims and pod the real controller creates first (names,
// controller-revision-hash, pod identity), the pod the update deletes, the
// revisions pods end with, and the pod a scale down deletes first.
func TestStatefulSetPartitionedUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)
	wr, err := client.AppsV1().ControllerRevisions(ns).Watch(ctx, metav1.ListOptions{})
	revWatch := record(t, wr, err)

	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    ptr.To[int32](3),
			ServiceName: "nginx",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.24",
					Ports:        []corev1.ContainerPort{{ContainerPort: 80, Name: "web"}},
					VolumeMounts: []corev1.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "www"},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
				},
			}},
		},
	}

	// 1. Creation: the first sync creates the revision, web-0's claim and web-0.
	var created *appsv1.StatefulSet
	out := userWrite(t, ns, "creation", func() {
		created, err = client.AppsV1().StatefulSets(ns).Create(ctx, set, metav1.CreateOptions{})
		check(t, err)
	})
	p, w := statefulSetStep(t, created, nil, nil, nil)
	if len(w.CreateRevisions) != 1 || len(w.CreatePods) != 1 || len(w.CreateClaims) != 1 {
		t.Fatalf("creation: kubesem's writes %+v", p)
	}
	revName, err := k8s.StatefulSetRevisionName(created)
	check(t, err)
	if got, want := predictedNames(out), map[string][]string{"ControllerRevision": {revName}, "PersistentVolumeClaim": {"www-web-0"}, "Pod": {"web-0"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("creation: kubectl kubesem explain creates %v, want %v:\n%s", got, want, out)
	}
	if w.CreateRevisions[0].Name != revName || w.CreatePods[0].Name != "web-0" || w.CreateClaims[0].Name != "www-web-0" {
		t.Errorf("creation: kubesem creates revision %s, pod %s, claim %s; want %s, web-0, www-web-0", w.CreateRevisions[0].Name, w.CreatePods[0].Name, w.CreateClaims[0].Name, revName)
	}
	ev, _ := revWatch.find(t, 0, "revision creation", func(ev watch.Event) bool { return ev.Type == watch.Added })
	gotRev := ev.Object.(*appsv1.ControllerRevision)
	if gotRev.Name != w.CreateRevisions[0].Name || gotRev.Revision != w.CreateRevisions[0].Revision ||
		!reflect.DeepEqual(gotRev.Labels, w.CreateRevisions[0].Labels) || string(gotRev.Data.Raw) != string(w.CreateRevisions[0].Data.Raw) {
		t.Errorf("controller created revision %s (%d, labels %v)\n%s\nkubesem predicted %s (%d, labels %v)\n%s", gotRev.Name, gotRev.Revision, gotRev.Labels, gotRev.Data.Raw,
			w.CreateRevisions[0].Name, w.CreateRevisions[0].Revision, w.CreateRevisions[0].Labels, w.CreateRevisions[0].Data.Raw)
	}
	// The controller passes status.collisionCount, 0 when unset.
	if h := k8s.ControllerRevisionHash(gotRev, ptr.To[int32](0)); gotRev.Name != "web-"+h || gotRev.Labels[history.RevisionHashLabel] != h {
		t.Errorf("revision %s (labels %v): k8s.ControllerRevisionHash gives %s", gotRev.Name, gotRev.Labels, h)
	}
	ev, _ = podWatch.find(t, 0, "creation of web-0", func(ev watch.Event) bool { return ev.Type == watch.Added })
	samePod(t, ev.Object.(*corev1.Pod), w.CreatePods[0])

	set1, revs, ps, claims := setSettled(t, ns, "web", 3)
	if got := podNames(ps); !reflect.DeepEqual(got, []string{"web-0", "web-1", "web-2"}) {
		t.Errorf("pods %v", got)
	}
	for _, pod := range ps {
		if pod.Labels[appsv1.StatefulSetRevisionLabel] != revName {
			t.Errorf("pod %s has revision %s, want %s", pod.Name, pod.Labels[appsv1.StatefulSetRevisionLabel], revName)
		}
	}
	if len(claims) != 3 {
		t.Errorf("%d claims, want 3", len(claims))
	}

	// 2. A partitioned update (partition 2): the next sync creates the new
	// revision and deletes web-2, which comes back at the new revision;
	// web-0 and web-1 keep the old one.
	changed := set1.DeepCopy()
	changed.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{
		Type:          appsv1.RollingUpdateStatefulSetStrategyType,
		RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](2)},
	}
	changed.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:0.27"
	podMark, revMark := podWatch.mark(), revWatch.mark()
	var updated *appsv1.StatefulSet
	out = userWrite(t, ns, "partitioned update", func() {
		updated, err = client.AppsV1().StatefulSets(ns).Update(ctx, changed, metav1.UpdateOptions{})
		check(t, err)
	})
	p, w = statefulSetStep(t, updated, revs, ps, claims)
	newRev, err := k8s.StatefulSetRevisionName(updated)
	check(t, err)
	if got := predictedNames(out)["ControllerRevision"]; !reflect.DeepEqual(got, []string{newRev}) || !strings.Contains(out, "web-2") {
		t.Errorf("update: kubectl kubesem explain creates revisions %v, want [%s], and names web-2:\n%s", got, newRev, out)
	}
	if len(w.CreateRevisions) != 1 || w.CreateRevisions[0].Name != newRev {
		t.Errorf("update: kubesem's revision writes %+v, want the creation of %s", p.Revisions, newRev)
	}
	if len(p.Delete) != 1 || p.Delete[0].Name != "web-2" {
		t.Fatalf("update: kubesem deletes %+v, want web-2", p.Delete)
	}
	ev, _ = revWatch.find(t, revMark, "creation of "+newRev, func(ev watch.Event) bool { return ev.Type == watch.Added })
	if got := ev.Object.(*appsv1.ControllerRevision); got.Name != newRev || got.Revision != w.CreateRevisions[0].Revision {
		t.Errorf("update: controller created revision %s (%d), kubesem predicted %s (%d)", got.Name, got.Revision, newRev, w.CreateRevisions[0].Revision)
	}
	ev, _ = podWatch.find(t, podMark, "the first pod deletion", func(ev watch.Event) bool {
		pod, ok := ev.Object.(*corev1.Pod)
		return ok && (ev.Type == watch.Deleted || pod.DeletionTimestamp != nil)
	})
	if got := ev.Object.(*corev1.Pod).Name; got != p.Delete[0].Name {
		t.Errorf("update: controller deleted %s first, kubesem predicted %s", got, p.Delete[0].Name)
	}
	set2, revs2, ps2, claims2 := setSettled(t, ns, "web", 1)
	got := map[string]string{}
	for _, pod := range ps2 {
		got[pod.Name] = pod.Labels[appsv1.StatefulSetRevisionLabel]
	}
	if want := map[string]string{"web-0": revName, "web-1": revName, "web-2": newRev}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the partitioned update the pods' revisions are %v, want %v", got, want)
	}

	// 3. Scale down to one: OrderedReady deletes the highest ordinal first,
	// one at a time; the claims stay (retention policy Retain).
	scaled := set2.DeepCopy()
	scaled.Spec.Replicas = ptr.To[int32](1)
	podMark = podWatch.mark()
	var down *appsv1.StatefulSet
	out = userWrite(t, ns, "scale down", func() {
		down, err = client.AppsV1().StatefulSets(ns).Update(ctx, scaled, metav1.UpdateOptions{})
		check(t, err)
	})
	if got := predictedNames(out); len(got) != 0 || !strings.Contains(out, "web-2") {
		t.Errorf("scale down: kubectl kubesem explain creates %v (want nothing) or does not name web-2:\n%s", got, out)
	}
	p, _ = statefulSetStep(t, down, revs2, ps2, claims2)
	if len(p.Delete) != 1 || p.Delete[0].Name != "web-2" || p.Create.Count != 0 {
		t.Fatalf("scale down: kubesem creates %d and deletes %+v, want web-2 deleted", p.Create.Count, p.Delete)
	}
	ev, _ = podWatch.find(t, podMark, "the first pod deletion", func(ev watch.Event) bool {
		pod, ok := ev.Object.(*corev1.Pod)
		return ok && (ev.Type == watch.Deleted || pod.DeletionTimestamp != nil)
	})
	if got := ev.Object.(*corev1.Pod).Name; got != p.Delete[0].Name {
		t.Errorf("scale down: controller deleted %s first, kubesem predicted %s", got, p.Delete[0].Name)
	}
	_, _, ps3, claims3 := setSettled(t, ns, "web", 0)
	if got := podNames(ps3); !reflect.DeepEqual(got, []string{"web-0"}) {
		t.Errorf("after scaling down the pods are %v, want [web-0]", got)
	}
	if len(claims3) != 3 {
		t.Errorf("after scaling down %d claims, want the 3 retained", len(claims3))
	}
	explainSettled(t, ns, "after the scale down")
	sh.stop(t)
}

// samePod compares a pod the controller created, as the server first stored
// it, with the pod the adapter builds from kubesem's Plan, defaulted as the
// API server defaults what the controller sends: name, labels,
// annotations, owner, identity, volumes and containers. (Admission adds
// tolerations and defaults that the controller does not write.)
func samePod(t *testing.T, got, want *corev1.Pod) {
	t.Helper()
	// The server stores the pod the controller writes after API defaulting
	// (an env fieldRef's apiVersion, for one): compare with the prediction
	// defaulted the same way.
	want = want.DeepCopy()
	legacyscheme.Scheme.Default(want)
	// A generated name is the server's; the controller chooses generateName.
	if (want.Name != "" && got.Name != want.Name) || got.GenerateName != want.GenerateName {
		t.Errorf("created pod %q (generateName %q), kubesem predicted %q (%q)", got.Name, got.GenerateName, want.Name, want.GenerateName)
	}
	if !reflect.DeepEqual(got.Labels, want.Labels) {
		t.Errorf("pod %s labels %v, predicted %v", got.Name, got.Labels, want.Labels)
	}
	if len(got.Annotations)+len(want.Annotations) > 0 && !reflect.DeepEqual(got.Annotations, want.Annotations) {
		t.Errorf("pod %s annotations %v, predicted %v", got.Name, got.Annotations, want.Annotations)
	}
	if !apiequality.Semantic.DeepEqual(got.OwnerReferences, want.OwnerReferences) {
		t.Errorf("pod %s owners %+v, predicted %+v", got.Name, got.OwnerReferences, want.OwnerReferences)
	}
	if got.Spec.Hostname != want.Spec.Hostname || got.Spec.Subdomain != want.Spec.Subdomain {
		t.Errorf("pod %s hostname %q subdomain %q, predicted %q %q", got.Name, got.Spec.Hostname, got.Spec.Subdomain, want.Spec.Hostname, want.Spec.Subdomain)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec.Volumes, want.Spec.Volumes) {
		t.Errorf("pod %s volumes %+v, predicted %+v", got.Name, got.Spec.Volumes, want.Spec.Volumes)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec.Containers, want.Spec.Containers) {
		t.Errorf("pod %s containers %+v, predicted %+v", got.Name, got.Spec.Containers, want.Spec.Containers)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec.Affinity, want.Spec.Affinity) {
		t.Errorf("pod %s affinity %+v, predicted %+v", got.Name, got.Spec.Affinity, want.Spec.Affinity)
	}
	gt, wt := tolerationKeys(got), tolerationKeys(want)
	for _, k := range wt {
		if !contains(gt, k) {
			t.Errorf("pod %s tolerations %v lack the predicted %s", got.Name, gt, k)
		}
	}
}

func tolerationKeys(p *corev1.Pod) []string {
	var out []string
	for _, t := range p.Spec.Tolerations {
		out = append(out, t.Key+"/"+string(t.Effect))
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
