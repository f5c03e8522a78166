package conformance

import (
	"errors"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// rankOutput is a ranking as pod names: order first-deleted first, and the
// groups of two or more pods the order cannot tell apart.
type rankOutput struct {
	Order []string   `json:"order"`
	Ties  [][]string `json:"ties"`
}

func rsPodNames(pods []*podstatus.Pod, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		if pods[j] != nil {
			out[i] = pods[j].Name
		}
	}
	return out
}

func rankNames(pods []*podstatus.Pod, r replicaset.Ranking) rankOutput {
	out := rankOutput{Order: rsPodNames(pods, r.Order), Ties: [][]string{}}
	for _, t := range r.Ties() {
		out.Ties = append(out.Ties, rsPodNames(pods, t))
	}
	return out
}

// rsStatus is a ReplicaSet status with every count present, so that vectors
// can check zeros.
type rsStatus struct {
	Replicas             int32                  `json:"replicas"`
	FullyLabeledReplicas int32                  `json:"fullyLabeledReplicas"`
	ReadyReplicas        int32                  `json:"readyReplicas"`
	AvailableReplicas    int32                  `json:"availableReplicas"`
	TerminatingReplicas  *int32                 `json:"terminatingReplicas"`
	ObservedGeneration   int64                  `json:"observedGeneration"`
	Conditions           []replicaset.Condition `json:"conditions"`
}

func rsStatusOut(s replicaset.Status) rsStatus {
	return rsStatus{s.Replicas, s.FullyLabeledReplicas, s.ReadyReplicas, s.AvailableReplicas,
		s.TerminatingReplicas, s.ObservedGeneration, s.Conditions}
}

