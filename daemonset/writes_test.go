package daemonset

import (
	"errors"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// A sync that creates the revision, creates a pod on the empty node,
// deletes the pod of a node that is gone and an old revision past the
// limit, and writes the status: in that order, with the pod built from
// the template for its node.
func TestWrites(t *testing.T) {
	t.Parallel()
	ds := testDS()
	one := int32(1)
	ds.Spec.RevisionHistoryLimit = &one
	ds.Annotations = map[string]string{AnnotationTemplateGeneration: "1"}
	h := History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-o1", 1, "o1"), rev("ds-o2", 2, "o2")}}
	gone := testPod("gone", "", "o2", tHour, tHour)
	gone.Spec.Affinity = PinToNode(nil, "x")
	pods := []*podstatus.Pod{gone}
	p, err := Step(ds, []*node.Node{testNode("a")}, pods, h, nil, tNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(ds, pods, h)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, string(w.Verb)+" "+w.Resource+"/"+w.Subresource+" "+w.Name)
	}
	want := []string{"create controllerrevisions/ ", "create pods/ ", "delete pods/ gone", "delete controllerrevisions/ ds-o1", "update daemonsets/status ds"}
	if !slices.Equal(got, want) {
		t.Fatalf("writes %v; want %v", got, want)
	}
	r := ws[0].Object.(*history.ControllerRevision)
	if r.Name != "ds-new" || r.Namespace != "default" || r.Labels[history.HashLabel] != "new" || r.Labels["app"] != "d" || r.Revision != 3 ||
		r.Data == nil || len(r.OwnerReferences) != 1 || r.OwnerReferences[0].Kind != "DaemonSet" {
		t.Errorf("revision %+v", r)
	}
	pod := ws[1].Object.(*podstatus.Pod)
	if n, err := TargetNodeName(&pod.Spec); err != nil || n != "a" || pod.GenerateName != "ds-" || pod.Namespace != "default" ||
		pod.Labels[history.HashLabel] != "new" || pod.Labels[LabelTemplateGeneration] != "1" || len(pod.Spec.Tolerations) == 0 ||
		pod.OwnerReferences[0].BlockOwnerDeletion == nil || !*pod.OwnerReferences[0].BlockOwnerDeletion {
		t.Errorf("pod %+v", pod)
	}
	pod.Labels["x"] = "y"
	r.Data.Template.Labels["x"] = "y"
	if ds.Spec.Template.Labels["x"] != "" {
		t.Error("Writes aliases the DaemonSet's template")
	}
	bad := Plan{Delete: []plan.Deletion{{Name: "nope"}}}
	var fe *field.Error
	if _, err := bad.Writes(ds, pods, h); !errors.As(err, &fe) || fe.Path != "delete[0].name" {
		t.Errorf("unknown pod: %v", err)
	}
	bad = Plan{Revisions: []history.Write{{Verb: plan.VerbUpdate, Name: "nope"}}}
	if _, err := bad.Writes(ds, pods, h); !errors.As(err, &fe) || fe.Path != "revisions[0].name" {
		t.Errorf("unknown revision: %v", err)
	}
}
