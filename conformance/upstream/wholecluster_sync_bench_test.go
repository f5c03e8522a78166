package upstream_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	batch "k8s.io/api/batch/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// The side-by-side benchmark of one full control-plane sync (issue 20
// step 6, issue 24 "the world"): the same settled cluster, given once as
// API objects, is synced
//
//   - world: by cluster.World.ForceSync, every controller over every
//     object it owns (a controller manager that just started with full
//     caches), the world built by cluster.New from the objects converted
//     with the k8s adapter (k8s.From…);
//   - upstream: by the real v1.36.3 controllers of the whole-cluster
//     harness (wholecluster_harness_test.go) on its fake clientset, the
//     informers populated with the same objects (loaded into the API
//     server's store and delivered as watch events): every controller's
//     sync handler over every key of its informer once (deployment,
//     replicaset, statefulset, daemonset, job and cronjob sync per
//     object; disruption per budget and per pod with a DisruptionTarget
//     condition; one pod GC pass; node lifecycle: monitorNodeHealth, the
//     NoExecute tainting pass, the NoSchedule tainting pass and label
//     reconciliation per node and the pod worker per pod; taint eviction:
//     the node worker per node and the pod worker per pod — what a
//     controller manager that just started does for every object its
//     informers list). The harness's per-key bookkeeping (begin/end,
//     settle, trace sorting) is not used: only the sync handlers run.
//
// Both sides sync once before the timer starts (the first sync of a fresh
// controller fills its memory: node health, expectations …); an op is one
// more full sync at the same instant, which writes nothing when the two
// sides agree the cluster is settled (writes/op says so for each side).
//
// The cluster: built by a world run from nodes and workloads for 90 s
// (every pod bound, running and ready; only heartbeats after the first
// seconds), its pods placed by wcbScheduler (linear in the pods) (with v1.36.3's hashes, wcdNamer), then converted to API
// objects (k8s.To…) and defaulted by v1.36.3's defaulters (as the API
// server stores them); those API objects are what both sides load. The
// mix (wcbMix) at 10,000 pods: 1,000 nodes (with Leases), 100 Deployments
// of 70 (and their ReplicaSets), 20 StatefulSets of 20, 2 DaemonSets (one
// pod per node), 30 Jobs of parallelism 20, 18 CronJobs (not due), 30
// PDBs (one per Deployment, minAvailable 50%): 200 workloads in 10
// namespaces. Other sizes scale every count (at least one of each).
//
// KUBESEM_BENCH_SIZES (comma-separated pod counts, default
// "100,1000,10000") picks the sizes; 100000 fits in memory (3 GB maximum
// resident, measured) and takes about three minutes to build.

var wcbStart = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// wcbMix is a cluster's make-up.
type wcbMix struct {
	nodes, namespaces         int
	deployments, depReplicas  int
	statefulSets, stsReplicas int
	daemonSets                int
	jobs, jobParallelism      int
	cronJobs, pdbs            int
}

// wcbMixFor scales the 10,000-pod mix to about pods pods.
func wcbMixFor(pods int) wcbMix {
	f := float64(pods) / 10000
	n := func(x float64) int { return max(1, int(x*f+0.5)) }
	return wcbMix{
		nodes: max(2, n(1000)), namespaces: n(10),
		deployments: n(100), depReplicas: 70,
		statefulSets: n(20), stsReplicas: 20,
		daemonSets: 2,
		jobs:       n(30), jobParallelism: 20,
		cronJobs: n(18), pdbs: n(30),
	}
}

func (m wcbMix) workloads() int {
	return m.deployments + m.statefulSets + m.daemonSets + m.jobs + m.cronJobs + m.pdbs
}

