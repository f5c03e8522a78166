package upstream_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

type stsVector struct {
	Name    string               `json:"name"`
	Options *statefulset.Options `json:"options"`
	Input   stsVectorInput       `json:"input"`
	Want    json.RawMessage      `json:"want"`
}

type stsVectorInput struct {
	Set       statefulset.StatefulSet `json:"set"`
	Pods      []*statefulset.Pod      `json:"pods"`
	Revisions []statefulset.Revision  `json:"revisions"`
	Claims    []*statefulset.Claim    `json:"claims"`
	Now       time.Time               `json:"now"`
}

// TestStatefulSetVectorsUpstream replays every statefulset.Step vector
// with a want through v1.36.3's defaultStatefulSetControl: each revision
// name of the vector becomes a distinct pod template, so upstream's
// revision hashes map one to one onto the vector's names.
func TestStatefulSetVectorsUpstream(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "statefulset", "step.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []stsVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Want == nil {
			continue
		}
		opts := statefulset.Options{}
		if v.Options != nil {
			opts = *v.Options
		}
		t.Run(v.Name, func(t *testing.T) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.MaxUnavailableStatefulSet, opts.MaxUnavailableStatefulSet)
			c, back := stsCaseFromVector(&v.Input)
			up := stsUpstream(c)
			up = stsMapBack(up, back)
			p, err := statefulset.Step(c.set, c.pods, c.revs, c.claims, v.Input.Now, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := stsFromPlan(p, c.set.Spec.PodManagementPolicy == statefulset.Parallel)
			if d := stsDiff(up, got); d != "" {
				t.Fatalf("differs from v1.36.3:\n%s", d)
			}
		})
		n++
	}
	if n < 90 {
		t.Fatalf("only %d Step vectors replayed", n)
	}
}

func stsMapBack(r stsResult, back map[string]string) stsResult {
	m := func(s string) string {
		if b, ok := back[s]; ok {
			return b
		}
		return s
	}
	for i := range r.Revisions {
		r.Revisions[i].Name = m(r.Revisions[i].Name)
	}
	for i := range r.Create {
		r.Create[i].Revision = m(r.Create[i].Revision)
	}
	if r.Status != nil {
		r.Status.CurrentRevision = m(r.Status.CurrentRevision)
		r.Status.UpdateRevision = m(r.Status.UpdateRevision)
	}
	return r
}

// stsCaseFromVector builds the upstream objects of a vector; back maps
// upstream revision names to the vector's.
func stsCaseFromVector(in *stsVectorInput) (stsCase, map[string]string) {
	s := &in.Set
	c := stsCase{set: s, pods: in.Pods, revs: in.Revisions, claims: in.Claims, upClaims: map[string]*v1.PersistentVolumeClaim{}}
	cc := int32(0)
	if s.Status.CollisionCount != nil {
		cc = *s.Status.CollisionCount
	}
	up := &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, UID: types.UID(s.UID), Generation: s.Generation},
		Spec: apps.StatefulSetSpec{
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			ServiceName:          s.Spec.ServiceName,
			PodManagementPolicy:  apps.PodManagementPolicyType(s.Policy()),
			UpdateStrategy:       apps.StatefulSetUpdateStrategy{Type: apps.StatefulSetUpdateStrategyType(s.Strategy())},
			MinReadySeconds:      s.Spec.MinReadySeconds,
			RevisionHistoryLimit: s.Spec.RevisionHistoryLimit,
		},
	}
	r := s.Replicas()
	up.Spec.Replicas = &r
	if s.Spec.Ordinals != nil {
		up.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: s.Spec.Ordinals.Start}
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		up.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{Partition: ru.Partition}
		if ru.MaxUnavailable != nil {
			var u upintstr.IntOrString
			if ru.MaxUnavailable.IsString() {
				u = upintstr.FromString(ru.MaxUnavailable.String())
			} else {
				u = upintstr.FromInt32(ru.MaxUnavailable.IntValue())
			}
			up.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &u
		}
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		d := p.Defaulted()
		up.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(d.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(d.WhenScaled)}
	}
	for _, n := range s.Spec.VolumeClaimTemplates {
		up.Spec.VolumeClaimTemplates = append(up.Spec.VolumeClaimTemplates, v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: n},
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}}}})
	}
	if s.DeletionTimestamp != nil {
		ts := metav1.NewTime(*s.DeletionTimestamp)
		up.DeletionTimestamp = &ts
	}
	if s.DeletionTimestamp != nil {
		ts := metav1.NewTime(*s.DeletionTimestamp)
		up.DeletionTimestamp = &ts
	}
	// revision names → images
	names := map[string]bool{s.Spec.TemplateRevision: true}
	for _, rv := range in.Revisions {
		names[rv.Name] = true
	}
	for _, p := range in.Pods {
		if l := statefulset.PodRevision(p); l != "" {
			names[l] = true
		}
	}
	for _, n := range []string{s.Status.CurrentRevision, s.Status.UpdateRevision} {
		if n != "" {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	fwd, back := map[string]string{}, map[string]string{}
	img := map[string]string{}
	for i, n := range sorted {
		img[n] = "nginx:" + strconv.Itoa(i+10)
		h := stsRevision(up, img[n], cc).Name
		fwd[n], back[h] = h, n
	}
	up.Spec.Template = stsTemplate(img[s.Spec.TemplateRevision])
	st := s.Status
	up.Status = apps.StatefulSetStatus{ObservedGeneration: st.ObservedGeneration, Replicas: st.Replicas, ReadyReplicas: st.ReadyReplicas,
		CurrentReplicas: st.CurrentReplicas, UpdatedReplicas: st.UpdatedReplicas, AvailableReplicas: st.AvailableReplicas,
		CurrentRevision: fwd[st.CurrentRevision], UpdateRevision: fwd[st.UpdateRevision], CollisionCount: st.CollisionCount}
	for _, rv := range in.Revisions {
		x := stsRevision(up, img[rv.Name], cc).DeepCopy()
		x.Revision = rv.Revision
		x.Namespace = s.Namespace
		c.upRevs = append(c.upRevs, x)
	}
	for _, p := range in.Pods {
		pod := must(k8s.ToStatefulSetPod(p))
		if l, ok := pod.Labels[statefulset.RevisionLabel]; ok {
			pod.Labels[statefulset.RevisionLabel] = fwd[l]
		}
		c.upPods = append(c.upPods, pod)
	}
	for _, cl := range in.Claims {
		pc := must(k8s.ToPersistentVolumeClaim(cl))
		pc.Namespace = s.Namespace
		c.upClaims[cl.Name] = pc
	}
	c.upSet = up
	return c, back
}
