package cluster_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

func TestRollingUpdateWithNodeOutage(t *testing.T) {
	run := func() *cluster.World {
		w, err := cluster.New(rollingScenario(), cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		at, ok := w.RunUntilSettled(2 * time.Hour)
		if !ok {
			t.Fatalf("did not settle by 2h (last write at %v)", at.Sub(t0))
		}
		return w
	}
	w := run()
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
	d := w.State.Deployments()[0]
	if d.Status.UpdatedReplicas != 6 || d.Status.AvailableReplicas != 6 || d.Status.Replicas != 6 {
		t.Errorf("deployment status %+v", d.Status)
	}
	for _, p := range w.State.Pods() {
		if p.IsDeleting() {
			if p.Spec.NodeName != "node-c" {
				t.Errorf("pod %s stuck terminating on %s", p.Name, p.Spec.NodeName)
			}
			continue
		}
		if p.Spec.NodeName == "node-c" || p.Spec.Containers[0].Image != "web:2" {
			t.Errorf("live pod %s on %s runs %s", p.Name, p.Spec.NodeName, p.Spec.Containers[0].Image)
		}
	}
	n := w.State.Node("node-c")
	if ready, _ := n.Condition(node.Ready); ready.Status != meta.ConditionUnknown || len(n.Spec.Taints) != 2 {
		t.Errorf("node-c: Ready %s, taints %v", ready.Status, n.Spec.Taints)
	}
	if again := run(); !reflect.DeepEqual(again.Trace, w.Trace) {
		t.Error("two runs of one scenario differ")
	}
}

// TestDrainUnderBudget: draining node-a under a budget of minAvailable 5
// of 6 evicts one pod at a time, each once its replacement is ready.
func TestDrainUnderBudget(t *testing.T) {
	sc := rollingScenario()
	sc.Objects = append(sc.Objects, budget("web", "web", 5))
	sc.Events = []cluster.Event{{At: time.Minute, Kind: cluster.EventDrain, Target: cluster.Key{Kind: cluster.KindNode, Name: "node-a"}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("did not settle")
	}
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
	refused, evicted := 0, 0
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Subresource == "eviction" {
			if e.Err != "" {
				refused++
			} else {
				evicted++
			}
		}
	}
	if evicted != 2 || refused == 0 {
		t.Errorf("evictions: %d allowed, %d refused; want 2 allowed, some refused", evicted, refused)
	}
	for _, p := range w.State.Pods() {
		if p.Spec.NodeName == "node-a" && !p.IsDeleting() {
			t.Errorf("pod %s still on drained node-a", p.Name)
		}
	}
}

func TestCronJobRunsJobs(t *testing.T) {
	run := 30 * time.Second
	sc := cluster.Scenario{
		Start:   t0,
		Objects: []any{readyNode("node-a"), cronJob("report", "*/5 * * * *")},
		Pods:    []cluster.PodBehavior{{Selector: &meta.LabelSelector{MatchLabels: map[string]string{"task": "report"}}, RunFor: &run}},
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(16 * time.Minute))
	t.Log("\n" + summary(w.Trace))
	jobs := w.State.Jobs()
	if len(jobs) != 3 {
		t.Fatalf("jobs = %d, want 3 (at 5m, 10m, 15m)", len(jobs))
	}
	for _, j := range jobs[:2] {
		if !j.IsSucceeded() {
			t.Errorf("job %s not succeeded: %+v", j.Name, j.Status)
		}
	}
}

func TestDaemonSetOnEveryNode(t *testing.T) {
	sc := cluster.Scenario{
		Start:   t0,
		Objects: []any{readyNode("node-a"), readyNode("node-b"), daemonSet("agent")},
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventCreate, Object: readyNode("node-c")},
			{At: 2 * time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, Image: "agent:2"},
		},
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ok := w.RunUntilSettled(time.Hour)
	t.Log("\n" + summary(w.Trace))
	if !ok {
		t.Fatal("not settled")
	}
	pods := w.State.Pods()
	if len(pods) != 3 {
		t.Fatalf("pods = %d, want one per node", len(pods))
	}
	for _, p := range pods {
		if p.Spec.Containers[0].Image != "agent:2" || p.Spec.NodeName == "" {
			t.Errorf("pod %s on %q runs %s", p.Name, p.Spec.NodeName, p.Spec.Containers[0].Image)
		}
	}
}