// wcbScenario is the scenario the cluster settles from: the nodes and the
// workloads, as v1.36.3's API server would store them (defaulted).
func wcbScenario(tb testing.TB, m wcbMix) cluster.Scenario {
	sc := cluster.Scenario{Start: wcbStart}
	add := func(ko kruntime.Object) {
		legacyscheme.Scheme.Default(ko)
		obj, err := wcdFrom(ko)
		if err != nil {
			tb.Fatal(err)
		}
		sc.Objects = append(sc.Objects, obj)
	}
	ts := metav1.NewTime(wcbStart)
	for i := 1; i <= m.nodes; i++ {
		name := fmt.Sprintf("n%05d", i)
		add(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name,
			"kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64"}},
			Status: v1.NodeStatus{
				Capacity:    v1.ResourceList{v1.ResourcePods: resource.MustParse("110"), v1.ResourceCPU: resource.MustParse("8"), v1.ResourceMemory: resource.MustParse("32Gi")},
				Allocatable: v1.ResourceList{v1.ResourcePods: resource.MustParse("110"), v1.ResourceCPU: resource.MustParse("8"), v1.ResourceMemory: resource.MustParse("32Gi")},
				Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
					LastHeartbeatTime: ts, LastTransitionTime: ts}}}})
		add(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease},
			Spec: coordv1.LeaseSpec{HolderIdentity: wcPtr(name), LeaseDurationSeconds: wcPtr(int32(40)), RenewTime: &metav1.MicroTime{Time: wcbStart}}})
	}
	ns := func(i int) string { return fmt.Sprintf("ns-%02d", i%m.namespaces) }
	tpl := func(app string, restart v1.RestartPolicy) v1.PodTemplateSpec {
		t := wcdTemplate(app, "registry.example/"+app+":1")
		if restart != "" {
			t.Spec.RestartPolicy = restart
		}
		return t
	}
	sel := func(app string) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
	}
	for i := range m.deployments {
		app := fmt.Sprintf("web-%04d", i)
		add(&apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: ns(i)},
			Spec: apps.DeploymentSpec{Replicas: wcPtr(int32(m.depReplicas)), Selector: sel(app), Template: tpl(app, "")}})
	}
	for i := range m.pdbs {
		app := fmt.Sprintf("web-%04d", i%m.deployments)
		half := intstr.FromString("50%")
		add(&policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb-%04d", i), Namespace: ns(i % m.deployments)},
			Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: &half, Selector: sel(app)}})
	}
	for i := range m.statefulSets {
		app := fmt.Sprintf("db-%04d", i)
		add(&apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: ns(i)},
			Spec: apps.StatefulSetSpec{Replicas: wcPtr(int32(m.stsReplicas)), ServiceName: app, Selector: sel(app), Template: tpl(app, "")}})
	}
	for i := range m.daemonSets {
		app := fmt.Sprintf("agent-%d", i)
		add(&apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: "kube-system"},
			Spec: apps.DaemonSetSpec{Selector: sel(app), Template: tpl(app, "")}})
	}
	for i := range m.jobs {
		app := fmt.Sprintf("batch-%04d", i)
		par := int32(m.jobParallelism)
		add(&batch.Job{ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: ns(i)},
			Spec: batch.JobSpec{Parallelism: &par, Completions: &par, ManualSelector: wcPtr(true), Selector: sel(app),
				Template: tpl(app, v1.RestartPolicyNever)}})
	}
	for i := range m.cronJobs {
		app := fmt.Sprintf("cron-%04d", i)
		add(&batch.CronJob{ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: ns(i)},
			Spec: batch.CronJobSpec{Schedule: fmt.Sprintf("%d 3 * * *", i%60),
				JobTemplate: batch.JobTemplateSpec{Spec: batch.JobSpec{Template: tpl(app, v1.RestartPolicyOnFailure)}}}})
	}
	return sc
}

// wcbNamer is cluster.DefaultNamer with v1.36.3's hashes: a Deployment's
// and a DaemonSet's pod-template-hash (k8s.TemplateHash) and a
// StatefulSet's revision hash (FNV-1 of its revision data; the world asks
// RevisionHash only of StatefulSets when PodTemplateHash answers), as
// the upstream controllers compute them in every sync. (The differential's
// wcdNamer also serves DaemonSets through RevisionHash, telling them apart
// by encoding every StatefulSet template of the world on each call: too
// slow to benchmark with.)
type wcbNamer struct{ cluster.DefaultNamer }

