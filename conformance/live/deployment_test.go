package live

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

// deploymentStep converts what the server returned, unmodified, and asks
// kubesem what the Deployment controller does next.
func deploymentStep(t *testing.T, d *appsv1.Deployment, rss []*appsv1.ReplicaSet, ps []*corev1.Pod) (rollout.Plan, k8s.DeploymentWrites) {
	t.Helper()
	kd, err := k8s.FromDeployment(d)
	check(t, err)
	krs, err := k8s.FromReplicaSets(rss)
	check(t, err)
	kp, err := k8s.FromPods(ps)
	check(t, err)
	p, err := rollout.Step(kd, krs, kp, time.Now(), k8s.RolloutOptions())
	check(t, err)
	w, err := k8s.ToDeploymentWrites(d, rss, p)
	check(t, err)
	return p, w
}

// settled waits until the Deployment's rollout is complete as the
// controller reports it (Progressing NewReplicaSetAvailable, every replica
// updated and available, no old pod left) and kubesem, given the objects read
// back, has nothing left to write: no ReplicaSet write, no annotation, no
// status change (its status computation agrees with the controller's last
// write). It returns the Deployment, its ReplicaSets and pods.
func settled(t *testing.T, ns, name string) (*appsv1.Deployment, []*appsv1.ReplicaSet, []*corev1.Pod) {
	t.Helper()
	var (
		d   *appsv1.Deployment
		rss []*appsv1.ReplicaSet
		ps  []*corev1.Pod
	)
	eventually(t, 20*time.Second, func() (bool, string) {
		var err error
		d, err = client.AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		rss, ps = replicaSets(t, ns), pods(t, ns)
		s := d.Status
		want := *d.Spec.Replicas
		progressing := false
		for _, c := range s.Conditions {
			if c.Type == appsv1.DeploymentProgressing && c.Reason == "NewReplicaSetAvailable" {
				progressing = true
			}
		}
		if s.ObservedGeneration != d.Generation || s.Replicas != want || s.UpdatedReplicas != want ||
			s.AvailableReplicas != want || s.ReadyReplicas != want || !progressing || len(ps) != int(want) {
			return false, "rollout complete: " + jsonish(s)
		}
		p, _ := deploymentStep(t, d, rss, ps)
		if p.Create.Count != 0 || len(p.Update) != 0 || len(p.Scale) != 0 || len(p.Delete) != 0 || p.UpdateStatus || p.Annotations != nil {
			return false, "kubesem has nothing to write on the settled Deployment, but: " + jsonish(p) + "\nserver: " + jsonish(d)
		}
		return true, ""
	})
	return d, rss, ps
}

// sameCreatedReplicaSet compares the ReplicaSet the controller created with
// the one the adapter builds from kubesem's Plan: every field the
// controller sets (the server adds uid, resourceVersion, timestamps,
// generation, managedFields, and defaults).
func sameCreatedReplicaSet(t *testing.T, got, want *appsv1.ReplicaSet) {
	t.Helper()
	if got.Name != want.Name {
		t.Errorf("created ReplicaSet %q, kubesem predicted %q", got.Name, want.Name)
	}
	if !reflect.DeepEqual(got.Labels, want.Labels) {
		t.Errorf("ReplicaSet %s labels %v, predicted %v", got.Name, got.Labels, want.Labels)
	}
	if !reflect.DeepEqual(got.Annotations, want.Annotations) {
		t.Errorf("ReplicaSet %s annotations %v, predicted %v", got.Name, got.Annotations, want.Annotations)
	}
	if !apiequality.Semantic.DeepEqual(got.OwnerReferences, want.OwnerReferences) {
		t.Errorf("ReplicaSet %s owners %+v, predicted %+v", got.Name, got.OwnerReferences, want.OwnerReferences)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec, want.Spec) {
		t.Errorf("ReplicaSet %s spec\n%+v\npredicted\n%+v", got.Name, got.Spec, want.Spec)
	}
}

func rsNamed(name string) func(watch.Event) bool {
	return func(ev watch.Event) bool {
		rs, ok := ev.Object.(*appsv1.ReplicaSet)
		return ok && rs.Name == name
	}
}

