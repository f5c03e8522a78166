package check_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/field"
)

// TestExpressionSyntax: what parses and what is refused, with the field
// path "property" and field.ErrInvalid.
func TestExpressionSyntax(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src      string
		ok, live bool
	}{
		{"available(deploy/web) >= 2", true, false},
		{"pods(deploy/shop/web) <= replicas(deploy/shop/web) + 1", true, false},
		{"terminating(job/batch) == 0 || pods(job/batch) < 2", true, false},
		{"!(ready(sts/db) > 3) && nodes() >= 1", true, false},
		{"eventually updated(sts/db) == 3 && draining() == 0", true, true},
		{"running(cronjob/report) <= 1", true, false},
		{"healthy(pdb/web) >= desired(pdb/web) - allowed(pdb/web)", true, false},
		{"available(deploy/web)", false, false},           // a number, not a condition
		{"available(deploy/web) >= 2 >= 1", false, false}, // chained comparison
		{"availble(deploy/web) >= 2", false, false},       // unknown function
		{"available(pod/web) >= 2", false, false},         // unknown kind
		{"running(deploy/web) >= 2", false, false},        // wrong kind
		{"available(deploy/web >= 2", false, false},       // missing )
		{"1 && 2", false, false},                          // && of numbers
		{"(1 < 2) + 1 > 0", false, false},                 // + of a condition
		{"99999999999 > 1", false, false},                 // beyond int32
		{"", false, false},
		{"nodes() >= 1 )", false, false},
	} {
		p, err := check.Expression(c.src)
		if c.ok != (err == nil) {
			t.Errorf("Expression(%q) = %v; want ok %v", c.src, err, c.ok)
			continue
		}
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Path != "property" || !errors.Is(err, field.ErrInvalid) {
				t.Errorf("Expression(%q) error %v; want a *field.Error on property wrapping ErrInvalid", c.src, err)
			}
			continue
		}
		if p.IsLiveness() != c.live {
			t.Errorf("Expression(%q) liveness %v; want %v", c.src, p.IsLiveness(), c.live)
		}
	}
}

// TestExpressionExplored: "pods(deploy/web) <= 3" fails during a rolling
// update with maxSurge 1 (a fourth pod runs) and its message gives the
// values; "<= 4" holds, and so does the liveness "eventually updated ==
// 3", while "eventually updated == 4" does not.
func TestExpressionExplored(t *testing.T) {
	t.Parallel()
	sc := drainScenario(1)
	a := check.Alphabet{Events: []cluster.Event{{Kind: cluster.EventImage, Target: key(cluster.KindDeployment, "web"), Image: "web:2"}}}
	var props []check.Property
	for _, src := range []string{"pods(deploy/web) <= 3", "pods(deploy/web) <= 4", "eventually updated(deploy/web) == 3 && available(deploy/web) == 3", "eventually updated(deploy/web) == 4"} {
		p, err := check.Expression(src)
		if err != nil {
			t.Fatal(err)
		}
		props = append(props, p)
	}
	r, err := check.Explore(sc, a, props, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, true, false}
	for i, res := range r.Results {
		if res.Held != want[i] {
			t.Errorf("%s held %v; want %v", res.Property, res.Held, want[i])
		}
	}
	if cx := r.Results[0].Counterexample; cx == nil || !strings.Contains(cx.Message, "pods(deploy/web) = 4") {
		t.Errorf("counterexample %+v; want the value 4 in its message", cx)
	}
}
