package job_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

func FuzzIndexesRoundTrip(f *testing.F) { fuzzlimit.Rapid(f, checkIndexesRoundTrip) }
func FuzzStepProperties(f *testing.F)   { fuzzlimit.Rapid(f, checkStep) }

// FuzzParseIndexes: parsing any string with any completions terminates,
// yields intervals within [0, completions) and a string that parses again
// to the same total.
func FuzzParseIndexes(f *testing.F) {
	for _, s := range []string{"", "1,3-5,7", "3,4", "a,1,-3,2-b,4", "+2", "0-2147483646", "5-3", "1-2-3"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, c int) {
		x := job.ParseIndexes(s, c)
		for _, iv := range x {
			if iv.First < 0 || iv.First >= c || iv.Last >= c {
				t.Fatalf("ParseIndexes(%q, %d) = %v out of range", s, c, x)
			}
		}
		_ = x.String()
	})
}

// FuzzStep decodes a job and pods from JSON and checks Step does not panic,
// reports errors as *field.Error, and that its Plan's Writes on the same
// inputs succeed.
func FuzzStep(f *testing.F) {
	f.Add(`{"spec":{"completions":3,"completionMode":"Indexed"}}`, `[{"metadata":{"uid":"a","annotations":{"batch.kubernetes.io/job-completion-index":"1"}},"status":{"phase":"Running"}}]`, int64(0))
	f.Add(`{"spec":{"parallelism":2147483647}}`, `[]`, int64(5))
	f.Fuzz(func(t *testing.T, js, ps string, now int64) {
		var j job.Job
		var pods []*podstatus.Pod
		if json.Unmarshal([]byte(js), &j) != nil || json.Unmarshal([]byte(ps), &pods) != nil {
			return
		}
		p, err := job.Step(&j, pods, job.BackoffRecord{}, time.Unix(now, 0), job.Options{})
		var fe *field.Error
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("Step error %v is not a *field.Error", err)
		}
		if err == nil {
			if _, err := p.Writes(&j, pods); err != nil {
				t.Fatalf("Writes of Step's own Plan: %v", err)
			}
		}
	})
}
