package wholecluster_test

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	batch "k8s.io/api/batch/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/plan"
)

// t0 is the harness start: far from the wall clock (see newWorld).
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func template(app string) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "registry.example/" + app + ":1"}}},
	}
}

// wcCluster is the objects of a cluster: nodes (each with its Lease), and
// the workloads given.
func readyNodes(n int, now time.Time) []kruntime.Object {
	var out []kruntime.Object
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("n%d", i)
		if n > 9 {
			name = fmt.Sprintf("n%03d", i)
		}
		t := metav1.NewTime(now)
		out = append(out, &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: t, LastTransitionTime: t}}},
		}, &coordv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease},
			Spec:       coordv1.LeaseSpec{HolderIdentity: ptr(name), LeaseDurationSeconds: ptr(int32(40)), RenewTime: &metav1.MicroTime{Time: now}},
		})
	}
	return out
}

func smallWorkloads(deployReplicas int32) []kruntime.Object {
	return []kruntime.Object{
		&apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: apps.DeploymentSpec{Replicas: ptr(deployReplicas), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: template("web")}},
		&apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"},
			Spec: apps.StatefulSetSpec{Replicas: ptr(int32(2)), ServiceName: "db", Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
				Template: template("db")}},
		&apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system"},
			Spec: apps.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}, Template: template("agent")}},
		&batch.Job{ObjectMeta: metav1.ObjectMeta{Name: "once", Namespace: "default"},
			Spec: batch.JobSpec{Template: func() v1.PodTemplateSpec {
				t := template("once")
				t.Spec.RestartPolicy = v1.RestartPolicyNever
				return t
			}()}},
		&batch.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "tick", Namespace: "default"},
			Spec: batch.CronJobSpec{Schedule: "*/1 * * * *", JobTemplate: batch.JobTemplateSpec{Spec: batch.JobSpec{Template: func() v1.PodTemplateSpec {
				t := template("tick")
				t.Spec.RestartPolicy = v1.RestartPolicyOnFailure
				return t
			}()}}}},
		&policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr(intstr.FromInt32(2)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
	}
}

// env is the test's environment: the scheduler, the kubelets and the
// node heartbeats, each action sent through world.Apply.
type env struct {
	t testing.TB
	w *world
	// succeed says whether a running pod has finished (Succeeded) at now.
	succeed func(p *v1.Pod, now time.Time) bool
	// down lists nodes whose kubelet is stopped (no heartbeat, no status).
	down map[string]bool
}

func (e *env) apply(actor string, verb plan.Verb, obj kruntime.Object, sub string, grace *int64) {
	e.t.Helper()
	if _, err := e.w.Apply(actor, verb, obj, sub, grace); err != nil {
		e.t.Fatalf("%s %s %s: %v", actor, verb, key(obj), err)
	}
}

// heartbeat renews the Lease of every node that is up.
func (e *env) heartbeat(now time.Time) {
	for _, o := range e.w.list(gvrLeases) {
		l := o.(*coordv1.Lease).DeepCopy()
		if e.down[l.Name] {
			continue
		}
		l.Spec.RenewTime = &metav1.MicroTime{Time: now}
		e.apply("kubelet/"+l.Name, plan.VerbUpdate, l, "", nil)
	}
}

