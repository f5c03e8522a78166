package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
)

func TestDeploymentRolloutStatus(t *testing.T) {
	t.Parallel()
	n := int32(3)
	d := &rollout.Deployment{}
	d.Name, d.Generation = "nginx", 1
	d.Spec.Replicas = &n
	d.Status = rollout.Status{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 2}
	s := rollout.DeploymentRolloutStatus(d, 0)
	if want := "Waiting for deployment \"nginx\" rollout to finish: 2 out of 3 new replicas have been updated...\n"; s.Message != want || s.Done {
		t.Errorf("DeploymentRolloutStatus = %q, %v; want %q, false", s.Message, s.Done, want)
	}
	if code, exits := s.ExitCode(true); exits {
		t.Errorf("ExitCode(watch) = %d, true; want keep watching", code)
	}
	d.Status.Conditions = []rollout.Condition{stCond(rollout.Progressing, meta.ConditionFalse, rollout.ReasonProgressDeadlineExceeded, stT0)}
	s = rollout.DeploymentRolloutStatus(d, 0)
	if code, exits := s.ExitCode(true); s.Err == "" || code != 1 || !exits {
		t.Errorf("DeploymentRolloutStatus(deadline exceeded) = %+v exit %d, %v; want an error, exit 1", s, code, exits)
	}
}

func TestStatefulSetRolloutStatusPartition(t *testing.T) {
	t.Parallel()
	var v rollout.StatefulSetView
	n, p := int32(3), int32(2)
	v.Generation, v.Status.ObservedGeneration, v.Status.ReadyReplicas = 1, 1, 3
	v.Spec.Replicas = &n
	v.Spec.UpdateStrategy.Type = "RollingUpdate"
	v.Spec.UpdateStrategy.RollingUpdate = &rollout.StatefulSetRollingUpdate{Partition: &p}
	if s := rollout.StatefulSetRolloutStatus(&v); s.Done {
		t.Errorf("StatefulSetRolloutStatus(0 of 1 updated) done = true; want false")
	}
	v.Status.UpdatedReplicas = 1
	if s := rollout.StatefulSetRolloutStatus(&v); !s.Done {
		t.Errorf("StatefulSetRolloutStatus(1 of 1 updated) done = false; want true")
	}
}
