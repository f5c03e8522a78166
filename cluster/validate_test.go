package cluster_test

import (
	"slices"

	"github.com/kubesem/kubesem/plan"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func i32(v int32) *int32 { return &v }

func batchJob(name string, suspend bool) *job.Job {
	return &job.Job{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default"},
		Spec: job.Spec{Suspend: &suspend, Template: podstatus.Template{
			Spec: podstatus.Spec{RestartPolicy: "Never", Containers: []podstatus.Container{{Name: "task", Image: "task:1"}}}}},
	}
}

// userEntry runs sc for a minute and returns the trace entry of the
// user's write at the event's instant (1s), failing when there is none.
func userEntry(t *testing.T, sc cluster.Scenario) cluster.Entry {
	t.Helper()
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(time.Minute), 5000)
	for _, e := range w.Trace {
		if e.Controller == cluster.CtlUser && e.Write != nil && e.Time.Equal(t0.Add(time.Second)) {
			return e
		}
	}
	t.Fatalf("no user write at 1s:\n%s", summary(w.Trace))
	return cluster.Entry{}
}

// TestUserUpdatesValidated: the world refuses, as the v1.36.3 API server
// does, a user's update that changes an immutable field or leaves an
// invalid object, and takes the ones the API takes.
func TestUserUpdatesValidated(t *testing.T) {
	sec := time.Second
	at := func(kind cluster.Kind, ns, name string) cluster.Key {
		return cluster.Key{Kind: kind, Namespace: ns, Name: name}
	}
	web := deployment("web", 2, "web:1")
	moved := deployment("web", 2, "web:1")
	moved.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "front"}}
	moved.Spec.Template.Labels = map[string]string{"app": "web", "tier": "front"}
	other := podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "other"}},
		Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: "web:2"}}}}
	renamed := statefulSet("db", 1)
	renamed.Spec.ServiceName = "db-headless"
	rsMoved := replicaSet("rs", 1)
	rsMoved.Spec.Selector = labelSel("app", "rs2")
	rsMoved.Spec.Template.Labels = map[string]string{"app": "rs2"}
	placed := batchJob("pi", true)
	placed.Spec.Template.Spec.NodeSelector = map[string]string{"zone": "a"}
	for _, c := range []struct {
		name    string
		objects []any
		event   cluster.Event
		path    string // "" for accepted
	}{
		{"a running Job's image", []any{batchJob("pi", false)},
			cluster.Event{Kind: cluster.EventImage, Target: at(cluster.KindJob, "default", "pi"), Image: "task:2"}, "spec.template"},
		{"a suspended, unstarted Job's image", []any{batchJob("pi", true)},
			cluster.Event{Kind: cluster.EventImage, Target: at(cluster.KindJob, "default", "pi"), Image: "task:2"}, "spec.template.spec"},
		{"a suspended, unstarted Job's node selector", []any{batchJob("pi", true)},
			cluster.Event{Kind: cluster.EventUpdate, Object: placed}, ""},
		{"a Job's parallelism", []any{batchJob("pi", false)},
			cluster.Event{Kind: cluster.EventScale, Target: at(cluster.KindJob, "default", "pi"), Replicas: i32(3)}, ""},
		{"a Deployment's selector", []any{web}, cluster.Event{Kind: cluster.EventUpdate, Object: moved}, "spec.selector"},
		{"a Deployment's template not selected", []any{deployment("web", 2, "web:1")},
			cluster.Event{Kind: cluster.EventTemplate, Target: at(cluster.KindDeployment, "default", "web"), Template: &other}, "spec.template.metadata.labels"},
		{"a Deployment's image", []any{deployment("web", 2, "web:1")},
			cluster.Event{Kind: cluster.EventImage, Target: at(cluster.KindDeployment, "default", "web"), Image: "web:2"}, ""},
		{"a ReplicaSet's selector", []any{replicaSet("rs", 1)}, cluster.Event{Kind: cluster.EventUpdate, Object: rsMoved}, "spec.selector"},
		{"a StatefulSet's service name", []any{statefulSet("db", 1)}, cluster.Event{Kind: cluster.EventUpdate, Object: renamed}, "spec"},
		{"a StatefulSet's replicas", []any{statefulSet("db", 1)},
			cluster.Event{Kind: cluster.EventScale, Target: at(cluster.KindStatefulSet, "default", "db"), Replicas: i32(2)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := c.event
			ev.At = sec
			sc := cluster.Scenario{Start: t0, Objects: append([]any{readyNode("n0")}, c.objects...), Events: []cluster.Event{ev}}
			e := userEntry(t, sc)
			if c.path == "" {
				if e.Err != "" {
					t.Fatalf("refused: %s", e.Err)
				}
				return
			}
			if !strings.HasPrefix(e.Err, c.path+":") {
				t.Fatalf("error %q, want one at %s", e.Err, c.path)
			}
		})
	}
}

