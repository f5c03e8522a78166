package k8s_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

func genTemplate(t *rapid.T) corev1.PodTemplateSpec {
	var tm corev1.PodTemplateSpec
	tm.Labels = map[string]string{"app": "web"}
	c := corev1.Container{Name: "c", Image: rapid.SampledFrom([]string{"nginx:1", "nginx:2"}).Draw(t, "image")}
	if rapid.Bool().Draw(t, "env") {
		c.Env = []corev1.EnvVar{{Name: "MODE", Value: rapid.StringMatching(`[a-z<>&]{0,4}`).Draw(t, "mode")}}
	}
	if rapid.Bool().Draw(t, "grace") {
		g := rapid.Int64Range(0, math.MaxInt64).Draw(t, "graceS")
		tm.Spec.TerminationGracePeriodSeconds = &g
	}
	tm.Spec.Containers = []corev1.Container{c}
	return tm
}

// genStatefulSet draws an apps/v1 StatefulSet with every field kubesem
// models.
func genStatefulSet(t *rapid.T) *appsv1.StatefulSet {
	n := rapid.Int32Range(0, 20).Draw(t, "replicas")
	s := &appsv1.StatefulSet{}
	s.Name, s.Namespace, s.UID = "web", "default", "uid-web"
	s.Generation = rapid.Int64Range(1, 5).Draw(t, "generation")
	s.Spec.Replicas = &n
	if rapid.Bool().Draw(t, "ordinals") {
		s.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: rapid.Int32Range(0, 5).Draw(t, "start")}
	}
	s.Spec.ServiceName = "nginx"
	s.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	s.Spec.Template = genTemplate(t)
	s.Spec.PodManagementPolicy = rapid.SampledFrom([]appsv1.PodManagementPolicyType{"", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement}).Draw(t, "policy")
	if rapid.Bool().Draw(t, "onDelete") {
		s.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType
	} else {
		s.Spec.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if rapid.Bool().Draw(t, "rolling") {
			p := rapid.Int32Range(0, 5).Draw(t, "partition")
			u := intstr.FromString(rapid.SampledFrom([]string{"25%", "100%"}).Draw(t, "maxU"))
			if rapid.Bool().Draw(t, "maxUInt") {
				u = intstr.FromInt32(rapid.Int32Range(1, 3).Draw(t, "maxUi"))
			}
			s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: &p, MaxUnavailable: &u}
		}
	}
	s.Spec.MinReadySeconds = rapid.Int32Range(0, 30).Draw(t, "minReady")
	h := rapid.Int32Range(0, 10).Draw(t, "history")
	s.Spec.RevisionHistoryLimit = &h
	for _, name := range []string{"data", "logs"}[:rapid.IntRange(0, 2).Draw(t, "claimTemplates")] {
		c := corev1.PersistentVolumeClaim{}
		c.Name = name
		c.Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}
		s.Spec.VolumeClaimTemplates = append(s.Spec.VolumeClaimTemplates, c)
	}
	if rapid.Bool().Draw(t, "retention") {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType}
	}
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: rapid.Int64Range(0, 5).Draw(t, "observed"), Replicas: rapid.Int32Range(0, 20).Draw(t, "stReplicas"),
		ReadyReplicas: 1, CurrentReplicas: 2, UpdatedReplicas: 3, AvailableReplicas: 1, CurrentRevision: "web-a", UpdateRevision: "web-b"}
	if rapid.Bool().Draw(t, "collisions") {
		cc := rapid.Int32Range(0, 3).Draw(t, "collisionCount")
		s.Status.CollisionCount = &cc
	}
	return s
}

