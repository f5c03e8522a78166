package statefulset

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// The duplicate-ordinal error names, for the lowest ordinal pods share,
// the pod whose name sorts last, whatever the order of the pods.
func checkDuplicateOrdinalError(t *rapid.T) {
	set := gset(int32(rapid.IntRange(0, 4).Draw(t, "replicas")))
	var pods []*podstatus.Pod
	byOrd := map[int32][]string{}
	for o := int32(0); o < 5; o++ {
		for _, zeros := range rapid.SliceOfNDistinct(rapid.IntRange(0, 2), 0, 3, rapid.ID[int]).Draw(t, "names") {
			name := "web-" + strings.Repeat("0", zeros) + strconv.Itoa(int(o))
			if o == 0 && zeros > 0 {
				name = "web-" + strings.Repeat("0", zeros+1)
			}
			pods = append(pods, renamed(gpod(o, rapid.SampledFrom([]string{running, pending, failed}).Draw(t, "state"), "web-v1"), name))
			byOrd[o] = append(byOrd[o], name)
		}
	}
	want := ""
	for o := int32(0); o < 5 && want == ""; o++ {
		if names := byOrd[o]; len(names) > 1 {
			want = slices.Max(names)
		}
	}
	for i := 0; i < 3; i++ {
		_, err := Step(&set, rapid.Permutation(pods).Draw(t, "order"), revs("web-v1"), nil, genNow, Options{})
		var fe *field.Error
		switch {
		case want == "" && err != nil:
			t.Fatalf("no duplicates, error %v", err)
		case want == "":
		case !errors.As(err, &fe) || fe.Path != "pods" || fe.Value != want || !errors.Is(err, field.ErrDuplicate):
			t.Fatalf("error %v; want a Duplicate naming %s", err, want)
		}
	}
}

func TestPropertyDuplicateOrdinalError(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkDuplicateOrdinalError)
}