// TestUserUpdateRefusalKeepsObject: a refused update leaves the stored
// object as it was.
func TestUserUpdateRefusalKeepsObject(t *testing.T) {
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), batchJob("pi", false)},
		Events: []cluster.Event{{At: time.Second, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindJob, Namespace: "default", Name: "pi"}, Image: "task:2"}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(time.Minute), 5000)
	j, _ := w.State.Get(cluster.Key{Kind: cluster.KindJob, Namespace: "default", Name: "pi"}).(*job.Job)
	if j == nil || j.Spec.Template.Spec.Containers[0].Image != "task:1" {
		t.Fatalf("job after a refused update: %+v", j)
	}
}

// TestUserCreatesValidated: the world refuses a user's create the v1.36.3
// API server refuses (over the modelled fields), stores nothing for it,
// and takes a valid one.
func TestUserCreatesValidated(t *testing.T) {
	unselected := deployment("web", 2, "web:1")
	unselected.Spec.Template.Labels = map[string]string{"app": "other"}
	noSelector := statefulSet("db", 1)
	noSelector.Spec.Selector = nil
	negative := replicaSet("rs", 1)
	negative.Spec.Replicas = i32(-1)
	for _, c := range []struct {
		name string
		obj  any
		key  cluster.Key
		path string
	}{
		{"a Deployment whose template its selector does not select", unselected, cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, "spec.template.metadata.labels"},
		{"a StatefulSet without a selector", noSelector, cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "db"}, "spec.selector"},
		{"a ReplicaSet of -1 replicas", negative, cluster.Key{Kind: cluster.KindReplicaSet, Namespace: "default", Name: "rs"}, "spec.replicas"},
		{"a valid Deployment", deployment("web", 2, "web:1"), cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0")},
				Events: []cluster.Event{{At: time.Second, Kind: cluster.EventCreate, Object: c.obj}}}
			e := userEntry(t, sc)
			w, _ := cluster.New(sc, cluster.Options{})
			runBounded(t, w, t0.Add(time.Minute), 5000)
			stored := w.State.Get(c.key) != nil
			if c.path == "" {
				if e.Err != "" || !stored {
					t.Fatalf("refused (%q) or not stored (%v)", e.Err, stored)
				}
				return
			}
			if !strings.HasPrefix(e.Err, c.path+":") || stored {
				t.Fatalf("error %q (want one at %s), stored %v", e.Err, c.path, stored)
			}
		})
	}
}

// TestPodOrphanDelete: a pod deleted with propagationPolicy Orphan gets the
// orphan finalizer, as the API server gives it to any object
// (deletionFinalizersForGarbageCollection); the garbage collector, finding
// no dependents, removes it, and the pod goes once its kubelet is done.
func TestPodOrphanDelete(t *testing.T) {
	rs := replicaSet("rs", 1)
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), rs}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(30*time.Second), 5000)
	var victim *podstatus.Pod
	for _, p := range w.State.Pods() {
		victim = p
	}
	if victim == nil {
		t.Fatal("no pod")
	}
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), rs},
		Events: []cluster.Event{{At: 40 * time.Second, Kind: cluster.EventDelete, PropagationPolicy: cluster.PropagationOrphan,
			Target: cluster.Key{Kind: cluster.KindPod, Namespace: "default", Name: victim.Name}}}}
	w, err = cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(40*time.Second), 5000)
	if p := w.State.Pod("default", victim.Name); p == nil || p.DeletionTimestamp == nil || slices.Contains(p.Finalizers, cluster.FinalizerOrphan) {
		t.Fatalf("pod after an orphan delete and the collector's pass at the same instant: %+v\n%s", p, summary(w.Trace))
	}
	runBounded(t, w, t0.Add(2*time.Minute), 5000)
	if w.State.Pod("default", victim.Name) != nil {
		t.Fatalf("pod still there:\n%s", summary(w.Trace))
	}
	gc := false
	for _, e := range w.Trace {
		if e.Controller == cluster.CtlGC && e.Object.Name == victim.Name && e.Write != nil && e.Write.Verb == plan.VerbPatch {
			gc = true // (it removed the orphan finalizer the delete added)
		}
	}
	if !gc {
		t.Fatalf("no garbage-collector write of the pod:\n%s", summary(w.Trace))
	}
}
