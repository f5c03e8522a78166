package statefulset

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

func writeKeys(ws []plan.Write) []string {
	var out []string
	for _, w := range ws {
		name := w.Name
		switch o := w.Object.(type) {
		case *podstatus.Pod:
			name = o.Name
		case *Claim:
			name = o.Name
		case *history.ControllerRevision:
			name = o.Name
		}
		out = append(out, string(w.Verb)+" "+w.Resource+"/"+w.Subresource+" "+name)
	}
	return out
}

// An OrderedReady set with a claim template and a new template: the
// revision is created first, then the claim of the missing pod (the
// running pod's missing claim is not the creation's business), the pod,
// the status; the pod carries its identity, revision, claim volume and
// owner reference; the claim the selector's labels.
func TestWritesCreate(t *testing.T) {
	t.Parallel()
	set := gset(2, claims("www"), template("web-v2"))
	set.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	set.Spec.Template.Labels = map[string]string{"app": "web"}
	set.Spec.Template.Spec.Volumes = []podstatus.Volume{{Name: "cfg"}}
	pods := []*podstatus.Pod{gpod(0, "running", "web-v1", "www")}
	pods[0].OwnerReferences = []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "web", "set-uid")}
	revs := []history.ControllerRevision{{ObjectMeta: meta.ObjectMeta{Name: "web-v1", Labels: map[string]string{"app": "web"},
		OwnerReferences: []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "web", "set-uid")}}, Revision: 1}}
	p, err := Step(&set, pods, revs, nil, genNow, Options{})
	require.NoError(t, err)
	ws, err := p.Writes(&set, pods, revs, nil)
	require.NoError(t, err)
	want := []string{"create controllerrevisions/ web-v2", "create persistentvolumeclaims/ www-web-1", "create pods/ web-1", "update statefulsets/status web"}
	if got := writeKeys(ws); !slices.Equal(got, want) {
		t.Fatalf("writes %v; want %v", got, want)
	}
	pod := ws[2].Object.(*podstatus.Pod)
	if pod.GenerateName != "web-" || pod.Namespace != "default" || pod.Spec.Hostname != "web-1" || pod.Spec.Subdomain != "nginx" ||
		pod.Labels[LabelPodName] != "web-1" || pod.Labels[LabelPodIndex] != "1" || pod.Labels[history.HashLabel] != "web-v2" ||
		len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].UID != "set-uid" || pod.OwnerReferences[0].BlockOwnerDeletion == nil {
		t.Errorf("pod %+v", pod)
	}
	if v := pod.Spec.Volumes; len(v) != 2 || v[0].Name != "www" || v[0].ClaimName() != "www-web-1" || v[1].Name != "cfg" {
		t.Errorf("volumes %+v", v)
	}
	if c := ws[1].Object.(*Claim); c.Labels["app"] != "web" || c.Namespace != "default" {
		t.Errorf("claim %+v", c)
	}
	r := ws[0].Object.(*history.ControllerRevision)
	if r.Labels[history.RevisionHashLabel] != "v2" || r.Data == nil || r.Revision != 2 {
		t.Errorf("revision %+v", r)
	}
	// Nothing of the inputs is shared.
	pod.Labels["x"] = "y"
	r.Data.Template.Labels["x"] = "y"
	if set.Spec.Template.Labels["x"] != "" {
		t.Error("Writes aliases the set's template")
	}
}

// A pod created at the current revision needs that revision's data; a
// deletion of a pod not given is an error.
func TestWritesErrors(t *testing.T) {
	t.Parallel()
	set := gset(2, template("web-v2"), partition(2))
	revs := []history.ControllerRevision{{ObjectMeta: meta.ObjectMeta{Name: "web-v1"}, Revision: 1}, {ObjectMeta: meta.ObjectMeta{Name: "web-v2"}, Revision: 2}}
	p, err := Step(&set, nil, revs, nil, genNow, Options{})
	require.NoError(t, err)
	var fe *field.Error
	if _, err := p.Writes(&set, nil, revs, nil); !errors.As(err, &fe) || !errors.Is(err, field.ErrRequired) {
		t.Errorf("current revision without data: %v", err)
	}
	revs[0].Data = &history.Data{}
	if _, err := p.Writes(&set, nil, revs, nil); err != nil {
		t.Errorf("with data: %v", err)
	}
	bad := Plan{Delete: []plan.Deletion{{Name: "web-9"}}}
	if _, err := bad.Writes(&set, nil, nil, nil); !errors.As(err, &fe) || fe.Path != "delete[0].name" {
		t.Errorf("unknown pod: %v", err)
	}
	if _, err := bad.Writes(nil, nil, nil, nil); err == nil {
		t.Error("nil set accepted")
	}
}
