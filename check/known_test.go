package check_test

import (
	"strings"
	"testing"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/statefulset"
)

// The four known cases of issue 22, each found by the checker from its
// configuration alone (objects, pod behaviours and an alphabet; no
// scripted event), each with a fixed configuration that the checker
// reports safe within its bound.

// knownCase is a scenario, its alphabet, the property it breaks and the
// fix that makes the property hold.
type knownCase struct {
	name     string
	sc       cluster.Scenario
	a        check.Alphabet
	property string
	fixed    cluster.Scenario
}

// statefulSetTrap: an OrderedReady StatefulSet updated to a template whose
// pods never become Ready stalls; reverting the template does not unstick
// it (seed 002's forced rollback: the broken pod must be deleted by hand).
// Fixed: podManagementPolicy Parallel, where the revert replaces the
// broken pod.
func statefulSetTrap(policy statefulset.PodManagementPolicy) cluster.Scenario {
	return cluster.Scenario{Start: t0, Objects: append(nodes(3), statefulSet("web", 3, policy)),
		Pods: []cluster.PodBehavior{
			{Selector: &meta.LabelSelector{MatchLabels: map[string]string{"version": "bad"}}, NeverReady: true},
			{ReadyDelay: seconds(5)},
		}}
}

func trapAlphabet() check.Alphabet {
	bad := template(map[string]string{"app": "web", "version": "bad"}, "web:bad")
	good := template(map[string]string{"app": "web"}, "web:1")
	return check.Alphabet{Events: []cluster.Event{
		{Kind: cluster.EventTemplate, Target: key(cluster.KindStatefulSet, "web"), Template: &bad},
		{Kind: cluster.EventTemplate, Target: key(cluster.KindStatefulSet, "web"), Template: &good},
	}}
}

// drainScenario: a Deployment of 3 on 3 nodes under a budget of
// maxUnavailable budgetMax; a node may be drained. With 0 the drain never
// finishes; fixed with 1.
func drainScenario(budgetMax int32) cluster.Scenario {
	return cluster.Scenario{Start: t0, Objects: append(nodes(3), deployment("web", 3, 1, 0), budget("web", "web", budgetMax)),
		Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
}

// jobScenario: a Job of parallelism 2 whose pod may be evicted: under
// podReplacementPolicy TerminatingOrFailed (the default) its replacement
// runs beside the terminating pod; fixed with Failed.
func jobScenario(policy job.PodReplacementPolicy) cluster.Scenario {
	return cluster.Scenario{Start: t0, Objects: append(nodes(2), batchJob("batch", 2, policy)),
		Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
}

// daemonSetScenario: a DaemonSet on 4 nodes whose image changes while a
// node may stop: with maxUnavailable 1 the pod of the NotReady node holds
// the whole update; fixed with maxUnavailable 2.
func daemonSetScenario(maxUnavailable int32) cluster.Scenario {
	return cluster.Scenario{Start: t0, Objects: append(nodes(4), daemonSet("agent", maxUnavailable)),
		Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
}

func knownCases() []knownCase {
	return []knownCase{
		{"statefulset-forced-rollback", statefulSetTrap(statefulset.OrderedReady), trapAlphabet(), "statefulset-completes", statefulSetTrap("Parallel")},
		{"drain-budget-zero", drainScenario(0), check.Alphabet{Drains: 1}, "drain-completes", drainScenario(1)},
		{"job-replacement-beside-terminating", jobScenario(""), check.Alphabet{Evictions: 1}, "job-exclusive", jobScenario("Failed")},
		{"daemonset-notready-node", daemonSetScenario(1),
			check.Alphabet{NodeOutages: 1, Events: []cluster.Event{{Kind: cluster.EventImage, Target: key(cluster.KindDaemonSet, "agent"), Image: "agent:2"}}},
			"daemonset-completes", daemonSetScenario(2)},
	}
}

func result(t *testing.T, r *check.Report, name string) check.Result {
	t.Helper()
	for _, x := range r.Results {
		if x.Property == name {
			return x
		}
	}
	t.Fatalf("no result for %s among %d", name, len(r.Results))
	return check.Result{}
}

func TestKnownCases(t *testing.T) {
	t.Parallel()
	for _, c := range knownCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := check.Explore(c.sc, c.a, nil, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Complete {
				t.Errorf("search incomplete at %d states", r.States)
			}
			got := result(t, r, c.property)
			if got.Held || got.Counterexample == nil {
				t.Fatalf("%s held over %d states; want a counterexample", c.property, r.States)
			}
			cx := got.Counterexample
			t.Logf("%d states; %s: %s\n  path (%d): %s", r.States, c.property, cx.Message, cx.Depth, strings.Join(cx.Path, ", "))
			for _, x := range r.Results {
				if !x.Held && x.Property != c.property {
					t.Logf("also violated: %s: %s", x.Property, x.Counterexample.Message)
				}
			}
			fixed, err := check.Explore(c.fixed, c.a, nil, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f := result(t, fixed, c.property); !f.Held {
				t.Errorf("fixed configuration: %s violated: %s (path %s)", c.property, f.Counterexample.Message, strings.Join(f.Counterexample.Path, ", "))
			}
			if !fixed.Complete {
				t.Errorf("fixed: search incomplete at %d states", fixed.States)
			}
			t.Logf("fixed: %d states, held", fixed.States)
		})
	}
}
