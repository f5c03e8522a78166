package pdb

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/podstatus"
)

// TestSortedPodsIsStableSort: sortedPods orders like a stable sort by name
// (nils dropped), names sharing long prefixes, equal or empty included.
func TestSortedPodsIsStableSort(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		pods := make([]*podstatus.Pod, n)
		for i := range pods {
			if rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("nil%d", i)) == 0 {
				continue
			}
			p := &podstatus.Pod{}
			p.Name = rapid.SampledFrom([]string{"", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgha", "abcdefg", "b", "web-0001-x", "web-0001-y", "\x00", "a\x00"}).Draw(t, fmt.Sprintf("name%d", i)) +
				strings.Repeat("z", rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("tail%d", i)))
			p.UID = fmt.Sprint(i)
			pods[i] = p
		}
		var want []*podstatus.Pod
		for _, p := range pods {
			if p != nil {
				want = append(want, p)
			}
		}
		slices.SortStableFunc(want, func(a, b *podstatus.Pod) int { return strings.Compare(a.Name, b.Name) })
		got := sortedPods(pods)
		if !slices.Equal(got, want) {
			t.Fatalf("sortedPods gives %v, a stable sort %v", names(got), names(want))
		}
	})
}

func names(ps []*podstatus.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+"#"+p.UID)
	}
	return out
}