func TestJobTTLAfterFinished(t *testing.T) {
	run, ttl := 20*time.Second, int32(60)
	cj := cronJob("report", "*/5 * * * *")
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "once", Namespace: "default"}, Spec: cj.Spec.JobTemplate.Spec}
	j.Spec.TTLSecondsAfterFinished = &ttl
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a")},
		Pods:   []cluster.PodBehavior{{RunFor: &run}},
		Events: []cluster.Event{{At: time.Second, Kind: cluster.EventCreate, Object: j}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	if got := w.State.Jobs(); len(got) != 1 || !got[0].IsSucceeded() {
		t.Fatalf("at 1m: jobs %v", got)
	}
	w.Run(t0.Add(3 * time.Minute))
	if len(w.State.Jobs()) != 0 || len(w.State.Pods()) != 0 {
		t.Errorf("after the TTL: %d jobs, %d pods remain", len(w.State.Jobs()), len(w.State.Pods()))
	}
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
}

// TestStatefulSetOrderedRollout: an OrderedReady set of 3 creates its pods
// one at a time (each once the previous is ready), then replaces them from
// the highest ordinal after an image change.
func TestStatefulSetOrderedRollout(t *testing.T) {
	ready := 5 * time.Second
	set := statefulSet("db", 3)
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a"), readyNode("node-b"), set},
		Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	upd := &podstatus.Template{ObjectMeta: set.Spec.Template.ObjectMeta,
		Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "db", Image: "db:2"}}}}
	c := *set
	c.Spec.Template = *upd
	sc.Events = []cluster.Event{{At: 2 * time.Minute, Kind: cluster.EventUpdate, Object: &c}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("did not settle")
	}
	if testing.Verbose() {
		t.Log("\n" + summary(w.Trace))
	}
	var created []string
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Verb == "create" && e.Write.Resource == "pods" && e.Write.Subresource == "" && e.Err == "" {
			created = append(created, e.Time.Sub(t0).String()+" "+e.Object.Name)
		}
	}
	want := []string{"0s db-0", "5s db-1", "10s db-2"}
	if len(created) < 3 || !reflect.DeepEqual(created[:3], want) {
		t.Errorf("creations %v, want %v first", created, want)
	}
	deletes := 0
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Verb == "delete" && e.Controller == cluster.CtlStatefulSet {
			deletes++
		}
	}
	if revs := w.State.ControllerRevisions(); len(revs) != 2 || deletes != 3 {
		t.Errorf("%d revisions, %d pod deletions; want 2 and 3 (one rollout)", len(revs), deletes)
	}
	pods := w.State.Pods()
	if len(pods) != 3 || len(w.State.Claims()) != 3 {
		t.Fatalf("%d pods, %d claims", len(pods), len(w.State.Claims()))
	}
	for _, p := range pods {
		if p.Spec.Containers[0].Image != "db:2" {
			t.Errorf("%s runs %s", p.Name, p.Spec.Containers[0].Image)
		}
	}
	if s := w.State.StatefulSets()[0].Status; s.UpdatedReplicas != 3 || s.ReadyReplicas != 3 || s.CurrentRevision != s.UpdateRevision {
		t.Errorf("status %+v", s)
	}
}