// dsNode is the node a DaemonSet pod's required node affinity names.
func dsNode(p *v1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// schedule binds every unbound pod, in (namespace, name) order: a
// DaemonSet pod to its node, any other to the Ready, untainted node with
// the fewest pods (ties by name).
func (e *env) schedule() {
	load := map[string]int{}
	var ready []string
	for _, o := range e.w.list(gvrNodes) {
		n := o.(*v1.Node)
		ok := len(n.Spec.Taints) == 0 && !n.Spec.Unschedulable
		for _, c := range n.Status.Conditions {
			if c.Type == v1.NodeReady && c.Status != v1.ConditionTrue {
				ok = false
			}
		}
		if ok {
			ready = append(ready, n.Name)
		}
	}
	pods := e.w.list(gvrPods)
	for _, o := range pods {
		if p := o.(*v1.Pod); p.Spec.NodeName != "" && p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed {
			load[p.Spec.NodeName]++
		}
	}
	for _, o := range pods {
		p := o.(*v1.Pod)
		if p.Spec.NodeName != "" || p.DeletionTimestamp != nil {
			continue
		}
		target := dsNode(p)
		if target == "" {
			for _, n := range ready {
				if target == "" || load[n] < load[target] {
					target = n
				}
			}
		}
		if target == "" {
			continue
		}
		load[target]++
		b := p.DeepCopy()
		b.Spec.NodeName = target
		e.apply("scheduler", plan.VerbUpdate, b, "binding", nil)
	}
}

// kubelet runs the pods of every node that is up: a deleting pod is
// removed, a pending one starts Running and Ready at now, a running one
// the scenario says has finished Succeeds.
func (e *env) kubelet(now time.Time) {
	t := metav1.NewTime(now)
	for _, o := range e.w.list(gvrPods) {
		p := o.(*v1.Pod)
		if p.Spec.NodeName == "" || e.down[p.Spec.NodeName] {
			continue
		}
		actor := "kubelet/" + p.Spec.NodeName
		switch {
		case p.DeletionTimestamp != nil:
			e.apply(actor, plan.VerbDelete, p, "", ptr(int64(0)))
		case p.Status.Phase == "" || p.Status.Phase == v1.PodPending:
			s := p.DeepCopy()
			s.Status = v1.PodStatus{Phase: v1.PodRunning, StartTime: &t, PodIP: "10.0.0.1",
				Conditions: []v1.PodCondition{
					{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: t},
					{Type: v1.PodInitialized, Status: v1.ConditionTrue, LastTransitionTime: t},
					{Type: v1.ContainersReady, Status: v1.ConditionTrue, LastTransitionTime: t},
					{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: t},
				}}
			for _, c := range p.Spec.Containers {
				s.Status.ContainerStatuses = append(s.Status.ContainerStatuses, v1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: true,
					Started: ptr(true), State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: t}}})
			}
			e.apply(actor, plan.VerbUpdate, s, "status", nil)
		case p.Status.Phase == v1.PodRunning && e.succeed != nil && e.succeed(p, now):
			s := p.DeepCopy()
			s.Status.Phase = v1.PodSucceeded
			for i := range s.Status.Conditions {
				if c := &s.Status.Conditions[i]; c.Type == v1.PodReady || c.Type == v1.ContainersReady {
					c.Status, c.LastTransitionTime = v1.ConditionFalse, t
				}
			}
			for i := range s.Status.ContainerStatuses {
				cs := &s.Status.ContainerStatuses[i]
				cs.Ready, cs.Started = false, ptr(false)
				cs.State = v1.ContainerState{Terminated: &v1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: p.Status.StartTime.Rfc3339Copy(), FinishedAt: t}}
			}
			e.apply(actor, plan.VerbUpdate, s, "status", nil)
		}
	}
}

// step is one instant: the environment (heartbeats, garbage collection,
// scheduling, kubelets), then the control plane until it stops writing.
func (e *env) step(now time.Time) []traceRecord {
	e.t.Helper()
	e.w.clock.SetTime(now)
	e.heartbeat(now)
	if _, err := e.w.CollectGarbage(); err != nil {
		e.t.Fatal(err)
	}
	e.schedule()
	e.kubelet(now)
	recs, _, err := e.w.syncQuiet(now, 8)
	if err != nil {
		e.t.Fatal(err)
	}
	return recs
}

func newSmall(t testing.TB, nodes int, replicas int32) (*world, *env) {
	t.Helper()
	w, err := newWorld(t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close)
	t.Cleanup(func() { dump(t, w) })
	_, bench := t.(*testing.B)
	w.checkStores = !bench
	e := &env{t: t, w: w, down: map[string]bool{},
		succeed: func(p *v1.Pod, now time.Time) bool {
			// Job pods run for 30 s
			_, isJob := p.Labels[batch.JobNameLabel]
			return isJob && p.Status.StartTime != nil && !now.Before(p.Status.StartTime.Add(30*time.Second))
		}}
	for _, o := range append(readyNodes(nodes, t0), smallWorkloads(replicas)...) {
		e.apply("user", plan.VerbCreate, o, "", nil)
	}
	return w, e
}

