package conformance

import (
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

type rsList = []*replicaset.ReplicaSet

// rolloutScale is one resize in a rollout decision's output.
type rolloutScale struct {
	Name     string         `json:"name"`
	Replicas int32          `json:"replicas"`
	Reason   rollout.Reason `json:"reason,omitempty"`
}

func rolloutScales(scales []rollout.Scale) []rolloutScale {
	out := make([]rolloutScale, 0, len(scales))
	for _, s := range scales {
		out = append(out, rolloutScale{Name: s.ReplicaSet.Name, Replicas: s.Replicas, Reason: s.Reason})
	}
	return out
}

func rolloutNames(rss rsList) []string {
	out := make([]string, 0, len(rss))
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

// rolloutDecisions returns the rollout decisions the vectors in testdata/rollout name.
func rolloutLegacy() map[string]decider {
	return map[string]decider{
		// {"maxSurge": "25%"|5|null, "maxUnavailable": ..., "replicas": 10} → {"surge", "unavailable"}
		"rollout.Fenceposts": rule(func(in struct {
			MaxSurge       *intstr.Value `json:"maxSurge"`
			MaxUnavailable *intstr.Value `json:"maxUnavailable"`
			Replicas       int32         `json:"replicas"`
		}, _ rollout.Options) (any, error) {
			s, u := intstr.Int(0), intstr.Int(0)
			if in.MaxSurge != nil {
				s = *in.MaxSurge
			}
			if in.MaxUnavailable != nil {
				u = *in.MaxUnavailable
			}
			surge, unavailable, err := rollout.Fenceposts(s, u, in.Replicas)
			if err != nil {
				return nil, err
			}
			return map[string]int32{"surge": surge, "unavailable": unavailable}, nil
		}),
		// {"deployment"} → {"maxSurge", "maxUnavailable", "minAvailable"}
		"rollout.Bounds": rule(func(in struct {
			Deployment rollout.Deployment `json:"deployment"`
		}, _ rollout.Options) (any, error) {
			d := &in.Deployment
			return map[string]int32{"maxSurge": rollout.MaxSurge(d), "maxUnavailable": rollout.MaxUnavailable(d), "minAvailable": rollout.MinAvailable(d)}, nil
		}),
		// {"deployment", "allReplicaSets", "newReplicaSet"} → {"replicas"}
		"rollout.NewReplicaSetReplicas": rule(func(in struct {
			Deployment     rollout.Deployment     `json:"deployment"`
			AllReplicaSets rsList                 `json:"allReplicaSets"`
			NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
		}, _ rollout.Options) (any, error) {
			n, err := rollout.NewReplicaSetReplicas(&in.Deployment, in.AllReplicaSets, in.NewReplicaSet)
			if err != nil {
				return nil, err
			}
			return map[string]int32{"replicas": n}, nil
		}),
		// {"deployment", "replicaSet", "toAdd", "added"} → {"value"}
		"rollout.Proportion": rule(func(in struct {
			Deployment rollout.Deployment     `json:"deployment"`
			ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
			ToAdd      int32                  `json:"toAdd"`
			Added      int32                  `json:"added"`
		}, _ rollout.Options) (any, error) {
			return map[string]int32{"value": rollout.Proportion(&in.Deployment, in.ReplicaSet, in.ToAdd, in.Added)}, nil
		}),
		// {"deployment", "newReplicaSet", "oldReplicaSets"} → {"sizes": {name: replicas}, "scales": [...]}
		"rollout.Proportional": rule(func(in struct {
			Deployment     rollout.Deployment     `json:"deployment"`
			NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
			OldReplicaSets rsList                 `json:"oldReplicaSets"`
		}, _ rollout.Options) (any, error) {
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
			return map[string]any{"sizes": sizes, "scales": rolloutScales(scales)}, nil
		}),
		// {"deployment", "replicaSets"} → {"value"}
		"rollout.IsScalingEvent": rule(func(in struct {
			Deployment  rollout.Deployment `json:"deployment"`
			ReplicaSets rsList             `json:"replicaSets"`
		}, _ rollout.Options) (any, error) {
			return map[string]bool{"value": rollout.IsScalingEvent(&in.Deployment, in.ReplicaSets)}, nil
		}),
		// {"deployment", "replicaSet"} → {"value"}
		"rollout.IsSaturated": rule(func(in struct {
			Deployment rollout.Deployment     `json:"deployment"`
			ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
		}, _ rollout.Options) (any, error) {
			return map[string]bool{"value": rollout.IsSaturated(&in.Deployment, in.ReplicaSet)}, nil
		}),
		// {"deployment", "allReplicaSets", "newReplicaSet"} → {"replicas", "reason"}
		"rollout.ReconcileNewReplicaSet": rule(func(in struct {
			Deployment     rollout.Deployment    `json:"deployment"`
			AllReplicaSets rsList                `json:"allReplicaSets"`
			NewReplicaSet  replicaset.ReplicaSet `json:"newReplicaSet"`
		}, _ rollout.Options) (any, error) {
			n, reason, err := rollout.ReconcileNewReplicaSet(&in.Deployment, in.AllReplicaSets, &in.NewReplicaSet)
			if err != nil {
				return nil, err
			}
			return map[string]any{"replicas": n, "reason": reason, "scaled": reason != ""}, nil
		}),
		// {"deployment", "allReplicaSets", "oldReplicaSets", "newReplicaSet"} → {"scaled", "scales"}
		"rollout.ReconcileOldReplicaSets": rule(func(in struct {
			Deployment     rollout.Deployment     `json:"deployment"`
			AllReplicaSets rsList                 `json:"allReplicaSets"`
			OldReplicaSets rsList                 `json:"oldReplicaSets"`
			NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
		}, _ rollout.Options) (any, error) {
			scales, scaled := rollout.ReconcileOldReplicaSets(&in.Deployment, in.AllReplicaSets, in.OldReplicaSets, in.NewReplicaSet)
			return map[string]any{"scaled": scaled, "scales": rolloutScales(scales)}, nil
		}),
		// {"oldReplicaSets", "maxCleanup"} → {"ok", "scales", "cleaned"}
		"rollout.CleanupUnhealthy": rule(func(in struct {
			OldReplicaSets rsList `json:"oldReplicaSets"`
			MaxCleanup     int32  `json:"maxCleanup"`
		}, _ rollout.Options) (any, error) {
			scales, ok := rollout.CleanupUnhealthy(in.OldReplicaSets, in.MaxCleanup)
			return map[string]any{"ok": ok, "scales": rolloutScales(scales), "cleaned": removed(in.OldReplicaSets, scales)}, nil
		}),
		// {"deployment", "allReplicaSets", "oldReplicaSets"} → {"scales", "scaledDown"}
		"rollout.ScaleDownOld": rule(func(in struct {
			Deployment     rollout.Deployment `json:"deployment"`
			AllReplicaSets rsList             `json:"allReplicaSets"`
			OldReplicaSets rsList             `json:"oldReplicaSets"`
		}, _ rollout.Options) (any, error) {
			scales := rollout.ScaleDownOld(&in.Deployment, in.AllReplicaSets, in.OldReplicaSets)
			return map[string]any{"scales": rolloutScales(scales), "scaledDown": removed(in.OldReplicaSets, scales)}, nil
		}),
		// {"deployment", "newReplicaSet", "oldReplicaSets", "pods"} → {"value"}
		"rollout.OldPodsRunning": rule(func(in struct {
			Deployment     rollout.Deployment     `json:"deployment"`
			NewReplicaSet  *replicaset.ReplicaSet `json:"newReplicaSet"`
			OldReplicaSets rsList                 `json:"oldReplicaSets"`
			Pods           []*podstatus.Pod       `json:"pods"`
		}, _ rollout.Options) (any, error) {
			return map[string]bool{"value": rollout.OldPodsRunning(&in.Deployment, in.NewReplicaSet, in.OldReplicaSets, in.Pods)}, nil
		}),
		// {"deployment", "replicaSets"} → {"name": string|null}
		"rollout.FindNewReplicaSet": rule(func(in struct {
			Deployment  rollout.Deployment `json:"deployment"`
			ReplicaSets rsList             `json:"replicaSets"`
		}, _ rollout.Options) (any, error) {
			var name *string
			if rs := rollout.FindNewReplicaSet(&in.Deployment, in.ReplicaSets); rs != nil {
				name = &rs.Name
			}
			return map[string]any{"name": name}, nil
		}),
		// {"deployment", "replicaSets"} → {"active": [names], "all": [names]}
		"rollout.FindOldReplicaSets": rule(func(in struct {
			Deployment  rollout.Deployment `json:"deployment"`
			ReplicaSets rsList             `json:"replicaSets"`
		}, _ rollout.Options) (any, error) {
			active, all := rollout.FindOldReplicaSets(&in.Deployment, in.ReplicaSets)
			return map[string]any{"active": rolloutNames(active), "all": rolloutNames(all)}, nil
		}),
		// {"deployment": "name", "hash": "abc"} → {"name"}
		"rollout.ReplicaSetName": rule(func(in struct {
			Deployment string `json:"deployment"`
			Hash       string `json:"hash"`
		}, _ rollout.Options) (any, error) {
			return map[string]string{"name": rollout.ReplicaSetName(in.Deployment, in.Hash)}, nil
		}),
		// {"deployment", "replicaSets", "pods", "now"} → Plan (see README)
		"rollout.Step": rule(func(in struct {
			Deployment  *rollout.Deployment `json:"deployment"`
			ReplicaSets rsList              `json:"replicaSets"`
			Pods        []*podstatus.Pod    `json:"pods"`
			Now         time.Time           `json:"now"`
		}, opts rollout.Options) (any, error) {
			p, err := rollout.Step(in.Deployment, in.ReplicaSets, in.Pods, in.Now, opts)
			if err != nil {
				return nil, err
			}
			return stepOutput(p, in.ReplicaSets, in.Now), nil
		}),
	}
}

// removed adds up how many pods scales take away from replicaSets.
func removed(replicaSets rsList, scales []rollout.Scale) int32 {
	var n int32
	size := map[string]int32{}
	for _, rs := range replicaSets {
		if rs != nil {
			size[rs.Name] = rs.Replicas()
		}
	}
	for _, s := range scales {
		n += size[s.ReplicaSet.Name] - s.Replicas
		size[s.ReplicaSet.Name] = s.Replicas
	}
	return n
}

// rolloutStepOut is the Plan with the ReplicaSet sizes after Plan.Apply.
type rolloutStepOut struct {
	rollout.Plan
	Sizes map[string]int32 `json:"sizes"`
}

func stepOutput(p rollout.Plan, replicaSets rsList, now time.Time) rolloutStepOut {
	sizes := map[string]int32{}
	for _, rs := range p.Apply(replicaSets, now) {
		sizes[rs.Name] = rs.Replicas()
	}
	return rolloutStepOut{p, sizes}
}

// rolloutDecisions returns the rollout decisions.
func rolloutDecisions() []Decision {
	return append(legacyTable(rolloutLegacy()), legacyTable(rolloutStatusLegacy())...)
}
