package conformance

import (
	"time"

	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// rolloutSync is the input of the status decisions: a Deployment, its
// ReplicaSets (the new one among them) and the time of the sync.
type rolloutSync struct {
	Deployment    rollout.Deployment       `json:"deployment"`
	NewReplicaSet *replicaset.ReplicaSet   `json:"newReplicaSet"`
	ReplicaSets   []*replicaset.ReplicaSet `json:"replicaSets"`
	Now           time.Time                `json:"now"`
}

// rolloutWithStatus is a Deployment and a freshly computed status.
type rolloutWithStatus struct {
	Deployment rollout.Deployment `json:"deployment"`
	Status     rollout.Status     `json:"status"`
	Now        time.Time          `json:"now"`
}

func names(rss []*replicaset.ReplicaSet) []string {
	out := make([]string, 0, len(rss))
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

// rolloutStatusDecisions returns the rollout status, condition, revision and
// rollout-status-viewer decisions the vectors in testdata/rollout name.
func rolloutStatusLegacy() map[string]decider {
	return map[string]decider{
		"rollout.ComputeStatus": rule(func(in rolloutSync, _ struct{}) (any, error) {
			return rollout.ComputeStatus(&in.Deployment, in.NewReplicaSet, in.ReplicaSets, in.Now), nil
		}),
		// ComputeStatus then SyncProgress, as syncRolloutStatus does.
		"rollout.SyncProgress": rule(func(in rolloutSync, _ struct{}) (any, error) {
			s := rollout.ComputeStatus(&in.Deployment, in.NewReplicaSet, in.ReplicaSets, in.Now)
			return rollout.SyncProgress(&in.Deployment, s, in.NewReplicaSet, in.ReplicaSets, in.Now), nil
		}),
		"rollout.RequeueStuck": rule(func(in rolloutWithStatus, _ struct{}) (any, error) {
			after, ok := rollout.RequeueStuck(&in.Deployment, in.Status, in.Now)
			return map[string]any{"requeue": ok, "after": after.String()}, nil
		}),
		"rollout.IsComplete": rule(func(in rolloutWithStatus, _ struct{}) (any, error) {
			return map[string]bool{"value": rollout.IsComplete(&in.Deployment, in.Status)}, nil
		}),
		"rollout.IsProgressing": rule(func(in rolloutWithStatus, _ struct{}) (any, error) {
			return map[string]bool{"value": rollout.IsProgressing(&in.Deployment, in.Status)}, nil
		}),
		"rollout.IsTimedOut": rule(func(in rolloutWithStatus, _ struct{}) (any, error) {
			return map[string]bool{"value": rollout.IsTimedOut(&in.Deployment, in.Status, in.Now)}, nil
		}),
		"rollout.FindCondition": rule(func(in struct {
			Conditions []rollout.Condition   `json:"conditions"`
			Type       rollout.ConditionType `json:"type"`
		}, _ struct{}) (any, error) {
			c, ok := rollout.FindCondition(in.Conditions, in.Type)
			if !ok {
				return map[string]any{"found": false}, nil
			}
			return map[string]any{"found": true, "condition": c}, nil
		}),
		"rollout.SetCondition": rule(func(in struct {
			Conditions []rollout.Condition `json:"conditions"`
			Condition  rollout.Condition   `json:"condition"`
		}, _ struct{}) (any, error) {
			return map[string]any{"conditions": orEmpty(rollout.SetCondition(in.Conditions, in.Condition))}, nil
		}),
		"rollout.RemoveCondition": rule(func(in struct {
			Conditions []rollout.Condition   `json:"conditions"`
			Type       rollout.ConditionType `json:"type"`
		}, _ struct{}) (any, error) {
			return map[string]any{"conditions": orEmpty(rollout.RemoveCondition(in.Conditions, in.Type))}, nil
		}),
		"rollout.PausedCondition": rule(func(in struct {
			Deployment rollout.Deployment `json:"deployment"`
			Now        time.Time          `json:"now"`
		}, _ struct{}) (any, error) {
			cs, changed := rollout.PausedCondition(&in.Deployment, in.Now)
			return map[string]any{"conditions": orEmpty(cs), "changed": changed}, nil
		}),
		"rollout.Revision": rule(func(in struct {
			ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
		}, _ struct{}) (any, error) {
			n, err := rollout.Revision(&in.ReplicaSet)
			if err != nil {
				return nil, err
			}
			return map[string]int64{"revision": n}, nil
		}),
		"rollout.MaxRevision": rule(func(in struct {
			ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
		}, _ struct{}) (any, error) {
			return map[string]int64{"revision": rollout.MaxRevision(in.ReplicaSets)}, nil
		}),
		"rollout.LastRevision": rule(func(in struct {
			ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
		}, _ struct{}) (any, error) {
			return map[string]int64{"revision": rollout.LastRevision(in.ReplicaSets)}, nil
		}),
		"rollout.SortByRevision": rule(func(in struct {
			ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
		}, _ struct{}) (any, error) {
			return map[string][]string{"names": names(rollout.SortByRevision(in.ReplicaSets))}, nil
		}),
		"rollout.NewReplicaSetAnnotations": rule(func(in struct {
			Deployment  rollout.Deployment    `json:"deployment"`
			ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
			NewRevision int64                 `json:"newRevision"`
			Created     bool                  `json:"created"`
		}, _ struct{}) (any, error) {
			a, changed := rollout.NewReplicaSetAnnotations(&in.Deployment, &in.ReplicaSet, in.NewRevision, in.Created)
			return map[string]any{"annotations": a, "changed": changed}, nil
		}),
		"rollout.ReplicasAnnotationsNeedUpdate": rule(func(in struct {
			ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
			Desired     int32                 `json:"desired"`
			MaxReplicas int32                 `json:"maxReplicas"`
		}, _ struct{}) (any, error) {
			return map[string]bool{"value": rollout.ReplicasAnnotationsNeedUpdate(&in.ReplicaSet, in.Desired, in.MaxReplicas)}, nil
		}),
		"rollout.ReplicasAnnotation": rule(func(in struct {
			ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
			Key        string                `json:"key"`
		}, _ struct{}) (any, error) {
			n, ok, err := rollout.ReplicasAnnotation(&in.ReplicaSet, in.Key)
			if err != nil {
				return nil, err
			}
			return map[string]any{"value": n, "ok": ok}, nil
		}),
		"rollout.HistoryToDelete": rule(func(in struct {
			Deployment     rollout.Deployment       `json:"deployment"`
			OldReplicaSets []*replicaset.ReplicaSet `json:"oldReplicaSets"`
		}, _ struct{}) (any, error) {
			return map[string][]string{"names": names(rollout.HistoryToDelete(&in.Deployment, in.OldReplicaSets))}, nil
		}),
		"rollout.Rollback": rule(func(in struct {
			Deployment  rollout.Deployment       `json:"deployment"`
			ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
		}, _ struct{}) (any, error) {
			r, ok := rollout.Rollback(&in.Deployment, in.ReplicaSets)
			if !ok {
				return map[string]any{"requested": false}, nil
			}
			out := map[string]any{"requested": true, "revision": r.Revision, "reason": r.Reason, "message": r.Message, "annotations": r.Annotations}
			if r.ReplicaSet != nil {
				out["replicaSet"] = r.ReplicaSet.Name
			}
			if r.Template != nil {
				out["template"] = r.Template
			}
			return out, nil
		}),
	}
}

// orEmpty returns cs, or an empty (not nil) slice so that it encodes as [].
func orEmpty(cs []rollout.Condition) []rollout.Condition {
	if cs == nil {
		return []rollout.Condition{}
	}
	return cs
}
