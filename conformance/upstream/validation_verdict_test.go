package upstream_test

import (
	"errors"
	"slices"
	"testing"

	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
)

// verdict compares one kubesem error with upstream's error list. known
// classifies a kubesem rejection upstream accepts as an explained
// difference (returns its class name), or "" when it is not explained.
func verdict(t *rapid.T, what string, kerr error, uerrs utilfield.ErrorList, known func(error) string, counts map[string]int) {
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

func logCounts(t *testing.T, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%7d %s", counts[k], k)
	}
}
