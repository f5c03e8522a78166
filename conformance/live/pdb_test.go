package live

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// pdbControllers are the pods' owners as the disruption controller finds
// them (ReplicaSets and their Deployment), read back from the server.
func pdbControllers(t *testing.T, ns string) []pdb.Controller {
	t.Helper()
	var out []pdb.Controller
	for _, rs := range replicaSets(t, ns) {
		c := pdb.Controller{APIVersion: "apps/v1", Kind: "ReplicaSet", Spec: pdb.ControllerSpec{Replicas: rs.Spec.Replicas}}
		c.Name, c.Namespace, c.UID = rs.Name, rs.Namespace, string(rs.UID)
		for _, o := range rs.OwnerReferences {
			c.OwnerReferences = append(c.OwnerReferences, meta.OwnerReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: string(o.UID), Controller: o.Controller})
		}
		out = append(out, c)
	}
	l, err := client.AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
	check(t, err)
	for i := range l.Items {
		d := &l.Items[i]
		c := pdb.Controller{APIVersion: "apps/v1", Kind: "Deployment", Spec: pdb.ControllerSpec{Replicas: d.Spec.Replicas}}
		c.Name, c.Namespace, c.UID = d.Name, d.Namespace, string(d.UID)
		out = append(out, c)
	}
	return out
}

func budget(t *testing.T, ns, name string) (*policyv1.PodDisruptionBudget, *pdb.PodDisruptionBudget) {
	t.Helper()
	b, err := client.PolicyV1().PodDisruptionBudgets(ns).Get(context.Background(), name, metav1.GetOptions{})
	check(t, err)
	kb, err := k8s.FromPodDisruptionBudget(b)
	check(t, err)
	return b, kb
}

// budgetSettled waits until the disruption controller has written the
// budget's status and kubesem, fed the budget, pods and owners read back,
// computes the same status (nothing to write).
func budgetSettled(t *testing.T, ns, name string, allowed int32) *pdb.PodDisruptionBudget {
	t.Helper()
	var kb *pdb.PodDisruptionBudget
	eventually(t, 20*time.Second, func() (bool, string) {
		var b *policyv1.PodDisruptionBudget
		b, kb = budget(t, ns, name)
		if b.Status.ObservedGeneration != b.Generation || b.Status.DisruptionsAllowed != allowed {
			return false, "budget status " + jsonish(b.Status)
		}
		kp, err := k8s.FromPods(pods(t, ns))
		check(t, err)
		p, err := pdb.Step(kb, kp, pdbControllers(t, ns), time.Now(), pdb.Options{})
		check(t, err)
		if p.UpdateStatus || len(p.ResetDisruptionTarget) != 0 {
			return false, "kubesem has nothing to write on the settled budget, but: " + jsonish(p) + "\nserver status " + jsonish(b.Status)
		}
		return true, ""
	})
	return kb
}

// TestPDBGuardedEviction runs three pods under a budget of minAvailable 2,
// and checks that kubesem computes the budget status the real disruption
// controller writes (disruptionsAllowed 1), and decides evictions as the
// real API server does: the first is allowed, a second right after it is
// refused with 429, and once a fourth pod runs and the controller has
// recomputed the budget an eviction is allowed again. The pods are bare
// (no controller replaces an evicted one, which would race the second
// eviction against the controller's recomputation).
func TestPDBGuardedEviction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	labels := map[string]string{"app": "guarded"}
	run := func(name string) {
		t.Helper()
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.14.2"}}},
		}
		_, err := client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
		check(t, err)
		eventually(t, 10*time.Second, func() (bool, string) {
			p, err := client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
			check(t, err)
			return p.Status.Phase == corev1.PodRunning, name + " running: " + jsonish(p.Status)
		})
	}
	for _, name := range []string{"guarded-0", "guarded-1", "guarded-2"} {
		run(name)
	}
	b := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "guard"},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(2)),
			Selector:     &metav1.LabelSelector{MatchLabels: labels},
		},
	}
	out := userWrite(t, ns, "the budget", func() {
		_, err := client.PolicyV1().PodDisruptionBudgets(ns).Create(ctx, b, metav1.CreateOptions{})
		check(t, err)
	})
	if !strings.Contains(out, ns+"/guard") {
		t.Errorf("kubectl kubesem explain does not show the budget guard:\n%s", out)
	}
	kb := budgetSettled(t, ns, "guard", 1)
	explainSettled(t, ns, "the budget settled")

	evict := func(pod *corev1.Pod, kb *pdb.PodDisruptionBudget, allowed bool) {
		t.Helper()
		kp, err := k8s.FromPod(pod)
		check(t, err)
		want, err := pdb.Evict(kp, []pdb.PodDisruptionBudget{*kb}, pdb.Request{}, time.Now())
		check(t, err)
		err = client.CoreV1().Pods(ns).EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: ns}})
		code := int32(http.StatusOK)
		if err != nil {
			code = 0
			if s, ok := err.(apierrors.APIStatus); ok {
				code = s.Status().Code
			}
		}
		if (err == nil) != want.Allowed || (!want.Allowed && code != want.Code) {
			t.Errorf("eviction of %s: server answered %d (%v); kubesem decided %+v", pod.Name, code, err, want)
		}
		if want.Allowed != allowed {
			t.Errorf("eviction of %s: kubesem decided %+v, the scenario expects allowed=%v", pod.Name, want, allowed)
		}
	}
	ps := pods(t, ns)
	evict(ps[0], kb, true)
	_, kb = budget(t, ns, "guard")
	evict(ps[1], kb, false)

	// A fourth pod: once the controller has seen the evicted pod gone and the
	// new one healthy, the budget allows one eviction again.
	run("guarded-3")
	eventually(t, 10*time.Second, func() (bool, string) {
		n := len(pods(t, ns))
		return n == 3, "the evicted pod gone"
	})
	kb = budgetSettled(t, ns, "guard", 1)
	evict(pods(t, ns)[0], kb, true)
	explainSettled(t, ns, "after the last eviction")
	sh.stop(t)
}
