package podgc

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// validateStep names the first pod that repeats an earlier one's namespace
// and name, whatever the order and however many pods, as a plain scan
// with a map does.
func TestPropertyFirstDuplicatePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "n")
		kinds := rapid.IntRange(1, 300).Draw(t, "distinct")
		var pods []*podstatus.Pod
		for range n {
			k := rapid.IntRange(0, kinds-1).Draw(t, "k")
			pods = append(pods, &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Namespace: fmt.Sprintf("ns%d", k%3), Name: fmt.Sprintf("p%d", k/3)}})
		}
		if rapid.Bool().Draw(t, "sortedPrefix") {
			// (a prefix in order, as a cache lists, before the order breaks)
			for i := 1; i < len(pods)/2; i++ {
				for j := i; j > 0 && pods[j].Namespace+"/"+pods[j].Name < pods[j-1].Namespace+"/"+pods[j-1].Name; j-- {
					pods[j], pods[j-1] = pods[j-1], pods[j]
				}
			}
		}
		want := ""
		seen := map[[2]string]bool{}
		for i, p := range pods {
			k := [2]string{p.Namespace, p.Name}
			if seen[k] {
				want = fmt.Sprintf("pods[%d].metadata.name", i)
				break
			}
			seen[k] = true
		}
		_, err := validateStep(pods, nil, nil, Memory{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (want == "") != (err == nil) || want != "" && !strings.Contains(got, want) {
			t.Fatalf("validateStep: %v; want the duplicate at %q", err, want)
		}
	})
}
