package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func stRS(name string, spec, status, available int32) *replicaset.ReplicaSet {
	rs := &replicaset.ReplicaSet{}
	rs.Name = name
	rs.Spec.Replicas = &spec
	rs.Status = replicaset.Status{Replicas: status, ReadyReplicas: available, AvailableReplicas: available}
	return rs
}

func TestComputeStatus(t *testing.T) {
	t.Parallel()
	n := int32(4)
	d := &rollout.Deployment{}
	d.Generation = 5
	d.Spec.Replicas = &n
	old, cur := stRS("old", 3, 3, 3), stRS("new", 2, 2, 0)
	s := rollout.ComputeStatus(d, cur, []*replicaset.ReplicaSet{old, cur}, stT0)
	if s.ObservedGeneration != 5 || s.Replicas != 5 || s.UpdatedReplicas != 2 || s.AvailableReplicas != 3 || s.UnavailableReplicas != 2 {
		t.Errorf("ComputeStatus = %+v; want observed 5, replicas 5, updated 2, available 3, unavailable 2", s)
	}
	// 25% of 4 rounds down to 1 unavailable: 3 available is enough.
	if c, _ := meta.Conditions(s.Conditions).Find(rollout.Available); c.Status != meta.ConditionTrue {
		t.Errorf("ComputeStatus Available = %v; want True", c)
	}
	cur.Status.AvailableReplicas = 0
	old.Status.AvailableReplicas = 2
	s = rollout.ComputeStatus(d, cur, []*replicaset.ReplicaSet{old, cur}, stT0)
	if c, _ := meta.Conditions(s.Conditions).Find(rollout.Available); c.Status != meta.ConditionFalse || c.Reason != rollout.ReasonMinimumReplicasUnavailable {
		t.Errorf("ComputeStatus Available = %v; want False MinimumReplicasUnavailable", c)
	}
	if len(d.Status.Conditions) != 0 {
		t.Errorf("ComputeStatus modified d's conditions: %v", d.Status.Conditions)
	}
}

func TestComputeStatusTerminating(t *testing.T) {
	t.Parallel()
	d := &rollout.Deployment{}
	synced := stRS("synced", 1, 1, 1)
	synced.Status.ObservedGeneration = 1
	if s := rollout.ComputeStatus(d, nil, []*replicaset.ReplicaSet{synced}, stT0); s.TerminatingReplicas != nil {
		t.Errorf("ComputeStatus terminating = %d; want nil", *s.TerminatingReplicas)
	}
	two := int32(2)
	synced.Status.TerminatingReplicas = &two
	if s := rollout.ComputeStatus(d, nil, []*replicaset.ReplicaSet{synced, stRS("fresh", 0, 0, 0)}, stT0); s.TerminatingReplicas == nil || *s.TerminatingReplicas != 2 {
		t.Errorf("ComputeStatus terminating = %v; want 2", s.TerminatingReplicas)
	}
}
