package wholecluster_test

import (
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/kubesem/kubesem/cluster"
)

// TestWholeClusterDaemonSetOrphanRecreated is the one scenario of 41,000
// random ones that differed from v1.36.3 on 2026-12-07, kept as a
// regression: a DaemonSet rolled to a second image, its node drained, the
// DaemonSet orphan-deleted and created again with another template
// label. The new DaemonSet adopts its old revisions and the pending pod
// of the old template, and deletes that pod, which the API server
// removes at once (unscheduled). Its status listing adopts the pod again
// from the stale cache and finds none: the status counts no pod on the
// node (kubesem counted it, and wrote a third status update one round
// later). Run a few times: upstream's informers and worker goroutines
// must agree every time.
func TestWholeClusterDaemonSetOrphanRecreated(t *testing.T) {
	var s diffScenario
	s.sc.Start = diffStart
	objs, err := diffNode("n1", diffStart)
	if err != nil {
		t.Fatal(err)
	}
	s.sc.Objects = append(s.sc.Objects, objs...)
	tpl := diffTemplate("w1", "registry.example/w1:1")
	ko := &apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "default"}, Spec: apps.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "w1"}}, Template: tpl}}
	legacyscheme.Scheme.Default(ko)
	obj, err := diffFrom(ko)
	if err != nil {
		t.Fatal(err)
	}
	key := cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "default", Name: "w1"}
	s.sc.Events = append(s.sc.Events, cluster.Event{At: 0, Kind: cluster.EventCreate, Object: obj})
	s.sc.Events = append(s.sc.Events, cluster.Event{At: 5 * time.Second, Kind: cluster.EventImage, Target: key, Image: "registry.example/w1:2"})
	s.sc.Events = append(s.sc.Events, cluster.Event{At: 35 * time.Second, Kind: cluster.EventDrain, Target: cluster.Key{Kind: cluster.KindNode, Name: "n1"}})
	again, err := diffFrom(diffRelabel(ko, 1))
	if err != nil {
		t.Fatal(err)
	}
	s.sc.Events = append(s.sc.Events, cluster.Event{At: 75 * time.Second, Kind: cluster.EventCreate, Object: again})
	s.sc.Events = append(s.sc.Events, cluster.Event{At: 50 * time.Second, Kind: cluster.EventDelete, Target: key, PropagationPolicy: cluster.PropagationOrphan})
	s.dur = 160 * time.Second
	s.desc = []string{"1 nodes", "create DaemonSet w1", "at 5s image", "at 35s drain Node/n1", "at 50s delete DaemonSet/default/w1 Orphan", "at 1m15s create DaemonSet/default/w1 again (labels 1)", "run 2m40s"}
	for range 5 {
		diff, err := diffRun(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if diff != "" {
			t.Fatalf("scenario %q:\n%s", s.desc, diff)
		}
	}
}

// TestDiffCreateChoice: a DaemonSet's pod created for another node (its
// name and node affinity differ) is upstream's map-ordered choice; one
// that differs otherwise is a difference.
func TestDiffCreateChoice(t *testing.T) {
	line := func(name, node, image string) string {
		return "daemonset : create pods/ default/" + name + " uid= grace= propagation= refused=false " +
			`{"metadata":{"name":"` + name + `","generateName":"w-"},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["` + node + `"]}]}]}}},"containers":[{"image":"` + image + `","name":"c"}]}}`
	}
	same := "daemonset : update daemonsets/status default/w uid= grace= propagation= refused=false {}"
	if !diffCreateChoice([]string{same, line("w-a", "n1", "i:2")}, []string{same, line("w-b", "n2", "i:2")}, ctlDaemonSet) {
		t.Error("a create for another node is not taken as the node choice")
	}
	if diffCreateChoice([]string{same, line("w-a", "n1", "i:2")}, []string{same, line("w-a", "n1", "i:3")}, ctlDaemonSet) {
		t.Error("a create of another image is taken as the node choice")
	}
	if diffCreateChoice([]string{line("w-a", "n1", "i:2")}, []string{same}, ctlDaemonSet) {
		t.Error("a create against a status update is taken as the node choice")
	}
}
