package job_test

import (
	"strconv"
	"testing"

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
	got := job.FirstPendingIndexes(5, 20, job.Indexes{{1, 1}, {5, 5}, {9, 9}}, indexedPods(9, 3, 9, -1), job.Indexes{{2, 2}, {6, 7}})
	want := []int{0, 4, 8, 10, 11}
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
