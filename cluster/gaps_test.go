package cluster_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// runBounded runs w until until, at most max steps; it fails the test
// when the world needs more or stopped stuck.
func runBounded(t *testing.T, w *cluster.World, until time.Time, max int) int {
	t.Helper()
	n := 0
	for w.Step(until) {
		n++
		if n > max {
			t.Fatalf("more than %d steps before %s (now %s)", max, until, w.Now)
		}
	}
	if w.Err != nil {
		t.Fatalf("world stuck: %v", w.Err)
	}
	return n
}

// TestDeletedNodeKeepsTime: deleting a Node whose kubelet runs does not
// leave its heartbeat due in the past (the world once ran the instant of
// its next renewal forever; rapid seed 37 of TestAnyScenario).
func TestDeletedNodeKeepsTime(t *testing.T) {
	sc := cluster.Scenario{Start: t0,
		Objects: []any{readyNode("n0"), readyNode("n1"), deployment("d0", 3, "img:1")},
		Events:  []cluster.Event{{At: 58*time.Minute + 44*time.Second, Kind: cluster.EventDelete, Target: cluster.Key{Kind: cluster.KindNode, Name: "n0"}}},
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(2*time.Hour), 5000)
	if w.State.Node("n0") != nil {
		t.Errorf("node n0 not deleted")
	}
}

// TestReplaceReleasesOrphanPods: a CronJob with concurrencyPolicy Replace
// deletes its running Job; the Job controller removes the tracking
// finalizer of the pods the deleted Job leaves (its orphan queue), so the
// pods go away and the world moves on (it once re-deleted such a pod at
// one instant forever).
func TestReplaceReleasesOrphanPods(t *testing.T) {
	cj := cronJob("report", "*/15 * * * *")
	cj.Spec.ConcurrencyPolicy = cronjob.Replace
	run := 40 * time.Minute
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), cj},
		Pods: []cluster.PodBehavior{{Selector: labelSel("task", "report"), RunFor: &run}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(time.Hour+time.Minute), 5000)
	if n := len(w.State.Jobs()); n != 1 {
		t.Errorf("jobs = %d, want 1 (each replaced by the next)", n)
	}
	released := 0
	for _, e := range w.Trace {
		if e.Controller == cluster.CtlJob && e.Write != nil && e.Write.Reason == job.ReasonRemoveTrackingFinalizer && e.Err == "" {
			released++
		}
	}
	if released == 0 {
		t.Errorf("no tracking finalizer removed from an orphan pod")
	}
	for _, p := range w.State.Pods() {
		if p.IsDeleting() && w.Now.Sub(*p.DeletionTimestamp) > time.Minute {
			t.Errorf("pod %s still deleting since %s (finalizers %v)", p.Name, p.DeletionTimestamp, p.Finalizers)
		}
	}
}

// TestOrphanRules: a pod with the tracking finalizer controlled by a
// running Job, or by another kind, keeps it; one whose Job is gone, has
// another UID or is finished, or that has no controller, loses it; a Job
// managed by another controller keeps its pods' finalizers.
func TestOrphanRules(t *testing.T) {
	running := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "run", Namespace: "default", UID: "u-run"}}
	done := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "done", Namespace: "default", UID: "u-done"},
		Status: job.Status{Conditions: []job.Condition{{Type: "Complete", Status: meta.ConditionTrue}}}}
	ext := "example.com/other"
	extDone := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "ext", Namespace: "default", UID: "u-ext"},
		Spec:   job.Spec{ManagedBy: &ext},
		Status: job.Status{Conditions: []job.Condition{{Type: "Complete", Status: meta.ConditionTrue}}}}
	pod := func(name string, ref *meta.OwnerReference) any {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Finalizers: []string{job.TrackingFinalizer}}}
		p.Spec.Containers = []podstatus.Container{{Name: "c", Image: "i:1"}}
		if ref != nil {
			p.OwnerReferences = []meta.OwnerReference{*ref}
		}
		return p
	}
	ref := func(kind, name, uid string) *meta.OwnerReference {
		r := meta.NewControllerRef("batch/v1", kind, name, uid)
		if kind != "Job" {
			r.APIVersion = "apps/v1"
		}
		return &r
	}
	sc := cluster.Scenario{Start: t0, Objects: []any{running, done, extDone,
		pod("keep-running", ref("Job", "run", "u-run")),
		pod("keep-rs", ref("ReplicaSet", "rs", "u-rs")),
		pod("keep-ext", ref("Job", "ext", "u-ext")),
		pod("free-gone", ref("Job", "gone", "u-gone")),
		pod("free-uid", ref("Job", "run", "u-old")),
		pod("free-done", ref("Job", "done", "u-done")),
		pod("free-none", nil),
	}}
	w, err := cluster.New(sc, cluster.Options{Controllers: []string{cluster.CtlJob}})
	if err != nil {
		t.Fatal(err)
	}
	w.Sync(t0)
	var freed []string
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Reason == job.ReasonRemoveTrackingFinalizer {
			freed = append(freed, e.Object.Name)
		}
	}
	want := []string{"free-done", "free-gone", "free-none", "free-uid"}
	if !slices.Equal(freed, want) {
		t.Errorf("finalizers removed from %v, want %v", freed, want)
	}
}