func (wcbNamer) PodTemplateHash(t *podstatus.Template, c *int32) string {
	return k8s.TemplateHash(t, c)
}

func (wcbNamer) RevisionHash(t *podstatus.Template, c *int32) string {
	set := &statefulset.StatefulSet{}
	set.Spec.Template = *t
	as, err := k8s.ToStatefulSet(set)
	if err != nil {
		panic(err)
	}
	data, err := k8s.StatefulSetRevisionData(as)
	if err != nil {
		panic(err)
	}
	return k8s.ControllerRevisionHash(&apps.ControllerRevision{Data: kruntime.RawExtension{Raw: data}}, c)
}

// UID is in the harness's uid shape.
func (wcbNamer) UID(i uint64) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", i) }

// wcbScheduler places the pods of the cluster being built in time linear
// in the pods (the world's FewestPods looks at every node for every pod:
// 10^5 pods on 10^4 nodes would take hours): a DaemonSet's pod on the node
// its affinity names, any other pod on the first node that fits (cluster.Fits,
// cluster.HasRoom) from a start drawn from a hash of its namespace and name
// (nodes are given in name order).
func wcbScheduler(p *podstatus.Pod, nodes []*node.Node, load map[string]int) (string, bool) {
	if req := p.Spec.Affinity.Required(); req != nil && len(req.NodeSelectorTerms) == 1 {
		if t := req.NodeSelectorTerms[0]; len(t.MatchFields) == 1 && t.MatchFields[0].Key == "metadata.name" && len(t.MatchFields[0].Values) == 1 {
			name := t.MatchFields[0].Values[0]
			i, ok := slices.BinarySearchFunc(nodes, name, func(n *node.Node, name string) int { return strings.Compare(n.Name, name) })
			if ok && cluster.Fits(p, nodes[i]) && cluster.HasRoom(nodes[i], load[name]) {
				return name, true
			}
			return "", false
		}
	}
	h := fnv.New32a()
	h.Write([]byte(p.Namespace + "/" + p.Name))
	start := int(h.Sum32() % uint32(len(nodes)))
	for i := range nodes {
		n := nodes[(start+i)%len(nodes)]
		if cluster.Fits(p, n) && cluster.HasRoom(n, load[n.Name]) {
			return n.Name, true
		}
	}
	return "", false
}

func wcbOptions() cluster.Options {
	opts := cluster.Options{Namer: wcbNamer{}, Scheduler: wcbScheduler}
	opts.Rollout.TemplateHash = k8s.TemplateHash
	return opts
}

// wcbFixture is one settled cluster on both sides.
type wcbFixture struct {
	mix     wcbMix
	now     time.Time
	objects []kruntime.Object // the API objects both sides load
	pods    int
	world   *cluster.World
	h       *wcWorld
}

