package statefulset

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

func FuzzOrderIndependent(f *testing.F) { fuzzlimit.Rapid(f, checkOrderIndependent) }
func FuzzClaims(f *testing.F)           { fuzzlimit.Rapid(f, checkClaims) }
func FuzzOrderedReadyPredecessorsHealthy(f *testing.F) {
	fuzzlimit.Rapid(f, checkOrderedReadyPredecessorsHealthy)
}
func FuzzRollingUpdateWithinAllowance(f *testing.F) {
	fuzzlimit.Rapid(f, checkRollingUpdateWithinAllowance)
}
func FuzzConvergesToOrdinalRange(f *testing.F) { fuzzlimit.Rapid(f, checkConvergesToOrdinalRange) }
func FuzzDuplicateOrdinalError(f *testing.F)   { fuzzlimit.Rapid(f, checkDuplicateOrdinalError) }

// FuzzStep decodes arbitrary JSON into Step's inputs: Step returns a Plan or
// a *field.Error and never panics, and the Plan's Writes on the same inputs
// return the requests or a *field.Error (a pod created at a revision given
// without its data).
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"set":{"metadata":{"name":"web"},"spec":{"replicas":3,"templateRevision":"web-v1"}},"pods":[{"metadata":{"name":"web-0","labels":{"controller-revision-hash":"web-v2"}},"status":{"phase":"Running"}}],"revisions":[{"metadata":{"name":"web-v2"},"revision":1}]}`), false)
	f.Add([]byte(`{"set":{"metadata":{"name":"web"},"spec":{"replicas":2,"podManagementPolicy":"Parallel","ordinals":{"start":4},"volumeClaimTemplates":[{"metadata":{"name":"www"}}],"persistentVolumeClaimRetentionPolicy":{"whenScaled":"Delete"},"updateStrategy":{"rollingUpdate":{"partition":1,"maxUnavailable":"50%"}}}},"pods":[{"metadata":{"name":"web-9","deletionTimestamp":"2026-01-01T00:00:00Z"}}],"claims":[{"metadata":{"name":"www-web-4","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"web-4","uid":"x","controller":true}]}}]}`), true)
	f.Add([]byte(`{"set":{"metadata":{"name":"web"},"spec":{"replicas":2,"ordinals":{"start":2147483647},"templateRevision":"web-v1"}},"pods":[{"metadata":{"name":"web-01"}},{"metadata":{"name":"web-1"}}]}`), false)
	fuzzlimit.NoMinimize(f)
	f.Fuzz(func(t *testing.T, data []byte, gate bool) {
		var in stepInput
		if json.Unmarshal(data, &in) != nil {
			return
		}
		if in.Set.Spec.Replicas != nil && *in.Set.Spec.Replicas > 1<<12 {
			return // a slot per replica: large sets are BenchmarkStep's business
		}
		var fe *field.Error
		p, err := Step(&in.Set, in.Pods, in.Revisions, in.Claims, time.Unix(1e9, 0), Options{MaxUnavailableStatefulSet: gate})
		if err != nil {
			if !errors.As(err, &fe) {
				t.Fatalf("Step error %v is not a *field.Error", err)
			}
			return
		}
		if _, err := p.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Writes(&in.Set, in.Pods, in.Revisions, in.Claims); err != nil && !errors.As(err, &fe) {
			t.Fatalf("Writes error %v is not a *field.Error", err)
		}
	})
}
