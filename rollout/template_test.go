package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// TestTemplateIdentity: without Deployment.TemplateHash the new ReplicaSet
// is the oldest whose template equals the Deployment's, ignoring the
// pod-template-hash label; any other difference makes it old.
func TestTemplateIdentity(t *testing.T) {
	t.Parallel()
	d := deploy(3, "", "")
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:2"}}
	same := rs("same", 3, 3, 1)
	same.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "abc"}
	same.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:2"}}
	older := rs("older", 0, 0, 0)
	older.Spec.Template = same.Spec.Template
	other := rs("other", 3, 3, 2)
	other.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "def"}
	other.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:1"}}
	got := rollout.FindNewReplicaSet(d, []*replicaset.ReplicaSet{other, same, older})
	if got == nil || got.Name != "older" {
		t.Errorf("FindNewReplicaSet = %v; want the oldest equal template, older", got)
	}
	if got := rollout.FindNewReplicaSet(d, []*replicaset.ReplicaSet{other}); got != nil {
		t.Errorf("FindNewReplicaSet(other image) = %s; want none", got.Name)
	}
}
