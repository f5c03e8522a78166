package check_test

import (
	"fmt"
	"strings"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
)

// A Job of parallelism 2 whose running pod may be evicted once: under the
// default podReplacementPolicy (TerminatingOrFailed) the checker finds the
// replacement running beside the evicted pod, still terminating; under
// Failed it finds every path safe.
func ExampleExplore() {
	for _, policy := range []string{"", "Failed"} {
		sc := cluster.Scenario{Start: t0, Objects: append(nodes(2), batchJob("batch", 2, jobPolicy(policy))),
			Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
		exclusive, _ := check.Builtin("job-exclusive")
		r, err := check.Explore(sc, check.Alphabet{Evictions: 1}, []check.Property{exclusive}, check.Options{})
		if err != nil {
			panic(err)
		}
		res := r.Results[0]
		fmt.Printf("policy %q: %d states, complete %v; %s held: %v\n", policy, r.States, r.Complete, res.Property, res.Held)
		if cx := res.Counterexample; cx != nil {
			fmt.Println(" ", cx.Message)
			fmt.Println("  path:", strings.Join(cx.Path, ", "))
		}
	}
	// Output:
	// policy "": 5 states, complete true; job-exclusive held: false
	//   Job default/batch (podReplacementPolicy TerminatingOrFailed) runs 2 active pods beside 1 terminating, more than parallelism 2
	//   path: evict Pod/default/batch-jbbbb at +1m10s, tick
	// policy "Failed": 5 states, complete true; job-exclusive held: true
}

// An expression is a property: a safety property, or with "eventually" a
// liveness one.
func ExampleExpression() {
	for _, src := range []string{"available(deploy/web) >= 2", "eventually updated(sts/db) == 3", "available(deploy/web)"} {
		p, err := check.Expression(src)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s: liveness %v\n", p.Name, p.IsLiveness())
	}
	// Output:
	// available(deploy/web) >= 2: liveness false
	// eventually updated(sts/db) == 3: liveness true
	// error: property: "available(deploy/web)": invalid value: at 21: not a condition: compare it (for example available(deploy/web) >= 1)
}