// TestStatefulSetRoundTrip: To(From(s)) keeps every field kubesem models
// (the selector, the pod template, claim templates by name); From(To(x)) gives x back but for
// TemplateRevision, which To drops; From sets TemplateRevision to
// StatefulSetRevisionName.
func TestStatefulSetRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genStatefulSet(t)
		k, err := k8s.FromStatefulSet(s)
		if err != nil {
			t.Fatal(err)
		}
		name, err := k8s.StatefulSetRevisionName(s)
		if err != nil || k.Spec.TemplateRevision != name || !strings.HasPrefix(name, "web-") {
			t.Fatalf("TemplateRevision %q; StatefulSetRevisionName %q, %v", k.Spec.TemplateRevision, name, err)
		}
		back, err := k8s.ToStatefulSet(k)
		if err != nil {
			t.Fatal(err)
		}
		want := s.DeepCopy()
		want.APIVersion, want.Kind = "apps/v1", "StatefulSet"
		for i := range want.Spec.VolumeClaimTemplates {
			want.Spec.VolumeClaimTemplates[i].Spec = corev1.PersistentVolumeClaimSpec{}
		}
		if !reflect.DeepEqual(back, want) {
			a, _ := json.Marshal(back)
			b, _ := json.Marshal(want)
			t.Fatalf("To(From(s)) changed modelled fields:\n%s\n%s", a, b)
		}
		k2, err := k8s.FromStatefulSet(back)
		if err != nil {
			t.Fatal(err)
		}
		k.Spec.TemplateRevision, k2.Spec.TemplateRevision = "", ""
		a, _ := json.Marshal(k)
		b, _ := json.Marshal(k2)
		if string(a) != string(b) {
			t.Fatalf("From(To(x)) != x:\n%s\n%s", a, b)
		}
	})
}

// TestStatefulSetRevisionGolden pins the revision name and data of a
// small set (TestAdapterStatefulSetRevisionDifferential checks the same
// functions against upstream's newRevision).
func TestStatefulSetRevisionGolden(t *testing.T) {
	s := &appsv1.StatefulSet{}
	s.Name = "web"
	s.Spec.Template.Labels = map[string]string{"app": "web"}
	s.Spec.Template.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx:1"}}
	data, err := k8s.StatefulSetRevisionData(s)
	if err != nil {
		t.Fatal(err)
	}
	const wantData = `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1","name":"c","resources":{}}]}}}}`
	if string(data) != wantData {
		t.Errorf("data\n%s\nwant\n%s", data, wantData)
	}
	name, _ := k8s.StatefulSetRevisionName(s)
	cr, err := k8s.NewStatefulSetRevision(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	if cr.Name != name || cr.Labels[history.RevisionHashLabel] != strings.TrimPrefix(name, "web-") || cr.Labels["app"] != "web" || cr.Revision != 3 {
		t.Errorf("NewStatefulSetRevision = %s %v %d; name %s", cr.Name, cr.Labels, cr.Revision, name)
	}
	// The collision count is always hashed for a StatefulSet: unset is 0.
	zero := int32(0)
	s.Status.CollisionCount = &zero
	if again, _ := k8s.StatefulSetRevisionName(s); again != name {
		t.Errorf("collisionCount 0 gives %s, unset %s", again, name)
	}
	one := int32(1)
	s.Status.CollisionCount = &one
	if other, _ := k8s.StatefulSetRevisionName(s); other == name {
		t.Errorf("collisionCount 1 gives the same name %s", other)
	}
	long := strings.Repeat("x", 250)
	if got := k8s.ControllerRevisionName(long, "h"); got != long[:223]+"-h" {
		t.Errorf("ControllerRevisionName of a long owner = %d bytes", len(got))
	}
}

// TestRevisionDataBigIntegers: the StatefulSet patch rounds integers
// through float64, the DaemonSet patch keeps them.
func TestRevisionDataBigIntegers(t *testing.T) {
	g := int64(1<<53 + 1)
	var tm corev1.PodTemplateSpec
	tm.Spec.TerminationGracePeriodSeconds = &g
	sts, err := k8s.StatefulSetRevisionData(&appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: tm}})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := k8s.DaemonSetRevisionData(&appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: tm}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(sts, []byte(`:9007199254740992}`)) || !bytes.Contains(ds, []byte(`:9007199254740993}`)) {
		t.Errorf("StatefulSet data %s\nDaemonSet data %s", sts, ds)
	}
}