// wcbBuild settles the cluster of mix m in a world, converts it to API
// objects and loads them into a fresh world and a fresh harness.
func wcbBuild(tb testing.TB, m wcbMix) *wcbFixture {
	start := time.Now()
	w0, err := cluster.New(wcbScenario(tb, m), wcbOptions())
	if err != nil {
		tb.Fatal(err)
	}
	// (RunUntilSettled would wait for the CronJobs' next schedule: a
	// requeue hours ahead keeps the world busy)
	w0.Run(wcbStart.Add(90 * time.Second))
	if w0.Err != nil {
		tb.Fatal(w0.Err)
	}
	settledAt := w0.Now
	fx := &wcbFixture{mix: m, now: settledAt}
	for _, o := range w0.State.Objects() {
		ko, err := wcdTo(o)
		if err != nil {
			tb.Fatal(err)
		}
		if r, ok := o.(*history.ControllerRevision); ok {
			// k8s.ToControllerRevision carries no data: the revision's
			// template as its owner's controller stores it
			if ko.(*apps.ControllerRevision).Data.Raw, err = wcbRevisionData(r); err != nil {
				tb.Fatal(err)
			}
		}
		legacyscheme.Scheme.Default(ko)
		fx.objects = append(fx.objects, ko)
		if _, ok := ko.(*v1.Pod); ok {
			fx.pods++
		}
	}
	for _, p := range w0.State.Pods() {
		if c := p.Condition(podstatus.Ready); c == nil || c.Status != meta.ConditionTrue {
			tb.Fatalf("pod %s/%s is not ready after settling", p.Namespace, p.Name)
		}
	}
	tb.Logf("settled %d objects (%d pods) at +%v in %v", len(fx.objects), fx.pods, settledAt.Sub(wcbStart), time.Since(start))
	w0 = nil
	runtime.GC()

	// the world, from the API objects
	models := make([]any, 0, len(fx.objects))
	for _, ko := range fx.objects {
		o, err := wcdFrom(ko.DeepCopyObject())
		if err != nil {
			tb.Fatal(err)
		}
		models = append(models, o)
	}
	fx.world, err = cluster.New(cluster.Scenario{Start: fx.now, Objects: models}, wcbOptions())
	if err != nil {
		tb.Fatal(err)
	}

	// the harness, from the same API objects
	t1 := time.Now()
	if fx.h, err = newWCWorld(wcbStart); err != nil {
		tb.Fatal(err)
	}
	fx.h.clock.SetTime(fx.now)
	if err := fx.h.load(fx.objects); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("loaded the harness in %v", time.Since(t1))
	return fx
}

// wcbRevisionData is the data v1.36.3's StatefulSet or DaemonSet
// controller stores in the revision r (of the template r holds).
func wcbRevisionData(r *history.ControllerRevision) ([]byte, error) {
	ref := r.ControllerRef()
	if ref == nil || r.Data == nil {
		return nil, fmt.Errorf("revision %s: no owner or no template", r.Name)
	}
	switch ref.Kind {
	case "StatefulSet":
		set := &statefulset.StatefulSet{}
		set.Spec.Template = r.Data.Template
		as, err := k8s.ToStatefulSet(set)
		if err != nil {
			return nil, err
		}
		return k8s.StatefulSetRevisionData(as)
	case "DaemonSet":
		ds := &daemonset.DaemonSet{}
		ds.Spec.Template = r.Data.Template
		ad, err := k8s.ToDaemonSet(ds)
		if err != nil {
			return nil, err
		}
		return k8s.DaemonSetRevisionData(ad)
	}
	return nil, fmt.Errorf("revision %s: owner kind %s", r.Name, ref.Kind)
}

// load stores objs in the API server as they are (resourceVersions
// assigned, nothing reset) and waits until every informer has them.
func (w *wcWorld) load(objs []kruntime.Object) error {
	s := w.api
	s.mu.Lock()
	for _, o := range objs {
		o = o.DeepCopyObject()
		k, ok := wcKinds[reflect.TypeOf(o)]
		if !ok {
			s.mu.Unlock()
			return fmt.Errorf("unmodelled %T", o)
		}
		m, _ := apimeta.Accessor(o)
		m.SetResourceVersion(s.nextRV())
		if err := s.inner.Create(k.gvr, o, m.GetNamespace()); err != nil {
			s.mu.Unlock()
			return fmt.Errorf("%s: %w", wcKey(o), err)
		}
		s.emit(k.gvr, watch.Added, o)
	}
	s.mu.Unlock()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		sent := s.eventCounts()
		done := true
		w.mu.Lock()
		for res, hs := range w.handlers {
			for _, h := range hs {
				if h.Load() != sent[res] {
					done = false
				}
			}
		}
		w.mu.Unlock()
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("informers did not take the loaded objects within 10m")
		}
		time.Sleep(time.Millisecond)
	}
}

