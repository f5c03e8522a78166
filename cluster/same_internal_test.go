package cluster

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func testPod(name string, ready time.Time) *podstatus.Pod {
	yes := true
	return &podstatus.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: name + "-uid", Labels: map[string]string{"app": "web"},
			OwnerReferences: []meta.OwnerReference{{Kind: "ReplicaSet", Name: "web-1", UID: "rs-uid", Controller: &yes}}},
		Spec: podstatus.Spec{NodeName: "n1", Containers: []podstatus.Container{{Name: "app", Image: "web:1"}}},
		Status: podstatus.Status{Phase: podstatus.Running,
			Conditions: []podstatus.Condition{{Type: podstatus.Ready, Status: "True", LastTransitionTime: ready}}},
	}
}

// TestDeepEqual: deepEqual agrees with reflect.DeepEqual: equal copies
// are equal, a pod differing in one field is not (nor is its status, as
// DeepEqual finds), floats compare with == (0 and -0 equal, NaN unequal).
func TestDeepEqual(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := testPod("a", t0)
	if !deepEqual(p, deepcopy.New(p)) {
		t.Fatal("a copy differs")
	}
	for name, edit := range map[string]func(*podstatus.Pod){
		"label": func(q *podstatus.Pod) { q.Labels = map[string]string{"app": "db"} },
		"condition": func(q *podstatus.Pod) {
			q.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: "False"}}
		},
		"time":     func(q *podstatus.Pod) { q.CreationTimestamp = t0 },
		"deletion": func(q *podstatus.Pod) { q.DeletionTimestamp = &t0 },
		"owner":    func(q *podstatus.Pod) { q.OwnerReferences = nil },
		"controller": func(q *podstatus.Pod) {
			q.OwnerReferences = []meta.OwnerReference{{Kind: "ReplicaSet", Name: "web-1", UID: "rs-uid"}}
		},
		"image": func(q *podstatus.Pod) { q.Spec.Containers = []podstatus.Container{{Name: "app", Image: "web:2"}} },
		"empty": func(q *podstatus.Pod) { q.Finalizers = []string{} },
	} {
		q := deepcopy.New(p)
		edit(q)
		if deepEqual(p, q) || deepEqual(&p.Status, &q.Status) != reflect.DeepEqual(&p.Status, &q.Status) {
			t.Errorf("deepEqual is not reflect.DeepEqual with another %s", name)
		}
	}
	zero, neg, nan := 0.0, math.Copysign(0, -1), math.NaN()
	if !deepEqual(&zero, &neg) || deepEqual(&nan, &[]float64{nan}[0]) || deepEqual(p, &zero) || !deepEqual(nil, nil) || deepEqual(p, nil) {
		t.Fatal("deepEqual is not reflect.DeepEqual")
	}
	a, b := map[string]any{"x": 1.0, "y": []any{"z"}}, map[string]any{"x": 1.0, "y": []any{"z"}}
	if !deepEqual(&a, &b) {
		t.Fatal("equal JSON values differ")
	}
	b["y"] = []any{"w"}
	if deepEqual(&a, &b) {
		t.Fatal("unequal JSON values are equal")
	}
}