// TestDeploymentRollout creates a Deployment, rolls it (template change)
// and rolls it back, and checks at each step that kubesem, fed the objects
// read back from the server, predicts the ReplicaSet the real controller
// then creates (name, labels, annotations, owner, spec), the resizes it makes,
// the old ReplicaSet a rollback reuses, and that once the controller has
// settled kubesem has nothing left to write.
func TestDeploymentRollout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	w0, err := client.AppsV1().ReplicaSets(ns).Watch(ctx, metav1.ListOptions{})
	rsWatch := record(t, w0, err)

	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Labels: map[string]string{"app": "nginx"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Strategy: appsv1.DeploymentStrategy{
				Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{
					MaxSurge:       ptr.To(intstr.FromInt32(1)),
					MaxUnavailable: ptr.To(intstr.FromInt32(0)),
				},
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "nginx", Image: "nginx:1.14.2",
					Ports: []corev1.ContainerPort{{ContainerPort: 80}},
				}}},
			},
		},
	}

	// 1. Creation: the first sync creates the new ReplicaSet.
	var created *appsv1.Deployment
	out := userWrite(t, ns, "creation", func() {
		var err error
		created, err = client.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{})
		check(t, err)
	})
	p, w := deploymentStep(t, created, nil, nil)
	if p.Create.Count != 1 || len(w.Create) != 1 {
		t.Fatalf("creation: kubesem creates no ReplicaSet: %+v", p)
	}
	first := w.Create[0]
	if got := predictedNames(out)["ReplicaSet"]; len(got) != 1 || got[0] != first.Name {
		t.Errorf("creation: kubectl kubesem explain creates ReplicaSets %v, want [%s]:\n%s", got, first.Name, out)
	}
	if want := created.Name + "-" + k8s.PodTemplateHash(&created.Spec.Template, nil); first.Name != want {
		t.Errorf("kubesem names the first ReplicaSet %q, the adapter's hash gives %q", first.Name, want)
	}
	ev, _ := rsWatch.find(t, 0, "creation of "+first.Name, func(ev watch.Event) bool { return ev.Type == watch.Added })
	sameCreatedReplicaSet(t, ev.Object.(*appsv1.ReplicaSet), first)

	d1, rss, ps := nextStep(t, sh, ns, d.Name)

	// 2. Rollout: a template change. The controller's first sync after the
	// update sees the updated Deployment and the settled ReplicaSets and
	// pods read above.
	changed := d1.DeepCopy()
	changed.Spec.Template.Spec.Containers[0].Image = "nginx:1.16.1"
	mark := rsWatch.mark()
	var updated *appsv1.Deployment
	out = userWrite(t, ns, "rollout", func() {
		updated = updateSettled(t, d1, changed)
	})
	p, w = deploymentStep(t, updated, rss, ps)
	if p.Create.Count != 1 || len(w.Create) != 1 {
		t.Fatalf("rollout: kubesem creates no ReplicaSet: %+v", p)
	}
	second := w.Create[0]
	if got := predictedNames(out)["ReplicaSet"]; len(got) != 1 || got[0] != second.Name {
		t.Errorf("rollout: kubectl kubesem explain creates ReplicaSets %v, want [%s]:\n%s", got, second.Name, out)
	}
	ev, _ = rsWatch.find(t, mark, "creation of "+second.Name, func(ev watch.Event) bool { return ev.Type == watch.Added })
	sameCreatedReplicaSet(t, ev.Object.(*appsv1.ReplicaSet), second)
	checkResizes(t, rsWatch, mark, p.Scale)

	d2, rss, ps := nextStep(t, sh, ns, d.Name)
	sizes := map[string]int32{}
	for _, rs := range rss {
		sizes[rs.Name] = *rs.Spec.Replicas
	}
	if want := map[string]int32{first.Name: 0, second.Name: 3}; !reflect.DeepEqual(sizes, want) {
		t.Errorf("after the rollout the ReplicaSets are %v, want %v", sizes, want)
	}

	// 3. Rollback: the original template again. kubesem must reuse the old
	// ReplicaSet (no creation), bump its revision and then scale it.
	back := d2.DeepCopy()
	back.Spec.Template = *created.Spec.Template.DeepCopy()
	mark = rsWatch.mark()
	var rolledBack *appsv1.Deployment
	out = userWrite(t, ns, "rollback", func() {
		rolledBack = updateSettled(t, d2, back)
	})
	p, _ = deploymentStep(t, rolledBack, rss, ps)
	if p.Create.Count != 0 {
		t.Errorf("rollback: kubesem creates a ReplicaSet: %+v", p.Create)
	}
	if got := predictedNames(out)["ReplicaSet"]; len(got) != 0 || !strings.Contains(out, first.Name) {
		t.Errorf("rollback: kubectl kubesem explain creates ReplicaSets %v (want none) or does not name %s:\n%s", got, first.Name, out)
	}
	if len(p.Update) != 1 || p.Update[0].Name != first.Name {
		t.Fatalf("rollback: kubesem's revision update is %+v, want one of %s", p.Update, first.Name)
	}
	rev := p.Update[0].Annotations["deployment.kubernetes.io/revision"]
	ev, _ = rsWatch.find(t, mark, "revision "+rev+" on "+first.Name, func(ev watch.Event) bool {
		rs, ok := ev.Object.(*appsv1.ReplicaSet)
		return ok && rs.Name == first.Name && rs.Annotations["deployment.kubernetes.io/revision"] != ev0Revision(rss, first.Name)
	})
	if got := ev.Object.(*appsv1.ReplicaSet).Annotations; !reflect.DeepEqual(got, p.Update[0].Annotations) {
		t.Errorf("rollback: %s annotations %v, kubesem predicted %v", first.Name, got, p.Update[0].Annotations)
	}
	checkResizes(t, rsWatch, mark, p.Scale)
	d3, rss, ps := settled(t, ns, d.Name)
	for _, rs := range rss {
		if want := map[string]int32{first.Name: 3, second.Name: 0}[rs.Name]; *rs.Spec.Replicas != want {
			t.Errorf("after the rollback %s has %d replicas, want %d", rs.Name, *rs.Spec.Replicas, want)
		}
	}
	if got := d3.Annotations["deployment.kubernetes.io/revision"]; got != rev {
		t.Errorf("after the rollback the Deployment's revision is %q, kubesem predicted %q", got, rev)
	}
	explainSettled(t, ns, "after the rollback")
	sh.stop(t)
}

