package replicaset_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
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

func TestClaimPod(t *testing.T) {
	t.Parallel()
	rs := frontend(1)
	orphan := pod("o", "", "", time.Time{}, now)
	mine := owned(pod("m", "", "", time.Time{}, now), rs)
	moved := owned(pod("x", "", "", time.Time{}, now), rs)
	moved.Labels = map[string]string{"tier": "debug"}
	theirs := pod("t", "", "", time.Time{}, now)
	theirs.OwnerReferences = []meta.OwnerReference{{UID: "other", Controller: mine.OwnerReferences[0].Controller}}
	tests := []struct {
		p    *podstatus.Pod
		want replicaset.Ownership
	}{
		{orphan, replicaset.Adopt}, {mine, replicaset.Owned}, {moved, replicaset.Release}, {theirs, replicaset.Ignore}, {nil, replicaset.Ignore},
	}
	for _, tt := range tests {
		if got := replicaset.ClaimPod(rs, tt.p); got != tt.want {
			t.Errorf("ClaimPod(%v) = %s; want %s", tt.p, got, tt.want)
		}
	}
}

func TestPodSelector(t *testing.T) {
	t.Parallel()
	rc := frontend(1)
	rc.Kind = replicaset.KindReplicationController
	rc.Spec.Selector = nil
	if got := rc.PodSelector(); !got.Matches(map[string]string{"tier": "frontend"}) || got.Matches(map[string]string{"tier": "x"}) {
		t.Errorf("PodSelector(RC without selector) = %v; want the template labels", got)
	}
}
