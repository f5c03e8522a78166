package conformance

import (
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

type rsList = []*replicaset.ReplicaSet

type (
	fencepostsIn struct {
		MaxSurge       *intstr.Value `json:"maxSurge"`
		MaxUnavailable *intstr.Value `json:"maxUnavailable"`
		Replicas       int32         `json:"replicas"`
	}
	fencepostsOut struct {
		Surge       int32 `json:"surge"`
		Unavailable int32 `json:"unavailable"`
	}
	deploymentIn struct {
		Deployment rollout.Deployment `json:"deployment"`
	}
	boundsOut struct {
		MaxSurge       int32 `json:"maxSurge"`
		MaxUnavailable int32 `json:"maxUnavailable"`
		MinAvailable   int32 `json:"minAvailable"`
	}
	newReplicasIn struct {
		Deployment     rollout.Deployment     `json:"deployment"`
		AllReplicaSets rsList                 `json:"allReplicaSets"`
		NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
	}
	replicasOut struct {
		Replicas int32 `json:"replicas"`
	}
	proportionIn struct {
		Deployment rollout.Deployment     `json:"deployment"`
		ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
		ToAdd      int32                  `json:"toAdd"`
		Added      int32                  `json:"added"`
	}
	int32ValueOut struct {
		Value int32 `json:"value"`
	}
	boolValueOut struct {
		Value bool `json:"value"`
	}
	proportionalIn struct {
		Deployment     rollout.Deployment     `json:"deployment"`
		NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
		OldReplicaSets rsList                 `json:"oldReplicaSets"`
	}
	resizeOut struct {
		Name     string         `json:"name"`
		Replicas int32          `json:"replicas"`
		Reason   rollout.Reason `json:"reason,omitempty"`
	}
	proportionalOut struct {
		Sizes  map[string]int32 `json:"sizes"`
		Scales []resizeOut      `json:"scales"`
	}
	deploymentRSsIn struct {
		Deployment  rollout.Deployment `json:"deployment"`
		ReplicaSets rsList             `json:"replicaSets"`
	}
	deploymentRSIn struct {
		Deployment rollout.Deployment     `json:"deployment"`
		ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
	}
	reconcileNewIn struct {
		Deployment     rollout.Deployment    `json:"deployment"`
		AllReplicaSets rsList                `json:"allReplicaSets"`
		NewReplicaSet  replicaset.ReplicaSet `json:"newReplicaSet"`
	}
	reconcileNewOut struct {
		Replicas int32          `json:"replicas"`
		Reason   rollout.Reason `json:"reason"`
		Scaled   bool           `json:"scaled"`
	}
	reconcileOldIn struct {
		Deployment     rollout.Deployment     `json:"deployment"`
		AllReplicaSets rsList                 `json:"allReplicaSets"`
		OldReplicaSets rsList                 `json:"oldReplicaSets"`
		NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
	}
	reconcileOldOut struct {
		Scaled bool        `json:"scaled"`
		Scales []resizeOut `json:"scales"`
	}
	cleanupIn struct {
		OldReplicaSets rsList `json:"oldReplicaSets"`
		MaxCleanup     int32  `json:"maxCleanup"`
	}
	cleanupOut struct {
		OK      bool        `json:"ok"`
		Scales  []resizeOut `json:"scales"`
		Cleaned int32       `json:"cleaned"`
	}
	scaleDownIn struct {
		Deployment     rollout.Deployment `json:"deployment"`
		AllReplicaSets rsList             `json:"allReplicaSets"`
		OldReplicaSets rsList             `json:"oldReplicaSets"`
	}
	scaleDownOut struct {
		Scales     []resizeOut `json:"scales"`
		ScaledDown int32       `json:"scaledDown"`
	}
	oldPodsIn struct {
		Deployment     rollout.Deployment     `json:"deployment"`
		NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
		OldReplicaSets rsList                 `json:"oldReplicaSets"`
		Pods           []*podstatus.Pod       `json:"pods"`
	}
	nameOut struct {
		Name *string `json:"name"`
	}
	findOldOut struct {
		Active []string `json:"active"`
		All    []string `json:"all"`
	}
	rsNameIn struct {
		Deployment string `json:"deployment"`
		Hash       string `json:"hash"`
	}
	rsNameOut struct {
		Name string `json:"name"`
	}
	rolloutStepIn struct {
		Deployment  *rollout.Deployment `json:"deployment"`
		ReplicaSets rsList              `json:"replicaSets"`
		Pods        []*podstatus.Pod    `json:"pods"`
		Now         time.Time           `json:"now"`
	}
	// rolloutStepOut is the Plan with the ReplicaSet sizes after Plan.Apply.
	rolloutStepOut struct {
		rollout.Plan
		Sizes map[string]int32 `json:"sizes"`
	}
	rolloutSync struct {
		Deployment    rollout.Deployment     `json:"deployment"`
		NewReplicaSet *replicaset.ReplicaSet `json:"newReplicaSet"`
		ReplicaSets   rsList                 `json:"replicaSets"`
		Now           time.Time              `json:"now"`
	}
	rolloutWithStatus struct {
		Deployment rollout.Deployment `json:"deployment"`
		Status     rollout.Status     `json:"status"`
		Now        time.Time          `json:"now,omitzero"`
	}
	requeueStuckOut struct {
		Requeue bool          `json:"requeue"`
		After   time.Duration `json:"after"`
	}
	pausedIn struct {
		Deployment rollout.Deployment `json:"deployment"`
		Now        time.Time          `json:"now"`
	}
	pausedOut struct {
		Conditions []rollout.Condition `json:"conditions"`
		Changed    bool                `json:"changed"`
	}
	replicaSetIn struct {
		ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
	}
	revisionOut struct {
		Revision int64 `json:"revision"`
	}
	replicaSetsIn struct {
		ReplicaSets rsList `json:"replicaSets"`
	}
	namesOut struct {
		Names []string `json:"names"`
	}
	newAnnotationsIn struct {
		Deployment  rollout.Deployment    `json:"deployment"`
		ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
		NewRevision int64                 `json:"newRevision"`
		Created     bool                  `json:"created"`
	}
	annotationsOut struct {
		Annotations map[string]string `json:"annotations"`
		Changed     bool              `json:"changed"`
	}
	needUpdateIn struct {
		ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
		Desired     int32                 `json:"desired"`
		MaxReplicas int32                 `json:"maxReplicas"`
	}
	annotationIn struct {
		ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
		Key        string                `json:"key"`
	}
	annotationOut struct {
		Value int32 `json:"value"`
		OK    bool  `json:"ok"`
	}
	historyIn struct {
		Deployment     rollout.Deployment `json:"deployment"`
		OldReplicaSets rsList             `json:"oldReplicaSets"`
	}
	// rollbackOut is a RollbackResult with the ReplicaSet by name; only
	// requested when there is no rollback request.
	rollbackOut struct {
		Requested bool `json:"requested"`
		*rollout.RollbackResult
		ReplicaSet *string `json:"replicaSet,omitempty"`
	}
)

func resizes(scales []rollout.Scale) []resizeOut {
	out := make([]resizeOut, 0, len(scales))
	for _, s := range scales {
		out = append(out, resizeOut{Name: s.ReplicaSet.Name, Replicas: s.Replicas, Reason: s.Reason})
	}
	return out
}

func rsNames(rss rsList) []string {
	out := make([]string, 0, len(rss))
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

// orEmpty returns cs, or an empty (not nil) slice.
func orEmpty(cs []rollout.Condition) []rollout.Condition {
	if cs == nil {
		return []rollout.Condition{}
	}
	return cs
}

// rolloutDecisions returns the rollout decisions the vectors in testdata/rollout name.
func rolloutDecisions() []Decision {
	return []Decision{
		// An absent bound is 0.
		Bind("rollout.Fenceposts", func(in fencepostsIn, _ rollout.Options) (fencepostsOut, error) {
			s, u := intstr.Int(0), intstr.Int(0)
			if in.MaxSurge != nil {
				s = *in.MaxSurge
			}
			if in.MaxUnavailable != nil {
				u = *in.MaxUnavailable
			}
			surge, unavailable, err := rollout.Fenceposts(s, u, in.Replicas)
			// Fenceposts names the Deployment fields; this input has them bare.
			err = rekey(rekey(err, "spec.strategy.rollingUpdate.", ""), "spec.", "")
			return fencepostsOut{surge, unavailable}, err
		}),
		Bind("rollout.Bounds", func(in deploymentIn, _ rollout.Options) (boundsOut, error) {
			s, u, m := in.Deployment.Bounds()
			return boundsOut{s, u, m}, nil
		}),
		Bind("rollout.NewReplicaSetReplicas", func(in newReplicasIn, _ rollout.Options) (replicasOut, error) {
			n, err := rollout.NewReplicaSetReplicas(&in.Deployment, in.AllReplicaSets, in.NewReplicaSet)
			return replicasOut{n}, field.Under("deployment", err)
		}),
		Bind("rollout.Proportion", func(in proportionIn, _ rollout.Options) (int32ValueOut, error) {
			return int32ValueOut{rollout.Proportion(&in.Deployment, in.ReplicaSet, in.ToAdd, in.Added)}, nil
		}),
		// sizes are every ReplicaSet's size after the scales.
		Bind("rollout.Proportional", func(in proportionalIn, _ rollout.Options) (proportionalOut, error) {
			sizes := map[string]int32{}
			for _, rs := range append(append(rsList{}, in.OldReplicaSets...), in.NewReplicaSet) {
				if rs != nil {
					sizes[rs.Name] = rs.Replicas()
				}
			}
			scales := rollout.Proportional(&in.Deployment, in.NewReplicaSet, in.OldReplicaSets)
			for _, s := range scales {
				sizes[s.ReplicaSet.Name] = s.Replicas
			}
			return proportionalOut{sizes, resizes(scales)}, nil
		}),
		Bind("rollout.IsScalingEvent", func(in deploymentRSsIn, _ rollout.Options) (boolValueOut, error) {
			return boolValueOut{in.Deployment.IsScalingEvent(in.ReplicaSets)}, nil
		}),
		Bind("rollout.IsSaturated", func(in deploymentRSIn, _ rollout.Options) (boolValueOut, error) {
			return boolValueOut{in.Deployment.IsSaturated(in.ReplicaSet)}, nil
		}),
		Bind("rollout.ReconcileNewReplicaSet", func(in reconcileNewIn, _ rollout.Options) (reconcileNewOut, error) {
			n, reason, err := rollout.ReconcileNewReplicaSet(&in.Deployment, in.AllReplicaSets, &in.NewReplicaSet)
			return reconcileNewOut{n, reason, reason != ""}, err
		}),
		Bind("rollout.ReconcileOldReplicaSets", func(in reconcileOldIn, _ rollout.Options) (reconcileOldOut, error) {
			scales, scaled := rollout.ReconcileOldReplicaSets(&in.Deployment, in.AllReplicaSets, in.OldReplicaSets, in.NewReplicaSet)
			return reconcileOldOut{scaled, resizes(scales)}, nil
		}),
		Bind("rollout.CleanupUnhealthy", func(in cleanupIn, _ rollout.Options) (cleanupOut, error) {
			scales, cleaned, ok := rollout.CleanupUnhealthy(in.OldReplicaSets, in.MaxCleanup)
			return cleanupOut{ok, resizes(scales), cleaned}, nil
		}),
		Bind("rollout.ScaleDownOld", func(in scaleDownIn, _ rollout.Options) (scaleDownOut, error) {
			scales, scaledDown := rollout.ScaleDownOld(&in.Deployment, in.AllReplicaSets, in.OldReplicaSets)
			return scaleDownOut{resizes(scales), scaledDown}, nil
		}),
		Bind("rollout.OldPodsRunning", func(in oldPodsIn, _ rollout.Options) (boolValueOut, error) {
			return boolValueOut{rollout.OldPodsRunning(&in.Deployment, in.NewReplicaSet, in.OldReplicaSets, in.Pods)}, nil
		}),
		Bind("rollout.FindNewReplicaSet", func(in deploymentRSsIn, _ rollout.Options) (nameOut, error) {
			if rs := rollout.FindNewReplicaSet(&in.Deployment, in.ReplicaSets); rs != nil {
				return nameOut{&rs.Name}, nil
			}
			return nameOut{}, nil
		}),
		Bind("rollout.FindOldReplicaSets", func(in deploymentRSsIn, _ rollout.Options) (findOldOut, error) {
			active, all := rollout.FindOldReplicaSets(&in.Deployment, in.ReplicaSets)
			return findOldOut{rsNames(active), rsNames(all)}, nil
		}),
		Bind("rollout.ReplicaSetName", func(in rsNameIn, _ rollout.Options) (rsNameOut, error) {
			return rsNameOut{rollout.ReplicaSetName(in.Deployment, in.Hash)}, nil
		}),
		Bind("rollout.Step", func(in rolloutStepIn, opts rollout.Options) (rolloutStepOut, error) {
			p, err := rollout.Step(in.Deployment, in.ReplicaSets, in.Pods, in.Now, opts)
			if err != nil {
				return rolloutStepOut{}, err
			}
			sizes := map[string]int32{}
			for _, rs := range p.Apply(in.ReplicaSets, in.Now) {
				sizes[rs.Name] = rs.Replicas()
			}
			return rolloutStepOut{p, sizes}, nil
		}),
		Bind("rollout.ComputeStatus", func(in rolloutSync, _ struct{}) (rollout.Status, error) {
			return rollout.ComputeStatus(&in.Deployment, in.NewReplicaSet, in.ReplicaSets, in.Now), nil
		}),
		Bind("rollout.SyncStatus", func(in rolloutSync, _ struct{}) (rollout.Status, error) {
			return rollout.SyncStatus(&in.Deployment, in.NewReplicaSet, in.ReplicaSets, in.Now), nil
		}),
		Bind("rollout.RequeueStuck", func(in rolloutWithStatus, _ struct{}) (requeueStuckOut, error) {
			after, ok := rollout.RequeueStuck(&in.Deployment, in.Status, in.Now)
			return requeueStuckOut{ok, after}, nil
		}),
		Bind("rollout.IsComplete", func(in rolloutWithStatus, _ struct{}) (boolValueOut, error) {
			return boolValueOut{in.Deployment.IsComplete(in.Status)}, nil
		}),
		Bind("rollout.IsProgressing", func(in rolloutWithStatus, _ struct{}) (boolValueOut, error) {
			return boolValueOut{in.Deployment.IsProgressing(in.Status)}, nil
		}),
		Bind("rollout.IsTimedOut", func(in rolloutWithStatus, _ struct{}) (boolValueOut, error) {
			return boolValueOut{in.Deployment.IsTimedOut(in.Status, in.Now)}, nil
		}),
		Bind("rollout.PausedCondition", func(in pausedIn, _ struct{}) (pausedOut, error) {
			cs, changed := rollout.PausedCondition(&in.Deployment, in.Now)
			return pausedOut{orEmpty(cs), changed}, nil
		}),
		Bind("rollout.Revision", func(in replicaSetIn, _ struct{}) (revisionOut, error) {
			n, err := rollout.Revision(&in.ReplicaSet)
			return revisionOut{n}, err
		}),
		Bind("rollout.MaxRevision", func(in replicaSetsIn, _ struct{}) (revisionOut, error) {
			return revisionOut{rollout.MaxRevision(in.ReplicaSets)}, nil
		}),
		Bind("rollout.LastRevision", func(in replicaSetsIn, _ struct{}) (revisionOut, error) {
			return revisionOut{rollout.LastRevision(in.ReplicaSets)}, nil
		}),
		Bind("rollout.SortByRevision", func(in replicaSetsIn, _ struct{}) (namesOut, error) {
			return namesOut{rsNames(rollout.SortByRevision(in.ReplicaSets))}, nil
		}),
		// created says the ReplicaSet is being created (rollout.Creating).
		Bind("rollout.NewReplicaSetAnnotations", func(in newAnnotationsIn, _ struct{}) (annotationsOut, error) {
			a, changed := rollout.NewReplicaSetAnnotations(&in.Deployment, &in.ReplicaSet, in.NewRevision, rollout.Origin(in.Created))
			return annotationsOut{a, changed}, nil
		}),
		Bind("rollout.ReplicasAnnotationsNeedUpdate", func(in needUpdateIn, _ struct{}) (boolValueOut, error) {
			return boolValueOut{rollout.ReplicasAnnotationsNeedUpdate(&in.ReplicaSet, in.Desired, in.MaxReplicas)}, nil
		}),
		Bind("rollout.ReplicasAnnotation", func(in annotationIn, _ struct{}) (annotationOut, error) {
			n, ok, err := rollout.ReplicasAnnotation(&in.ReplicaSet, in.Key)
			return annotationOut{n, ok}, err
		}),
		Bind("rollout.HistoryToDelete", func(in historyIn, _ struct{}) (namesOut, error) {
			return namesOut{rsNames(rollout.HistoryToDelete(&in.Deployment, in.OldReplicaSets))}, nil
		}),
		Bind("rollout.Rollback", func(in deploymentRSsIn, _ struct{}) (rollbackOut, error) {
			r, ok := rollout.Rollback(&in.Deployment, in.ReplicaSets)
			if !ok {
				return rollbackOut{}, nil
			}
			out := rollbackOut{Requested: true, RollbackResult: &r}
			if r.ReplicaSet != nil {
				out.ReplicaSet = &r.ReplicaSet.Name
			}
			return out, nil
		}),
		// A refused update is the error ValidateUpdate returns, under "new".
		Bind("rollout.ValidateUpdate", func(in deploymentUpdateIn, _ struct{}) (validOut, error) {
			if err := rollout.ValidateUpdate(&in.Old, &in.New); err != nil {
				return validOut{}, field.Under("new", err)
			}
			return validOut{Valid: true}, nil
		}),
	}
}

// deploymentUpdateIn is an update of a Deployment: old as stored, new as sent.
type deploymentUpdateIn struct {
	Old rollout.Deployment `json:"old"`
	New rollout.Deployment `json:"new"`
}

// The stored Deployment is one the API server accepted.
func (in *deploymentUpdateIn) validate() error {
	return field.Under("old", rollout.Validate(&in.Old, nil, nil))
}

// Inputs holding a Deployment are checked with rollout.ValidateCounts: the
// API's rules for the fields these rules read (a vector may leave out the
// selector and template a rule does not read); ReplicaSet lists with
// rollout.ValidateReplicaSets, under their own input key.
func (in *deploymentIn) validate() error { return vDeployment(&in.Deployment) }
func (in *newReplicasIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("allReplicaSets", in.AllReplicaSets))
}
func (in *proportionIn) validate() error { return vDeployment(&in.Deployment) }
func (in *proportionalIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("oldReplicaSets", in.OldReplicaSets))
}
func (in *deploymentRSsIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("replicaSets", in.ReplicaSets))
}
func (in *deploymentRSIn) validate() error { return vDeployment(&in.Deployment) }
func (in *reconcileNewIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("allReplicaSets", in.AllReplicaSets))
}
func (in *reconcileOldIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("allReplicaSets", in.AllReplicaSets))
}
func (in *scaleDownIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("allReplicaSets", in.AllReplicaSets))
}
func (in *oldPodsIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("oldReplicaSets", in.OldReplicaSets))
}
func (in *rolloutSync) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("replicaSets", in.ReplicaSets))
}
func (in *rolloutWithStatus) validate() error { return vDeployment(&in.Deployment) }
func (in *pausedIn) validate() error          { return vDeployment(&in.Deployment) }
func (in *newAnnotationsIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSet("replicaSet", &in.ReplicaSet))
}
func (in *historyIn) validate() error {
	return first(vDeployment(&in.Deployment), vReplicaSets("oldReplicaSets", in.OldReplicaSets))
}
func (in *cleanupIn) validate() error     { return vReplicaSets("oldReplicaSets", in.OldReplicaSets) }
func (in *replicaSetsIn) validate() error { return vReplicaSets("replicaSets", in.ReplicaSets) }
func (in *replicaSetIn) validate() error  { return vReplicaSet("replicaSet", &in.ReplicaSet) }
func (in *annotationIn) validate() error  { return vReplicaSet("replicaSet", &in.ReplicaSet) }
func (in *needUpdateIn) validate() error  { return vReplicaSet("replicaSet", &in.ReplicaSet) }

// vDeployment checks d's counts and strategy, at paths under "deployment".
func vDeployment(d *rollout.Deployment) error {
	return field.Under("deployment", rollout.ValidateCounts(d, nil))
}

// vReplicaSets checks a ReplicaSet list, at paths under its input key.
func vReplicaSets(key string, rss []*replicaset.ReplicaSet) error {
	return rekey(rollout.ValidateReplicaSets(rss), "replicaSets", key)
}

// vReplicaSet checks one ReplicaSet, at paths under its input key.
func vReplicaSet(key string, rs *replicaset.ReplicaSet) error {
	return rekey(rollout.ValidateReplicaSets([]*replicaset.ReplicaSet{rs}), "replicaSets[0]", key)
}

// rekey replaces the leading path segment from of a *field.Error with to.
func rekey(err error, from, to string) error {
	fe, ok := err.(*field.Error)
	if !ok || !strings.HasPrefix(fe.Path, from) {
		return err
	}
	return &field.Error{Path: to + strings.TrimPrefix(fe.Path, from), Value: fe.Value, Err: fe.Err}
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