func podsOwnedBy(w *world, kind, name string) []*v1.Pod {
	var out []*v1.Pod
	for _, o := range w.list(gvrPods) {
		p := o.(*v1.Pod)
		if ref := metav1.GetControllerOf(p); ref != nil && ref.Kind == kind && ref.Name == name {
			out = append(out, p)
		}
	}
	return out
}

func traceWrites(recs []traceRecord, controller string, verb plan.Verb, resource, sub string) []*plan.Write {
	var out []*plan.Write
	for _, r := range recs {
		if r.Write != nil && r.Controller == controller && r.Write.Verb == verb && r.Write.Resource == resource && r.Write.Subresource == sub {
			out = append(out, r.Write)
		}
	}
	return out
}

func traceEvents(recs []traceRecord, controller string, reason string) []*plan.Event {
	var out []*plan.Event
	for _, r := range recs {
		if r.Event != nil && r.Controller == controller && string(r.Event.Reason) == reason {
			out = append(out, r.Event)
		}
	}
	return out
}

func traceErrors(recs []traceRecord) []string {
	var out []string
	for _, r := range recs {
		if r.Err != "" {
			out = append(out, r.Controller+" "+r.Key+": "+r.Err)
		}
	}
	return out
}

// TestWholeClusterSmall runs the small cluster through four instants and
// checks facts of v1.36.3's behaviour on the way.
func TestWholeClusterSmall(t *testing.T) {
	w, e := newSmall(t, 3, 3)

	// t0: every workload starts. The Deployment's first sync fails with a
	// Conflict: v1.36.3 writes its status twice from the same copy
	// (getNewReplicaSet's condition, then syncRolloutStatus); the second
	// round succeeds.
	recs, err := w.syncAll(t0)
	if err != nil {
		t.Fatal(err)
	}
	if errs := traceErrors(recs); len(errs) != 2 || !strings.Contains(errs[1], "deployment default/web: sync: Operation cannot be fulfilled") {
		t.Errorf("t0 errors: %v", errs)
	}
	d := w.get(gvrDeployments, "default", "web").(*apps.Deployment)
	wantRS := d.Name + "-" + controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	rsCreates := traceWrites(recs, ctlDeployment, plan.VerbCreate, "replicasets", "")
	if len(rsCreates) != 1 || rsCreates[0].Name != wantRS {
		t.Fatalf("deployment created %d ReplicaSets (%v), want one named %s", len(rsCreates), rsCreates, wantRS)
	}
	rs := w.get(gvrReplicaSets, "default", wantRS).(*apps.ReplicaSet)
	if *rs.Spec.Replicas != 3 || rs.Labels[apps.DefaultDeploymentUniqueLabelKey] != strings.TrimPrefix(wantRS, "web-") {
		t.Errorf("ReplicaSet replicas %d, pod-template-hash %q", *rs.Spec.Replicas, rs.Labels[apps.DefaultDeploymentUniqueLabelKey])
	}
	if ev := traceEvents(recs, ctlDeployment, "ScalingReplicaSet"); len(ev) != 1 || !strings.Contains(ev[0].Message, "Scaled up replica set "+wantRS+" from 0 to 3") {
		t.Errorf("ScalingReplicaSet events %v", ev)
	}
	webPods := podsOwnedBy(w, "ReplicaSet", wantRS)
	if len(webPods) != 3 {
		t.Fatalf("ReplicaSet %s has %d pods, want 3", wantRS, len(webPods))
	}
	for _, p := range webPods {
		if p.GenerateName != wantRS+"-" || !strings.HasPrefix(p.Name, wantRS+"-") || len(p.Name) != len(wantRS)+6 {
			t.Errorf("pod %s (generateName %q)", p.Name, p.GenerateName)
		}
	}
	if n := len(traceEvents(recs, ctlReplicaSet, "SuccessfulCreate")); n != 3 {
		t.Errorf("ReplicaSet SuccessfulCreate events: %d, want 3", n)
	}
	dsPods := podsOwnedBy(w, "DaemonSet", "agent")
	var dsNodes []string
	for _, p := range dsPods {
		dsNodes = append(dsNodes, dsNode(p))
	}
	sort.Strings(dsNodes)
	if !slices.Equal(dsNodes, []string{"n1", "n2", "n3"}) {
		t.Errorf("DaemonSet pods on nodes %v, want one per node", dsNodes)
	}
	if sts := podsOwnedBy(w, "StatefulSet", "db"); len(sts) != 1 || sts[0].Name != "db-0" {
		t.Errorf("StatefulSet pods %v, want db-0 only (OrderedReady)", names(sts))
	}
	if jp := podsOwnedBy(w, "Job", "once"); len(jp) != 1 || !slices.Contains(jp[0].Finalizers, batch.JobTrackingFinalizer) {
		t.Errorf("Job pods %v, want one with the tracking finalizer", names(jp))
	}
	if n := len(w.list(gvrJobs)); n != 1 {
		t.Errorf("%d Jobs at t0, want 1 (the CronJob's first schedule is t0+1m)", n)
	}
	pdb := w.get(gvrPDBs, "default", "web").(*policyv1.PodDisruptionBudget)
	if pdb.Status.ExpectedPods != 3 || pdb.Status.CurrentHealthy != 0 || pdb.Status.DisruptionsAllowed != 0 || pdb.Status.DesiredHealthy != 2 {
		t.Errorf("PDB status at t0 %+v", pdb.Status)
	}

	// t0+10s: pods bound and running; the StatefulSet goes on to db-1.
	t1 := t0.Add(10 * time.Second)
	recs = e.step(t1)
	if errs := traceErrors(recs); len(errs) > 0 {
		t.Errorf("t1 errors: %v", errs)
	}
	if sts := podsOwnedBy(w, "StatefulSet", "db"); len(sts) != 2 {
		t.Errorf("StatefulSet pods at t1 %v, want db-0 and db-1", names(sts))
	}
	pdb = w.get(gvrPDBs, "default", "web").(*policyv1.PodDisruptionBudget)
	if pdb.Status.CurrentHealthy != 3 || pdb.Status.DisruptionsAllowed != 1 {
		t.Errorf("PDB status at t1 %+v", pdb.Status)
	}
	d = w.get(gvrDeployments, "default", "web").(*apps.Deployment)
	if d.Status.AvailableReplicas != 3 || d.Status.UpdatedReplicas != 3 || d.Status.ObservedGeneration != d.Generation {
		t.Errorf("Deployment status at t1 %+v", d.Status)
	}

	// t0+45s: the Job's pod has run 30 s and succeeded: the Job completes.
	t2 := t0.Add(45 * time.Second)
	recs = e.step(t2)
	j := w.get(gvrJobs, "default", "once").(*batch.Job)
	if j.Status.Succeeded != 1 || !jobCond(j, batch.JobComplete) {
		t.Errorf("Job status at t2 %+v", j.Status)
	}
	if errs := traceErrors(recs); len(errs) > 0 {
		t.Errorf("t2 errors: %v", errs)
	}

	// t0+60s: the CronJob's first schedule.
	t3 := t0.Add(time.Minute)
	recs = e.step(t3)
	jc := traceWrites(recs, ctlCronJob, plan.VerbCreate, "jobs", "")
	if len(jc) != 1 || jc[0].Name != fmt.Sprintf("tick-%d", t3.Unix()/60) {
		t.Errorf("CronJob created %v, want tick-%d", jc, t3.Unix()/60)
	}
	if ev := traceEvents(recs, ctlCronJob, "SuccessfulCreate"); len(ev) != 1 {
		t.Errorf("CronJob SuccessfulCreate events %v", ev)
	}
	t.Logf("trace: %d records", len(w.traceCopy()))
}

