package conformance

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// podInput is the input of the single-pod podstatus decisions.
type podInput struct {
	Pod podstatus.Pod `json:"pod"`
}

// podstatusDecisions returns the podstatus decisions the vectors in testdata/podstatus name.
func podstatusLegacy() map[string]decider {
	return map[string]decider{
		// {"pod": Pod} → {"ready": true}
		"podstatus.IsReady": rule(func(in podInput, _ struct{}) (any, error) {
			return map[string]bool{"ready": podstatus.IsReady(&in.Pod)}, nil
		}),
		// {"pod": Pod, "minReadySeconds": 10, "now": RFC 3339} → {"available": true}
		"podstatus.IsAvailable": rule(func(in struct {
			Pod             podstatus.Pod `json:"pod"`
			MinReadySeconds int32         `json:"minReadySeconds"`
			Now             time.Time     `json:"now"`
		}, _ struct{}) (any, error) {
			return map[string]bool{"available": podstatus.IsAvailable(&in.Pod, in.MinReadySeconds, in.Now)}, nil
		}),
		// {"pod": Pod} → {"active": true}
		"podstatus.IsActive": rule(func(in podInput, _ struct{}) (any, error) {
			return map[string]bool{"active": podstatus.IsActive(&in.Pod)}, nil
		}),
		// {"pod": Pod} → {"terminating": true}
		"podstatus.IsTerminating": rule(func(in podInput, _ struct{}) (any, error) {
			return map[string]bool{"terminating": podstatus.IsTerminating(&in.Pod)}, nil
		}),
		// {"pod": Pod} → {"terminal": true}
		"podstatus.IsTerminal": rule(func(in podInput, _ struct{}) (any, error) {
			return map[string]bool{"terminal": podstatus.IsTerminal(&in.Pod)}, nil
		}),
		// {"pods": [Pod], "minReadySeconds": 10, "now": RFC 3339,
		//  "statusEvaluatedAt"?: RFC 3339} → {"requeue": true, "after": "6s"}
		"podstatus.NextAvailabilityCheck": rule(func(in struct {
			Pods              []*podstatus.Pod `json:"pods"`
			MinReadySeconds   int32            `json:"minReadySeconds"`
			Now               time.Time        `json:"now"`
			StatusEvaluatedAt *time.Time       `json:"statusEvaluatedAt"`
		}, _ struct{}) (any, error) {
			evaluated := in.Now
			if in.StatusEvaluatedAt != nil {
				evaluated = *in.StatusEvaluatedAt
			}
			d, ok := podstatus.NextAvailabilityCheckSince(in.Pods, in.MinReadySeconds, evaluated, in.Now)
			if !ok {
				return map[string]any{"requeue": false}, nil
			}
			return map[string]any{"requeue": true, "after": d.String()}, nil
		}),
		// {"pod": Pod} → {"cost": -7, "valid": true}
		"podstatus.DeletionCost": rule(func(in podInput, _ struct{}) (any, error) {
			cost, valid := podstatus.DeletionCost(&in.Pod)
			return map[string]any{"cost": cost, "valid": valid}, nil
		}),
		// {"pod": Pod} → {"regular": 3, "sidecar": 1}
		"podstatus.MaxRestarts": rule(func(in podInput, _ struct{}) (any, error) {
			regular, sidecar := podstatus.MaxRestarts(&in.Pod)
			return map[string]int32{"regular": regular, "sidecar": sidecar}, nil
		}),
	}
}

// podstatusDecisions returns the podstatus decisions.
func podstatusDecisions() []Decision { return legacyTable(podstatusLegacy()) }
