package conformance_test

import (
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// TestKubesem runs every shipped vector against kubesem itself.
func TestKubesem(t *testing.T) {
	t.Parallel()
	conformance.Run(t, conformance.Kubesem(), conformance.Suite{Vectors: kubesem.Vectors()})
}
