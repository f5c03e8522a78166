package replicaset_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// writeKey is a write as the upstream replay compares it.
type writeKey struct {
	Verb                             plan.Verb
	Resource, Subresource, Name, UID string
	Reason                           plan.Reason
}

func keys(ws []plan.Write) []writeKey {
	out := make([]writeKey, len(ws))
	for i, w := range ws {
		out[i] = writeKey{w.Verb, w.Resource, w.Subresource, w.Name, w.UID, w.Reason}
	}
	return out
}

// TestWrites: the requests of each kind of sync, in the order v1.36.3's
// syncReplicaSet sends them (claim patches, then pod creations or
// deletions, then the status update), as the upstream replay
// (conformance/upstream TestReplicaSetStepVectorsUpstream) finds them for
// the seed vectors "bare pods created after the ReplicaSet are adopted then
// deleted" and "isolated pod is released and replaced".
func TestWrites(t *testing.T) {
	t.Parallel()
	adoptDelete := func() (*replicaset.ReplicaSet, []*podstatus.Pod) {
		rs := frontend(3)
		return rs, []*podstatus.Pod{
			owned(pod("frontend-b2zdv", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
			owned(pod("frontend-vcmts", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
			owned(pod("frontend-wtsmm", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
			pod("pod2", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
			pod("pod1", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
		}
	}
	releaseCreate := func() (*replicaset.ReplicaSet, []*podstatus.Pod) {
		rs := frontend(2)
		rs.Kind = replicaset.KindReplicationController
		rs.Status.Replicas = 2
		a := owned(pod("a", "n1", podstatus.Running, ago(time.Minute), ago(time.Minute)), rs)
		b := owned(pod("b", "n1", podstatus.Running, ago(time.Minute), ago(time.Minute)), rs)
		b.Labels = map[string]string{"tier": "debug"}
		return rs, []*podstatus.Pod{b, a}
	}
	tests := []struct {
		name  string
		input func() (*replicaset.ReplicaSet, []*podstatus.Pod)
		want  []writeKey
	}{
		{"adopt then delete", adoptDelete, []writeKey{
			{plan.VerbPatch, "pods", "", "pod1", "uid-pod1", replicaset.ReasonOrphanSelected},
			{plan.VerbPatch, "pods", "", "pod2", "uid-pod2", replicaset.ReasonOrphanSelected},
			{plan.VerbDelete, "pods", "", "pod1", "", replicaset.ReasonTooManyReplicas},
			{plan.VerbDelete, "pods", "", "pod2", "", replicaset.ReasonTooManyReplicas},
			{plan.VerbUpdate, "replicasets", "status", "frontend", "rs-uid", replicaset.ReasonStatusChanged},
		}},
		{"release then create (ReplicationController)", releaseCreate, []writeKey{
			{plan.VerbPatch, "pods", "", "b", "uid-b", replicaset.ReasonSelectorMismatch},
			{plan.VerbCreate, "pods", "", "", "", replicaset.ReasonTooFewReplicas},
			{plan.VerbUpdate, "replicationcontrollers", "status", "frontend", "rs-uid", replicaset.ReasonStatusChanged},
		}},
	}
	for _, tt := range tests {
		rs, pods := tt.input()
		p, err := replicaset.Step(rs, pods, nil, now, replicaset.Options{})
		if err != nil {
			t.Fatalf("%s: Step = %v", tt.name, err)
		}
		rs0, pods0 := tt.input()
		ws, err := p.Writes(rs, pods)
		if err != nil {
			t.Fatalf("%s: Writes = %v", tt.name, err)
		}
		if got := keys(ws); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Writes =\n%v\nwant\n%v", tt.name, got, tt.want)
		}
		if !reflect.DeepEqual(rs, rs0) || !reflect.DeepEqual(pods, pods0) {
			t.Errorf("%s: Writes modified its inputs", tt.name)
		}
		for _, w := range ws {
			switch o := w.Object.(type) {
			case *podstatus.Pod:
				ref := o.ControllerRef()
				switch w.Verb {
				case plan.VerbCreate:
					if o.GenerateName != "frontend-" || o.Name != "" || ref == nil || !reflect.DeepEqual(*ref, rs.ControllerRefTo()) {
						t.Errorf("%s: created pod %+v", tt.name, o.ObjectMeta)
					}
					if ref.APIVersion != "v1" || ref.Kind != "ReplicationController" || !*ref.BlockOwnerDeletion {
						t.Errorf("%s: created pod's controller %+v", tt.name, *ref)
					}
				case plan.VerbPatch:
					adopted := w.Reason == replicaset.ReasonOrphanSelected
					if adopted != (ref != nil && ref.UID == rs.UID) {
						t.Errorf("%s: patched pod %s owners %+v", tt.name, o.Name, o.OwnerReferences)
					}
				}
			case *replicaset.ReplicaSet:
				if !reflect.DeepEqual(o.Status, p.Status) || o.Name != rs.Name {
					t.Errorf("%s: status write %+v; want the Plan's status", tt.name, o.Status)
				}
			}
		}
	}
}

// TestWritesForeignEntry: a Plan entry naming no input pod is a
// *field.Error at that entry.
func TestWritesForeignEntry(t *testing.T) {
	t.Parallel()
	rs := frontend(1)
	for _, tt := range []struct {
		p    replicaset.Plan
		path string
	}{
		{replicaset.Plan{Adopt: []replicaset.PodRef{{Name: "ghost"}}}, "adopt[0].name"},
		{replicaset.Plan{Release: []replicaset.PodRef{{Name: "ghost"}}}, "release[0].name"},
		{replicaset.Plan{Delete: []plan.Deletion{{Name: "a", UID: "other"}}}, "delete[0].name"},
	} {
		_, err := tt.p.Writes(rs, []*podstatus.Pod{pod("a", "", podstatus.Running, time.Time{}, now)})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != tt.path || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("Writes error = %v; want %s invalid", err, tt.path)
		}
	}
	if _, err := (replicaset.Plan{}).Writes(nil, nil); !errors.Is(err, field.ErrRequired) {
		t.Errorf("Writes(nil) = %v; want required", err)
	}
}
