package conformance

import (
	"errors"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

type (
	rsDiffIn struct {
		Active   int   `json:"active"`
		Replicas int32 `json:"replicas"`
	}
	rsDiffOut struct {
		Diff int `json:"diff"`
	}
	rsSlowStartIn struct {
		Count   int `json:"count"`
		Succeed int `json:"succeed"`
	}
	rsSlowStartOut struct {
		Batches   []int `json:"batches"`
		Attempted int   `json:"attempted"`
		Successes int   `json:"successes"`
	}
	rsRankIn struct {
		Pods  []*podstatus.Pod `json:"pods"`
		Ranks []int            `json:"ranks,omitempty"`
		Now   time.Time        `json:"now,omitzero"`
	}
	rsPodsIn struct {
		Pods []*podstatus.Pod `json:"pods"`
	}
	rsRankOut struct {
		Order []string   `json:"order"`
		Ties  [][]string `json:"ties"`
	}
	rsPairIn struct {
		A     *podstatus.Pod `json:"a"`
		B     *podstatus.Pod `json:"b"`
		RankA int            `json:"rankA"`
		RankB int            `json:"rankB"`
		Now   time.Time      `json:"now"`
	}
	rsPairOut struct {
		AFirst bool `json:"aFirst"`
		BFirst bool `json:"bFirst"`
	}
	rsVictimsIn struct {
		Pods    []*podstatus.Pod `json:"pods"`
		Related []*podstatus.Pod `json:"relatedPods"`
		Diff    int              `json:"diff"`
		Now     time.Time        `json:"now"`
	}
	rsVictimsOut struct {
		Victims []string `json:"victims"`
		Sure    int      `json:"sure"`
		Tied    []string `json:"tied"`
	}
	rsClaimIn struct {
		ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
		Pod        *podstatus.Pod        `json:"pod"`
	}
	rsClaimOut struct {
		Ownership replicaset.Ownership `json:"ownership"`
	}
	rsStatusIn struct {
		ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
		Active      []*podstatus.Pod      `json:"activePods"`
		Terminating []*podstatus.Pod      `json:"terminatingPods,omitempty"`
		ManageError *string               `json:"manageError"`
		Now         time.Time             `json:"now"`
	}
	rsStepIn struct {
		ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
		Pods       []*podstatus.Pod       `json:"pods"`
		Related    []*podstatus.Pod       `json:"relatedPods,omitempty"`
		Now        time.Time              `json:"now"`
	}
)

// podNames maps indexes into pods to the pods' names.
func podNames(pods []*podstatus.Pod, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		if pods[j] != nil {
			out[i] = pods[j].Name
		}
	}
	return out
}

func rankOut(pods []*podstatus.Pod, r replicaset.Ranking) rsRankOut {
	out := rsRankOut{Order: podNames(pods, r.Order), Ties: [][]string{}}
	for _, t := range r.Ties() {
		out.Ties = append(out.Ties, podNames(pods, t))
	}
	return out
}

// replicasetDecisions returns the replicaset decisions the vectors in testdata/replicaset name.
func replicasetDecisions() []Decision {
	return []Decision{
		Bind("replicaset.Diff", func(in rsDiffIn, opts replicaset.Options) (rsDiffOut, error) {
			return rsDiffOut{replicaset.Diff(in.Active, in.Replicas, opts)}, nil
		}),
		// attempted is the sum of the batches.
		Bind("replicaset.SlowStart", func(in rsSlowStartIn, _ struct{}) (rsSlowStartOut, error) {
			sizes, ok := replicaset.SlowStart(in.Count, in.Succeed)
			out := rsSlowStartOut{Batches: sizes, Successes: ok}
			for _, s := range sizes {
				out.Attempted += s
			}
			return out, nil
		}),
		Bind("replicaset.RankForDeletion", func(in rsRankIn, opts replicaset.Options) (rsRankOut, error) {
			return rankOut(in.Pods, replicaset.RankForDeletion(in.Pods, in.Ranks, in.Now, opts)), nil
		}),
		Bind("replicaset.PodsToDelete", func(in rsVictimsIn, opts replicaset.Options) (rsVictimsOut, error) {
			v := replicaset.PodsToDelete(in.Pods, in.Related, in.Diff, in.Now, opts)
			return rsVictimsOut{Victims: podNames(in.Pods, v.Pods), Sure: v.Sure, Tied: podNames(in.Pods, v.Tied)}, nil
		}),
		Bind("replicaset.ClaimPod", func(in rsClaimIn, _ struct{}) (rsClaimOut, error) {
			if err := replicaset.Validate(&in.ReplicaSet); err != nil {
				return rsClaimOut{}, err
			}
			return rsClaimOut{replicaset.ClaimPod(&in.ReplicaSet, in.Pod)}, nil
		}),
		// manageError, when present, is the text of the error manageReplicas returned.
		Bind("replicaset.ComputeStatus", func(in rsStatusIn, opts replicaset.Options) (replicaset.Status, error) {
			var err error
			if in.ManageError != nil {
				err = errors.New(*in.ManageError)
			}
			return replicaset.ComputeStatus(&in.ReplicaSet, in.Active, in.Terminating, err, in.Now, opts), nil
		}),
		Bind("replicaset.Step", func(in rsStepIn, opts replicaset.Options) (replicaset.Plan, error) {
			return replicaset.Step(in.ReplicaSet, in.Pods, in.Related, in.Now, opts)
		}),
		// A refused update is the error ValidateUpdate returns, under "new";
		// new's kind says whether it is a ReplicationController.
		Bind("replicaset.ValidateUpdate", func(in rsUpdateIn, _ struct{}) (validOut, error) {
			if err := replicaset.ValidateUpdate(&in.Old, &in.New); err != nil {
				return validOut{}, field.Under("new", err)
			}
			return validOut{Valid: true}, nil
		}),
	}
}

// rsUpdateIn is an update of a ReplicaSet or ReplicationController: old as
// stored, new as sent.
type rsUpdateIn struct {
	Old replicaset.ReplicaSet `json:"old"`
	New replicaset.ReplicaSet `json:"new"`
}

// The stored object is one the API server accepted, of the same kind.
func (in *rsUpdateIn) validate() error {
	if err := replicaset.Validate(&in.Old); err != nil {
		return field.Under("old", err)
	}
	if in.Old.IsReplicationController() != in.New.IsReplicationController() {
		return field.New("new.kind", in.New.Kind, field.ErrInvalid)
	}
	return nil
}

// replicas stands for spec.replicas; a ReplicaSet input is checked with
// replicaset.Validate where the rule reads its selector, and for counts
// otherwise.
func (in *rsDiffIn) validate() error  { return nonNegative("replicas", int64(in.Replicas)) }
func (in *rsClaimIn) validate() error { return replicaset.Validate(&in.ReplicaSet) }
func (in *rsStatusIn) validate() error {
	if r := in.ReplicaSet.Spec.Replicas; r != nil && *r < 0 {
		return field.Int("spec.replicas", int64(*r), field.ErrNegative)
	}
	return nil
}
