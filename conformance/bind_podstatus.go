package conformance

import (
	"time"

	"github.com/kubesem/kubesem/field"

	"github.com/kubesem/kubesem/podstatus"
)

type (
	podIn struct {
		Pod podstatus.Pod `json:"pod"`
	}
	readyOut struct {
		Ready bool `json:"ready"`
	}
	activeOut struct {
		Active bool `json:"active"`
	}
	termOut struct {
		Terminating bool `json:"terminating"`
	}
	terminalOut struct {
		Terminal bool `json:"terminal"`
	}
	availIn struct {
		Pod             podstatus.Pod `json:"pod"`
		MinReadySeconds int32         `json:"minReadySeconds"`
		Now             time.Time     `json:"now"`
	}
	availOut struct {
		Available bool `json:"available"`
	}
	nextCheckIn struct {
		Pods              []*podstatus.Pod `json:"pods"`
		MinReadySeconds   int32            `json:"minReadySeconds"`
		Now               time.Time        `json:"now"`
		StatusEvaluatedAt *time.Time       `json:"statusEvaluatedAt"`
	}
	nextCheckOut struct {
		Requeue bool           `json:"requeue"`
		After   *time.Duration `json:"after,omitempty"`
	}
	costOut struct {
		Cost  int32 `json:"cost"`
		Valid bool  `json:"valid"`
	}
	// rankOptions are the options of the ranking decisions.
	rankOptions struct {
		DisablePodDeletionCost bool `json:"disablePodDeletionCost"`
	}
	phaseIn struct {
		Pod      podstatus.Pod      `json:"pod"`
		Observed podstatus.Observed `json:"observed"`
	}
	phaseOut struct {
		Phase podstatus.Phase `json:"phase"`
	}
	generateIn struct {
		Pod      podstatus.Pod      `json:"pod"`
		Observed podstatus.Observed `json:"observed"`
		Now      time.Time          `json:"now"`
	}
	restartAllIn struct {
		Pod     podstatus.Pod                `json:"pod"`
		Runtime []podstatus.RuntimeContainer `json:"runtime,omitempty"`
		Phase   podstatus.Phase              `json:"phase"`
	}
	canRestartAllOut struct {
		CanRestartAll bool `json:"canRestartAll"`
	}
	condIn struct {
		Pod        podstatus.Pod         `json:"pod"`
		Phase      podstatus.Phase       `json:"phase"`
		Conditions []podstatus.Condition `json:"conditions,omitempty"`
	}
	crashBoundsOut struct {
		Initial time.Duration `json:"initial"`
		Max     time.Duration `json:"max"`
	}
	// backoffEntryIn is podstatus.BackoffEntry with the delay as a Go
	// duration string.
	backoffEntryIn struct {
		Delay      string    `json:"delay"`
		LastUpdate time.Time `json:"lastUpdate"`
	}
	restartIn struct {
		Entry      *backoffEntryIn `json:"entry,omitempty"`
		FinishedAt time.Time       `json:"finishedAt"`
		Now        time.Time       `json:"now"`
	}
	delaysIn struct {
		N int `json:"n"`
	}
	delaysOut struct {
		Delays []time.Duration `json:"delays"`
	}
	keyIn struct {
		Pod       podstatus.Pod       `json:"pod"`
		Container podstatus.Container `json:"container"`
	}
	keyOut struct {
		Key string `json:"key"`
	}
	deleteIn struct {
		Pod                podstatus.Pod `json:"pod"`
		GracePeriodSeconds *int64        `json:"gracePeriodSeconds,omitempty"`
		Now                time.Time     `json:"now"`
	}
	killIn struct {
		GracePeriodSeconds int64   `json:"gracePeriodSeconds"`
		PreStop            *string `json:"preStop,omitempty"`
	}
	updateIn struct {
		Old podstatus.Pod `json:"old"`
		New podstatus.Pod `json:"new"`
	}
	updateOut struct {
		Valid bool `json:"valid"`
	}
	ruleIn struct {
		Container podstatus.Container `json:"container"`
		ExitCode  int32               `json:"exitCode"`
	}
	ruleOut struct {
		Found bool                   `json:"found"`
		Rule  *podstatus.RestartRule `json:"rule,omitempty"`
	}
	shouldRestartIn struct {
		Container     podstatus.Container     `json:"container"`
		RestartPolicy podstatus.RestartPolicy `json:"restartPolicy"`
		ExitCode      int32                   `json:"exitCode"`
	}
	shouldRestartOut struct {
		Restart bool `json:"restart"`
	}
	restartsOut struct {
		Regular int32 `json:"regular"`
		Sidecar int32 `json:"sidecar"`
	}
)

