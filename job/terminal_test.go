package job_test

import (
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

func TestFailJobMessage(t *testing.T) {
	t.Parallel()
	main := "main"
	j := &job.Job{Spec: job.Spec{PodFailurePolicy: &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{
		{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &main, Operator: job.OpIn, Values: []int32{42}}},
	}}}}
	if _, ok := job.FailJobMessage(j, []*podstatus.Pod{exitPod("a", 1)}); ok {
		t.Error("FailJobMessage(exit 1) matched")
	}
	msg, ok := job.FailJobMessage(j, []*podstatus.Pod{exitPod("a", 1), exitPod("b", 42)})
	if !ok || msg == "" {
		t.Errorf("FailJobMessage(exit 42) = %q, %v; want a message", msg, ok)
	}
	if _, ok := job.FailJobMessage(&job.Job{}, []*podstatus.Pod{exitPod("b", 42)}); ok {
		t.Error("FailJobMessage without a policy matched")
	}
}
