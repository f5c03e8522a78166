package replicaset_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func TestStepSeedAdoption(t *testing.T) {
	t.Parallel()
	rs := frontend(3)
	pods := []*podstatus.Pod{
		owned(pod("frontend-b2zdv", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		owned(pod("frontend-vcmts", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		owned(pod("frontend-wtsmm", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		pod("pod1", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
		pod("pod2", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
	}
	p, err := replicaset.Step(rs, pods, nil, now, replicaset.Options{})
	if err != nil {
		t.Fatalf("Step = %v", err)
	}
	want := []plan.Deletion{{Name: "pod1", UID: "uid-pod1", Reason: replicaset.ReasonTooManyReplicas}, {Name: "pod2", UID: "uid-pod2", Reason: replicaset.ReasonTooManyReplicas}}
	if diff := cmp.Diff(want, p.Delete); diff != "" || p.DeleteSure != 2 {
		t.Errorf("Step delete (-want +got):\n%s", diff)
	}
	if len(p.Adopt) != 2 || p.Create.Count != 0 || p.Status.Replicas != 5 {
		t.Errorf("Step = adopt %v, create %d, replicas %d; want 2 adoptions, 0, 5", p.Adopt, p.Create.Count, p.Status.Replicas)
	}
}

func TestStepErrors(t *testing.T) {
	t.Parallel()
	neg := int32(-1)
	tests := []struct {
		name string
		mut  func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet
		pods []*podstatus.Pod
		path string
		want error
	}{
		{"nil", func(*replicaset.ReplicaSet) *replicaset.ReplicaSet { return nil }, nil, "replicaSet", field.ErrRequired},
		{"negative replicas", func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet { rs.Spec.Replicas = &neg; return rs }, nil, "spec.replicas", field.ErrNegative},
		{"no selector", func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet { rs.Spec.Selector = nil; return rs }, nil, "spec.selector", field.ErrRequired},
		{"selector misses template", func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet {
			rs.Spec.Template.Labels = map[string]string{"tier": "x"}
			return rs
		}, nil, "spec.template.metadata.labels", field.ErrInvalid},
		{"nil pod", func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet { return rs }, []*podstatus.Pod{nil}, "pods[0]", field.ErrRequired},
		{"duplicate uid", func(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet { return rs },
			[]*podstatus.Pod{pod("a", "", "", time.Time{}, now), pod("a", "", "", time.Time{}, now)}, "pods[1].metadata.uid", field.ErrDuplicate},
	}
	for _, tt := range tests {
		_, err := replicaset.Step(tt.mut(frontend(1)), tt.pods, nil, now, replicaset.Options{})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != tt.path || !errors.Is(err, tt.want) {
			t.Errorf("%s: Step error = %v; want %s %v", tt.name, err, tt.path, tt.want)
		}
	}
}
