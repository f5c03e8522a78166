package podstatus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubesem/kubesem/meta"
)

func TestPodPrefix(t *testing.T) {
	long := strings.Repeat("a", 253)
	for name, want := range map[string]string{
		"web":                    "web-",
		strings.Repeat("a", 252): strings.Repeat("a", 252) + "-",
		long:                     long,
	} {
		if got := PodPrefix(name); got != want {
			t.Errorf("PodPrefix(%d chars) = %d chars, want %d", len(name), len(got), len(want))
		}
	}
}

func TestFromTemplate(t *testing.T) {
	grace := int64(5)
	tmpl := &Template{}
	tmpl.Labels = map[string]string{"app": "web"}
	tmpl.Annotations = map[string]string{"a": "b"}
	tmpl.Finalizers = []string{"f"}
	tmpl.Spec.Containers = []Container{{Name: "c", Image: "nginx"}}
	tmpl.Spec.TerminationGracePeriodSeconds = &grace
	owner := meta.NewControllerRef("apps/v1", "ReplicaSet", "web-1", "uid-1")
	p := FromTemplate(tmpl, "ns", PodPrefix("web-1"), "node-a", &owner)
	want := &Pod{}
	want.Namespace, want.GenerateName = "ns", "web-1-"
	want.Labels, want.Annotations, want.Finalizers = map[string]string{"app": "web"}, map[string]string{"a": "b"}, []string{"f"}
	want.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "ReplicaSet", "web-1", "uid-1")}
	want.Spec.Containers = []Container{{Name: "c", Image: "nginx"}}
	want.Spec.TerminationGracePeriodSeconds = &grace
	want.Spec.NodeName = "node-a"
	if diff := cmp.Diff(want, p); diff != "" {
		t.Fatalf("FromTemplate (-want +got):\n%s", diff)
	}
	p.Labels["app"] = "x"
	p.Spec.Containers[0].Image = "x"
	*p.Spec.TerminationGracePeriodSeconds = 9
	*p.OwnerReferences[0].Controller = false
	if tmpl.Labels["app"] != "web" || tmpl.Spec.Containers[0].Image != "nginx" || grace != 5 || !owner.IsController() {
		t.Fatal("FromTemplate's pod shares memory with its inputs")
	}
}
