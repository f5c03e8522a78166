package pdb_test

import (
	"testing"

	"github.com/kubesem/kubesem/pdb"
)

func TestPolicy(t *testing.T) {
	t.Parallel()
	b := budget(nil, nil)
	if got := b.Policy(); got != pdb.IfHealthyBudget {
		t.Errorf("Policy(unset) = %q; want IfHealthyBudget", got)
	}
	for _, p := range []pdb.EvictionPolicy{pdb.IfHealthyBudget, pdb.AlwaysAllow} {
		b.Spec.UnhealthyPodEvictionPolicy = &p
		if got := b.Policy(); got != p {
			t.Errorf("Policy(%q) = %q; want %q", p, got, p)
		}
	}
}
