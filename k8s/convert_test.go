package k8s_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/rollout"
)

// genDeployment draws an apps/v1 Deployment with the fields kubesem models
// and some it does not (env, resources, volumes).
func genDeployment(t *rapid.T) *appsv1.Deployment {
	n := rapid.Int32Range(0, 50).Draw(t, "replicas")
	d := &appsv1.Deployment{}
	d.Name, d.Namespace, d.UID = "web", "default", "uid-web"
	d.Generation = rapid.Int64Range(1, 5).Draw(t, "generation")
	d.Spec.Replicas = &n
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	c := corev1.Container{Name: "web", Image: rapid.SampledFrom([]string{"nginx:1", "nginx:2"}).Draw(t, "image")}
	if rapid.Bool().Draw(t, "env") {
		c.Env = []corev1.EnvVar{{Name: "MODE", Value: rapid.StringMatching(`[a-z]{1,5}`).Draw(t, "mode")}}
	}
	if rapid.Bool().Draw(t, "volume") {
		d.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	}
	d.Spec.Template.Spec.Containers = []corev1.Container{c}
	if rapid.Bool().Draw(t, "recreate") {
		d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	} else {
		s := intstr.FromString(rapid.SampledFrom([]string{"25%", "50%"}).Draw(t, "surge"))
		u := intstr.FromInt32(rapid.Int32Range(0, 3).Draw(t, "unavailable"))
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &s, MaxUnavailable: &u}}
	}
	d.Status.Replicas = rapid.Int32Range(0, 50).Draw(t, "statusReplicas")
	d.Status.ObservedGeneration = rapid.Int64Range(0, 5).Draw(t, "observed")
	if rapid.Bool().Draw(t, "collisions") {
		cc := rapid.Int32Range(0, 3).Draw(t, "collisionCount")
		d.Status.CollisionCount = &cc
	}
	return d
}

// TestDeploymentRoundTrip: To(From(d)) keeps every field kubesem models and
// the whole pod template; From(To(x)) gives x back.
func TestDeploymentRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		k, err := k8s.FromDeployment(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := k8s.ToDeployment(k)
		if err != nil {
			t.Fatal(err)
		}
		if *back.Spec.Replicas != *d.Spec.Replicas || back.Spec.Strategy.Type != d.Spec.Strategy.Type || back.Status.Replicas != d.Status.Replicas ||
			back.Generation != d.Generation || back.Status.ObservedGeneration != d.Status.ObservedGeneration {
			t.Fatalf("round trip changed modelled fields:\n%+v\n%+v", d.Spec, back.Spec)
		}
		if !reflect.DeepEqual(back.Spec.Template, d.Spec.Template) {
			t.Fatalf("round trip changed the template:\n%+v\n%+v", d.Spec.Template, back.Spec.Template)
		}
		k2, err := k8s.FromDeployment(back)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(k)
		b, _ := json.Marshal(k2)
		if string(a) != string(b) {
			t.Fatalf("From(To(x)) != x:\n%s\n%s", a, b)
		}
	})
}

// TestRealObjects: the kubectl get -o json objects of the CLI tests,
// unmodified, give through the adapter the Plan decide gives, and an env
// change starts a rollout whose ReplicaSet carries the real hash and the
// whole template.
func TestRealObjects(t *testing.T) {
	var d appsv1.Deployment
	var rss appsv1.ReplicaSetList
	var pods corev1.PodList
	read(t, "deployment.json", &d)
	read(t, "replicasets.json", &rss)
	read(t, "pods.json", &pods)
	kd, err := k8s.FromDeployment(&d)
	if err != nil {
		t.Fatal(err)
	}
	var rsPtrs []*appsv1.ReplicaSet
	for i := range rss.Items {
		rsPtrs = append(rsPtrs, &rss.Items[i])
	}
	var podPtrs []*corev1.Pod
	for i := range pods.Items {
		podPtrs = append(podPtrs, &pods.Items[i])
	}
	krs, err := k8s.FromReplicaSets(rsPtrs)
	if err != nil {
		t.Fatal(err)
	}
	kp, err := k8s.FromPods(podPtrs)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	p, err := rollout.Step(kd, krs, kp, now, k8s.RolloutOptions())
	if err != nil {
		t.Fatal(err)
	}
	if p.Outcome != rollout.ReasonRollingUpdate || p.Create.Count != 1 {
		t.Fatalf("Step = %s creating %d; want a rollout creating the new ReplicaSet", p.Outcome, p.Create.Count)
	}
	w, err := k8s.ToDeploymentWrites(&d, rsPtrs, p)
	if err != nil {
		t.Fatal(err)
	}
	created := w.Create[0]
	hash := k8s.PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	if created.Name != "web-"+hash || created.Labels["pod-template-hash"] != hash || created.Spec.Template.Labels["pod-template-hash"] != hash {
		t.Errorf("created %s labels %v; want web-%s with the hash label", created.Name, created.Labels, hash)
	}
	want := d.Spec.Template.DeepCopy()
	want.Labels["pod-template-hash"] = hash
	if !reflect.DeepEqual(created.Spec.Template, *want) {
		t.Errorf("created template differs from the Deployment's:\n%+v\n%+v", created.Spec.Template, *want)
	}
	if created.Namespace != "default" || len(created.OwnerReferences) != 1 || created.OwnerReferences[0].UID != d.UID {
		t.Errorf("created metadata %+v; want the Deployment's namespace and owner", created.ObjectMeta)
	}
}

