package upstream_test

import (
	"testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

// TestHarnessesDoNotLeak runs each harness family's differential tests
// with few states and fails when they leave goroutines behind (see
// difftest.CheckNoLeak).
func TestHarnessesDoNotLeak(t *testing.T) {
	difftest.CheckNoLeak(t,
		difftest.Family{Name: "wholecluster", Tests: []func(*testing.T){
			TestWholeClusterSmall,
			TestWholeClusterDifferential,
		}},
	)
}
