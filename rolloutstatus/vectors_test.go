package rolloutstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

func TestVectors(t *testing.T) {
	t.Parallel()
	conformance.Run(t, conformance.Kubesem(), conformance.Suite{Vectors: kubesem.Vectors(), Packages: []string{"rolloutstatus"}})
}
