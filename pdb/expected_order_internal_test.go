package pdb

import (
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// ExpectedScale, which skips the sort of the pods when their order cannot
// change the answer, answers as the walk in name order does, on any pods
// and controllers: references to missing controllers, wrong kinds or
// versions, UIDs shared by several controllers (which the API never
// gives, and which make the answer depend on the order), ReplicaSets owned
// by Deployments, controllers without a scale, duplicate pod names.
func TestPropertyExpectedScaleAnyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kinds := []struct{ apiVersion, kind string }{
			{"apps/v1", "ReplicaSet"}, {"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"},
			{"v1", "ReplicationController"}, {"example.com/v1", "Foo"}, {"apps/v2", "ReplicaSet"}, {"a/b/c", "Bar"},
		}
		uids := []string{"u0", "u1", "u2", "u3", "u4"}
		names := []string{"a", "b", "c"}
		var cs []Controller
		for range rapid.IntRange(0, 6).Draw(t, "controllers") {
			k := rapid.SampledFrom(kinds).Draw(t, "kind")
			c := Controller{APIVersion: k.apiVersion, Kind: k.kind, ObjectMeta: meta.ObjectMeta{
				Name: rapid.SampledFrom(names).Draw(t, "name"), UID: rapid.SampledFrom(uids).Draw(t, "uid")}}
			if rapid.IntRange(0, 4).Draw(t, "noScale") > 0 {
				r := int32(rapid.IntRange(0, 5).Draw(t, "replicas"))
				c.Spec.Replicas = &r
			}
			if rapid.Bool().Draw(t, "owned") {
				c.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment",
					Name: rapid.SampledFrom(names).Draw(t, "ownerName"), UID: rapid.SampledFrom(uids).Draw(t, "ownerUID"), Controller: ptr(true)}}
			}
			cs = append(cs, c)
		}
		var pods []*podstatus.Pod
		for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
			p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("p%d", rapid.IntRange(0, i).Draw(t, "podName"))}}
			switch rapid.IntRange(0, 3).Draw(t, "ref") {
			case 0: // none
			case 1: // a controller's own reference
				if len(cs) > 0 {
					c := rapid.SampledFrom(cs).Draw(t, "of")
					p.OwnerReferences = []meta.OwnerReference{{APIVersion: c.APIVersion, Kind: c.Kind, Name: c.Name, UID: c.UID, Controller: ptr(true)}}
				}
			default: // any reference
				k := rapid.SampledFrom(kinds).Draw(t, "refKind")
				p.OwnerReferences = []meta.OwnerReference{{APIVersion: k.apiVersion, Kind: k.kind,
					Name: rapid.SampledFrom(names).Draw(t, "refName"), UID: rapid.SampledFrom(uids).Draw(t, "refUID"), Controller: ptr(true)}}
			}
			if rapid.IntRange(0, 9).Draw(t, "nil") == 0 {
				p = nil
			}
			pods = append(pods, p)
		}
		pods = rapid.Permutation(pods).Draw(t, "order")
		n, un, err := ExpectedScale(pods, cs)
		wn, wun, werr := expectedScaleInOrder(sortedPods(pods), cs)
		if n != wn || !reflect.DeepEqual(un, wun) || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("ExpectedScale = %d %q %v; in name order %d %q %v", n, un, err, wn, wun, werr)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// A UID that is one controller's and another's ReplicaSet's (owned by a
// Deployment): in name order the pod of the first counts it, and the pod
// of the ReplicaSet is then skipped, its Deployment not counted (5, not
// 5 + 3). Swapped names, both count (8).
func TestExpectedScaleSharedUID(t *testing.T) {
	three, five := int32(3), int32(5)
	cs := []Controller{
		{APIVersion: "apps/v1", Kind: "ReplicaSet", ObjectMeta: meta.ObjectMeta{Name: "a", UID: "u1",
			OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "u2", Controller: ptr(true)}}}, Spec: ControllerSpec{Replicas: &three}},
		{APIVersion: "apps/v1", Kind: "Deployment", ObjectMeta: meta.ObjectMeta{Name: "d", UID: "u2"}, Spec: ControllerSpec{Replicas: &three}},
		{APIVersion: "apps/v1", Kind: "StatefulSet", ObjectMeta: meta.ObjectMeta{Name: "a", UID: "u1"}, Spec: ControllerSpec{Replicas: &five}},
	}
	pod := func(name, kind string) *podstatus.Pod {
		return &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, OwnerReferences: []meta.OwnerReference{
			{APIVersion: "apps/v1", Kind: kind, Name: "a", UID: "u1", Controller: ptr(true)}}}}
	}
	for _, c := range []struct {
		pods []*podstatus.Pod
		want int32
	}{
		{[]*podstatus.Pod{pod("p2", "ReplicaSet"), pod("p1", "StatefulSet")}, 5},
		{[]*podstatus.Pod{pod("p1", "ReplicaSet"), pod("p2", "StatefulSet")}, 8},
	} {
		if n, _, err := ExpectedScale(c.pods, cs); n != c.want || err != nil {
			t.Errorf("%s, %s: %d %v; want %d", c.pods[0].Name, c.pods[1].Name, n, err, c.want)
		}
	}
}