// TestStuckWorldStops: a world that keeps something due at one instant
// stops after Options.MaxSteps steps of it with a Stuck trace entry and
// Err, and Run and RunUntilSettled return.
func TestStuckWorldStops(t *testing.T) {
	w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{readyNode("n0")}}, cluster.Options{MaxSteps: 3})
	if err != nil {
		t.Fatal(err)
	}
	cluster.ForceDue(w, t0.Add(time.Minute))
	w.Run(t0.Add(time.Hour))
	if !errors.Is(w.Err, cluster.ErrStuck) {
		t.Fatalf("Err = %v, want ErrStuck", w.Err)
	}
	last := w.Trace[len(w.Trace)-1]
	if last.Controller != cluster.CtlWorld || last.Reason != cluster.ReasonStuck || !w.Now.Equal(t0.Add(time.Minute)) {
		t.Errorf("last entry %+v at %s, want world Stuck at 1m", last, w.Now)
	}
	if _, ok := w.RunUntilSettled(2 * time.Hour); ok || w.Step(t0.Add(3*time.Hour)) {
		t.Errorf("a stuck world settled or stepped")
	}
}

// TestTaintEvictionDeletesOnce: a pod whose taint eviction fired is not
// deleted again while the node's NoExecute taints and the pod's
// tolerations stay the same (upstream's TimedWorkerQueue fires once; pod
// updates other than tolerations and node updates other than NoExecute
// taints do not reprocess the pod). The world once deleted such pods
// again 5 minutes later.
func TestTaintEvictionDeletesOnce(t *testing.T) {
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(time.Hour), 10000)
	deletes := map[string]int{}
	for _, e := range w.Trace {
		if e.Controller == cluster.CtlTaintEvictor && e.Write != nil && e.Write.Verb == "delete" {
			deletes[e.Object.Name]++
		}
	}
	if len(deletes) != 4 {
		t.Errorf("taint eviction deleted %d pods, want node-c's 4", len(deletes))
	}
	for p, n := range deletes {
		if n != 1 {
			t.Errorf("pod %s deleted %d times by taint eviction", p, n)
		}
	}
}

// TestImageAndTemplateEvents: image and template events change a
// StatefulSet's and a DaemonSet's pod template, and their controllers roll
// the pods.
func TestImageAndTemplateEvents(t *testing.T) {
	tpl := &podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"ds": "agent"}},
		Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "agent", Image: "agent:2"}}}}
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), statefulSet("db", 2), daemonSet("agent")},
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "db"}, Image: "db:2"},
			{At: time.Minute, Kind: cluster.EventTemplate, Target: cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, Template: tpl},
		}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(10*time.Minute), 5000)
	images := map[string]int{}
	for _, p := range w.State.Pods() {
		if !p.IsDeleting() {
			images[p.Spec.Containers[0].Image]++
		}
	}
	if images["db:2"] != 2 || images["agent:2"] != 1 || len(images) != 2 {
		t.Errorf("live pods' images %v, want db:2 ×2 and agent:2", images)
	}
}

