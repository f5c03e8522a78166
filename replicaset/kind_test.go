package replicaset_test

import (
	"testing"

	"github.com/kubesem/kubesem/replicaset"
)

func TestPodSelector(t *testing.T) {
	t.Parallel()
	rc := frontend(1)
	rc.Kind = replicaset.KindReplicationController
	rc.Spec.Selector = nil
	if got := rc.PodSelector(); !got.Matches(map[string]string{"tier": "frontend"}) || got.Matches(map[string]string{"tier": "x"}) {
		t.Errorf("PodSelector(RC without selector) = %v; want the template labels", got)
	}
}
