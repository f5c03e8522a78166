package statefulset

import (
	"slices"
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

// A pod whose name is not "<set>-<ordinal>" (web-01) is renamed by its
// identity update to a pod that does not exist: the update fails.
func TestIdentityRename(t *testing.T) {
	t.Parallel()
	p := mustStep(t, gset(2), []*podstatus.Pod{gpod(0, running, "web-v1"), renamed(gpod(1, running, "web-v1"), "web-01")}, revs("web-v1"), nil, Options{})
	if p.Outcome != ReasonError || len(p.Update) != 0 || p.Requeue[0].Reason != ReasonPodNotFound {
		t.Errorf("web-01: %s %+v %+v", p.Outcome, p.Update, p.Requeue)
	}
	// A missing pod-name label is fixed in place.
	bare := gpod(1, running, "web-v1")
	delete(bare.Labels, LabelPodName)
	p = mustStep(t, gset(2), []*podstatus.Pod{gpod(0, running, "web-v1"), bare}, revs("web-v1"), nil, Options{})
	if len(p.Update) != 1 || p.Update[0].Name != "web-1" || !slices.Equal(p.Update[0].Reasons, []Reason{ReasonIdentity}) {
		t.Errorf("label: %+v", p.Update)
	}
}
