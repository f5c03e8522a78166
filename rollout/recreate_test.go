package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func ownedPod(owner *replicaset.ReplicaSet, phase podstatus.Phase) *podstatus.Pod {
	yes := true
	p := &podstatus.Pod{}
	p.Labels = map[string]string{"app": "foo"}
	p.OwnerReferences = []meta.OwnerReference{{Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}
	p.Status.Phase = phase
	return p
}

func TestOldPodsRunning(t *testing.T) {
	t.Parallel()
	d := deploy(1, "", "")
	old, newRS := rs("old", 0, 0, 0), rs("new", 1, 0, 1)
	busy := rs("busy", 0, 0, 0)
	busy.Status.Replicas = 1
	for _, c := range []struct {
		name string
		old  []*replicaset.ReplicaSet
		pods []*podstatus.Pod
		want bool
	}{
		{"no old ReplicaSets", nil, nil, false},
		{"status.replicas > 0", []*replicaset.ReplicaSet{busy}, nil, true},
		{"terminal pods only", []*replicaset.ReplicaSet{old}, []*podstatus.Pod{ownedPod(old, podstatus.Failed), ownedPod(old, podstatus.Succeeded)}, false},
		{"Unknown counts as running", []*replicaset.ReplicaSet{old}, []*podstatus.Pod{ownedPod(old, podstatus.Unknown)}, true},
		{"Pending", []*replicaset.ReplicaSet{old}, []*podstatus.Pod{ownedPod(old, podstatus.Pending)}, true},
		{"new ReplicaSet's pods ignored", []*replicaset.ReplicaSet{old}, []*podstatus.Pod{ownedPod(newRS, podstatus.Running)}, false},
	} {
		if got := rollout.OldPodsRunning(d, newRS, c.old, c.pods); got != c.want {
			t.Errorf("%s: OldPodsRunning = %v; want %v", c.name, got, c.want)
		}
	}
}