// replicasetDecisions returns the replicaset decisions the vectors in testdata/replicaset name.
func replicasetLegacy() map[string]decider {
	return map[string]decider{
		// {"active": 7, "replicas": 3} → {"diff": 4}
		"replicaset.Diff": rule(func(in struct {
			Active   int   `json:"active"`
			Replicas int32 `json:"replicas"`
		}, opts replicaset.Options) (any, error) {
			return map[string]int{"diff": replicaset.Diff(in.Active, in.Replicas, opts)}, nil
		}),
		// {"count": 10, "succeed": 5} → {"batches": [1,2,4], "attempted": 7, "successes": 5}
		"replicaset.SlowStart": rule(func(in struct {
			Count   int `json:"count"`
			Succeed int `json:"succeed"`
		}, _ struct{}) (any, error) {
			sizes, ok := replicaset.SlowStart(in.Count, in.Succeed)
			attempted := 0
			for _, s := range sizes {
				attempted += s
			}
			if sizes == nil {
				sizes = []int{}
			}
			return map[string]any{"batches": sizes, "attempted": attempted, "successes": ok}, nil
		}),
		// {"pods": [Pod], "ranks": [1, 2], "now": RFC 3339} → {"order": [name], "ties": [[name]]}
		"replicaset.RankForDeletion": rule(func(in struct {
			Pods  []*podstatus.Pod `json:"pods"`
			Ranks []int            `json:"ranks"`
			Now   time.Time        `json:"now"`
		}, opts replicaset.Options) (any, error) {
			return rankNames(in.Pods, replicaset.RankForDeletion(in.Pods, in.Ranks, in.Now, opts)), nil
		}),
		// {"pods": [Pod]} → {"order": [name], "ties": [[name]]}
		"replicaset.RankActive": rule(func(in struct {
			Pods []*podstatus.Pod `json:"pods"`
		}, _ struct{}) (any, error) {
			return rankNames(in.Pods, replicaset.RankActive(in.Pods)), nil
		}),
		// {"a": Pod, "b": Pod, "rankA": 1, "rankB": 2, "now": RFC 3339} → {"aFirst": true, "bFirst": false}
		"replicaset.DeletesBefore": rule(func(in struct {
			A     *podstatus.Pod `json:"a"`
			B     *podstatus.Pod `json:"b"`
			RankA int            `json:"rankA"`
			RankB int            `json:"rankB"`
			Now   time.Time      `json:"now"`
		}, opts replicaset.Options) (any, error) {
			return map[string]bool{
				"aFirst": replicaset.DeletesBefore(in.A, in.B, in.RankA, in.RankB, in.Now, opts),
				"bFirst": replicaset.DeletesBefore(in.B, in.A, in.RankB, in.RankA, in.Now, opts),
			}, nil
		}),
		// {"pods": [Pod], "relatedPods": [Pod], "diff": 2, "now": RFC 3339}
		//   → {"victims": [name], "sure": 1, "tied": [name]}
		"replicaset.PodsToDelete": rule(func(in struct {
			Pods    []*podstatus.Pod `json:"pods"`
			Related []*podstatus.Pod `json:"relatedPods"`
			Diff    int              `json:"diff"`
			Now     time.Time        `json:"now"`
		}, opts replicaset.Options) (any, error) {
			v := replicaset.PodsToDelete(in.Pods, in.Related, in.Diff, in.Now, opts)
			return map[string]any{"victims": rsPodNames(in.Pods, v.Pods), "sure": v.Sure, "tied": rsPodNames(in.Pods, v.Tied)}, nil
		}),
		// {"replicaSet": ReplicaSet, "pod": Pod} → {"ownership": "Adopt"}
		"replicaset.ClaimPod": rule(func(in struct {
			ReplicaSet replicaset.ReplicaSet `json:"replicaSet"`
			Pod        *podstatus.Pod        `json:"pod"`
		}, _ struct{}) (any, error) {
			if err := replicaset.Validate(&in.ReplicaSet); err != nil {
				return nil, err
			}
			return map[string]replicaset.Ownership{"ownership": replicaset.ClaimPod(&in.ReplicaSet, in.Pod)}, nil
		}),
		// {"replicaSet": ReplicaSet, "activePods": [Pod], "terminatingPods": [Pod],
		//  "manageError"?: "text", "now": RFC 3339} → ReplicaSet status
		"replicaset.ComputeStatus": rule(func(in struct {
			ReplicaSet  replicaset.ReplicaSet `json:"replicaSet"`
			Active      []*podstatus.Pod      `json:"activePods"`
			Terminating []*podstatus.Pod      `json:"terminatingPods"`
			ManageError *string               `json:"manageError"`
			Now         time.Time             `json:"now"`
		}, opts replicaset.Options) (any, error) {
			var err error
			if in.ManageError != nil {
				err = errors.New(*in.ManageError)
			}
			return rsStatusOut(replicaset.ComputeStatus(&in.ReplicaSet, in.Active, in.Terminating, err, in.Now, opts)), nil
		}),
		// {"replicaSet": ReplicaSet, "pods": [Pod], "relatedPods": [Pod], "now": RFC 3339} → Plan
		"replicaset.Step": rule(func(in struct {
			ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
			Pods       []*podstatus.Pod       `json:"pods"`
			Related    []*podstatus.Pod       `json:"relatedPods"`
			Now        time.Time              `json:"now"`
		}, opts replicaset.Options) (any, error) {
			p, err := replicaset.Step(in.ReplicaSet, in.Pods, in.Related, in.Now, opts)
			if err != nil {
				return nil, err
			}
			type plan replicaset.Plan
			out := struct {
				plan
				Status       rsStatus `json:"status"`
				RequeueAfter string   `json:"requeueAfter,omitempty"`
			}{plan: plan(p), Status: rsStatusOut(p.Status)}
			if p.RequeueReason != "" {
				out.RequeueAfter = p.RequeueAfter.String()
			}
			return out, nil
		}),
	}
}

// replicasetDecisions returns the replicaset decisions.
func replicasetDecisions() []Decision { return legacyTable(replicasetLegacy()) }
