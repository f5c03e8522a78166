package pdb_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

const fuzzSeed = `{"budget":{"metadata":{"name":"b","namespace":"default","generation":1},"spec":{"maxUnavailable":"30%","selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1,"disruptedPods":{"a":"2026-01-01T00:09:00Z"}}},
"pods":[{"metadata":{"name":"a","namespace":"default","labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","controller":true}]},"spec":{},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}],
"controllers":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","replicas":3}]}`

type fuzzIn struct {
	Budget      pdb.PodDisruptionBudget `json:"budget"`
	Pods        []*podstatus.Pod        `json:"pods"`
	Controllers []pdb.Controller        `json:"controllers"`
}

// FuzzStep: Step never panics, and an allowed count is never negative.
func FuzzStep(f *testing.F) {
	f.Add([]byte(fuzzSeed), int64(0))
	f.Add([]byte(`{"budget":{"spec":{"minAvailable":"101%"}}}`), int64(5))
	f.Fuzz(func(t *testing.T, data []byte, sec int64) {
		var in fuzzIn
		if json.Unmarshal(data, &in) != nil {
			return
		}
		at := now.Add(time.Duration(sec) * time.Second)
		p, err := pdb.Step(&in.Budget, in.Pods, in.Controllers, at, pdb.Options{})
		if err == nil && p.Status.DisruptionsAllowed < 0 {
			t.Fatalf("negative disruptions allowed: %+v", p.Status)
		}
	})
}

// FuzzEvict: Evict never panics; an allowed decision is a 200.
func FuzzEvict(f *testing.F) {
	f.Add([]byte(fuzzSeed), false)
	f.Fuzz(func(t *testing.T, data []byte, dry bool) {
		var in fuzzIn
		if json.Unmarshal(data, &in) != nil || len(in.Pods) == 0 {
			return
		}
		d, err := pdb.Evict(in.Pods[0], []pdb.PodDisruptionBudget{in.Budget}, pdb.Request{DryRun: dry}, now)
		if err == nil && d.Allowed != (d.Code == 200) {
			t.Fatalf("allowed %v with code %d", d.Allowed, d.Code)
		}
	})
}