func revision(t *testing.T, s *appsv1.StatefulSet, image string, n int64) *appsv1.ControllerRevision {
	t.Helper()
	c := s.DeepCopy()
	c.Spec.Template.Spec.Containers[0].Image = image
	r, err := k8s.NewStatefulSetRevision(c, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStatefulSetUpdateRevision: the newest equal revision, an older equal
// revision (rollback), the newest revision stored with other JSON, or a
// new name.
func TestStatefulSetUpdateRevision(t *testing.T) {
	s := &appsv1.StatefulSet{}
	s.Name = "web"
	s.Spec.Template.Spec.Containers = []corev1.Container{{Name: "c", Image: "v2"}}
	v1, v2, v3 := revision(t, s, "v1", 1), revision(t, s, "v2", 2), revision(t, s, "v3", 3)
	fresh, _ := k8s.StatefulSetRevisionName(s)
	// Stored by an older release: a field written explicitly that this
	// release omits (the same template, other bytes).
	older := v3.DeepCopy()
	older.Data.Raw = bytes.Replace(v2.Data.Raw, []byte(`"image":`), []byte(`"stdin":false,"image":`), 1)
	older.Name, older.Revision = "web-older", 4
	// Read from kubectl -o json: indented.
	indented := v1.DeepCopy()
	var buf bytes.Buffer
	if err := json.Indent(&buf, v2.Data.Raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	indented.Data.Raw, indented.Name = buf.Bytes(), "web-indented"
	for _, c := range []struct {
		name string
		revs []*appsv1.ControllerRevision
		want string
	}{
		{"none", nil, fresh},
		{"newest", []*appsv1.ControllerRevision{v1, v2}, v2.Name},
		{"rollback", []*appsv1.ControllerRevision{v3, v2, v1}, v2.Name},
		{"other template", []*appsv1.ControllerRevision{v1, v3}, fresh},
		{"newest re-encoded", []*appsv1.ControllerRevision{v1, v3, older}, "web-older"},
		{"older re-encoded", []*appsv1.ControllerRevision{v1, older, revision(t, s, "v3", 5)}, fresh},
		{"indented", []*appsv1.ControllerRevision{indented, v3}, "web-indented"},
	} {
		got, err := k8s.StatefulSetUpdateRevision(s, c.revs)
		if err != nil || got != c.want {
			t.Errorf("%s: StatefulSetUpdateRevision = %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	if fresh != v2.Name {
		t.Errorf("fresh name %s; the v2 revision is %s", fresh, v2.Name)
	}
}

// TestDaemonSetHistory: the current hash is the label of the matching
// revision the DaemonSet claims (its name when unlabelled), else the
// pod-template-hash.
func TestDaemonSetHistory(t *testing.T) {
	ds := &appsv1.DaemonSet{}
	ds.Name, ds.UID = "agent", "uid-agent"
	ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
	ds.Spec.Template.Labels = map[string]string{"app": "agent"}
	ds.Spec.Template.Spec.Containers = []corev1.Container{{Name: "c", Image: "v2"}}
	mk := func(image string, n int64) *appsv1.ControllerRevision {
		c := ds.DeepCopy()
		c.Spec.Template.Spec.Containers[0].Image = image
		r, err := k8s.NewDaemonSetRevision(c, n)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	hash := k8s.PodTemplateHash(&ds.Spec.Template, nil)
	h, err := k8s.DaemonSetHistory(ds, nil)
	if err != nil || h.Hash != hash || len(h.Revisions) != 0 {
		t.Fatalf("no revisions: %+v, %v; want hash %s", h, err, hash)
	}
	v1, v2 := mk("v1", 1), mk("v2", 2)
	if v2.Name != "agent-"+hash || v2.Labels[history.HashLabel] != hash {
		t.Fatalf("NewDaemonSetRevision = %s %v", v2.Name, v2.Labels)
	}
	unlabelled := v2.DeepCopy()
	unlabelled.Name, unlabelled.Revision = "agent-old", 3
	delete(unlabelled.Labels, history.HashLabel)
	h, err = k8s.DaemonSetHistory(ds, []*appsv1.ControllerRevision{v1, v2, unlabelled})
	if err != nil || h.Hash != "agent-old" || len(h.Revisions) != 3 || daemonset.RevisionHash(&h.Revisions[2]) != "agent-old" || daemonset.RevisionHash(&h.Revisions[0]) != v1.Labels[history.HashLabel] {
		t.Fatalf("DaemonSetHistory = %+v, %v", h, err)
	}
	// another controller's revision of the same template is not claimed
	unlabelled.OwnerReferences[0].UID = "uid-other"
	if h, err = k8s.DaemonSetHistory(ds, []*appsv1.ControllerRevision{v1, v2, unlabelled}); err != nil || h.Hash != hash {
		t.Fatalf("DaemonSetHistory with another's revision = %+v, %v; want %s", h.Hash, err, hash)
	}
}

// TestClaimAndPodRoundTrip: claims and pods (with their claim volumes and
// node affinity) keep their modelled fields both ways.
func TestClaimAndPodRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, rapid.IntRange(0, 59).Draw(t, "s"), 0, time.UTC))
		yes := true
		c := &corev1.PersistentVolumeClaim{}
		c.Name, c.Namespace, c.UID = "data-web-0", "default", types.UID(rapid.StringMatching(`[a-z]{1,4}`).Draw(t, "uid"))
		if rapid.Bool().Draw(t, "deleting") {
			c.DeletionTimestamp = &at
		}
		if rapid.Bool().Draw(t, "owned") {
			c.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "uid-web", Controller: &yes}}
		}
		kc, err := k8s.FromPersistentVolumeClaim(c)
		if err != nil {
			t.Fatal(err)
		}
		if kc.Name != c.Name || kc.UID != string(c.UID) || (kc.DeletionTimestamp != nil) != (c.DeletionTimestamp != nil) || len(kc.OwnerReferences) != len(c.OwnerReferences) {
			t.Fatalf("FromPersistentVolumeClaim = %+v", kc)
		}
		bc, err := k8s.ToPersistentVolumeClaim(kc)
		if err != nil {
			t.Fatal(err)
		}
		if kc2, _ := k8s.FromPersistentVolumeClaim(bc); !reflect.DeepEqual(kc, kc2) {
			t.Fatalf("claim From(To(x)) = %+v; want %+v", kc2, kc)
		}

		p := &corev1.Pod{}
		p.Name, p.Namespace, p.UID = "web-0", "default", "uid-web-0"
		p.Labels = map[string]string{history.HashLabel: "web-abc", statefulset.LabelPodName: "web-0"}
		p.Status.Phase = rapid.SampledFrom([]corev1.PodPhase{"", corev1.PodPending, corev1.PodRunning, corev1.PodFailed}).Draw(t, "phase")
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at}}
		if rapid.Bool().Draw(t, "claimVolume") {
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data-web-0"}}})
		}
		if rapid.Bool().Draw(t, "emptyDir") {
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
		sp, err := k8s.FromPod(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(sp.Spec.Volumes) != len(p.Spec.Volumes) || statefulset.PodRevision(sp) != "web-abc" || string(sp.Status.Phase) != string(p.Status.Phase) {
			t.Fatalf("FromPod = %+v", sp)
		}
		for i, v := range p.Spec.Volumes {
			if want := ""; v.PersistentVolumeClaim != nil && sp.Spec.Volumes[i].ClaimName() != v.PersistentVolumeClaim.ClaimName || v.PersistentVolumeClaim == nil && sp.Spec.Volumes[i].ClaimName() != want {
				t.Fatalf("volume %d: %+v", i, sp.Spec.Volumes[i])
			}
		}
		bp, err := k8s.ToPod(sp)
		if err != nil {
			t.Fatal(err)
		}
		if sp2, _ := k8s.FromPod(bp); !reflect.DeepEqual(sp, sp2) {
			t.Fatalf("pod From(To(x)) = %+v; want %+v", sp2, sp)
		}

		p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1"}).Draw(t, "node")
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}}}}
		dp, err := k8s.FromPod(p)
		if err != nil {
			t.Fatal(err)
		}
		if dp.Spec.NodeName != p.Spec.NodeName || dp.Spec.Affinity == nil || dp.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values[0] != "node-1" {
			t.Fatalf("FromPod = %+v", dp)
		}
		bd, err := k8s.ToPod(dp)
		if err != nil {
			t.Fatal(err)
		}
		if dp2, _ := k8s.FromPod(bd); !reflect.DeepEqual(dp, dp2) {
			t.Fatalf("pod with affinity From(To(x)) = %+v; want %+v", dp2, dp)
		}
	})
}

