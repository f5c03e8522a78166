package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestHistoryToDelete(t *testing.T) {
	t.Parallel()
	one := int32(1)
	d := &rollout.Deployment{}
	d.Spec.RevisionHistoryLimit = &one
	scaled := stWithRevision("scaled", "1")
	busy := stWithRevision("busy", "2")
	busy.Status.Replicas = 1
	newest := stWithRevision("newest", "3")
	got := rollout.HistoryToDelete(d, []*replicaset.ReplicaSet{newest, busy, scaled})
	if len(got) != 1 || got[0].Name != "scaled" {
		t.Errorf("HistoryToDelete = %v; want [scaled]", stNames(got))
	}
}

func stNames(rss []*replicaset.ReplicaSet) []string {
	var out []string
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}
