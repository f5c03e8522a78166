package conformance_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// Check runs vectors against an implementation and returns one Result per
// vector; here kubesem's own implementation against its intstr vectors.
func ExampleCheck() {
	results, err := conformance.Check(conformance.Kubesem(), conformance.Suite{
		Vectors: kubesem.Vectors(),
		Match:   regexp.MustCompile(`^intstr/`),
	})
	if err != nil {
		panic(err)
	}
	failed := 0
	for _, r := range results {
		if r.Failure != "" {
			failed++
		}
	}
	fmt.Println(len(results) > 50, failed)
	// Output: true 0
}

// TestRunExample is the use of Run shown in the README and conformance/README.md: one subtest per vector,
// "<package>/<name>", for an implementation of your own (here kubesem's).
func TestRunExample(t *testing.T) {
	myImpl := conformance.Kubesem()
	conformance.Run(t, myImpl, conformance.Suite{Vectors: kubesem.Vectors(), Packages: []string{"intstr"}})
}