// podstatusDecisions returns the podstatus decisions the vectors in testdata/podstatus name.
func podstatusDecisions() []Decision {
	return []Decision{
		Bind("podstatus.IsReady", func(in podIn, _ struct{}) (readyOut, error) {
			return readyOut{podstatus.IsReady(&in.Pod)}, nil
		}),
		Bind("podstatus.IsAvailable", func(in availIn, _ struct{}) (availOut, error) {
			return availOut{podstatus.IsAvailable(&in.Pod, in.MinReadySeconds, in.Now)}, nil
		}),
		Bind("podstatus.IsActive", func(in podIn, _ struct{}) (activeOut, error) {
			return activeOut{podstatus.IsActive(&in.Pod)}, nil
		}),
		Bind("podstatus.IsTerminating", func(in podIn, _ struct{}) (termOut, error) {
			return termOut{podstatus.IsTerminating(&in.Pod)}, nil
		}),
		Bind("podstatus.IsTerminal", func(in podIn, _ struct{}) (terminalOut, error) {
			return terminalOut{podstatus.IsTerminal(&in.Pod)}, nil
		}),
		// statusEvaluatedAt defaults to now.
		Bind("podstatus.NextAvailabilityCheck", func(in nextCheckIn, _ struct{}) (nextCheckOut, error) {
			evaluated := in.Now
			if in.StatusEvaluatedAt != nil {
				evaluated = *in.StatusEvaluatedAt
			}
			d, ok := podstatus.NextAvailabilityCheckSince(in.Pods, in.MinReadySeconds, evaluated, in.Now)
			if !ok {
				return nextCheckOut{}, nil
			}
			return nextCheckOut{Requeue: true, After: &d}, nil
		}),
		Bind("podstatus.DeletionCost", func(in podIn, _ struct{}) (costOut, error) {
			cost, valid := podstatus.DeletionCost(&in.Pod)
			return costOut{cost, valid}, nil
		}),
		Bind("podstatus.RankActive", func(in rsPodsIn, _ struct{}) (rsRankOut, error) {
			return rankOut(in.Pods, podstatus.RankActive(in.Pods)), nil
		}),
		// aFirst and bFirst ask the comparator both ways round.
		Bind("podstatus.DeletesBefore", func(in rsPairIn, o rankOptions) (rsPairOut, error) {
			cost := podstatus.CostMode(!o.DisablePodDeletionCost)
			return rsPairOut{
				AFirst: podstatus.DeletesBefore(in.A, in.B, in.RankA, in.RankB, in.Now, cost),
				BFirst: podstatus.DeletesBefore(in.B, in.A, in.RankB, in.RankA, in.Now, cost),
			}, nil
		}),
		Bind("podstatus.MaxRestarts", func(in podIn, _ struct{}) (restartsOut, error) {
			regular, sidecar := podstatus.MaxRestarts(&in.Pod)
			return restartsOut{regular, sidecar}, nil
		}),
		Bind("podstatus.KubeletPhase", func(in phaseIn, _ struct{}) (phaseOut, error) {
			return phaseOut{podstatus.KubeletPhase(&in.Pod, in.Observed)}, nil
		}),
		Bind("podstatus.ContainersReadyCondition", func(in condIn, _ struct{}) (podstatus.Condition, error) {
			return podstatus.ContainersReadyCondition(&in.Pod, in.Phase), nil
		}),
		// conditions are the pod's conditions the readiness gates are looked up in.
		Bind("podstatus.ReadyCondition", func(in condIn, _ struct{}) (podstatus.Condition, error) {
			return podstatus.ReadyCondition(&in.Pod, in.Conditions, in.Phase), nil
		}),
		Bind("podstatus.InitializedCondition", func(in condIn, _ struct{}) (podstatus.Condition, error) {
			return podstatus.InitializedCondition(&in.Pod, in.Phase), nil
		}),
		Bind("podstatus.CrashLoopBounds", func(_ struct{}, bo backoffOptions) (crashBoundsOut, error) {
			o, err := bo.decode()
			initial, max := podstatus.CrashLoopBounds(o)
			return crashBoundsOut{initial, max}, err
		}),
		Bind("podstatus.RestartBackoff", func(in restartIn, bo backoffOptions) (podstatus.RestartDecision, error) {
			o, err := bo.decode()
			if err != nil {
				return podstatus.RestartDecision{}, err
			}
			var entry *podstatus.BackoffEntry
			if in.Entry != nil {
				d, err := parseDuration("entry.delay", in.Entry.Delay)
				if err != nil {
					return podstatus.RestartDecision{}, err
				}
				entry = &podstatus.BackoffEntry{Delay: d, LastUpdate: in.Entry.LastUpdate}
			}
			return podstatus.RestartBackoff(entry, in.FinishedAt, in.Now, o), nil
		}),
		Bind("podstatus.CrashLoopDelays", func(in delaysIn, bo backoffOptions) (delaysOut, error) {
			o, err := bo.decode()
			if err != nil {
				return delaysOut{}, err
			}
			delays, err := podstatus.CrashLoopDelays(in.N, o)
			return delaysOut{delays}, err
		}),
		Bind("podstatus.BackoffKey", func(in keyIn, _ struct{}) (keyOut, error) {
			return keyOut{podstatus.BackoffKey(&in.Pod, &in.Container)}, nil
		}),
		Bind("podstatus.GracefulDelete", func(in deleteIn, _ struct{}) (podstatus.Deletion, error) {
			return podstatus.GracefulDelete(&in.Pod, in.GracePeriodSeconds, in.Now), nil
		}),
		// preStop is how long the hook would run, a Go duration string.
		Bind("podstatus.PlanKill", func(in killIn, _ struct{}) (podstatus.KillPlan, error) {
			var hook *time.Duration
			if in.PreStop != nil {
				d, err := parseDuration("preStop", *in.PreStop)
				if err != nil {
					return podstatus.KillPlan{}, err
				}
				hook = &d
			}
			return podstatus.PlanKill(in.GracePeriodSeconds, hook), nil
		}),
		// A rejected update is the error ValidateUpdate returns.
		Bind("podstatus.ValidateUpdate", func(in updateIn, _ struct{}) (updateOut, error) {
			if err := podstatus.ValidateUpdate(&in.Old, &in.New); err != nil {
				return updateOut{}, field.Under("new", err)
			}
			return updateOut{Valid: true}, nil
		}),
		Bind("podstatus.MatchRule", func(in ruleIn, _ struct{}) (ruleOut, error) {
			r, ok := podstatus.MatchRule(&in.Container, in.ExitCode)
			if !ok {
				return ruleOut{}, nil
			}
			return ruleOut{Found: true, Rule: &r}, nil
		}),
		// restartPolicy is the pod's.
		Bind("podstatus.ShouldRestart", func(in shouldRestartIn, _ struct{}) (shouldRestartOut, error) {
			return shouldRestartOut{podstatus.ShouldRestart(&in.Container, in.RestartPolicy, in.ExitCode)}, nil
		}),
		// The kubelet's status for the pod.
		Bind("podstatus.Generate", func(in generateIn, opts podstatus.Options) (podstatus.Generated, error) {
			return podstatus.Generate(&in.Pod, in.Observed, in.Now, opts), nil
		}),
		// runtime is the container runtime's view of the pod's containers.
		Bind("podstatus.AllContainersRestartingCondition", func(in restartAllIn, _ struct{}) (podstatus.Condition, error) {
			return podstatus.AllContainersRestartingCondition(&in.Pod, in.Runtime, in.Phase), nil
		}),
		Bind("podstatus.CanRestartAll", func(in podIn, _ struct{}) (canRestartAllOut, error) {
			return canRestartAllOut{podstatus.CanRestartAll(&in.Pod)}, nil
		}),
	}
}

// minReadySeconds stands for a workload's spec.minReadySeconds, which the
// API requires to be non-negative.
func (in *availIn) validate() error  { return nonNegative("minReadySeconds", int64(in.MinReadySeconds)) }
func (in *delaysIn) validate() error { return nonNegative("n", int64(in.N)) }
func (in *nextCheckIn) validate() error {
	return nonNegative("minReadySeconds", int64(in.MinReadySeconds))
}

// backoffOptions is podstatus.BackoffOptions as vectors write it: the
// period as a Go duration string.
type backoffOptions struct {
	MaxContainerRestartPeriod string `json:"maxContainerRestartPeriod,omitempty"`
	ReducedDecay              bool   `json:"reducedDecay,omitempty"`
	DisableMaxGate            bool   `json:"disableMaxGate,omitempty"`
}

func (o backoffOptions) decode() (podstatus.BackoffOptions, error) {
	d, err := parseDuration("options.maxContainerRestartPeriod", o.MaxContainerRestartPeriod)
	return podstatus.BackoffOptions{MaxContainerRestartPeriod: d, ReducedDecay: o.ReducedDecay, DisableMaxGate: o.DisableMaxGate}, err
}
