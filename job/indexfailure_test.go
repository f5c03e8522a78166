package job_test

import (
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func failedPod(failures, ignored string, conds ...podstatus.ConditionType) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Annotations = map[string]string{}
	if failures != "" {
		p.Annotations[job.IndexFailureCountAnnotation] = failures
	}
	if ignored != "" {
		p.Annotations[job.IndexIgnoredFailureCountAnnotation] = ignored
	}
	p.Status.Phase = podstatus.Failed
	for _, c := range conds {
		p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: c, Status: meta.ConditionTrue})
	}
	return p
}

func TestNewIndexFailureCounts(t *testing.T) {
	t.Parallel()
	ignore := &job.Job{Spec: job.Spec{PodFailurePolicy: &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{
		Action: job.ActionIgnore, OnPodConditions: []job.OnPodConditionsRequirement{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue}}}}}}}
	for _, c := range []struct {
		name          string
		j             *job.Job
		p             *podstatus.Pod
		wantF, wantIg int32
	}{
		{"first pod", &job.Job{}, nil, 0, 0},
		{"counted failure", &job.Job{}, failedPod("3", ""), 4, 0},
		{"ignored failure", ignore, failedPod("3", "1", podstatus.DisruptionTarget), 3, 2},
		{"bad annotation reads 0", &job.Job{}, failedPod("-1", "xyz"), 1, 0},
		{"wraps at MaxInt32", &job.Job{}, failedPod("2147483647", ""), -1 << 31, 0},
	} {
		f, ig := job.NewIndexFailureCounts(c.j, c.p)
		if f != c.wantF || ig != c.wantIg {
			t.Errorf("%s: NewIndexFailureCounts = %d, %d; want %d, %d", c.name, f, ig, c.wantF, c.wantIg)
		}
	}
}

func TestIsSucceeded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		conds []job.Condition
		want  bool
	}{
		{nil, false},
		{[]job.Condition{{Type: job.Failed, Status: meta.ConditionTrue}, {Type: job.Complete, Status: meta.ConditionTrue}}, true},
		{[]job.Condition{{Type: job.Complete, Status: meta.ConditionFalse}}, false},
	} {
		j := &job.Job{Status: job.Status{Conditions: c.conds}}
		if got := j.IsSucceeded(); got != c.want {
			t.Errorf("IsSucceeded(%+v) = %v; want %v", c.conds, got, c.want)
		}
	}
}
