package rollout_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

type writeKey struct {
	Verb                        plan.Verb
	Resource, Subresource, Name string
	Reason                      plan.Reason
}

// TestWrites: Plan.Writes of Step on vectors of testdata/rollout/step.json,
// each path of the sync once. The wants are the requests v1.36.3's
// syncDeployment sends on those inputs, as conformance/upstream
// TestRolloutStepVectorsUpstream finds them on a fake clientset (which
// also checks every other vector, and TestRolloutStepDifferential random
// states).
func TestWrites(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../testdata/rollout/step.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	const upd, cre, del = plan.VerbUpdate, plan.VerbCreate, plan.VerbDelete
	tests := map[string][]writeKey{
		"seed rollover: update while 3 of 5 v1 pods exist scales v1 down at once": {
			{cre, "replicasets", "", "nginx-deployment-v2hash", rollout.ReasonCreateNew},
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonRevision},
			{upd, "replicasets", "", "nginx-deployment-v1hash", rollout.ReasonCleanupUnhealthy},
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonStatusChanged},
		},
		"complete rollout deletes old ReplicaSets beyond revisionHistoryLimit": {
			{del, "replicasets", "", "nginx-deployment-old", rollout.ReasonHistoryLimit},
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonStatusChanged},
		},
		"Recreate first scales every old ReplicaSet to 0": {
			{upd, "replicasets", "", "nginx-deployment-old", rollout.ReasonRecreateScaleDown},
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonStatusChanged},
		},
		"paused Deployment scales to spec.replicas and cleans history": {
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonPausedCondition},
			{upd, "replicasets", "", "nginx-deployment-new", rollout.ReasonProportional},
			{del, "replicasets", "", "nginx-deployment-a", rollout.ReasonHistoryLimit},
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonStatusChanged},
		},
		"a ReplicaSet of another template holding the new name raises collisionCount": {
			{upd, "deployments", "status", "nginx-deployment", rollout.ReasonHashCollision},
		},
		"rollback to revision 1 restores its template": {
			{upd, "deployments", "", "web", rollout.ReasonRollback},
		},
	}
	seen := 0
	for _, v := range vs {
		want, ok := tests[v.Name]
		if !ok {
			continue
		}
		seen++
		var in struct {
			Deployment  *rollout.Deployment      `json:"deployment"`
			ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
			Pods        []*podstatus.Pod         `json:"pods"`
			Now         time.Time                `json:"now"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		p, err := rollout.Step(in.Deployment, in.ReplicaSets, in.Pods, in.Now, rollout.Options{})
		if err != nil {
			t.Fatalf("%s: Step = %v", v.Name, err)
		}
		before, _ := json.Marshal(in)
		ws, err := p.Writes(in.Deployment, in.ReplicaSets, in.Pods, in.Now)
		if err != nil {
			t.Fatalf("%s: Writes = %v", v.Name, err)
		}
		if after, _ := json.Marshal(in); string(after) != string(before) {
			t.Errorf("%s: Writes modified its inputs", v.Name)
		}
		var got []writeKey
		for _, w := range ws {
			got = append(got, writeKey{w.Verb, w.Resource, w.Subresource, w.Name, w.Reason})
			if w.Verb != del && w.Object == nil {
				t.Errorf("%s: %v carries no object", v.Name, w)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Writes =\n%v\nwant\n%v", v.Name, got, want)
		}
		// The last status write carries the Plan's status.
		for i := len(ws) - 1; i >= 0; i-- {
			if ws[i].Subresource == "status" {
				if d := ws[i].Object.(*rollout.Deployment); !reflect.DeepEqual(d.Status, p.Status) {
					t.Errorf("%s: last status write %+v; want the Plan's %+v", v.Name, d.Status, p.Status)
				}
				break
			}
		}
	}
	if seen != len(tests) {
		t.Fatalf("found %d of %d vectors", seen, len(tests))
	}
}

// TestWritesForeignEntry: a Plan entry naming no input ReplicaSet is a
// *field.Error at that entry.
func TestWritesForeignEntry(t *testing.T) {
	t.Parallel()
	d := &rollout.Deployment{}
	d.Name = "web"
	for _, tt := range []struct {
		p    rollout.Plan
		path string
	}{
		{rollout.Plan{Update: []rollout.Update{{Name: "ghost"}}}, "update[0].name"},
		{rollout.Plan{Scale: []rollout.Resize{{Name: "ghost"}}}, "scale[0].name"},
		{rollout.Plan{Delete: []plan.Deletion{{Name: "ghost"}}}, "delete[0].name"},
	} {
		_, err := tt.p.Writes(d, nil, nil, time.Time{})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != tt.path || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("Writes error = %v; want %s invalid", err, tt.path)
		}
	}
	if _, err := (rollout.Plan{}).Writes(nil, nil, nil, time.Time{}); !errors.Is(err, field.ErrRequired) {
		t.Errorf("Writes(nil) = %v; want required", err)
	}
}