// TestDaemonSetRoundTrip: To(From(d)) keeps the modelled fields;
// From(To(x)) gives x back.
func TestDaemonSetRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &appsv1.DaemonSet{}
		d.Name, d.Namespace, d.UID = "agent", "kube-system", "uid-agent"
		d.Generation = rapid.Int64Range(1, 5).Draw(t, "generation")
		d.Annotations = map[string]string{"deprecated.daemonset.template.generation": "3"}
		d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
		d.Spec.Template = genTemplate(t)
		d.Spec.Template.Labels = map[string]string{"app": "agent"}
		d.Spec.Template.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
		if rapid.Bool().Draw(t, "tolerations") {
			d.Spec.Template.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "agents", Effect: corev1.TaintEffectNoSchedule}}
		}
		if rapid.Bool().Draw(t, "nodeSelector") {
			d.Spec.Template.Spec.NodeSelector = map[string]string{"zone": "a"}
		}
		if rapid.Bool().Draw(t, "onDelete") {
			d.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
		} else {
			u := intstr.FromString("10%")
			s := intstr.FromInt32(rapid.Int32Range(0, 2).Draw(t, "surge"))
			d.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &u, MaxSurge: &s}}
		}
		d.Spec.MinReadySeconds = rapid.Int32Range(0, 30).Draw(t, "minReady")
		h := int32(10)
		d.Spec.RevisionHistoryLimit = &h
		d.Status = appsv1.DaemonSetStatus{CurrentNumberScheduled: 3, NumberMisscheduled: 1, DesiredNumberScheduled: 4, NumberReady: 2,
			ObservedGeneration: rapid.Int64Range(0, 5).Draw(t, "observed"), UpdatedNumberScheduled: 1, NumberAvailable: 2, NumberUnavailable: 2}
		k, err := k8s.FromDaemonSet(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := k8s.ToDaemonSet(k)
		if err != nil {
			t.Fatal(err)
		}
		if back.Spec.UpdateStrategy.Type != d.Spec.UpdateStrategy.Type || !reflect.DeepEqual(back.Spec.UpdateStrategy.RollingUpdate, d.Spec.UpdateStrategy.RollingUpdate) ||
			!reflect.DeepEqual(back.Status, d.Status) || back.Generation != d.Generation || !reflect.DeepEqual(back.Annotations, d.Annotations) ||
			!reflect.DeepEqual(back.Spec.Template.Spec.Tolerations, d.Spec.Template.Spec.Tolerations) || !reflect.DeepEqual(back.Spec.Template.Spec.NodeSelector, d.Spec.Template.Spec.NodeSelector) ||
			back.Spec.Template.Spec.HostNetwork != d.Spec.Template.Spec.HostNetwork || back.Spec.Template.Spec.Containers[0].Image != d.Spec.Template.Spec.Containers[0].Image ||
			!reflect.DeepEqual(back.Spec.Selector, d.Spec.Selector) || back.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			a, _ := json.Marshal(d)
			b, _ := json.Marshal(back)
			t.Fatalf("To(From(d)) changed modelled fields:\n%s\n%s", a, b)
		}
		k2, err := k8s.FromDaemonSet(back)
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

