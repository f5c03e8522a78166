package job_test

import (
	"testing"

	"github.com/kubesem/kubesem/job"
)

func TestMatchSuccessPolicy(t *testing.T) {
	t.Parallel()
	idx := "0-2"
	two := int32(2)
	policy := &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: &idx, SucceededCount: &two}}}
	for _, c := range []struct {
		name      string
		succeeded string
		want      bool
	}{
		{"two of 0-2 succeeded", "0,2", true},
		{"one of 0-2 succeeded", "1,4", false},
		{"nothing succeeded", "", false},
	} {
		msg, ok := job.MatchSuccessPolicy(policy, 5, job.ParseIndexes(c.succeeded, 5))
		if ok != c.want || (ok && msg != "Matched rules at index 0") {
			t.Errorf("%s: MatchSuccessPolicy = %q, %v; want %v", c.name, msg, ok, c.want)
		}
	}
	if _, ok := job.MatchSuccessPolicy(nil, 5, job.ParseIndexes("0-4", 5)); ok {
		t.Error("MatchSuccessPolicy(nil policy) matched")
	}
}
