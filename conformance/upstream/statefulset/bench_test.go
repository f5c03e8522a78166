package statefulset_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/record"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// benchInput is n Running and Ready pods at web-v1 with the template at
// web-v2: one sync walks every pod and deletes the highest.
func benchInput(n int) *vectorInput {
	r := int32(n)
	p := int32(0)
	hist := int32(10)
	in := &vectorInput{Now: t0,
		Set: statefulset.StatefulSet{ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: 1},
			Spec: statefulset.Spec{Replicas: &r, ServiceName: "nginx", PodManagementPolicy: statefulset.OrderedReady,
				UpdateStrategy:       statefulset.UpdateStrategy{Type: statefulset.RollingUpdate, RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: &p}},
				RevisionHistoryLimit: &hist, TemplateRevision: "web-v2"},
			Status: statefulset.Status{ObservedGeneration: 1, CurrentRevision: "web-v1", UpdateRevision: "web-v2"}},
		Revisions: []history.ControllerRevision{{ObjectMeta: meta.ObjectMeta{Name: "web-v1"}, Revision: 1}, {ObjectMeta: meta.ObjectMeta{Name: "web-v2"}, Revision: 2}},
	}
	for i := 0; i < n; i++ {
		name := "web-" + strconv.Itoa(i)
		in.Pods = append(in.Pods, &podstatus.Pod{
			ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
				Labels: map[string]string{"app": "web", statefulset.LabelPodName: name, history.HashLabel: "web-v1"}},
			Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: t0.Add(-time.Minute)}}}})
	}
	return in
}

// BenchmarkStatefulSetSync runs one whole sync, upstream's
// UpdateStatefulSet (on the harness fakes) and kubesem's Step, on the same
// set and pods.
func BenchmarkStatefulSetSync(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		in := benchInput(n)
		c, _ := caseFromVector(in)
		b.Run("upstream/"+strconv.Itoa(n), func(b *testing.B) {
			f := &newFake{pods: map[string]*v1.Pod{}, claims: c.upClaims, revs: c.upRevs}
			for _, p := range c.upPods {
				f.pods[p.Name] = p
			}
			ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, &record.FakeRecorder{}), f, f)
			pods := slices.Clone(c.upPods)
			b.ReportAllocs()
			for b.Loop() {
				f.deleted, f.revW = f.deleted[:0], f.revW[:0]
				if _, err := ctl.UpdateStatefulSet(context.Background(), c.upSet, pods, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("kubesem/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := statefulset.Step(c.set, c.pods, c.revs, c.claims, t0, statefulset.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStatefulSetMaxUnavailable(b *testing.B) {
	u := upintstr.FromString("25%")
	v := intstr.Percent(25)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := upMaxUnavailable(&u, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := statefulset.MaxUnavailable(&v, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkStatefulSetClaimOwnerUpToDate(b *testing.B) {
	tr := true
	refs := []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}}
	r := int32(3)
	upSet := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "set-uid"}, Spec: apps.StatefulSetSpec{Replicas: &r,
		PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: apps.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.DeletePersistentVolumeClaimRetentionPolicyType}}}
	upPod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", UID: "uid-web-1"}}
	claim := &statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: "www-web-1", OwnerReferences: refs}}
	upClaim := difftest.Must(k8s.ToPersistentVolumeClaim(claim))
	pol := statefulset.RetentionPolicy{WhenDeleted: statefulset.Delete, WhenScaled: statefulset.Delete}
	set := &statefulset.StatefulSet{Spec: statefulset.Spec{Replicas: &r, PersistentVolumeClaimRetentionPolicy: &pol}}
	set.Name, set.UID = "web", "set-uid"
	pod := statefulset.Owner{Name: "web-1", UID: "uid-web-1"}
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			upClaimUpToDate(ruleLog, upClaim, upSet, upPod)
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			statefulset.ClaimOwnerUpToDate(claim, set, pod)
		}
	})
}