// nextStep waits until the Deployment has settled and shadow has seen the
// namespace quiet (shadowRun.quiet), and returns the Deployment, its
// ReplicaSets and pods read then: what the scenario's next user write
// starts from.
func nextStep(t *testing.T, sh *shadowRun, ns, name string) (*appsv1.Deployment, []*appsv1.ReplicaSet, []*corev1.Pod) {
	t.Helper()
	settled(t, ns, name)
	sh.quiet(t)
	return settled(t, ns, name)
}

// updateSettled writes changed, a copy of the settled Deployment d with a
// user's change, and returns what the server returned. The controllers
// wrote nothing since d was read (the namespace was quiet and kubesem had
// nothing left to write): a conflict is a failure, shown with what changed.
func updateSettled(t *testing.T, d, changed *appsv1.Deployment) *appsv1.Deployment {
	t.Helper()
	ctx := context.Background()
	out, err := client.AppsV1().Deployments(d.Namespace).Update(ctx, changed, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		now, gerr := client.AppsV1().Deployments(d.Namespace).Get(ctx, d.Name, metav1.GetOptions{})
		t.Fatalf("the Deployment was written after it settled: %v\nsettled: %s\nnow (%v): %s", err, jsonish(d), gerr, jsonish(now))
	}
	check(t, err)
	return out
}

func ev0Revision(rss []*appsv1.ReplicaSet, name string) string {
	for _, rs := range rss {
		if rs.Name == name {
			return rs.Annotations["deployment.kubernetes.io/revision"]
		}
	}
	return ""
}

// checkResizes finds, for each resize kubesem predicts, the controller's
// first write of that ReplicaSet's spec.replicas after mark and compares
// the size.
func checkResizes(t *testing.T, r *recorder, mark int, resizes []rollout.Resize) {
	t.Helper()
	for _, s := range resizes {
		ev, _ := r.find(t, mark, "resize of "+s.Name, func(ev watch.Event) bool {
			rs, ok := ev.Object.(*appsv1.ReplicaSet)
			return ok && rs.Name == s.Name && *rs.Spec.Replicas != s.From
		})
		if got := *ev.Object.(*appsv1.ReplicaSet).Spec.Replicas; got != s.Replicas {
			t.Errorf("controller resized %s from %d to %d, kubesem predicted %d", s.Name, s.From, got, s.Replicas)
		}
	}
}