// TestSchedulerNodeCapacity: a node whose non-terminal pods reach
// status.allocatable.pods takes no more; the rest stay pending.
func TestSchedulerNodeCapacity(t *testing.T) {
	n := readyNode("n0")
	n.Status.Allocatable = map[string]string{"pods": "2"}
	sc := cluster.Scenario{Start: t0, Objects: []any{n, deployment("d0", 4, "img:1")}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(5*time.Minute), 5000)
	if got, pending := len(w.State.PodsOnNode("n0")), len(w.State.PodsOnNode("")); got != 2 || pending != 2 {
		t.Errorf("n0 has %d pods and %d are pending, want 2 and 2", got, pending)
	}
	if !cluster.HasRoom(n, 1) || cluster.HasRoom(n, 2) || !cluster.HasRoom(readyNode("x"), 500) {
		t.Errorf("HasRoom: 1 of 2 must fit, 2 of 2 not, no allocatable always")
	}
}

// TestDaemonSetMinReadySeconds: a DaemonSet with minReadySeconds and
// maxSurge 1 rolls every node: once a new pod has been ready that long the
// DaemonSet is synced again (upstream's updatePod enqueues it
// minReadySeconds + 1 s after the pod turns ready; its status, counting
// the old available pod of each node, asks for no requeue). The world
// once left it with one node updated.
func TestDaemonSetMinReadySeconds(t *testing.T) {
	ds := daemonSet("agent")
	ds.Spec.MinReadySeconds = 30
	one, zero := intstr.Int(1), intstr.Int(0)
	ds.Spec.UpdateStrategy.RollingUpdate = &daemonset.RollingParams{MaxSurge: &one, MaxUnavailable: &zero}
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), readyNode("n1"), readyNode("n2"), ds},
		Events: []cluster.Event{{At: 2 * time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, Image: "agent:2"}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(10*time.Minute), 5000)
	got := w.State.DaemonSets()[0].Status
	if got.NumberAvailable != 3 || got.UpdatedNumberScheduled != 3 || got.NumberReady != 3 {
		t.Errorf("status %+v, want 3 ready, available and updated", got)
	}
	for _, p := range w.State.Pods() {
		if p.Spec.Containers[0].Image != "agent:2" {
			t.Errorf("pod %s runs %s", p.Name, p.Spec.Containers[0].Image)
		}
	}
}

// TestJobWithSidecarSucceeds: a Job pod with a sidecar (an init container
// with restartPolicy Always) succeeds once its regular container exits 0:
// the kubelet kills the sidecar, which does not hold completion.
func TestJobWithSidecarSucceeds(t *testing.T) {
	always := podstatus.RestartAlways
	one := int32(1)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "default"},
		Spec: job.Spec{Completions: &one, Parallelism: &one,
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"task": "j"}},
				Spec: podstatus.Spec{RestartPolicy: podstatus.RestartNever,
					InitContainers: []podstatus.Container{{Name: "proxy", Image: "proxy:1", RestartPolicy: &always}},
					Containers:     []podstatus.Container{{Name: "main", Image: "main:1"}}}}}}
	run := time.Minute
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n0"), j},
		Pods: []cluster.PodBehavior{{Selector: labelSel("task", "j"), RunFor: &run}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runBounded(t, w, t0.Add(5*time.Minute), 5000)
	if got := w.State.Jobs()[0]; !got.IsSucceeded() {
		t.Errorf("job not succeeded: %+v", got.Status)
	}
	for _, p := range w.State.Pods() {
		if p.Status.Phase != podstatus.Succeeded {
			t.Errorf("pod %s is %s", p.Name, p.Status.Phase)
		}
		for _, s := range p.Status.InitContainerStatuses {
			if s.State.Running != nil {
				t.Errorf("pod %s: sidecar %s still running", p.Name, s.Name)
			}
		}
	}
}
