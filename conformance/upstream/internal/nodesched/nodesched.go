// Package nodesched reaches the clock of the node lifecycle controller's
// tainting queues (k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler
// now, time.Now in production) for the differentials of this module.
package nodesched

import (
	"time"
	_ "unsafe" // go:linkname

	_ "k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
)

//go:linkname now k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler.now
var now func() time.Time

// Set makes f the tainting queues' clock; restore puts the previous one
// back.
func Set(f func() time.Time) (restore func()) {
	old := now
	now = f
	return func() { now = old }
}
