package cronjob

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"pgregory.net/rapid"
)

// TestSortStableIsStable: sortStable orders jobs as slices.SortStableFunc
// does (equal jobs kept in their order), by start time and by name and
// UID, on lists with repeated names, UIDs and start times, some in order
// already.
func TestSortStableIsStable(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		jobs := make([]*job.Job, n)
		for i := range jobs {
			j := &job.Job{}
			j.Name = fmt.Sprint("j", rapid.IntRange(0, 5).Draw(t, "name"))
			j.UID = fmt.Sprint("u", rapid.IntRange(0, 2).Draw(t, "uid"))
			if s := rapid.IntRange(-1, 3).Draw(t, "start"); s >= 0 {
				at := base.Add(time.Duration(s) * time.Minute)
				j.Status.StartTime = &at
			}
			jobs[i] = j
		}
		for _, compare := range []func(a, b *job.Job) int{compareStartTime, compareNameUID} {
			in := slices.Clone(jobs)
			if rapid.Bool().Draw(t, "in order") {
				slices.SortStableFunc(in, compare)
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, compare)
			got := slices.Clone(in)
			sortStable(got, compare)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("sortStable differs from a stable sort at %d", i)
				}
			}
		}
	})
}
