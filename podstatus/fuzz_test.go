package podstatus_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/podstatus"
)

func FuzzAvailableImpliesReady(f *testing.F) { fuzzlimit.Rapid(f, checkAvailableImpliesReady) }
func FuzzAvailableMonotone(f *testing.F)     { fuzzlimit.Rapid(f, checkAvailableMonotone) }
func FuzzNextCheck(f *testing.F)             { fuzzlimit.Rapid(f, checkNextCheck) }
func FuzzLifecyclePartition(f *testing.F)    { fuzzlimit.Rapid(f, checkLifecyclePartition) }
func FuzzDeletionCost(f *testing.F)          { fuzzlimit.Rapid(f, checkDeletionCost) }
func FuzzMaxRestarts(f *testing.F)           { fuzzlimit.Rapid(f, checkMaxRestarts) }

// FuzzRules decodes arbitrary JSON as a list of pods and runs every rule
// over it: none may panic, whatever the pods hold (null entries included).
func FuzzRules(f *testing.F) {
	for _, s := range []string{
		`[]`, `[null]`, `[{}]`,
		`[{"metadata":{"deletionTimestamp":"2025-01-01T12:00:00Z","annotations":{"controller.kubernetes.io/pod-deletion-cost":"-007"}},"status":{"phase":"Running"}}]`,
		`[{"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2025-01-01T11:59:56Z"}]}}]`,
		`[{"spec":{"initContainers":[{"name":"s","restartPolicy":"Always"}]},"status":{"initContainerStatuses":[{"name":"s","ready":false,"restartCount":3}]}}]`,
	} {
		f.Add([]byte(s), int32(10), int64(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, minReady int32, offset int64) {
		var pods []*podstatus.Pod
		if json.Unmarshal(b, &pods) != nil {
			return
		}
		at := now.Add(time.Duration(offset))
		for _, p := range pods {
			_ = podstatus.IsReady(p)
			_ = podstatus.ReadyTime(p)
			_ = podstatus.IsAvailable(p, minReady, at)
			_ = podstatus.IsActive(p)
			_ = podstatus.IsTerminating(p)
			_ = podstatus.IsTerminal(p)
			_, _ = podstatus.DeletionCost(p)
			_, _ = podstatus.MaxRestarts(p)
			if p != nil {
				for i := range p.Spec.InitContainers {
					_ = podstatus.IsRestartableInit(&p.Spec.InitContainers[i])
				}
			}
		}
		if d, ok := podstatus.NextAvailabilityCheck(pods, minReady, at); ok && d <= 0 {
			t.Fatalf("NextAvailabilityCheck = %v, true; want a positive delay", d)
		}
		if d, ok := podstatus.NextAvailabilityCheckSince(pods, minReady, now, at); ok && d < 0 {
			t.Fatalf("NextAvailabilityCheckSince = %v, true; want >= 0", d)
		}
	})
}
