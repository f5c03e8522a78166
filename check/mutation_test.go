package check_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// orderedReadyIgnoresReadiness is a mutation of the StatefulSet
// controller: when it creates the pod of ordinal n of a set of replicas
// pods, it also creates ordinal n+1, without waiting for n to be Running
// and Ready (OrderedReady ignoring readiness).
func orderedReadyIgnoresReadiness(replicas int32) cluster.Rewrite {
	return func(ctl string, _ cluster.Key, ws []plan.Write) []plan.Write {
		if ctl != cluster.CtlStatefulSet {
			return ws
		}
		out := ws
		for _, w := range ws {
			p, ok := w.Object.(*podstatus.Pod)
			if w.Verb != plan.VerbCreate || w.Resource != "pods" || w.Subresource != "" || !ok {
				continue
			}
			set, ord, ok := statefulset.ParentAndOrdinal(p.Name)
			if !ok || ord+1 >= replicas {
				continue
			}
			q := *p
			q.Name = statefulset.PodName(set, ord+1)
			q.Labels = maps.Clone(p.Labels)
			maps.Copy(q.Labels, statefulset.IdentityLabels(set, ord+1))
			q.Spec.Hostname = q.Name
			next := w
			next.Name = ""
			next.Object = &q
			out = append(out[:len(out):len(out)], next)
		}
		return out
	}
}

// TestMutationOrderedReady: with the StatefulSet controller mutated to
// ignore readiness, statefulset-ordered-ready fails with a counterexample;
// unmutated, it holds.
func TestMutationOrderedReady(t *testing.T) {
	t.Parallel()
	sc := statefulSetTrap(statefulset.OrderedReady)
	props := []check.Property{mustBuiltin(t, "statefulset-ordered-ready")}
	a := check.Alphabet{PodFailures: 1}
	opts := check.Options{FromStart: true}
	r, err := check.Explore(sc, a, props, opts)
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Failed(); len(f) != 0 {
		t.Fatalf("unmutated: %s violated: %s", f[0].Property, f[0].Counterexample.Message)
	}
	opts.World.Rewrite = orderedReadyIgnoresReadiness(3)
	r, err = check.Explore(sc, a, props, opts)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Results[0]
	if res.Held {
		t.Fatalf("mutated: statefulset-ordered-ready held over %d states", r.States)
	}
	cx := res.Counterexample
	if !strings.Contains(cx.Message, "creates web-1 while web-0 is not Running and Ready") {
		t.Errorf("message %q; want web-1 created before web-0 is ready", cx.Message)
	}
	t.Logf("%s (depth %d, at +%v): %s", cx.Message, cx.Depth, cx.At, strings.Join(cx.Path, ", "))
}

func mustBuiltin(t *testing.T, name string) check.Property {
	t.Helper()
	p, ok := check.Builtin(name)
	if !ok {
		t.Fatalf("no builtin %s", name)
	}
	return p
}
