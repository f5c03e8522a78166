package rolloutstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
	"github.com/kubesem/kubesem/statefulset"
)

func TestDeployment(t *testing.T) {
	t.Parallel()
	n := int32(3)
	d := &rollout.Deployment{}
	d.Name, d.Generation = "nginx", 1
	d.Spec.Replicas = &n
	d.Status = rollout.Status{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 2}
	s := rolloutstatus.Deployment(d, 0)
	if want := "Waiting for deployment \"nginx\" rollout to finish: 2 out of 3 new replicas have been updated...\n"; s.Message != want || s.Done {
		t.Errorf("Deployment = %q, %v; want %q, false", s.Message, s.Done, want)
	}
	if code, exits := s.ExitCode(rolloutstatus.Watch); exits {
		t.Errorf("ExitCode(watch) = %d, true; want keep watching", code)
	}
	d.Status.Conditions = []rollout.Condition{{Type: rollout.Progressing, Status: meta.ConditionFalse, Reason: rollout.ReasonProgressDeadlineExceeded}}
	s = rolloutstatus.Deployment(d, 0)
	if code, exits := s.ExitCode(rolloutstatus.Watch); s.Err == "" || code != 1 || !exits {
		t.Errorf("Deployment(deadline exceeded) = %+v exit %d, %v; want an error, exit 1", s, code, exits)
	}
}

func TestStatefulSetPartition(t *testing.T) {
	t.Parallel()
	var v statefulset.StatefulSet
	n, p := int32(3), int32(2)
	v.Generation, v.Status.ObservedGeneration, v.Status.ReadyReplicas = 1, 1, 3
	v.Spec.Replicas = &n
	v.Spec.UpdateStrategy.Type = statefulset.RollingUpdate
	v.Spec.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{Partition: &p}
	if s := rolloutstatus.StatefulSet(&v); s.Done {
		t.Errorf("StatefulSet(0 of 1 updated) done = true; want false")
	}
	v.Status.UpdatedReplicas = 1
	if s := rolloutstatus.StatefulSet(&v); !s.Done {
		t.Errorf("StatefulSet(1 of 1 updated) done = false; want true")
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		s     rolloutstatus.Status
		mode  rolloutstatus.Mode
		code  int
		stops bool
	}{
		{"error stops with 1", rolloutstatus.Status{Err: "x", Done: true}, rolloutstatus.Watch, 1, true},
		{"done stops with 0", rolloutstatus.Status{Done: true}, rolloutstatus.Watch, 0, true},
		{"waiting keeps watching", rolloutstatus.Status{}, rolloutstatus.Watch, 0, false},
		{"waiting once stops with 0", rolloutstatus.Status{}, rolloutstatus.Once, 0, true},
	}
	for _, c := range cases {
		if code, stops := c.s.ExitCode(c.mode); code != c.code || stops != c.stops {
			t.Errorf("%s: ExitCode = %d, %v; want %d, %v", c.name, code, stops, c.code, c.stops)
		}
	}
}