// dump writes the canonical trace to $WC_TRACE when set.
func dump(t testing.TB, w *world) {
	if p := os.Getenv("WC_TRACE"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(canonical(w.traceCopy()), "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestWholeClusterNodeLoss stops n3's heartbeats: after the monitor grace
// period the node lifecycle controller marks it Unknown and taints it
// unreachable, the taint-eviction controller deletes its pods that do not
// tolerate the taint (the fake API server runs no admission, so pods have
// no default tolerations), and the ReplicaSet replaces them.
func TestWholeClusterNodeLoss(t *testing.T) {
	w, e := newSmall(t, 3, 3)
	e.step(t0)
	e.step(t0.Add(10 * time.Second))
	before := map[string]bool{}
	for _, p := range podsOwnedBy(w, "ReplicaSet", onlyRS(t, w)) {
		before[p.Name] = p.Spec.NodeName == "n3"
	}
	e.down["n3"] = true
	cfg, err := difftest.UpstreamNodeConfig()
	if err != nil {
		t.Fatal(err)
	}
	// the lease was renewed at +10s; past the grace period it is stale
	tLost := t0.Add(10*time.Second + cfg.MonitorGrace + time.Second)
	e.step(t0.Add(20 * time.Second))
	recs := e.step(tLost)
	n3 := w.get(gvrNodes, "", "n3").(*v1.Node)
	var ready v1.ConditionStatus
	for _, c := range n3.Status.Conditions {
		if c.Type == v1.NodeReady {
			ready = c.Status
		}
	}
	if ready != v1.ConditionUnknown {
		t.Fatalf("n3 Ready=%s after %v without heartbeat", ready, tLost.Sub(t0))
	}
	hasTaint := func(key string, eff v1.TaintEffect) bool {
		return slices.ContainsFunc(n3.Spec.Taints, func(x v1.Taint) bool { return x.Key == key && x.Effect == eff })
	}
	if !hasTaint(v1.TaintNodeUnreachable, v1.TaintEffectNoExecute) || !hasTaint(v1.TaintNodeUnreachable, v1.TaintEffectNoSchedule) {
		t.Errorf("n3 taints %v", n3.Spec.Taints)
	}
	marked := traceWrites(recs, ctlNodeLife, plan.VerbUpdate, "pods", "status")
	if len(marked) == 0 {
		t.Errorf("no pod marked NotReady on n3")
	}
	for _, m := range marked {
		p := m.Object.(*v1.Pod)
		ready := slices.IndexFunc(p.Status.Conditions, func(c v1.PodCondition) bool { return c.Type == v1.PodReady })
		if p.Spec.NodeName != "n3" || ready < 0 || p.Status.Conditions[ready].Status != v1.ConditionFalse {
			t.Errorf("node lifecycle wrote pod %s on %s: %+v", p.Name, p.Spec.NodeName, p.Status.Conditions)
		}
	}
	if ev := traceEvents(recs, ctlNodeLife, "NodeNotReady"); len(ev) == 0 || ev[0].Object != "Node n3" {
		t.Errorf("NodeNotReady events %+v", ev)
	}
	evicted := traceWrites(recs, ctlTaintEvict, plan.VerbDelete, "pods", "")
	if len(evicted) == 0 {
		t.Errorf("no taint-eviction deletes")
	}
	for _, d := range evicted {
		if strings.HasPrefix(d.Name, "agent-") {
			t.Errorf("DaemonSet pod %s evicted (it tolerates unreachable)", d.Name)
		}
	}
	// the web pods on n3 are deleting; the ReplicaSet has replaced them
	recs = e.step(tLost.Add(10 * time.Second))
	active := 0
	for _, p := range podsOwnedBy(w, "ReplicaSet", onlyRS(t, w)) {
		if p.DeletionTimestamp == nil {
			active++
		}
	}
	if active != 3 {
		t.Errorf("%d active web pods after the eviction, want 3", active)
	}
	_ = recs
}

func onlyRS(t testing.TB, w *world) string {
	rss := w.list(gvrReplicaSets)
	if len(rss) != 1 {
		t.Fatalf("%d ReplicaSets", len(rss))
	}
	return rss[0].(*apps.ReplicaSet).Name
}

func jobCond(j *batch.Job, typ batch.JobConditionType) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == typ && c.Status == v1.ConditionTrue {
			return true
		}
	}
	return false
}

func names(ps []*v1.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// run runs the small scenario, then loses n3 (as
// TestWholeClusterNodeLoss), and returns the canonical trace.
func run(t testing.TB) []string {
	w, e := newSmall(t, 3, 3)
	for _, dt := range []time.Duration{0, 10 * time.Second, 45 * time.Second, 45 * time.Second, time.Minute, 70 * time.Second} {
		e.step(t0.Add(dt))
	}
	e.down["n3"] = true
	for _, dt := range []time.Duration{80 * time.Second, 125 * time.Second, 135 * time.Second, 145 * time.Second} {
		e.step(t0.Add(dt))
	}
	return canonical(w.traceCopy())
}

// TestWholeClusterDeterministic runs the scenario twice: the traces are
// identical, line by line.
func TestWholeClusterDeterministic(t *testing.T) {
	a := run(t)
	b := run(t)
	if len(a) < 50 {
		t.Fatalf("trace of %d records: the scenario did not run", len(a))
	}
	if len(a) != len(b) {
		t.Errorf("traces of %d and %d records", len(a), len(b))
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("record %d differs:\n%s\n%s", i, a[i], b[i])
		}
	}
	t.Logf("%d records, identical", len(a))
}

// TestWholeClusterAPIServer checks the harness's API server rules that
// the controllers rely on (apiServer's comment).
func TestWholeClusterAPIServer(t *testing.T) {
	w, err := newWorld(t0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if _, err := newWorld(time.Now()); err == nil {
		t.Error("a harness start at the wall clock was accepted")
	}
	pods := w.client.CoreV1().Pods("default")
	ctx := w.ctx
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "x-", Namespace: "default"}, Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "i"}}}}
	a, err := pods.Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pods.Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []*v1.Pod{a, b} {
		suffix, ok := strings.CutPrefix(q.Name, "x-")
		if !ok || len(suffix) != 5 || strings.Trim(suffix, alphabet) != "" || q.UID == "" || q.Generation != 1 ||
			!q.CreationTimestamp.Time.Equal(t0) || q.Status.Phase != v1.PodPending || q.Status.QOSClass != v1.PodQOSBestEffort ||
			q.Spec.RestartPolicy != v1.RestartPolicyAlways {
			t.Errorf("created %s uid %q gen %d at %v phase %q qos %q restart %q", q.Name, q.UID, q.Generation, q.CreationTimestamp, q.Status.Phase, q.Status.QOSClass, q.Spec.RestartPolicy)
		}
	}
	if a.Name == b.Name || a.UID == b.UID {
		t.Errorf("two creations named %s/%s, uids %s/%s", a.Name, b.Name, a.UID, b.UID)
	}
	// a stale resourceVersion conflicts; the status subresource keeps the spec
	stale := a.DeepCopy()
	a.Status.Phase = v1.PodRunning
	a.Spec.ActiveDeadlineSeconds = ptr(int64(5))
	if a, err = pods.UpdateStatus(ctx, a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.Status.Phase != v1.PodRunning || a.Spec.ActiveDeadlineSeconds != nil || a.Generation != 1 {
		t.Errorf("status update: phase %q deadline %v gen %d", a.Status.Phase, a.Spec.ActiveDeadlineSeconds, a.Generation)
	}
	stale.Labels = map[string]string{"x": "y"}
	if _, err := pods.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v, want Conflict", err)
	}
	// the main resource keeps the status and bumps generation on a spec change
	a.Status.Phase = v1.PodFailed
	a.Spec.ActiveDeadlineSeconds = ptr(int64(5))
	if a, err = pods.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.Status.Phase != v1.PodRunning || a.Generation != 2 {
		t.Errorf("update: phase %q gen %d", a.Status.Phase, a.Generation)
	}
	// an unbound pod is removed at once; a bound one gets its grace period
	if err := pods.Delete(ctx, b.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if w.get(gvrPods, "default", b.Name) != nil {
		t.Errorf("unbound pod %s not removed", b.Name)
	}
	bind := a.DeepCopy()
	bind.Spec.NodeName = "n1"
	if _, err := w.Apply("scheduler", plan.VerbUpdate, bind, "binding", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Apply("scheduler", plan.VerbUpdate, bind, "binding", nil); !apierrors.IsConflict(err) {
		t.Errorf("second binding: %v, want Conflict", err)
	}
	if err := pods.Delete(ctx, a.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &b.UID}}); !apierrors.IsConflict(err) {
		t.Errorf("delete with another uid: %v, want Conflict", err)
	}
	if err := pods.Delete(ctx, a.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	g := w.get(gvrPods, "default", a.Name).(*v1.Pod)
	if g.DeletionTimestamp == nil || !g.DeletionTimestamp.Time.Equal(t0.Add(30*time.Second)) || *g.DeletionGracePeriodSeconds != 30 {
		t.Errorf("graceful delete: %v %v", g.DeletionTimestamp, g.DeletionGracePeriodSeconds)
	}
	if _, err := w.Apply("kubelet/n1", plan.VerbDelete, g, "", ptr(int64(0))); err != nil {
		t.Fatal(err)
	}
	if w.get(gvrPods, "default", a.Name) != nil {
		t.Errorf("pod %s not removed by a delete with grace 0", a.Name)
	}
	// a Job gets its generated selector; its dependents are collected
	j, err := w.client.BatchV1().Jobs("default").Create(ctx, &batch.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "default"},
		Spec: batch.JobSpec{Template: template("j")}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if j.Spec.Selector.MatchLabels[batch.ControllerUidLabel] != string(j.UID) || j.Spec.Template.Labels[batch.JobNameLabel] != "j" {
		t.Errorf("job selector %v labels %v", j.Spec.Selector, j.Spec.Template.Labels)
	}
	dep := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "dep", Namespace: "default", OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(j, batch.SchemeGroupVersion.WithKind("Job"))}},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "i"}}}}
	if _, err := pods.Create(ctx, dep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if n, err := w.CollectGarbage(); n != 0 || err != nil {
		t.Errorf("collected %d (%v) while the owner exists", n, err)
	}
	// a Job's delete without propagationPolicy orphans (batch/v1's
	// default): the orphan finalizer, then the garbage collector removes
	// the dependent's reference and the finalizer, and the Job goes
	if err := w.client.BatchV1().Jobs("default").Delete(ctx, "j", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if g := w.get(gvrJobs, "default", "j").(*batch.Job); g.DeletionTimestamp == nil || !slices.Equal(g.Finalizers, []string{metav1.FinalizerOrphanDependents}) || g.Generation != 2 {
		t.Errorf("orphan delete: deletionTimestamp %v, finalizers %v, generation %d", g.DeletionTimestamp, g.Finalizers, g.Generation)
	}
	if n, err := w.CollectGarbage(); n != 2 || err != nil || w.get(gvrJobs, "default", "j") != nil {
		t.Errorf("orphaning: %d writes (%v), job %v", n, err, w.get(gvrJobs, "default", "j"))
	}
	if g, _ := w.get(gvrPods, "default", "dep").(*v1.Pod); g == nil || len(g.OwnerReferences) != 0 {
		t.Errorf("orphaned dependent %v", g)
	}
	// a background delete: the dependents are collected
	j, err = w.client.BatchV1().Jobs("default").Create(ctx, &batch.Job{ObjectMeta: metav1.ObjectMeta{Name: "j2", Namespace: "default"},
		Spec: batch.JobSpec{Template: template("j2")}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dep2 := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "dep2", Namespace: "default", OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(j, batch.SchemeGroupVersion.WithKind("Job"))}},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "i"}}}}
	if _, err := pods.Create(ctx, dep2, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	bg := metav1.DeletePropagationBackground
	if err := w.client.BatchV1().Jobs("default").Delete(ctx, "j2", metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil {
		t.Fatal(err)
	}
	if n, err := w.CollectGarbage(); n != 1 || err != nil || w.get(gvrPods, "default", "dep2") != nil {
		t.Errorf("collected %d (%v) after the owner's deletion", n, err)
	}
}

// TestWholeClusterRollout changes the Deployment's image: v1.36.3 creates
// the new ReplicaSet under the new template's hash, surges by one (25 %
// of 3 rounded up) without scaling the old one down (25 % of 3 rounded
// down is 0 unavailable), and ends with the new ReplicaSet at 3, the old
// at 0, and the revision annotation at 2.
func TestWholeClusterRollout(t *testing.T) {
	w, e := newSmall(t, 3, 3)
	e.step(t0)
	e.step(t0.Add(10 * time.Second))
	oldRS := onlyRS(t, w)
	d := w.get(gvrDeployments, "default", "web").(*apps.Deployment).DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = "registry.example/web:2"
	e.apply("user", plan.VerbUpdate, d, "", nil)
	d = w.get(gvrDeployments, "default", "web").(*apps.Deployment)
	if d.Generation != 2 {
		t.Errorf("generation %d after the template change, want 2", d.Generation)
	}
	newRS := d.Name + "-" + controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	now := t0.Add(20 * time.Second)
	recs, err := w.syncAll(now)
	if err != nil {
		t.Fatal(err)
	}
	if c := traceWrites(recs, ctlDeployment, plan.VerbCreate, "replicasets", ""); len(c) != 1 || c[0].Name != newRS {
		t.Fatalf("created %v, want %s", c, newRS)
	}
	rsReplicas := func(name string) int32 {
		return *w.get(gvrReplicaSets, "default", name).(*apps.ReplicaSet).Spec.Replicas
	}
	if n, o := rsReplicas(newRS), rsReplicas(oldRS); n != 1 || o != 3 {
		t.Errorf("after the first sync: new %d, old %d; want 1 and 3", n, o)
	}
	for i := 0; i < 12 && (rsReplicas(newRS) != 3 || rsReplicas(oldRS) != 0 || len(podsOwnedBy(w, "ReplicaSet", oldRS)) > 0); i++ {
		now = now.Add(5 * time.Second)
		e.step(now)
	}
	if n, o := rsReplicas(newRS), rsReplicas(oldRS); n != 3 || o != 0 {
		t.Fatalf("after the rollout: new %d, old %d; want 3 and 0", n, o)
	}
	if left := podsOwnedBy(w, "ReplicaSet", oldRS); len(left) != 0 {
		t.Errorf("old pods left: %v", names(left))
	}
	d = w.get(gvrDeployments, "default", "web").(*apps.Deployment)
	if d.Annotations["deployment.kubernetes.io/revision"] != "2" || d.Status.UpdatedReplicas != 3 || d.Status.AvailableReplicas != 3 {
		t.Errorf("deployment after the rollout: revision %q, status %+v", d.Annotations["deployment.kubernetes.io/revision"], d.Status)
	}
	var scaling []string
	for _, r := range w.traceCopy() {
		if r.Event != nil && r.Controller == ctlDeployment && r.Event.Reason == "ScalingReplicaSet" {
			scaling = append(scaling, r.Event.Message)
		}
	}
	t.Logf("ScalingReplicaSet: %q (finished at %v)", scaling, now.Sub(t0))
	want := []string{"Scaled up replica set " + oldRS + " from 0 to 3",
		"Scaled up replica set " + newRS + " from 0 to 1", "Scaled down replica set " + oldRS + " from 3 to 2",
		"Scaled up replica set " + newRS + " from 1 to 2", "Scaled down replica set " + oldRS + " from 2 to 1",
		"Scaled up replica set " + newRS + " from 2 to 3", "Scaled down replica set " + oldRS + " from 1 to 0"}
	if !slices.Equal(scaling, want) {
		t.Errorf("ScalingReplicaSet events %q, want %q", scaling, want)
	}
}
