package conformance

import (
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
	"github.com/kubesem/kubesem/statefulset"
)

type (
	deploymentViewIn struct {
		Deployment rollout.Deployment `json:"deployment"`
		Revision   int64              `json:"revision,omitempty"`
		Watch      *bool              `json:"watch"`
	}
	daemonSetViewIn struct {
		DaemonSet daemonset.DaemonSet `json:"daemonSet"`
		Watch     *bool               `json:"watch"`
	}
	statefulSetViewIn struct {
		StatefulSet statefulset.StatefulSet `json:"statefulSet"`
		Watch       *bool                   `json:"watch"`
	}
	// statusView is what kubectl prints and the exit code it gives.
	statusView struct {
		rolloutstatus.Status
		ExitCode int  `json:"exitCode"`
		Exits    bool `json:"exits"`
	}
)

// viewed adds the exit code to s; watch absent means kubectl's default, --watch.
func viewed(s rolloutstatus.Status, watch *bool) statusView {
	mode := rolloutstatus.Watch
	if watch != nil {
		mode = rolloutstatus.Mode(*watch)
	}
	code, exits := s.ExitCode(mode)
	return statusView{Status: s, ExitCode: code, Exits: exits}
}

// rolloutstatusDecisions returns the rolloutstatus decisions the vectors in testdata/rolloutstatus name.
func rolloutstatusDecisions() []Decision {
	return []Decision{
		Bind("rolloutstatus.Deployment", func(in deploymentViewIn, _ struct{}) (statusView, error) {
			return viewed(rolloutstatus.Deployment(&in.Deployment, in.Revision), in.Watch), nil
		}),
		Bind("rolloutstatus.DaemonSet", func(in daemonSetViewIn, _ struct{}) (statusView, error) {
			return viewed(rolloutstatus.DaemonSet(&in.DaemonSet), in.Watch), nil
		}),
		Bind("rolloutstatus.StatefulSet", func(in statefulSetViewIn, _ struct{}) (statusView, error) {
			return viewed(rolloutstatus.StatefulSet(&in.StatefulSet), in.Watch), nil
		}),
	}
}

func (in *deploymentViewIn) validate() error { return rollout.ValidateCounts(&in.Deployment, nil) }
func (in *daemonSetViewIn) validate() error  { return rolloutstatus.ValidateDaemonSet(&in.DaemonSet) }
func (in *statefulSetViewIn) validate() error {
	return rolloutstatus.ValidateStatefulSet(&in.StatefulSet)
}
