package statefulset_test

import (
	"testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

func TestMain(m *testing.M) { difftest.Main(m) }
