package job_test

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

func TestParseIndexes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		in          string
		completions int
		want        string
		total       int
	}{
		{"seed format", "1,3-5,7", 10, "1,3-5,7", 5},
		{"pair written with comma", "3-4", 10, "3,4", 2},
		{"merge adjacent", "1,2,3", 10, "1-3", 3},
		{"stop at completions", "1,5,2", 5, "1", 1},
		{"clamp end", "2-9", 5, "2-4", 3},
		{"skip corrupt", "x,1,2-y,,4", 10, "1,4", 2},
		{"overflow is corrupt, not a stop", "99999999999999999999,1", 10, "1", 1},
		{"large first stops", "9999999999,1", 10, "", 0},
		{"max int32 completions", "0-2147483646", 2147483647, "0-2147483646", 2147483647},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			x := job.ParseIndexes(c.in, c.completions)
			if got := x.String(); got != c.want || x.Total() != c.total {
				t.Errorf("ParseIndexes(%q, %d) = %q (total %d); want %q (total %d)", c.in, c.completions, got, x.Total(), c.want, c.total)
			}
		})
	}
}

func TestIndexesHas(t *testing.T) {
	t.Parallel()
	x := job.Indexes{{2, 4}, {6, 8}}
	for i, want := range map[int]bool{1: false, 2: true, 4: true, 5: false, 8: true, 9: false} {
		if got := x.Has(i); got != want {
			t.Errorf("Has(%d) = %v; want %v", i, got, want)
		}
	}
}

func TestFirstPendingIndexes(t *testing.T) {
	t.Parallel()
	got, err := job.FirstPendingIndexes(5, 20, job.Indexes{{1, 1}, {5, 5}, {9, 9}}, indexedPods(9, 3, 9, -1), job.Indexes{{2, 2}, {6, 7}})
	want := []int{0, 4, 8, 10, 11}
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("FirstPendingIndexes = %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("FirstPendingIndexes = %v; want %v", got, want)
		}
	}
}

// indexedPods returns pods holding the given completion indexes; -1 is a
// pod without the annotation.
func indexedPods(indexes ...int) []*podstatus.Pod {
	pods := make([]*podstatus.Pod, len(indexes))
	for i, ix := range indexes {
		pods[i] = &podstatus.Pod{}
		if ix >= 0 {
			pods[i].Annotations = map[string]string{job.CompletionIndexAnnotation: strconv.Itoa(ix)}
		}
	}
	return pods
}

// TestFirstPendingIndexesBounded: a count past MaxPendingIndexes, or
// completions beyond int32, is a field error, answered without allocating
// for it; the largest count is answered.
func TestFirstPendingIndexesBounded(t *testing.T) { // not parallel: AllocsPerRun
	cases := []struct {
		count, completions int
		succeeded, failed  job.Indexes
		path               string
		err                error
	}{
		{math.MaxInt64, math.MaxInt64, nil, nil, "count", field.ErrInvalid},
		{job.MaxPendingIndexes + 1, 10, nil, nil, "count", field.ErrInvalid},
		{3, math.MaxInt32 + 1, nil, nil, "completions", field.ErrOverflow},
		{3, -1, nil, nil, "completions", field.ErrNegative},
		{3, 10, job.Indexes{{5, 3}}, nil, "succeeded[0]", field.ErrInvalid},
		{3, 10, nil, job.Indexes{{1, 2}, {2, 4}}, "failed[1]", field.ErrInvalid},
	}
	for _, c := range cases {
		_, err := job.FirstPendingIndexes(c.count, c.completions, c.succeeded, nil, c.failed)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("FirstPendingIndexes(%d, %d, %v, %v) = %v; want %v at %s", c.count, c.completions, c.succeeded, c.failed, err, c.err, c.path)
		}
	}
	allocs := testing.AllocsPerRun(10, func() { _, _ = job.FirstPendingIndexes(math.MaxInt64, math.MaxInt64, nil, nil, nil) })
	if allocs > 2 {
		t.Errorf("refusing a huge count allocates %v times", allocs)
	}
	got, err := job.FirstPendingIndexes(job.MaxPendingIndexes, math.MaxInt32, job.Indexes{{0, 9}}, nil, nil)
	if err != nil || len(got) != job.MaxPendingIndexes || got[0] != 10 || got[len(got)-1] != 10+job.MaxPendingIndexes-1 {
		t.Errorf("FirstPendingIndexes(MaxPendingIndexes) = %d indexes, %v", len(got), err)
	}
}

// TestValidateIndexes: well-formed interval lists pass; negative, beyond
// int32, reversed, overlapping and unordered intervals are field errors at
// the interval.
func TestValidateIndexes(t *testing.T) {
	t.Parallel()
	for _, x := range []job.Indexes{nil, {{0, 0}}, {{0, 2}, {3, 3}, {5, 9}}, {{0, job.MaxIndex}}} {
		if err := job.ValidateIndexes("x", x); err != nil {
			t.Errorf("ValidateIndexes(%v) = %v; want nil", x, err)
		}
	}
	for _, c := range []struct {
		x    job.Indexes
		path string
		err  error
	}{
		{job.Indexes{{0, math.MaxInt64}, {5, 3}, {-5, -1}}, "x[0]", field.ErrOverflow},
		{job.Indexes{{0, 1}, {5, 3}}, "x[1]", field.ErrInvalid},
		{job.Indexes{{-5, -1}}, "x[0]", field.ErrNegative},
		{job.Indexes{{4, 6}, {6, 8}}, "x[1]", field.ErrInvalid},
		{job.Indexes{{4, 6}, {1, 2}}, "x[1]", field.ErrInvalid},
		{job.Indexes{{0, job.MaxIndex + 1}}, "x[0]", field.ErrOverflow},
	} {
		err := job.ValidateIndexes("x", c.x)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("ValidateIndexes(%v) = %v; want %v at %s", c.x, err, c.err, c.path)
		}
	}
}
