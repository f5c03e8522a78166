package replicaset_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func FuzzRankingStrictWeakOrder(f *testing.F) { fuzzlimit.Rapid(f, checkRankingStrictWeakOrder) }
func FuzzDiffBurst(f *testing.F)              { fuzzlimit.Rapid(f, checkDiffBurst) }
func FuzzStepProperties(f *testing.F)         { fuzzlimit.Rapid(f, checkStep) }

// FuzzStep decodes arbitrary JSON into a ReplicaSet and pods: Step must not
// panic, and its errors are *field.Error.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"a","uid":"u"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}}}}}`),
		[]byte(`[{"metadata":{"name":"p","labels":{"a":"b"}},"status":{"phase":"Running"}}]`), int64(0))
	f.Add([]byte(`{"kind":"ReplicationController","spec":{"replicas":-1}}`), []byte(`[null]`), int64(1))
	f.Fuzz(func(t *testing.T, rsJSON, podsJSON []byte, nowSec int64) {
		var rs replicaset.ReplicaSet
		var pods []*podstatus.Pod
		if json.Unmarshal(rsJSON, &rs) != nil || json.Unmarshal(podsJSON, &pods) != nil {
			return
		}
		_, err := replicaset.Step(&rs, pods, pods, time.Unix(nowSec, 0), replicaset.Options{})
		var fe *field.Error
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("Step error %v is not a *field.Error", err)
		}
	})
}
