package check_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

func FuzzCounterexamplesReplay(f *testing.F) { fuzzlimit.Rapid(f, checkCounterexamplesReplay) }
func FuzzExploreOrderIndependent(f *testing.F) {
	fuzzlimit.Rapid(f, checkExploreOrderIndependent)
}

// FuzzExpression: any text either parses into a property named by it, or
// is refused with a *field.Error on "property" wrapping ErrInvalid; a
// parsed property evaluates on a world without panicking. Seeded from
// TestExpressionSyntax's table.
func FuzzExpression(f *testing.F) {
	for _, s := range []string{"available(deploy/web) >= 2", "eventually updated(sts/db) == 3 && draining() == 0",
		"!(ready(sts/db) > 3) && nodes() >= 1", "healthy(pdb/web) >= desired(pdb/web) - allowed(pdb/web)",
		"available(deploy/web >= 2", "1 && 2", "99999999999 > 1", ""} {
		f.Add(s)
	}
	fuzzlimit.Limit(f)
	w, err := rollingWorld(t0, time.Minute, "node-a")
	if err != nil {
		f.Fatal(err)
	}
	snap := check.Snapshot{State: w.State, Now: w.Now}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := check.Expression(src)
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Path != "property" || !errors.Is(err, field.ErrInvalid) {
				t.Fatalf("Expression(%q) error %v; want a *field.Error on property wrapping ErrInvalid", src, err)
			}
			return
		}
		switch {
		case p.Holds != nil:
			p.Holds(snap)
		case p.Wants != nil:
			p.Wants(snap)
		default:
			t.Fatalf("Expression(%q) has neither Holds nor Wants", src)
		}
	})
}