// TestRevisionConversions: ControllerRevisions to kubesem's one revision
// model and back; a DaemonSet reads the hash label, or the name when
// unlabelled.
func TestRevisionConversions(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := true
	r := &appsv1.ControllerRevision{Revision: 7}
	r.Name, r.Namespace, r.UID, r.CreationTimestamp = "web-abc", "default", "uid-r", metav1.NewTime(at)
	r.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "uid-web", Controller: &tr}}
	got := k8s.FromControllerRevisions([]*appsv1.ControllerRevision{r, nil})
	if len(got) != 1 || got[0].Name != "web-abc" || got[0].Revision != 7 || !got[0].CreationTimestamp.Equal(at) || !got[0].IsControlledBy("uid-web") {
		t.Fatalf("FromControllerRevisions = %+v", got)
	}
	back := k8s.ToControllerRevision(got[0])
	r.APIVersion, r.Kind = "apps/v1", "ControllerRevision"
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("ToControllerRevision = %+v; want %+v", back, r)
	}
	if d := got[0]; daemonset.RevisionHash(&d) != "web-abc" {
		t.Fatalf("RevisionHash unlabelled = %q", daemonset.RevisionHash(&d))
	}
	r.Labels = map[string]string{history.HashLabel: "abc"}
	if d := k8s.FromControllerRevision(r); daemonset.RevisionHash(&d) != "abc" {
		t.Fatalf("RevisionHash = %q", daemonset.RevisionHash(&d))
	}
}

// TestNilInputs: every From/To of a nil object returns nil, no error.
func TestNilInputs(t *testing.T) {
	if v, err := k8s.FromStatefulSet(nil); v != nil || err != nil {
		t.Error("FromStatefulSet(nil)")
	}
	if v, err := k8s.ToStatefulSet(nil); v != nil || err != nil {
		t.Error("ToStatefulSet(nil)")
	}
	if v, err := k8s.FromDaemonSet(nil); v != nil || err != nil {
		t.Error("FromDaemonSet(nil)")
	}
	if v, err := k8s.ToDaemonSet(nil); v != nil || err != nil {
		t.Error("ToDaemonSet(nil)")
	}
	if v, err := k8s.FromPersistentVolumeClaim(nil); v != nil || err != nil {
		t.Error("FromPersistentVolumeClaim(nil)")
	}
	if v, err := k8s.FromPods([]*corev1.Pod{nil}); len(v) != 1 || v[0] != nil || err != nil {
		t.Error("FromPods([nil])")
	}
}