func read(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "cmd", "kubesem", "testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestNodeRoundTrip: From(To(From(n))) == From(n) for nodes with taints,
// conditions and cordons; the modelled fields survive To(From(n)).
func TestNodeRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := &corev1.Node{}
		n.Name = rapid.StringMatching(`node-[a-z0-9]{1,4}`).Draw(t, "name")
		n.Labels = map[string]string{"topology.kubernetes.io/zone": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "zone")}
		n.Spec.Unschedulable = rapid.Bool().Draw(t, "cordon")
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range rapid.IntRange(0, 3).Draw(t, "taints") {
			tn := corev1.Taint{Key: rapid.SampledFrom([]string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable", "dedicated"}).Draw(t, "key"),
				Effect: rapid.SampledFrom([]corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute, corev1.TaintEffectPreferNoSchedule}).Draw(t, "effect")}
			if tn.Effect == corev1.TaintEffectNoExecute {
				at := metav1.NewTime(base.Add(time.Duration(i) * time.Minute))
				tn.TimeAdded = &at
			}
			n.Spec.Taints = append(n.Spec.Taints, tn)
		}
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady,
			Status:            rapid.SampledFrom([]corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}).Draw(t, "ready"),
			LastHeartbeatTime: metav1.NewTime(base), LastTransitionTime: metav1.NewTime(base.Add(-time.Hour)), Reason: "KubeletReady"}}
		k, err := k8s.FromNode(n)
		if err != nil {
			t.Fatal(err)
		}
		back, err := k8s.ToNode(k)
		if err != nil {
			t.Fatal(err)
		}
		if back.Name != n.Name || back.Spec.Unschedulable != n.Spec.Unschedulable || !reflect.DeepEqual(back.Labels, n.Labels) ||
			len(back.Spec.Taints) != len(n.Spec.Taints) || back.Status.Conditions[0].Status != n.Status.Conditions[0].Status ||
			!back.Status.Conditions[0].LastHeartbeatTime.Equal(&n.Status.Conditions[0].LastHeartbeatTime) {
			t.Fatalf("round trip changed modelled fields:\n%+v\n%+v", n, back)
		}
		k2, err := k8s.FromNode(back)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(k)
		b, _ := json.Marshal(k2)
		if string(a) != string(b) {
			t.Fatalf("From(To(x)) != x:\n%s\n%s", a, b)
		}
	})
}

// TestLeaseRoundTrip: a node Lease keeps its name and renew time (to the
// microsecond, as the API stores it).
func TestLeaseRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 10, 123456000, time.UTC)
	l := k8s.ToLease(node.Lease{ObjectMeta: meta.ObjectMeta{Name: "node-1"}, Spec: node.LeaseSpec{RenewTime: &at}})
	back := k8s.FromLease(l)
	if back.Name != "node-1" || back.Namespace != "kube-node-lease" || back.Spec.RenewTime == nil || !back.Spec.RenewTime.Equal(at) || l.Namespace != "kube-node-lease" {
		t.Fatalf("lease round trip: %+v, %+v", l, back)
	}
}

// TestFromReplicationControllerSelector: an RC's selector, a plain label
// map, becomes the model's matchLabels (a subset of the template's labels
// selects by the subset, not by the labels); an empty one is the
// template's labels, as API defaulting makes it.
func TestFromReplicationControllerSelector(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "front"}}}
	for _, c := range []struct {
		name     string
		selector map[string]string
		pod      map[string]string
		want     bool
	}{
		{"subset selects a pod without the other label", map[string]string{"app": "web"}, map[string]string{"app": "web"}, true},
		{"subset does not select another app", map[string]string{"app": "web"}, map[string]string{"app": "api"}, false},
		{"empty is the template's labels", nil, map[string]string{"app": "web"}, false},
		{"empty selects the template's labels", nil, map[string]string{"app": "web", "tier": "front"}, true},
	} {
		rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: corev1.ReplicationControllerSpec{Selector: c.selector, Template: tmpl}}
		m, err := k8s.FromReplicationController(rc)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.PodSelector().Matches(c.pod); got != c.want {
			t.Errorf("%s: selects %v = %v, want %v (selector %+v)", c.name, c.pod, got, c.want, m.Spec.Selector)
		}
	}
}
