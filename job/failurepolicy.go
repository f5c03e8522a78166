package job

import (
	"slices"
	"strconv"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Exit-code operators of a pod failure policy rule.
const (
	OpIn    = "In"
	OpNotIn = "NotIn"
)

// PolicyMatch is what a pod failure policy decides about one failed pod.
type PolicyMatch struct {
	// Action is the matching rule's action, or "" when no rule matched.
	Action PodFailurePolicyAction `json:"action,omitempty"`
	// CountFailed says whether the failure counts toward backoffLimit: false
	// only for Ignore.
	CountFailed bool `json:"countFailed"`
	// Rule is the index of the matching rule, or -1.
	Rule int `json:"rule"`
	// Message is the job failure message, set for FailJob only.
	Message string `json:"message,omitempty"`
}

// MatchPodFailurePolicy applies the first rule of policy that matches the
// failed pod. A rule with onExitCodes matches when a terminated container
// with a non-zero exit code (regular containers first, then init
// containers; only the named container when containerName is set) has an
// exit code In, or NotIn, the listed values; an unknown operator never
// matches. Otherwise a rule with onPodConditions matches when the pod has a
// condition of a listed type with the listed status (empty status means
// True). FailJob yields a message naming the container and exit code, or the
// condition; Ignore does not count the failure; Count and FailIndex do. A
// rule with an unknown action is passed over. With no match, or a nil
// policy, the failure counts and Action is "".
//
// Source: upstream pkg/controller/job/pod_failure_policy.go
// matchPodFailurePolicy, matchOnExitCodes, matchOnPodConditions (v1.36.3);
// pkg/apis/batch/v1/defaults.go (status defaults to True); seed 000 Job
// "Pod failure policy" (000:L3269-3323).
func MatchPodFailurePolicy(policy *PodFailurePolicy, p *podstatus.Pod) PolicyMatch {
	if policy == nil {
		return PolicyMatch{CountFailed: true, Rule: -1}
	}
	for i := range policy.Rules {
		r := &policy.Rules[i]
		var cs *podstatus.ContainerStatus
		var cond *podstatus.Condition
		if r.OnExitCodes != nil {
			if cs = matchExitCodes(p, r.OnExitCodes); cs == nil {
				continue
			}
		} else if r.OnPodConditions != nil {
			if cond = matchConditions(p, r.OnPodConditions); cond == nil {
				continue
			}
		} else {
			continue
		}
		switch r.Action {
		case ActionIgnore:
			return PolicyMatch{Action: ActionIgnore, Rule: i}
		case ActionCount, ActionFailIndex:
			return PolicyMatch{Action: r.Action, CountFailed: true, Rule: i}
		case ActionFailJob:
			var msg string
			if cs != nil {
				msg = "Container " + cs.Name + " for pod " + p.Namespace + "/" + p.Name +
					" failed with exit code " + strconv.Itoa(int(cs.State.Terminated.ExitCode)) +
					" matching FailJob rule at index " + strconv.Itoa(i)
			} else {
				msg = "Pod " + p.Namespace + "/" + p.Name + " has condition " + string(cond.Type) +
					" matching FailJob rule at index " + strconv.Itoa(i)
			}
			return PolicyMatch{Action: ActionFailJob, CountFailed: true, Rule: i, Message: msg}
		}
	}
	return PolicyMatch{CountFailed: true, Rule: -1}
}

func matchExitCodes(p *podstatus.Pod, req *OnExitCodesRequirement) *podstatus.ContainerStatus {
	if cs := matchExitCodesIn(p.Status.ContainerStatuses, req); cs != nil {
		return cs
	}
	return matchExitCodesIn(p.Status.InitContainerStatuses, req)
}

func matchExitCodesIn(statuses []podstatus.ContainerStatus, req *OnExitCodesRequirement) *podstatus.ContainerStatus {
	for i := range statuses {
		cs := &statuses[i]
		t := cs.State.Terminated
		if t == nil || t.ExitCode == 0 {
			continue
		}
		if req.ContainerName != nil && *req.ContainerName != cs.Name {
			continue
		}
		switch req.Operator {
		case OpIn:
			if slices.Contains(req.Values, t.ExitCode) {
				return cs
			}
		case OpNotIn:
			if !slices.Contains(req.Values, t.ExitCode) {
				return cs
			}
		}
	}
	return nil
}

func matchConditions(p *podstatus.Pod, reqs []OnPodConditionsRequirement) *podstatus.Condition {
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		for _, r := range reqs {
			want := r.Status
			if want == "" {
				want = meta.ConditionTrue
			}
			if c.Type == r.Type && c.Status == want {
				return c
			}
		}
	}
	return nil
}
