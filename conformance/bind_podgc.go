package conformance

import (
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

type (
	podgcStepIn struct {
		Pods  []*podstatus.Pod `json:"pods"`
		Nodes []*node.Node     `json:"nodes"`
		// Unlisted names the nodes the API server has that the informer
		// cache does not list.
		Unlisted []string     `json:"unlisted,omitempty"`
		Memory   podgc.Memory `json:"memory"`
		Now      time.Time    `json:"now"`
	}
	// podgcOptions is podgc.Options as vectors write it: the quarantine as
	// a Go duration string.
	podgcOptions struct {
		TerminatedPodThreshold *int   `json:"terminatedPodThreshold,omitempty"`
		Quarantine             string `json:"quarantine,omitempty"`
	}
)

// podgcDecisions returns the podgc decisions the vectors in testdata/podgc name.
func podgcDecisions() []Decision {
	return []Decision{
		Bind("podgc.Step", func(in podgcStepIn, o podgcOptions) (podgc.Plan, error) {
			q, err := parseDuration("options.quarantine", o.Quarantine)
			if err != nil {
				return podgc.Plan{}, err
			}
			return podgc.Step(in.Pods, in.Nodes, in.Unlisted, in.Memory, in.Now, podgc.Options{TerminatedPodThreshold: o.TerminatedPodThreshold, Quarantine: q})
		}),
	}
}