// TestStatefulSetPods: the pods of a Plan are the set's whole template
// with the identity, the claim volumes and the revision.
func TestStatefulSetPods(t *testing.T) {
	two := int32(2)
	set := &appsv1.StatefulSet{}
	set.Name, set.Namespace, set.UID = "db", "prod", "uid-db"
	set.Spec.Replicas, set.Spec.ServiceName = &two, "db"
	set.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	set.Spec.Template.Labels = map[string]string{"app": "db"}
	set.Spec.Template.Spec.Containers = []corev1.Container{{Name: "pg", Image: "postgres:17", Env: []corev1.EnvVar{{Name: "PGDATA", Value: "/data"}}}}
	set.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}, {Name: "tmp"}}
	set.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}
	ks, err := k8s.FromStatefulSet(set)
	if err != nil {
		t.Fatal(err)
	}
	p, err := statefulset.Step(ks, nil, nil, nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), statefulset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := k8s.StatefulSetPods(set, nil, p)
	if err != nil || len(pods) != 1 {
		t.Fatalf("StatefulSetPods = %d pods, %v", len(pods), err)
	}
	pod := pods[0]
	if pod.Name != "db-0" || pod.Namespace != "prod" || pod.Spec.Hostname != "db-0" || pod.Spec.Subdomain != "db" ||
		pod.Labels[history.HashLabel] != ks.Spec.TemplateRevision || pod.Labels["apps.kubernetes.io/pod-index"] != "0" ||
		pod.Labels[statefulset.LabelPodName] != "db-0" || pod.Spec.Containers[0].Env[0].Value != "/data" || pod.OwnerReferences[0].UID != "uid-db" {
		t.Errorf("pod %+v", pod)
	}
	if len(pod.Spec.Volumes) != 2 || pod.Spec.Volumes[0].PersistentVolumeClaim == nil || pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-db-0" || pod.Spec.Volumes[1].Name != "tmp" {
		t.Errorf("volumes %+v", pod.Spec.Volumes)
	}
	if _, err := k8s.StatefulSetPods(set, nil, statefulset.Plan{Create: p.Create}); err == nil {
		t.Error("a pod of an unknown revision: no error")
	}
}

// TestDaemonSetPods: a DaemonSet on one node through the adapter and Step
// gives the complete pod: template, default tolerations, hash label,
// node pinned by affinity.
func TestDaemonSetPods(t *testing.T) {
	ds := &appsv1.DaemonSet{}
	ds.Name, ds.Namespace, ds.UID = "agent", "kube-system", "uid-agent"
	ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: "2"}
	ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
	ds.Spec.Template.Labels = map[string]string{"app": "agent"}
	ds.Spec.Template.Spec.Containers = []corev1.Container{{Name: "a", Image: "agent:1", Env: []corev1.EnvVar{{Name: "X", Value: "1"}}}}
	ds.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
	n := &corev1.Node{}
	n.Name = "node-1"
	kds, err := k8s.FromDaemonSet(ds)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := k8s.FromNodes([]*corev1.Node{n})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := k8s.DaemonSetHistory(ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := daemonset.Step(kds, nodes, nil, hist, nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), daemonset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := k8s.DaemonSetPods(ds, hist.Hash, p)
	if err != nil || len(pods) != 1 {
		t.Fatalf("DaemonSetPods = %d, %v", len(pods), err)
	}
	pod := pods[0]
	req := pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0]
	if pod.GenerateName != "agent-" || pod.Namespace != "kube-system" || pod.Labels["controller-revision-hash"] != hist.Hash || pod.Labels["pod-template-generation"] != "2" ||
		req.Values[0] != "node-1" || len(pod.Spec.Tolerations) != 6 || pod.Spec.Containers[0].Env[0].Value != "1" || pod.OwnerReferences[0].UID != "uid-agent" {
		t.Errorf("pod %+v", pod)
	}
	ds.Annotations[appsv1.DeprecatedTemplateGeneration] = "x"
	if _, err := k8s.DaemonSetPod(ds, "node-1", hist.Hash); err == nil {
		t.Error("a generation annotation that is not a number: no error")
	}
}
