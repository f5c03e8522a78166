package rolloutstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
	"github.com/kubesem/kubesem/statefulset"
)

func BenchmarkViewers(b *testing.B) {
	n := int32(3)
	d := &rollout.Deployment{}
	d.Name, d.Spec.Replicas = "web", &n
	d.Status = rollout.Status{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}
	var ds daemonset.DaemonSet
	ds.Spec.UpdateStrategy.Type = daemonset.RollingUpdate
	var ss statefulset.StatefulSet
	ss.Spec.UpdateStrategy.Type = statefulset.RollingUpdate
	b.ReportAllocs()
	for b.Loop() {
		rolloutstatus.Deployment(d, 0)
		rolloutstatus.DaemonSet(&ds)
		rolloutstatus.StatefulSet(&ss)
	}
}
