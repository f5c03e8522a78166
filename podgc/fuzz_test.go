package podgc_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

func FuzzNeverDeletesLiveRunning(f *testing.F) { fuzzlimit.Rapid(f, checkNeverDeletesLiveRunning) }
func FuzzOrderIndependent(f *testing.F)        { fuzzlimit.Rapid(f, checkOrderIndependent) }
func FuzzEvictedFirstOrder(f *testing.F)       { fuzzlimit.Rapid(f, checkEvictedFirstOrder) }

// FuzzStep decodes arbitrary JSON as a pass's input: Step never panics,
// and the Writes of a pass it accepts never fail.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"pods":[null,{"spec":{"nodeName":"x"}}],"nodes":[null,{"metadata":{"name":"y"}}],"unlisted":["x"],"memory":{"quarantine":[{"node":"x","readyAt":"2025-01-01T12:00:00Z"}]}}`), int64(0), 1)
	f.Fuzz(func(t *testing.T, b []byte, offset int64, threshold int) {
		var in struct {
			Pods     []*podstatus.Pod `json:"pods"`
			Nodes    []*node.Node     `json:"nodes"`
			Unlisted []string         `json:"unlisted"`
			Memory   podgc.Memory     `json:"memory"`
		}
		if json.Unmarshal(b, &in) != nil {
			return
		}
		p, err := podgc.Step(in.Pods, in.Nodes, in.Unlisted, in.Memory, t0.Add(time.Duration(offset)), podgc.Options{TerminatedPodThreshold: &threshold, Quarantine: time.Duration(offset)})
		if err != nil {
			return
		}
		// the writes of a valid pass always name given pods
		if _, err := p.Writes(in.Pods); err != nil {
			t.Fatalf("Writes: %v", err)
		}
	})
}
