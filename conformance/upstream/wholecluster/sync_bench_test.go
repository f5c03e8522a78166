package wholecluster_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	batch "k8s.io/api/batch/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/kubesem/kubesem/cluster"
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
//     harness (harness_test.go) on its fake clientset, the
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
// seconds), its pods placed by benchScheduler (linear in the pods) (with v1.36.3's hashes, diffNamer), then converted to API
// objects (k8s.To…) and defaulted by v1.36.3's defaulters (as the API
// server stores them); those API objects are what both sides load. The
// mix (benchMix) at 10,000 pods: 1,000 nodes (with Leases), 100 Deployments
// of 70 (and their ReplicaSets), 20 StatefulSets of 20, 2 DaemonSets (one
// pod per node), 30 Jobs of parallelism 20, 18 CronJobs (not due), 30
// PDBs (one per Deployment, minAvailable 50%): 200 workloads in 10
// namespaces. Other sizes scale every count (at least one of each).
//
// KUBESEM_BENCH_SIZES (comma-separated pod counts, default
// "100,1000,10000") picks the sizes; 100000 fits in memory (3 GB maximum
// resident, measured) and takes about three minutes to build.

var benchStart = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// benchMix is a cluster's make-up.
type benchMix struct {
	nodes, namespaces         int
	deployments, depReplicas  int
	statefulSets, stsReplicas int
	daemonSets                int
	jobs, jobParallelism      int
	cronJobs, pdbs            int
}

// benchMixFor scales the 10,000-pod mix to about pods pods.
func benchMixFor(pods int) benchMix {
	f := float64(pods) / 10000
	n := func(x float64) int { return max(1, int(x*f+0.5)) }
	return benchMix{
		nodes: max(2, n(1000)), namespaces: n(10),
		deployments: n(100), depReplicas: 70,
		statefulSets: n(20), stsReplicas: 20,
		daemonSets: 2,
		jobs:       n(30), jobParallelism: 20,
		cronJobs: n(18), pdbs: n(30),
	}
}

func (m benchMix) workloads() int {
	return m.deployments + m.statefulSets + m.daemonSets + m.jobs + m.cronJobs + m.pdbs
}

