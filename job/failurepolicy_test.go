package job_test

import (
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func exitPod(name string, code int32) *podstatus.Pod {
	return &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: name}, Status: podstatus.Status{Phase: podstatus.Failed,
		ContainerStatuses: []podstatus.ContainerStatus{{Name: "main", State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: code}}}}}}
}

func TestMatchPodFailurePolicy(t *testing.T) {
	t.Parallel()
	main := "main"
	policy := &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{
		{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &main, Operator: job.OpIn, Values: []int32{42}}},
		{Action: job.ActionCount, OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpNotIn, Values: []int32{0, 42}}},
	}}
	for _, c := range []struct {
		name   string
		policy *job.PodFailurePolicy
		pod    *podstatus.Pod
		action job.PodFailurePolicyAction
		count  bool
	}{
		{"no policy counts the failure", nil, exitPod("a", 42), "", true},
		{"exit 42 matches FailJob", policy, exitPod("a", 42), job.ActionFailJob, true},
		{"exit 1 matches Count (NotIn 0, 42)", policy, exitPod("a", 1), job.ActionCount, true},
		{"exit 0 matches no rule", policy, exitPod("a", 0), "", true},
	} {
		m := job.MatchPodFailurePolicy(c.policy, c.pod)
		if m.Action != c.action || m.CountFailed != c.count {
			t.Errorf("%s: MatchPodFailurePolicy = %q, %v; want %q, %v", c.name, m.Action, m.CountFailed, c.action, c.count)
		}
	}
}
