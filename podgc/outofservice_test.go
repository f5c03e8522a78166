package podgc_test

import (
	"testing"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/stretchr/testify/require"
)

// OutOfService needs both a Ready condition that is not True and the
// taint, whatever its value and effect.
func TestOutOfService(t *testing.T) {
	t.Parallel()
	require.True(t, podgc.OutOfService(gcNode("n", "False", true)))
	require.True(t, podgc.OutOfService(gcNode("n", "Unknown", true)))
	require.True(t, podgc.OutOfService(gcNode("n", "", true)), "no Ready condition is not Ready")
	require.False(t, podgc.OutOfService(gcNode("n", "True", true)), "Ready")
	require.False(t, podgc.OutOfService(gcNode("n", "False", false)), "no taint")
	require.False(t, podgc.OutOfService(nil))
	n := gcNode("n", "False", false)
	n.Spec.Taints = []node.Taint{{Key: "other"}, {Key: podgc.OutOfServiceTaint, Effect: node.NoExecute}}
	require.True(t, podgc.OutOfService(n), "NoExecute, after another taint")
}
