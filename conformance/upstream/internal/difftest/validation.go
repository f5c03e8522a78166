package difftest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// DrawBound draws a rolling-update bound around the limits API validation
// checks: absent, 0, small, huge, percentages around 0% and 100%, and
// strings that are not numbers.
func DrawBound(t *rapid.T, label string) *intstr.Value {
	words := []string{"", "0", "1", "3", "2147483647", "0%", "1%", "25%", "100%", "101%", "200%", "3000000000%", "99999999999999999999%", "000%", "-1", "-5%", "+5%", "abc", "5.5%"}
	w := rapid.SampledFrom(words).Draw(t, label)
	if w == "" {
		return nil
	}
	var v intstr.Value
	if err := v.UnmarshalJSON([]byte(BoundJSON(w))); err != nil {
		s := intstr.String(w)
		return &s
	}
	return &v
}

// BoundJSON spells a bound the way a manifest does: integers bare, the rest quoted.
func BoundJSON(w string) string {
	if strings.HasSuffix(w, "%") || strings.ContainsAny(w, "abc.+") {
		return `"` + w + `"`
	}
	return w
}

// DrawInt32Ptr draws nil (one time in four) or one of values.
func DrawInt32Ptr(t *rapid.T, label string, values ...int32) *int32 {
	if rapid.IntRange(0, 3).Draw(t, label+"Nil") == 0 {
		return nil
	}
	v := rapid.SampledFrom(values).Draw(t, label)
	return &v
}

// Verdict compares one kubesem error with upstream's error list. known
// classifies a kubesem rejection upstream accepts as an explained
// difference (returns its class name), or "" when it is not explained.
func Verdict(t *rapid.T, what string, kerr error, uerrs utilfield.ErrorList, known func(error) string, counts map[string]int) {
	if kerr == nil && len(uerrs) == 0 {
		counts["accept"]++
		return
	}
	if kerr != nil && len(uerrs) == 0 {
		if k := known(kerr); k != "" {
			counts[k]++
			return
		}
		t.Fatalf("%s: kubesem rejects %v; upstream accepts", what, kerr)
	}
	if kerr == nil {
		t.Fatalf("%s: kubesem accepts; upstream rejects %v", what, uerrs.ToAggregate())
	}
	var fe *field.Error
	if !errors.As(kerr, &fe) {
		t.Fatalf("%s: kubesem error %v is not a *field.Error", what, kerr)
	}
	paths := make([]string, len(uerrs))
	for i, e := range uerrs {
		paths[i] = e.Field
	}
	if !slices.Contains(paths, fe.Path) {
		t.Fatalf("%s: kubesem rejects at %q (%v); upstream paths %q", what, fe.Path, kerr, paths)
	}
	counts["reject "+fe.Path]++
}

// LogCounts logs each class of counts with its number, sorted by class.
func LogCounts(t *testing.T, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%7d %s", counts[k], k)
	}
}
