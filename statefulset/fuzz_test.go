package statefulset

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzStep decodes arbitrary JSON into Step's inputs: Step returns a Plan or
// an error and never panics.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"set":{"metadata":{"name":"web"},"spec":{"replicas":3,"templateRevision":"web-v1"}},"pods":[{"metadata":{"name":"web-0","labels":{"controller-revision-hash":"web-v2"}},"status":{"phase":"Running"}}],"revisions":[{"metadata":{"name":"web-v2"},"revision":1}]}`), false)
	f.Add([]byte(`{"set":{"metadata":{"name":"web"},"spec":{"replicas":2,"podManagementPolicy":"Parallel","ordinals":{"start":4},"volumeClaimTemplates":[{"metadata":{"name":"www"}}],"persistentVolumeClaimRetentionPolicy":{"whenScaled":"Delete"},"updateStrategy":{"rollingUpdate":{"partition":1,"maxUnavailable":"50%"}}}},"pods":[{"metadata":{"name":"web-9","deletionTimestamp":"2026-01-01T00:00:00Z"}}],"claims":[{"metadata":{"name":"www-web-4","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"web-4","uid":"x","controller":true}]}}]}`), true)
	f.Fuzz(func(t *testing.T, data []byte, gate bool) {
		var in stepInput
		if json.Unmarshal(data, &in) != nil {
			return
		}
		p, err := Step(&in.Set, in.Pods, in.Revisions, in.Claims, time.Unix(1e9, 0), Options{MaxUnavailableStatefulSet: gate})
		if err != nil {
			return
		}
		if _, err := p.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	})
}
