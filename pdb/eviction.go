package pdb

import (
	"fmt"
	"maps"

	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// MaxDisruptedPods is the most disruptedPods entries a budget may hold for
// the eviction subresource to decrement it further.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go
// MaxDisruptedPodSize (v1.36.3).
const MaxDisruptedPods = 2000

// Request is one eviction request (a POST to pods/<name>/eviction).
type Request struct {
	// DryRun is deleteOptions.dryRun: ["All"]. The decision is computed but
	// neither the budget nor the pod is written.
	DryRun bool `json:"dryRun,omitempty"`
}

// Decision is the API server's answer to an eviction request.
type Decision struct {
	// Allowed is whether the pod is deleted (HTTP 201 with a Success status).
	Allowed bool `json:"allowed"`
	// Code is the HTTP status: 200 when allowed, else 429, 403 or 500.
	Code int32 `json:"code"`
	// Reason is the branch taken.
	Reason Reason `json:"reason"`
	// Budget names the budget consulted, if any.
	Budget string `json:"budget,omitempty"`
	// Message is the DisruptionBudget cause (429) or the error message.
	Message string `json:"message,omitempty"`
	// RetryAfterSeconds is the Retry-After of a 429.
	RetryAfterSeconds int32 `json:"retryAfterSeconds,omitempty"`
	// UpdateStatus is whether the budget status is written (decremented,
	// with the pod in disruptedPods); never under dry run.
	UpdateStatus bool `json:"updateStatus"`
	// Status is the budget's status after the decision (the decremented
	// one, also under dry run), when a budget was decremented.
	Status *Status `json:"status,omitempty"`
	// DisruptionTarget is whether the pod gets the DisruptionTarget=True
	// condition (reason EvictionByEvictionAPI) before its deletion.
	DisruptionTarget bool `json:"disruptionTarget"`
}

// IgnoresBudget reports whether a pod is evicted without consulting any
// budget: its phase is Succeeded, Failed or Pending, or it is being deleted.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go canIgnorePDB
// (v1.36.3).
func IgnoresBudget(p *podstatus.Pod) bool {
	switch p.Status.Phase {
	case podstatus.Succeeded, podstatus.Failed, podstatus.Pending:
		return true
	}
	return p.IsDeleting()
}

// Budgets returns the budgets of the pod's namespace whose selector matches
// it (a nil selector matches nothing), in name order.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go
// getPodDisruptionBudgets (v1.36.3).
func Budgets(p *podstatus.Pod, budgets []PodDisruptionBudget) []*PodDisruptionBudget {
	var out []*PodDisruptionBudget
	for i := range budgets {
		b := &budgets[i]
		if b.Namespace != p.Namespace || b.Spec.Selector.Validate("") != nil || !b.Spec.Selector.Matches(p.Labels) {
			continue
		}
		out = append(out, b)
	}
	slices.SortStableFunc(out, func(a, b *PodDisruptionBudget) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

// UnhealthyEvictable reports whether a pod that is not Ready is evicted
// without decrementing the budget: the policy is AlwaysAllow, or the budget
// has at least its desired healthy pods and desires more than zero.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go Create
// (v1.36.3).
func UnhealthyEvictable(b *PodDisruptionBudget) (bool, Reason) {
	if b.Policy() == AlwaysAllow {
		return true, ReasonUnhealthyAlwaysAllow
	}
	if b.Status.CurrentHealthy >= b.Status.DesiredHealthy && b.Status.DesiredHealthy > 0 {
		return true, ReasonUnhealthyHealthyBudget
	}
	return false, ""
}

// Evict decides one eviction request for pod at now against the budgets of
// the cluster: a pod that [IgnoresBudget] is deleted; more than one matching
// budget is a 500; no budget allows it; a not Ready pod may pass by
// [UnhealthyEvictable]; otherwise the budget is checked and decremented: a
// generation not yet observed is a 429 (retry after 10 s), a negative budget
// or more than [MaxDisruptedPods] entries a 403, no disruptions left a 429;
// else disruptionsAllowed drops by one (the condition turns False at 0) and,
// unless dry run, the pod is recorded in disruptedPods at now.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go Create,
// checkAndDecrement (v1.36.3).
func Evict(pod *podstatus.Pod, budgets []PodDisruptionBudget, req Request, now time.Time) (Decision, error) {
	if pod == nil {
		return Decision{}, field.New("pod", "", field.ErrRequired)
	}
	allow := func(r Reason, budget string) Decision {
		return Decision{Allowed: true, Code: 200, Reason: r, Budget: budget, DisruptionTarget: !req.DryRun}
	}
	if IgnoresBudget(pod) {
		return allow(ReasonIgnoresBudget, ""), nil
	}
	bs := Budgets(pod, budgets)
	switch len(bs) {
	case 0:
		return allow(ReasonNoBudget, ""), nil
	case 1:
	default:
		return Decision{Code: 500, Reason: ReasonTooManyBudgets,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}, nil
	}
	b := bs[0]
	if !podstatus.IsReady(pod) {
		if ok, r := UnhealthyEvictable(b); ok {
			return allow(r, b.Name), nil
		}
	}
	d, s := Decrement(b, pod.Name, now)
	if !d.Allowed {
		return d, nil
	}
	d.DisruptionTarget = !req.DryRun
	if req.DryRun {
		s.DisruptedPods = maps.Clone(b.Status.DisruptedPods)
	} else {
		d.UpdateStatus = true
	}
	d.Status = &s
	return d, nil
}

// Decrement is the budget check of an eviction of podName from b at now: it
// returns the refusal (429 or 403) or an allowed decision with the status
// decremented by one and podName recorded in disruptedPods at now.
//
// Source: upstream pkg/registry/core/pod/storage/eviction.go
// checkAndDecrement (v1.36.3).
func Decrement(b *PodDisruptionBudget, podName string, now time.Time) (Decision, Status) {
	st := b.Status
	refuse := func(code int32, r Reason, msg string, retry int32) (Decision, Status) {
		return Decision{Code: code, Reason: r, Budget: b.Name, Message: msg, RetryAfterSeconds: retry}, Status{}
	}
	if st.ObservedGeneration < b.Generation {
		return refuse(429, ReasonGenerationNotObserved,
			fmt.Sprintf("The disruption budget %s is still being processed by the server.", b.Name), 10)
	}
	if st.DisruptionsAllowed < 0 {
		return refuse(403, ReasonNegativeBudget, "pdb disruptions allowed is negative", 0)
	}
	if len(st.DisruptedPods) > MaxDisruptedPods {
		return refuse(403, ReasonTooManyDisruptedPods,
			"DisruptedPods map too big - too many evictions not confirmed by PDB controller", 0)
	}
	if st.DisruptionsAllowed == 0 {
		return refuse(429, ReasonNoDisruptionsAllowed, noDisruptionsMessage(b), 0)
	}
	s := copyStatus(st)
	s.DisruptionsAllowed--
	if s.DisruptionsAllowed == 0 {
		c := AllowedCondition(0)
		c.ObservedGeneration = s.ObservedGeneration
		s.Conditions = setCondition(s.Conditions, c, now)
	}
	if s.DisruptedPods == nil {
		s.DisruptedPods = map[string]time.Time{}
	}
	s.DisruptedPods[podName] = now
	return Decision{Allowed: true, Code: 200, Reason: ReasonBudgetDecremented, Budget: b.Name}, s
}

func noDisruptionsMessage(b *PodDisruptionBudget) string {
	c, ok := b.Status.Conditions.Find(DisruptionAllowed)
	failed := ok && c.Status == meta.ConditionFalse && c.Message != ""
	switch {
	case failed && c.Reason == string(ReasonSyncFailed):
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", b.Name, c.Message)
	case b.Status.CurrentHealthy <= b.Status.DesiredHealthy:
		return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", b.Name, b.Status.DesiredHealthy, b.Status.CurrentHealthy)
	case failed:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%s): %s", b.Name, c.Reason, c.Message)
	}
	return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", b.Name)
}