// wcbPhases are the upstream sync's parts, in order (for the breakdown).
var wcbPhases = []string{"deployment", "replicaset", "statefulset", "daemonset", "job", "cronjob", "disruption", "podgc",
	"node-lifecycle", "taint-eviction"}

// fullSync runs every controller's sync handler over every key of its
// informer once at now (see the file comment); it adds each phase's time
// to spent (indexed as wcbPhases) and returns the writes and events the
// controllers made and the number of sync handler errors.
func (w *wcWorld) fullSync(now time.Time, spent []time.Duration) (writes, events, errs int) {
	return w.fullSyncRecs(now, spent, nil)
}

// fullSyncRecs is fullSync that also hands the records made to *recs
// when recs is not nil.
func (w *wcWorld) fullSyncRecs(now time.Time, spent []time.Duration, recs *[]wcRecord) (writes, events, errs int) {
	ctx := w.ctx
	w.clock.SetTime(now)
	w.taintClock.SetTime(now)
	keys := func(res string) []string {
		ks := w.stores[res].ListKeys()
		sort.Strings(ks)
		return ks
	}
	count := func(err error) {
		if err != nil {
			errs++
		}
	}
	dsync := wcFieldOf(w.dc, "syncHandler").Interface().(func(context.Context, string) error)
	rssync := wcFieldOf(w.rsc, "syncHandler").Interface().(func(context.Context, string) error)
	dssync := wcFieldOf(w.dsc, "syncHandler").Interface().(func(context.Context, string) error)
	phase := 0
	mark := time.Now()
	next := func() {
		t := time.Now()
		spent[phase] += t.Sub(mark)
		phase, mark = phase+1, t
	}
	for _, k := range keys("deployments") {
		count(dsync(ctx, k))
	}
	next()
	for _, k := range keys("replicasets") {
		count(rssync(ctx, k))
	}
	next()
	for _, k := range keys("statefulsets") {
		count(wcSTSSync(w.ssc, ctx, k))
	}
	next()
	for _, k := range keys("daemonsets") {
		count(dssync(ctx, k))
	}
	next()
	for _, k := range keys("jobs") {
		count(w.jm.sync(ctx, k))
	}
	next()
	for _, k := range keys("cronjobs") {
		_, err := wcCronSync(w.cjm, ctx, k)
		count(err)
	}
	next()
	for _, k := range keys("poddisruptionbudgets") {
		count(difftest.DisruptionSync(w.pdbc, ctx, k))
	}
	pods := w.stores["pods"].List()
	for _, o := range pods {
		if p := o.(*v1.Pod); slicesContainsCond(p.Status.Conditions, v1.DisruptionTarget) {
			count(difftest.DisruptionSyncStale(w.pdbc, ctx, p.Namespace+"/"+p.Name))
		}
	}
	next()
	difftest.PodGCPass(w.gcc, ctx)
	next()
	count(difftest.MonitorNodeHealth(w.nc, ctx))
	w.adoptLimiters()
	w.orderTainters()
	difftest.NoExecuteTaintingPass(w.nc, ctx)
	nodes := keys("nodes")
	for _, n := range nodes {
		count(difftest.NoScheduleTaintingPass(w.nc, ctx, n))
		count(wcNLReconcileLabels(w.nc, ctx, n))
	}
	for _, o := range pods {
		p := o.(*v1.Pod)
		wcNLProcessPod(w.nc, ctx, wcNLPodItem{namespace: p.Namespace, name: p.Name})
	}
	next()
	for _, n := range nodes {
		difftest.TaintEvictionHandleNodeUpdate(w.tc, ctx, difftest.TaintEvictionNodeItem{NodeName: n})
	}
	for _, o := range pods {
		p := o.(*v1.Pod)
		difftest.TaintEvictionHandlePodUpdate(w.tc, ctx, difftest.TaintEvictionPodItem{PodName: p.Name, PodNamespace: p.Namespace, NodeName: p.Spec.NodeName})
	}
	w.taintWG.Wait()
	next()
	w.mu.Lock()
	for _, r := range w.cur {
		if r.Write != nil {
			writes++
		} else {
			events++
		}
	}
	if recs != nil {
		*recs = w.cur
	}
	w.cur = nil
	w.mu.Unlock()
	w.client.ClearActions()
	return writes, events, errs
}

