package rollout_test

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestRollback(t *testing.T) {
	t.Parallel()
	image := func(rs *replicaset.ReplicaSet, img string) {
		rs.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "c", Image: img}}
	}
	r1, r2 := stWithRevision("r1", "1"), stWithRevision("r2", "2")
	image(r1, "v1")
	image(r2, "v2")
	d := &rollout.Deployment{}
	d.Name = "web"
	d.Annotations = map[string]string{rollout.RollbackToAnnotation: "0"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "c", Image: "v2"}}
	r, ok := rollout.Rollback(d, []*replicaset.ReplicaSet{r1, r2})
	if !ok || r.Reason != rollout.ReasonRollbackDone || r.Revision != 1 || r.Template == nil || r.Template.Spec.Containers[0].Image != "v1" {
		t.Errorf("Rollback(0) = %+v, %v; want DeploymentRollback to revision 1 with image v1", r, ok)
	}
	if _, has := r.Annotations[rollout.RollbackToAnnotation]; has {
		t.Errorf("Rollback kept the request annotation")
	}
	d.Annotations[rollout.RollbackToAnnotation] = "2"
	if r, _ := rollout.Rollback(d, []*replicaset.ReplicaSet{r1, r2}); r.Reason != rollout.ReasonRollbackTemplateUnchanged {
		t.Errorf("Rollback(2) reason = %s; want %s", r.Reason, rollout.ReasonRollbackTemplateUnchanged)
	}
	delete(d.Annotations, rollout.RollbackToAnnotation)
	if _, ok := rollout.Rollback(d, nil); ok {
		t.Errorf("Rollback(no request) = true; want false")
	}
}
