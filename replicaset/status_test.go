package replicaset_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func TestComputeStatus(t *testing.T) {
	t.Parallel()
	rs := frontend(2)
	rs.Generation = 4
	rs.Spec.MinReadySeconds = 10
	active := []*podstatus.Pod{
		pod("a", "n1", podstatus.Running, ago(10*time.Second), now),
		pod("b", "n1", podstatus.Running, ago(9*time.Second), now),
		pod("c", "n1", podstatus.Pending, time.Time{}, now),
		nil,
	}
	active[2].Labels = nil
	got := replicaset.ComputeStatus(rs, active, []*podstatus.Pod{nil}, errors.New("quota"), now, replicaset.Options{})
	one := int32(1)
	want := replicaset.Status{Replicas: 4, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 1, TerminatingReplicas: &one, ObservedGeneration: 4,
		Conditions: []replicaset.Condition{{Type: replicaset.ReplicaFailure, Status: meta.ConditionTrue, LastTransitionTime: now, Reason: replicaset.ReasonFailedDelete, Message: "quota"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ComputeStatus (-want +got):\n%s", diff)
	}
	rs.Kind = replicaset.KindReplicationController
	if got := replicaset.ComputeStatus(rs, nil, nil, nil, now, replicaset.Options{}); got.TerminatingReplicas != nil {
		t.Errorf("ComputeStatus(RC).TerminatingReplicas = %d; want nil", *got.TerminatingReplicas)
	}
}