// wcbCount sums a world sync's writes, events and errors.
func wcbCount(w *cluster.World, ds []cluster.Decision, traceFrom int) (writes, events, errs int) {
	for _, d := range ds {
		writes += len(d.Writes)
		if d.Err != nil {
			errs++
		}
	}
	for _, e := range w.Trace[traceFrom:] {
		if e.Write == nil && e.Err == "" {
			events++
		}
	}
	return writes, events, errs
}

// wcbSizes are the pod counts benchmarked (KUBESEM_BENCH_SIZES).
func wcbSizes(b *testing.B) []int {
	spec := os.Getenv("KUBESEM_BENCH_SIZES")
	if spec == "" {
		spec = "100,1000,10000"
	}
	var out []int
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			b.Fatalf("KUBESEM_BENCH_SIZES: %v", err)
		}
		out = append(out, n)
	}
	return out
}

// BenchmarkWholeClusterSync: one full control-plane sync, world and
// upstream side by side on the same objects, at each size of
// KUBESEM_BENCH_SIZES (pods=10000 is issue 20's cluster: 1,000 nodes,
// 10,000 pods, 200 workloads). Metrics besides ns/op and allocs/op: the
// cluster's pods, nodes, workloads and objects, the writes/op, events/op
// and errors/op of the timed syncs (0 writes: both sides find the cluster
// settled), and for upstream the time of each controller
// (ns/op-<controller>).
func BenchmarkWholeClusterSync(b *testing.B) {
	for _, size := range wcbSizes(b) {
		m := wcbMixFor(size)
		fx := wcbBuild(b, m)
		report := func(b *testing.B, cpu time.Duration, writes, events, errs int) {
			if cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(fx.pods), "pods")
			b.ReportMetric(float64(m.nodes), "nodes")
			b.ReportMetric(float64(m.workloads()), "workloads")
			b.ReportMetric(float64(len(fx.objects)), "objects")
			b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
			b.ReportMetric(float64(errs)/float64(b.N), "errors/op")
		}
		name := fmt.Sprintf("pods=%d", size)
		warmWorld := func() {
			from := len(fx.world.Trace)
			ds := fx.world.ForceSync(fx.now)
			wr, ev, er := wcbCount(fx.world, ds, from)
			b.Logf("%s world: first sync %d decisions, %d writes, %d events, %d errors", name, len(ds), wr, ev, er)
		}
		warmWorld()
		b.Run(name+"/world", func(b *testing.B) {
			w := fx.world
			writes, events, errs := 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu := wcbCPU()
			for range b.N {
				from := len(w.Trace)
				ds := w.ForceSync(fx.now)
				wr, ev, er := wcbCount(w, ds, from)
				writes, events, errs = writes+wr, events+ev, errs+er
			}
			b.StopTimer()
			report(b, wcbCPU()-cpu, writes, events, errs)
		})
		spent := make([]time.Duration, len(wcbPhases))
		wr, ev, er := fx.h.fullSync(fx.now, spent)
		b.Logf("%s upstream: first sync %d writes, %d events, %d errors", name, wr, ev, er)
		b.Run(name+"/upstream", func(b *testing.B) {
			spent := make([]time.Duration, len(wcbPhases))
			writes, events, errs := 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu := wcbCPU()
			for range b.N {
				wr, ev, er := fx.h.fullSync(fx.now, spent)
				writes, events, errs = writes+wr, events+ev, errs+er
			}
			b.StopTimer()
			report(b, wcbCPU()-cpu, writes, events, errs)
			for i, p := range wcbPhases {
				b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N), "ns/op-"+p)
			}
		})
		fx.h.close()
		fx.world, fx.h, fx.objects = nil, nil, nil
		runtime.GC()
	}
}