// TestDeleteCascadesInBackground: deleting a Deployment is a DELETE with
// propagationPolicy Background (kubectl's), and the garbage collector
// deletes its ReplicaSet, then that ReplicaSet's pods, each with its uid
// as precondition and Background, as upstream's attemptToDeleteItem does.
func TestDeleteCascadesInBackground(t *testing.T) {
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n1"), deployment("web", 2, "web:1")},
		Events: []cluster.Event{{At: time.Minute, Kind: cluster.EventDelete, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(2 * time.Minute))
	got := map[string]int{}
	for _, e := range w.Trace {
		if e.Write == nil || e.Write.Verb != plan.VerbDelete || e.Controller != cluster.CtlUser && e.Controller != cluster.CtlGC {
			continue
		}
		if e.Write.PropagationPolicy != cluster.PropagationBackground || e.Err != "" {
			t.Errorf("%s %s/%s: propagationPolicy %q, error %q", e.Controller, e.Write.Resource, e.Write.Name, e.Write.PropagationPolicy, e.Err)
		}
		if e.Controller == cluster.CtlGC && e.Write.UID == "" {
			t.Errorf("garbage collector's delete of %s/%s without a uid precondition", e.Write.Resource, e.Write.Name)
		}
		got[e.Controller+" "+e.Write.Resource]++
	}
	want := map[string]int{"user deployments": 1, "garbage-collector replicasets": 1, "garbage-collector pods": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("deletes %v, want %v", got, want)
	}
}

// budgetWrites counts the disruption controller's writes of budget name
// at each instant from t0.
func budgetWrites(tr []cluster.Entry, name string) map[time.Duration]int {
	out := map[time.Duration]int{}
	for _, e := range tr {
		if e.Controller == cluster.CtlDisruption && e.Write != nil && e.Write.Resource == "poddisruptionbudgets" && e.Write.Name == name {
			out[e.Time.Sub(t0)]++
		}
	}
	return out
}

// TestFailSafeBudgetQuiets: once its pods' ReplicaSet is deleted, a budget
// needing their scale fails its sync and writes the fail-safe status
// (v1.36.3 failSafe writes even when nothing changed): once, then once more
// as its own write wakes it — an update that changes nothing is not stored
// and wakes no one, so the instant ends there, as upstream's API server
// sends no watch event for it.
func TestFailSafeBudgetQuiets(t *testing.T) {
	b := budget("pdb", "web", 0)
	one := intstr.Int(1)
	b.Spec.MinAvailable, b.Spec.MaxUnavailable = nil, &one
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n1"), replicaSet("web", 2), b},
		Events: []cluster.Event{{At: time.Minute, Kind: cluster.EventDelete, Target: cluster.Key{Kind: cluster.KindReplicaSet, Namespace: "default", Name: "web"}}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(61 * time.Second))
	if n := budgetWrites(w.Trace, "pdb")[time.Minute]; n != 2 {
		t.Errorf("fail-safe writes at the deletion: %d, want 2", n)
	}
	st := w.State.Get(cluster.Key{Kind: cluster.KindPodDisruptionBudget, Namespace: "default", Name: "pdb"}).(*pdb.PodDisruptionBudget).Status
	if len(st.Conditions) != 1 || st.Conditions[0].Reason != string(pdb.ReasonSyncFailed) {
		t.Errorf("conditions %+v, want SyncFailed", st.Conditions)
	}
}

// TestBudgetNotWokenByItsControllers: scaling a StatefulSet whose pod is
// not ready (it creates no pod: OrderedReady) does not sync the budget
// over its pods: v1.36.3's disruption controller is woken by its budgets'
// and pods' events, not by their controllers'.
func TestBudgetNotWokenByItsControllers(t *testing.T) {
	set := statefulSet("db", 1)
	set.Spec.VolumeClaimTemplates = nil
	b := budget("pdb", "", 0)
	b.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"sts": "db"}}
	half := intstr.Percent(50)
	b.Spec.MinAvailable, b.Spec.MaxUnavailable = nil, &half
	three := int32(3)
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n1"), set, b},
		Pods:   []cluster.PodBehavior{{NeverReady: true}},
		Events: []cluster.Event{{At: time.Minute, Kind: cluster.EventScale, Target: cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "db"}, Replicas: &three}}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(90 * time.Second))
	got := budgetWrites(w.Trace, "pdb")
	if got[0] == 0 {
		t.Errorf("no budget write at the start: %v", got)
	}
	if got[time.Minute] != 0 {
		t.Errorf("budget written when only its pods' StatefulSet changed: %v", got)
	}
}

// TestBudgetNotWokenByOtherEvictedPods: a pod of the budget's namespace
// that the budget does not select, evicted (DisruptionTarget=True, then
// deleted gracefully), does not sync the budget, whose sync fails (its
// pods' ReplicaSet is gone) and would write its fail-safe status again:
// upstream's pod handlers enqueue the budgets that select a pod, and the
// stale-condition worker only pods not being deleted.
func TestBudgetNotWokenByOtherEvictedPods(t *testing.T) {
	b := budget("pdb", "web", 0)
	one := intstr.Int(1)
	b.Spec.MinAvailable, b.Spec.MaxUnavailable = nil, &one
	set := statefulSet("db", 1)
	set.Spec.VolumeClaimTemplates = nil
	sc := cluster.Scenario{Start: t0, Objects: []any{readyNode("n1"), replicaSet("web", 2), set, b},
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventDelete, Target: cluster.Key{Kind: cluster.KindReplicaSet, Namespace: "default", Name: "web"}},
			{At: 70 * time.Second, Kind: cluster.EventEvict, Target: cluster.Key{Kind: cluster.KindPod, Namespace: "default", Name: "db-0"}},
		}}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(2 * time.Minute))
	evicted := false
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Subresource == "eviction" && e.Err == "" && e.Time.Equal(t0.Add(70*time.Second)) {
			evicted = true
		}
	}
	if !evicted {
		t.Fatal("db-0 was not evicted at 70s")
	}
	got := budgetWrites(w.Trace, "pdb")
	if got[time.Minute] != 2 || got[70*time.Second] != 0 || got[100*time.Second] != 0 {
		t.Errorf("budget writes %v: want 2 at 1m, none at 1m10s (eviction of db-0) nor at 1m40s (its removal)", got)
	}
}
