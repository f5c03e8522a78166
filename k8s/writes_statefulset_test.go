package k8s_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/statefulset"
)

func stsForWrites() *appsv1.StatefulSet {
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid"},
		Spec: appsv1.StatefulSetSpec{
			ServiceName: "nginx",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:2",
					Env: []corev1.EnvVar{{Name: "MODE", Value: "new"}}}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "www"},
				Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}}},
		},
	}
	return set
}

// A pod at the current revision is built from the template stored in its
// ControllerRevision, a pod at the update revision from the set's own; the
// claims, deletions and status come along.
func TestToStatefulSetWrites(t *testing.T) {
	t.Parallel()
	set := stsForWrites()
	old := &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "web-old"}, Revision: 1,
		Data: runtime.RawExtension{Raw: []byte(`{"spec":{"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1"}]},"$patch":"replace"}}}`)}}
	existing := &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "www-web-0", Namespace: "default"}}
	tr := true
	updateRev, err := k8s.StatefulSetRevisionName(set)
	if err != nil {
		t.Fatal(err)
	}
	p := statefulset.Plan{
		Revisions: []history.Write{{Verb: plan.VerbCreate, Name: updateRev, Revision: 2}, {Verb: plan.VerbDelete, Name: "web-older"}},
		Claims: []statefulset.ClaimWrite{
			{Verb: statefulset.ClaimCreate, Name: "www-web-1", Pod: "web-1"},
			{Verb: statefulset.ClaimUpdate, Name: "www-web-0", Pod: "web-0", OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}}},
		},
		Create: plan.Creation[statefulset.NewPod]{Count: 2, Objects: []statefulset.NewPod{
			{Name: "web-1", Ordinal: 1, Revision: "web-old"},
			{Name: "web-2", Ordinal: 2, Revision: updateRev},
		}},
		Delete:       []plan.Deletion{{Name: "web-3", Reason: "Condemned"}},
		Status:       statefulset.Status{Replicas: 2, CurrentRevision: "web-old", UpdateRevision: updateRev},
		UpdateStatus: true,
	}
	w, err := k8s.ToStatefulSetWrites(set, []*appsv1.ControllerRevision{old}, nil, []*corev1.PersistentVolumeClaim{existing}, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.CreatePods) != 2 {
		t.Fatalf("%d pods created", len(w.CreatePods))
	}
	if len(w.CreateRevisions) != 1 || w.CreateRevisions[0].Name != updateRev || w.CreateRevisions[0].Revision != 2 || len(w.DeleteRevisions) != 1 {
		t.Errorf("revisions: create %v, delete %v", w.CreateRevisions, w.DeleteRevisions)
	}
	p1, p2 := w.CreatePods[0], w.CreatePods[1]
	if p1.Name != "web-1" || p1.Spec.Containers[0].Image != "nginx:1" || len(p1.Spec.Containers[0].Env) != 0 || p1.Labels[appsv1.StatefulSetRevisionLabel] != "web-old" {
		t.Errorf("web-1 not from the old revision's template: %+v", p1)
	}
	if p2.Spec.Containers[0].Image != "nginx:2" || p2.Spec.Containers[0].Env[0].Value != "new" || p2.Labels[appsv1.PodIndexLabel] != "2" || p2.Labels[appsv1.StatefulSetRevisionLabel] != updateRev ||
		p2.Spec.Hostname != "web-2" || p2.Spec.Subdomain != "nginx" || p2.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "www-web-2" ||
		p2.OwnerReferences[0].UID != "set-uid" || p2.Namespace != "default" {
		t.Errorf("web-2 incomplete: %+v", p2)
	}
	if len(w.CreateClaims) != 1 || w.CreateClaims[0].Name != "www-web-1" || w.CreateClaims[0].Labels["app"] != "nginx" || len(w.CreateClaims[0].Spec.AccessModes) != 1 {
		t.Errorf("created claims %+v", w.CreateClaims)
	}
	if len(w.UpdateClaims) != 1 || len(w.UpdateClaims[0].OwnerReferences) != 1 || existing.OwnerReferences != nil {
		t.Errorf("updated claims %+v (input modified: %v)", w.UpdateClaims, existing.OwnerReferences)
	}
	if len(w.DeletePods) != 1 || w.DeletePods[0] != "web-3" || w.Status == nil || w.Status.Replicas != 2 || w.Status.UpdateRevision != updateRev {
		t.Errorf("deletes %v, status %+v", w.DeletePods, w.Status)
	}

	// An update restores the pod's identity labels and claim volumes and
	// keeps everything else.
	stale := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default", Labels: map[string]string{"app": "nginx", "x": "y"}},
		Spec: corev1.PodSpec{Volumes: []corev1.Volume{{Name: "cache"}}}}
	u, err := k8s.ToStatefulSetWrites(set, nil, []*corev1.Pod{stale}, nil, statefulset.Plan{Update: []statefulset.PodUpdate{{Name: "web-0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := u.UpdatePods[0]; got.Labels[appsv1.StatefulSetPodNameLabel] != "web-0" || got.Labels["x"] != "y" || len(got.Spec.Volumes) != 2 ||
		got.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "www-web-0" || got.Spec.Volumes[1].Name != "cache" || len(stale.Spec.Volumes) != 1 {
		t.Errorf("updated pod %+v", got)
	}

	// A revision the inputs do not hold, or a pod to update that is not
	// given, is an error rather than a guess.
	p.Create.Objects[0].Revision = "web-gone"
	if _, err := k8s.ToStatefulSetWrites(set, nil, nil, nil, p); err == nil {
		t.Error("missing revision: no error")
	}
	if _, err := k8s.ToStatefulSetWrites(set, nil, nil, nil, statefulset.Plan{Update: []statefulset.PodUpdate{{Name: "web-0"}}}); err == nil {
		t.Error("missing pod: no error")
	}
}
