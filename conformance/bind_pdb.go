package conformance

import (
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

type pdbStepIn struct {
	Budget      pdb.PodDisruptionBudget `json:"budget"`
	Pods        []*podstatus.Pod        `json:"pods"`
	Controllers []pdb.Controller        `json:"controllers"`
	Now         time.Time               `json:"now"`
}

type pdbExpectedIn struct {
	Budget      pdb.PodDisruptionBudget `json:"budget"`
	Pods        []*podstatus.Pod        `json:"pods"`
	Controllers []pdb.Controller        `json:"controllers"`
}

type pdbExpectedOut struct {
	ExpectedPods   int32    `json:"expectedPods"`
	DesiredHealthy int32    `json:"desiredHealthy"`
	Unmanaged      []string `json:"unmanaged"`
	// ScaleError is the sync failure message, when a controller cannot be
	// found or scaled.
	ScaleError string `json:"scaleError,omitempty"`
}

type pdbAllowedIn struct {
	CurrentHealthy int32 `json:"currentHealthy"`
	DesiredHealthy int32 `json:"desiredHealthy"`
	ExpectedPods   int32 `json:"expectedPods"`
}

type pdbAllowedOut struct {
	DisruptionsAllowed int32 `json:"disruptionsAllowed"`
}

type pdbEvictIn struct {
	Pod     podstatus.Pod             `json:"pod"`
	Budgets []pdb.PodDisruptionBudget `json:"budgets"`
	Request pdb.Request               `json:"request"`
	Now     time.Time                 `json:"now"`
}

type pdbDrainIn struct {
	Cluster pdb.Cluster  `json:"cluster"`
	Script  []pdb.Action `json:"script"`
	Start   time.Time    `json:"start"`
}

type pdbDrainOut struct {
	Steps []pdb.DrainStep `json:"steps"`
}

type pdbValidateIn struct {
	Budget pdb.PodDisruptionBudget `json:"budget"`
}

type pdbValidateOut struct {
	Valid bool `json:"valid"`
}

type pdbStaleIn struct {
	Pod podstatus.Pod `json:"pod"`
	Now time.Time     `json:"now"`
}

type pdbStaleOut struct {
	Stale bool          `json:"stale"`
	After time.Duration `json:"after"`
}

// pdbDecisions returns the pdb decisions the vectors in testdata/pdb name.
func pdbDecisions() []Decision {
	return []Decision{
		Bind("pdb.Step", func(in pdbStepIn, opts pdb.Options) (pdb.Plan, error) {
			return pdb.Step(&in.Budget, in.Pods, in.Controllers, in.Now, opts)
		}),
		Bind("pdb.ExpectedPods", func(in pdbExpectedIn, _ struct{}) (pdbExpectedOut, error) {
			e, err := pdb.ExpectedPods(&in.Budget, pdb.Selected(&in.Budget, in.Pods), in.Controllers)
			if se, ok := err.(*pdb.ScaleError); ok {
				return pdbExpectedOut{ScaleError: se.Message}, nil
			}
			return pdbExpectedOut{e.Count, e.DesiredHealthy, e.Unmanaged, ""}, err
		}),
		Bind("pdb.DisruptionsAllowed", func(in pdbAllowedIn, _ struct{}) (pdbAllowedOut, error) {
			return pdbAllowedOut{pdb.DisruptionsAllowed(in.CurrentHealthy, in.DesiredHealthy, in.ExpectedPods)}, nil
		}),
		Bind("pdb.Evict", func(in pdbEvictIn, _ struct{}) (pdb.Decision, error) {
			return pdb.Evict(&in.Pod, in.Budgets, in.Request, in.Now)
		}),
		Bind("pdb.Drain", func(in pdbDrainIn, opts pdb.Options) (pdbDrainOut, error) {
			steps, err := pdb.Drain(in.Cluster, in.Script, in.Start, opts)
			return pdbDrainOut{steps}, err
		}),
		Bind("pdb.Validate", func(in pdbValidateIn, _ struct{}) (pdbValidateOut, error) {
			if err := pdb.Validate(&in.Budget); err != nil {
				return pdbValidateOut{}, err
			}
			return pdbValidateOut{Valid: true}, nil
		}),
		Bind("pdb.StaleDisruptionTarget", func(in pdbStaleIn, opts pdb.Options) (pdbStaleOut, error) {
			stale, after := pdb.StaleDisruptionTarget(&in.Pod, in.Now, opts)
			return pdbStaleOut{stale, after}, nil
		}),
	}
}

func (in *pdbExpectedIn) validate() error {
	if err := pdb.Validate(&in.Budget); err != nil {
		return field.Under("budget", err)
	}
	return nil
}

func (in *pdbEvictIn) validate() error {
	for i := range in.Budgets {
		if err := pdb.Validate(&in.Budgets[i]); err != nil {
			return field.Under(field.Index("budgets", i), err)
		}
	}
	return nil
}
