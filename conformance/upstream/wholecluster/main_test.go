package wholecluster_test

import (
	"testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

func TestMain(m *testing.M) { difftest.Main(m) }

// TestHarnessesDoNotLeak runs the differential tests that build v1.36.3
// controllers with few states and fails when they leave goroutines behind
// (see difftest.CheckNoLeak).
func TestHarnessesDoNotLeak(t *testing.T) {
	difftest.CheckNoLeak(t,
		difftest.Family{Name: "wholecluster", Tests: []func(*testing.T){
			TestWholeClusterSmall,
			TestWholeClusterDifferential,
		}},
	)
}