// benchScenario is the scenario the cluster settles from: the nodes and the
// workloads, as v1.36.3's API server would store them (defaulted).
func benchScenario(tb testing.TB, m benchMix) cluster.Scenario {
	sc := cluster.Scenario{Start: benchStart}
	add := func(ko kruntime.Object) {
		legacyscheme.Scheme.Default(ko)
		obj, err := diffFrom(ko)
		if err != nil {
			tb.Fatal(err)
		}
		sc.Objects = append(sc.Objects, obj)
	}
	ts := metav1.NewTime(benchStart)
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
			Spec: coordv1.LeaseSpec{HolderIdentity: ptr(name), LeaseDurationSeconds: ptr(int32(40)), RenewTime: &metav1.MicroTime{Time: benchStart}}})
	}
	ns := func(i int) string { return fmt.Sprintf("ns-%02d", i%m.namespaces) }
	tpl := func(app string, restart v1.RestartPolicy) v1.PodTemplateSpec {
		t := diffTemplate(app, "registry.example/"+app+":1")
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
			Spec: apps.DeploymentSpec{Replicas: ptr(int32(m.depReplicas)), Selector: sel(app), Template: tpl(app, "")}})
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
			Spec: apps.StatefulSetSpec{Replicas: ptr(int32(m.stsReplicas)), ServiceName: app, Selector: sel(app), Template: tpl(app, "")}})
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
			Spec: batch.JobSpec{Parallelism: &par, Completions: &par, ManualSelector: ptr(true), Selector: sel(app),
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

// benchNamer is cluster.DefaultNamer with v1.36.3's hashes: a Deployment's
// and a DaemonSet's pod-template-hash (k8s.TemplateHash) and a
// StatefulSet's revision hash (FNV-1 of its revision data; the world asks
// RevisionHash only of StatefulSets when PodTemplateHash answers), as
// the upstream controllers compute them in every sync. (The differential's
// diffNamer also serves DaemonSets through RevisionHash, telling them apart
// by encoding every StatefulSet template of the world on each call: too
// slow to benchmark with.)
type benchNamer struct{ cluster.DefaultNamer }

func (benchNamer) PodTemplateHash(t *podstatus.Template, c *int32) string {
	return k8s.TemplateHash(t, c)
}

func (benchNamer) RevisionHash(t *podstatus.Template, c *int32) string {
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
func (benchNamer) UID(i uint64) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", i) }

// benchScheduler places the pods of the cluster being built in time linear
// in the pods (the world's FewestPods looks at every node for every pod:
// 10^5 pods on 10^4 nodes would take hours): a DaemonSet's pod on the node
// its affinity names, any other pod on the first node that fits (cluster.Fits,
// cluster.HasRoom) from a start drawn from a hash of its namespace and name
// (nodes are given in name order).
func benchScheduler(p *podstatus.Pod, nodes []*node.Node, load map[string]int) (string, bool) {
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

func benchOptions() cluster.Options {
	opts := cluster.Options{Namer: benchNamer{}, Scheduler: benchScheduler}
	opts.Rollout.TemplateHash = k8s.TemplateHash
	return opts
}

// benchFixture is one settled cluster on both sides.
type benchFixture struct {
	mix     benchMix
	now     time.Time
	objects []kruntime.Object // the API objects both sides load
	pods    int
	world   *cluster.World
	h       *world
}

// benchBuild settles the cluster of mix m in a world, converts it to API
// objects and loads them into a fresh world and a fresh harness.
func benchBuild(tb testing.TB, m benchMix) *benchFixture {
	start := time.Now()
	w0, err := cluster.New(benchScenario(tb, m), benchOptions())
	if err != nil {
		tb.Fatal(err)
	}
	// (RunUntilSettled would wait for the CronJobs' next schedule: a
	// requeue hours ahead keeps the world busy)
	w0.Run(benchStart.Add(90 * time.Second))
	if w0.Err != nil {
		tb.Fatal(w0.Err)
	}
	settledAt := w0.Now
	fx := &benchFixture{mix: m, now: settledAt}
	for _, o := range w0.State.Objects() {
		ko, err := diffTo(o)
		if err != nil {
			tb.Fatal(err)
		}
		if r, ok := o.(*history.ControllerRevision); ok {
			// k8s.ToControllerRevision carries no data: the revision's
			// template as its owner's controller stores it
			if ko.(*apps.ControllerRevision).Data.Raw, err = benchRevisionData(r); err != nil {
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
	tb.Logf("settled %d objects (%d pods) at +%v in %v", len(fx.objects), fx.pods, settledAt.Sub(benchStart), time.Since(start))
	w0 = nil
	runtime.GC()

	// the world, from the API objects
	models := make([]any, 0, len(fx.objects))
	for _, ko := range fx.objects {
		o, err := diffFrom(ko.DeepCopyObject())
		if err != nil {
			tb.Fatal(err)
		}
		models = append(models, o)
	}
	fx.world, err = cluster.New(cluster.Scenario{Start: fx.now, Objects: models}, benchOptions())
	if err != nil {
		tb.Fatal(err)
	}

	// the harness, from the same API objects
	t1 := time.Now()
	if fx.h, err = newWorld(benchStart); err != nil {
		tb.Fatal(err)
	}
	fx.h.clock.SetTime(fx.now)
	if err := fx.h.load(fx.objects); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("loaded the harness in %v", time.Since(t1))
	return fx
}

// benchRevisionData is the data v1.36.3's StatefulSet or DaemonSet
// controller stores in the revision r (of the template r holds).
func benchRevisionData(r *history.ControllerRevision) ([]byte, error) {
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

// benchPhases are the upstream sync's parts, in order (for the breakdown).
var benchPhases = []string{"deployment", "replicaset", "statefulset", "daemonset", "job", "cronjob", "disruption", "podgc",
	"node-lifecycle", "taint-eviction"}

// benchCount sums a world sync's writes, events and errors.
func benchCount(w *cluster.World, ds []cluster.Decision, traceFrom int) (writes, events, errs int) {
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

// benchSizes are the pod counts benchmarked (KUBESEM_BENCH_SIZES).
func benchSizes(b *testing.B) []int {
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
	for _, size := range benchSizes(b) {
		m := benchMixFor(size)
		fx := benchBuild(b, m)
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
			wr, ev, er := benchCount(fx.world, ds, from)
			b.Logf("%s world: first sync %d decisions, %d writes, %d events, %d errors", name, len(ds), wr, ev, er)
		}
		warmWorld()
		b.Run(name+"/world", func(b *testing.B) {
			w := fx.world
			writes, events, errs := 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu := benchCPU()
			for range b.N {
				from := len(w.Trace)
				ds := w.ForceSync(fx.now)
				wr, ev, er := benchCount(w, ds, from)
				writes, events, errs = writes+wr, events+ev, errs+er
			}
			b.StopTimer()
			report(b, benchCPU()-cpu, writes, events, errs)
		})
		spent := make([]time.Duration, len(benchPhases))
		wr, ev, er := fx.h.fullSync(fx.now, spent)
		b.Logf("%s upstream: first sync %d writes, %d events, %d errors", name, wr, ev, er)
		b.Run(name+"/upstream", func(b *testing.B) {
			spent := make([]time.Duration, len(benchPhases))
			writes, events, errs := 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu := benchCPU()
			for range b.N {
				wr, ev, er := fx.h.fullSync(fx.now, spent)
				writes, events, errs = writes+wr, events+ev, errs+er
			}
			b.StopTimer()
			report(b, benchCPU()-cpu, writes, events, errs)
			for i, p := range benchPhases {
				b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N), "ns/op-"+p)
			}
		})
		fx.h.close()
		fx.world, fx.h, fx.objects = nil, nil, nil
		runtime.GC()
	}
}
