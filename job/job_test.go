package job_test

import (
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

func TestFinishedCondition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		conds []job.Condition
		want  job.ConditionType
	}{
		{"none", nil, ""},
		{"a False Complete is not finished", []job.Condition{{Type: job.Complete, Status: meta.ConditionFalse}}, ""},
		{"FailureTarget is not finished", []job.Condition{{Type: job.FailureTarget, Status: meta.ConditionTrue}}, ""},
		{"the first True Failed or Complete", []job.Condition{{Type: job.Suspended, Status: meta.ConditionTrue}, {Type: job.Failed, Status: meta.ConditionTrue}, {Type: job.Complete, Status: meta.ConditionTrue}}, job.Failed},
	} {
		j := &job.Job{Status: job.Status{Conditions: c.conds}}
		var got job.ConditionType
		if fc := j.FinishedCondition(); fc != nil {
			got = fc.Type
		}
		if got != c.want || j.IsFinished() != (c.want != "") {
			t.Errorf("%s: FinishedCondition = %q, IsFinished %v; want %q", c.name, got, j.IsFinished(), c.want)
		}
	}
}
