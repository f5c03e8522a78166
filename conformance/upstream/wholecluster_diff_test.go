package upstream_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// The whole-cluster differential (issue 20 step 5): one random scenario
// run on both sides —
//
//   - kubesem: cluster.World, with v1.36.3's exact hashes injected
//     (wcdNamer: k8s.TemplateHash for pod-template-hash and a DaemonSet's
//     revisions, k8s.ControllerRevisionHash of the revision data for a
//     StatefulSet's);
//   - upstream: the whole-cluster harness (wholecluster_harness_test.go),
//     the real v1.36.3 controllers on one fake clientset.
//
// The environment model is the world's, once: at each instant the world
// runs (its event loop picks the instants), the world's environment writes
// (scheduler, kubelets, heartbeats, garbage collector, users) are converted
// by the k8s adapter (k8s.To…) and sent to the harness through its Apply
// hook, round by round as the world interleaves them with its syncs, each
// round followed by one harness syncAll at that same instant; after the
// world's last round the harness runs syncQuiet (it must write nothing
// more). The rounds of an instant are recovered from clones of the world
// stepped with Options.MaxRounds 1, 2, … (the world is deterministic).
//
// Names and uids: the harness's API server takes, for each creation with
// generateName, the name the world gave the same creation at that instant
// (same resource, namespace and generateName, same object in the adapter's
// model, else the next unused one of that prefix), and for each created
// object the uid the world gave the object of that key: both sides then
// name everything alike and writes compare without renaming.
//
// Compared: every controller write of every instant, in order (verb,
// resource, subresource, namespace, name, uid precondition, grace period,
// whether the API server refused it, and the object as the adapter models
// it: the world's through k8s.To…, the harness's through k8s.From… then
// To…, resourceVersions dropped), and at the end every stored object in
// the adapter's model. The first difference fails the scenario; rapid
// shrinks it to a minimal one.
//
// Size: KUBESEM_WHOLE_SCENARIOS scenarios (default wcdDefaultScenarios).

const wcdDefaultScenarios = 40

var wcdStart = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// wcdNamer is cluster.DefaultNamer with v1.36.3's hashes. RevisionHash
// serves both StatefulSets and DaemonSets, whose hashes differ upstream
// (a StatefulSet hashes its revision's data with FNV-1, a DaemonSet its
// template like a Deployment): it tells them apart by finding the template
// in the world's stored StatefulSets (the world passes the stored
// object's template).
type wcdNamer struct {
	cluster.DefaultNamer
	w **cluster.World
}

func (n wcdNamer) PodTemplateHash(t *podstatus.Template, c *int32) string {
	return k8s.TemplateHash(t, c)
}

func (n wcdNamer) RevisionHash(t *podstatus.Template, c *int32) string {
	if *n.w != nil {
		for _, set := range (*n.w).State.StatefulSets() {
			if &set.Spec.Template == t {
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
		}
	}
	return k8s.TemplateHash(t, c)
}

// UID is in the harness's uid shape (8-4-4-4-12 hex).
func (n wcdNamer) UID(i uint64) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", i) }

// wcdTo converts a world object to the API type.
func wcdTo(obj any) (kruntime.Object, error) {
	switch o := obj.(type) {
	case *rollout.Deployment:
		return k8s.ToDeployment(o)
	case *replicaset.ReplicaSet:
		return k8s.ToReplicaSet(o)
	case *statefulset.StatefulSet:
		return k8s.ToStatefulSet(o)
	case *daemonset.DaemonSet:
		return k8s.ToDaemonSet(o)
	case *job.Job:
		return k8s.ToJob(o)
	case *cronjob.CronJob:
		return k8s.ToCronJob(o)
	case *pdb.PodDisruptionBudget:
		return k8s.ToPodDisruptionBudget(o)
	case *podstatus.Pod:
		return k8s.ToPod(o)
	case *node.Node:
		return k8s.ToNode(o)
	case *node.Lease:
		return k8s.ToLease(*o), nil
	case node.Lease:
		return k8s.ToLease(o), nil
	case *history.ControllerRevision:
		return k8s.ToControllerRevision(*o), nil
	case *statefulset.Claim:
		return k8s.ToPersistentVolumeClaim(o)
	}
	return nil, fmt.Errorf("wcdTo: unmodelled %T", obj)
}

// wcdFrom converts an API object to the world's model.
func wcdFrom(obj kruntime.Object) (any, error) {
	switch o := obj.(type) {
	case *apps.Deployment:
		return k8s.FromDeployment(o)
	case *apps.ReplicaSet:
		return k8s.FromReplicaSet(o)
	case *apps.StatefulSet:
		return k8s.FromStatefulSet(o)
	case *apps.DaemonSet:
		return k8s.FromDaemonSet(o)
	case *batch.Job:
		return k8s.FromJob(o)
	case *batch.CronJob:
		return k8s.FromCronJob(o)
	case *policyv1.PodDisruptionBudget:
		return k8s.FromPodDisruptionBudget(o)
	case *v1.Pod:
		return k8s.FromPod(o)
	case *v1.Node:
		return k8s.FromNode(o)
	case *coordv1.Lease:
		l := k8s.FromLease(o)
		return &l, nil
	case *apps.ControllerRevision:
		r := k8s.FromControllerRevision(o)
		return &r, nil
	case *v1.PersistentVolumeClaim:
		return k8s.FromPersistentVolumeClaim(o)
	}
	return nil, fmt.Errorf("wcdFrom: unmodelled %T", obj)
}

// wcdModelJSON renders an object as the adapter models it (API type →
// model → API type for a harness object, model → API type for a world
// one), without resourceVersion.
func wcdModelJSON(obj any) string {
	if obj == nil || reflect.ValueOf(obj).Kind() == reflect.Pointer && reflect.ValueOf(obj).IsNil() {
		return "null"
	}
	if ko, ok := obj.(kruntime.Object); ok {
		if _, api := wcKinds[reflect.TypeOf(ko)]; api {
			m, err := wcdFrom(ko)
			if err != nil {
				return "from: " + err.Error()
			}
			obj = m
		}
	}
	o, err := wcdTo(obj)
	if err != nil {
		return "to: " + err.Error()
	}
	b, err := json.Marshal(o)
	if err != nil {
		return "json: " + err.Error()
	}
	return wcDropRVs(string(b))
}

// wcdWrite is one write in the form both sides are compared in.
func wcdWriteLine(ctl, key string, wr *plan.Write, name string, refused bool) string {
	g := ""
	if wr.GracePeriodSeconds != nil {
		g = strconv.FormatInt(*wr.GracePeriodSeconds, 10)
	}
	obj := ""
	if wr.Object != nil {
		obj = wcdModelJSON(wr.Object)
	}
	return fmt.Sprintf("%s %s: %s %s/%s %s/%s uid=%s grace=%s refused=%v %s", ctl, key, wr.Verb, wr.Resource, wr.Subresource,
		wr.Namespace, name, wr.UID, g, refused, obj)
}

// wcdCtlNames maps the world's controller names to the harness's.
var wcdCtlNames = map[string]string{
	cluster.CtlDeployment: wcDeployment, cluster.CtlReplicaSet: wcReplicaSet, cluster.CtlStatefulSet: wcStatefulSet,
	cluster.CtlDaemonSet: wcDaemonSet, cluster.CtlJob: wcJob, cluster.CtlCronJob: wcCronJob, cluster.CtlDisruption: wcDisruption,
	cluster.CtlPodGC: wcPodGC, cluster.CtlNode: wcNodeLife, cluster.CtlTaintEvictor: wcTaintEvict,
}

func wcdIsEnv(ctl string) bool {
	return ctl == cluster.CtlScheduler || ctl == cluster.CtlGC || ctl == cluster.CtlUser || strings.HasPrefix(ctl, cluster.CtlKubelet)
}

// wcdWorldLine renders a world controller write (the object synced is
// left out: the harness's per-node and whole-cluster passes key
// differently).
func wcdWorldLine(e cluster.Entry) string {
	name := e.Write.Name
	if name == "" {
		name = e.Object.Name
	}
	return wcdWriteLine(wcdCtlNames[e.Controller], "", e.Write, name, e.Err != "")
}

func wcdHarnessLine(r wcRecord) string {
	return wcdWriteLine(r.Controller, "", r.Write, r.Write.Name, r.Err != "")
}

// wcdEmpty is an empty object of a resource, named, for a delete.
func wcdEmpty(resource, ns, name string) (kruntime.Object, error) {
	for typ, k := range wcKinds {
		if k.gvr.Resource == resource {
			o := reflect.New(typ.Elem()).Interface().(kruntime.Object)
			m, _ := apimeta.Accessor(o)
			m.SetNamespace(ns)
			m.SetName(name)
			return o, nil
		}
	}
	return nil, fmt.Errorf("unmodelled resource %q", resource)
}

// wcdPair is the differential's state: both sides and the names the world
// gave at the current instant.
type wcdPair struct {
	w *cluster.World
	h *wcWorld
	// pending: the world's generated names of this instant, per
	// (resource, namespace, generateName), with the object's model JSON
	pending map[string][]wcdPending
}

type wcdPending struct {
	name, body string
	used       bool
}

func wcdGenKey(resource, ns, gen string) string { return resource + "\x00" + ns + "\x00" + gen }

// nameFor is the harness API server's naming hook.
func (p *wcdPair) nameFor(gvr schema.GroupVersionResource, ns string, obj kruntime.Object) (string, bool) {
	m, _ := apimeta.Accessor(obj)
	cands := p.pending[wcdGenKey(gvr.Resource, ns, m.GetGenerateName())]
	c := obj.DeepCopyObject()
	cm, _ := apimeta.Accessor(c)
	cm.SetName("")
	body := wcdModelJSON(c)
	for i := range cands {
		if !cands[i].used && cands[i].body == body {
			cands[i].used = true
			return cands[i].name, true
		}
	}
	for i := range cands {
		if !cands[i].used {
			cands[i].used = true
			return cands[i].name, true
		}
	}
	return "", false
}

// uidFor is the harness API server's uid hook: the world object's uid.
func (p *wcdPair) uidFor(gvr schema.GroupVersionResource, ns, name string) (types.UID, bool) {
	k, ok := cluster.KindOfResource(gvr.Resource)
	if !ok {
		return "", false
	}
	obj := p.w.State.Get(cluster.Key{Kind: k, Namespace: ns, Name: name})
	if obj == nil {
		return "", false
	}
	o, err := wcdTo(obj)
	if err != nil {
		return "", false
	}
	m, _ := apimeta.Accessor(o)
	return m.GetUID(), m.GetUID() != ""
}

// applyEnv sends one world environment write to the harness.
func (p *wcdPair) applyEnv(e cluster.Entry) error {
	wr := e.Write
	var obj kruntime.Object
	var err error
	if wr.Object != nil {
		if obj, err = wcdTo(wr.Object); err != nil {
			return err
		}
	} else if obj, err = wcdEmpty(wr.Resource, wr.Namespace, wr.Name); err != nil {
		return err
	}
	m, _ := apimeta.Accessor(obj)
	if m.GetNamespace() == "" && wr.Namespace != "" {
		m.SetNamespace(wr.Namespace)
	}
	if m.GetName() == "" && wr.Name != "" {
		m.SetName(wr.Name)
	}
	verb, sub := wr.Verb, wr.Subresource
	switch {
	case wr.Verb == plan.VerbCreate && wr.Subresource == "binding":
		verb = plan.VerbUpdate
	case wr.Verb == plan.VerbCreate && wr.Subresource != "":
		return fmt.Errorf("environment write %s %s/%s not supported by the harness", wr.Verb, wr.Resource, wr.Subresource)
	case wr.Verb == plan.VerbPatch:
		verb = plan.VerbUpdate
	}
	if verb == plan.VerbCreate {
		// the API server assigns these
		m.SetUID("")
		m.SetResourceVersion("")
		m.SetCreationTimestamp(metav1.Time{})
	}
	_, err = p.h.Apply(e.Controller, verb, obj, sub, wr.GracePeriodSeconds)
	return err
}

// wcdInstant runs one instant of the world and the same instant of the
// harness; it returns false when the world has nothing due by end, and a
// description of the first difference.
func (p *wcdPair) instant(end time.Time) (bool, string, error) {
	snap := p.w.Clone()
	n0 := len(p.w.Trace)
	if !p.w.Step(end) {
		return false, "", nil
	}
	now := p.w.Now
	full := p.w.Trace[n0:]
	// the rounds of the instant: their ends in full
	var ends []int
	for r := 1; len(ends) == 0 || ends[len(ends)-1] < len(full); r++ {
		if r > 64 {
			return false, "", fmt.Errorf("rounds at %v not recovered", now)
		}
		c := snap.Clone()
		c.Opts.MaxRounds = r
		c.Step(end)
		if !c.Now.Equal(now) {
			return false, "", fmt.Errorf("clone stepped to %v, the world to %v", c.Now, now)
		}
		ends = append(ends, len(c.Trace)-n0)
	}
	// names the world generated at this instant
	p.pending = map[string][]wcdPending{}
	var want []string
	for _, e := range full {
		if e.Write == nil || wcdIsEnv(e.Controller) {
			continue
		}
		want = append(want, wcdWorldLine(e))
		if e.Write.Verb == plan.VerbCreate && e.Write.Name == "" && e.Err == "" && e.Write.Object != nil {
			o, err := wcdTo(e.Write.Object)
			if err != nil {
				return false, "", err
			}
			m, _ := apimeta.Accessor(o)
			k := wcdGenKey(e.Write.Resource, e.Object.Namespace, m.GetGenerateName())
			p.pending[k] = append(p.pending[k], wcdPending{name: e.Object.Name, body: wcdModelJSON(e.Write.Object)})
		}
	}
	var got []string
	keep := func(recs []wcRecord) {
		for _, r := range recs {
			if r.Write != nil && r.Controller != wcEnvironment {
				got = append(got, wcdHarnessLine(r))
			}
		}
	}
	p.h.clock.SetTime(now)
	from := 0
	for _, to := range ends {
		for _, e := range full[from:to] {
			if e.Write == nil || !wcdIsEnv(e.Controller) || e.Err != "" {
				continue
			}
			if err := p.applyEnv(e); err != nil {
				return true, fmt.Sprintf("at %v: the harness refused the environment write %s", now.Sub(wcdStart), wcdWorldLine(e)+": "+err.Error()), nil
			}
		}
		from = to
		recs, err := p.h.syncAll(now)
		if err != nil {
			return false, "", err
		}
		keep(recs)
	}
	recs, _, err := p.h.syncQuiet(now, 8)
	keep(recs)
	if err != nil {
		return true, fmt.Sprintf("at %v: the harness %v", now.Sub(wcdStart), err), nil
	}
	if d := wcdFirstDiff(want, got); d != "" {
		return true, fmt.Sprintf("at %v (%d rounds): controller writes differ: %s", now.Sub(wcdStart), len(ends), d), nil
	}
	return true, "", nil
}

// wcdFirstDiff describes the first difference of two sequences of lines.
func wcdFirstDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var a, b string
		if i < len(want) {
			a = want[i]
		}
		if i < len(got) {
			b = got[i]
		}
		if a != b {
			sw, sg := slices.Clone(want), slices.Clone(got)
			sort.Strings(sw)
			sort.Strings(sg)
			order := ""
			if slices.Equal(sw, sg) {
				order = " (same writes in another order)"
			}
			return fmt.Sprintf("write %d of %d/%d%s\n  kubesem:  %s\n  upstream: %s", i, len(want), len(got), order, a, b)
		}
	}
	return ""
}

// finalDiff compares every stored object of both sides.
func (p *wcdPair) finalDiff() string {
	world := map[string]string{}
	for _, o := range p.w.State.Objects() {
		k, _ := cluster.KindOf(o)
		ko, err := wcdTo(o)
		if err != nil {
			return err.Error()
		}
		world[string(k)+" "+wcKey(ko)] = wcdModelJSON(o)
	}
	up := map[string]string{}
	for _, k := range wcKinds {
		for _, o := range p.h.list(k.gvr) {
			up[k.gvk.Kind+" "+wcKey(o)] = wcdModelJSON(o)
		}
	}
	var diffs []string
	for k, v := range world {
		if u, ok := up[k]; !ok {
			diffs = append(diffs, "only in kubesem: "+k)
		} else if u != v {
			diffs = append(diffs, fmt.Sprintf("%s differs:\n  kubesem:  %s\n  upstream: %s", k, v, u))
		}
	}
	for k := range up {
		if _, ok := world[k]; !ok {
			diffs = append(diffs, "only upstream: "+k)
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n")
}

// wcdScenario is a generated scenario and how long it runs.
type wcdScenario struct {
	sc  cluster.Scenario
	dur time.Duration
	// desc is a readable summary (for the report of a difference)
	desc []string
}

func wcdTemplate(app, image string) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: image}}},
	}
}

// wcdGen draws a small scenario: 1–4 nodes, 1–3 workloads of any kind
// created at the start, and timed events (scale, image change, a node
// stopping and restarting its heartbeats, pods failing or never becoming
// ready).
func wcdGen(t *rapid.T) wcdScenario {
	var s wcdScenario
	s.sc.Start = wcdStart
	nodes := rapid.IntRange(1, 4).Draw(t, "nodes")
	for i := 1; i <= nodes; i++ {
		name := fmt.Sprintf("n%d", i)
		ts := metav1.NewTime(wcdStart)
		n, err := k8s.FromNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: ts, LastTransitionTime: ts}}}})
		if err != nil {
			t.Fatal(err)
		}
		l := k8s.FromLease(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease},
			Spec: coordv1.LeaseSpec{HolderIdentity: wcPtr(name), LeaseDurationSeconds: wcPtr(int32(40)), RenewTime: &metav1.MicroTime{Time: wcStartOr()}}})
		s.sc.Objects = append(s.sc.Objects, n, &l)
	}
	s.desc = append(s.desc, fmt.Sprintf("%d nodes", nodes))
	kinds := []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob"}
	nw := rapid.IntRange(1, 3).Draw(t, "workloads")
	var scalable []cluster.Key
	var templated []cluster.Key
	for i := 0; i < nw; i++ {
		kind := rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("kind%d", i))
		name := fmt.Sprintf("w%d", i)
		app := name
		replicas := int32(rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("replicas%d", i)))
		tpl := wcdTemplate(app, "registry.example/"+app+":1")
		sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
		om := metav1.ObjectMeta{Name: name, Namespace: "default"}
		var ko kruntime.Object
		key := cluster.Key{Kind: cluster.Kind(kind), Namespace: "default", Name: name}
		switch kind {
		case "Deployment":
			ko = (&apps.Deployment{ObjectMeta: om, Spec: apps.DeploymentSpec{Replicas: &replicas, Selector: sel, Template: tpl}})
			scalable, templated = append(scalable, key), append(templated, key)
		case "ReplicaSet":
			ko = (&apps.ReplicaSet{ObjectMeta: om, Spec: apps.ReplicaSetSpec{Replicas: &replicas, Selector: sel, Template: tpl}})
			scalable = append(scalable, key)
		case "StatefulSet":
			ko = (&apps.StatefulSet{ObjectMeta: om, Spec: apps.StatefulSetSpec{Replicas: &replicas, ServiceName: name, Selector: sel, Template: tpl}})
			scalable, templated = append(scalable, key), append(templated, key)
		case "DaemonSet":
			ko = (&apps.DaemonSet{ObjectMeta: om, Spec: apps.DaemonSetSpec{Selector: sel, Template: tpl}})
			templated = append(templated, key)
		case "Job":
			tpl.Spec.RestartPolicy = rapid.SampledFrom([]v1.RestartPolicy{v1.RestartPolicyNever, v1.RestartPolicyOnFailure}).Draw(t, fmt.Sprintf("restart%d", i))
			par := max(replicas, 1)
			ko = (&batch.Job{ObjectMeta: om, Spec: batch.JobSpec{Parallelism: &par, Completions: wcPtr(par + int32(rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("extra%d", i)))),
				BackoffLimit: wcPtr(int32(rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("backoff%d", i)))), Template: tpl}})
			scalable = append(scalable, key)
			runFor := time.Duration(rapid.IntRange(1, 6).Draw(t, fmt.Sprintf("runFor%d", i))) * 10 * time.Second
			code := int32(rapid.SampledFrom([]int{0, 0, 1}).Draw(t, fmt.Sprintf("exit%d", i)))
			s.sc.Pods = append(s.sc.Pods, cluster.PodBehavior{Namespace: "default",
				Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": app}}, RunFor: &runFor, ExitCode: code})
			s.desc = append(s.desc, fmt.Sprintf("job pods of %s run %v, exit %d", name, runFor, code))
		case "CronJob":
			tpl.Spec.RestartPolicy = v1.RestartPolicyOnFailure
			ko = (&batch.CronJob{ObjectMeta: om, Spec: batch.CronJobSpec{Schedule: "*/1 * * * *",
				JobTemplate: batch.JobTemplateSpec{Spec: batch.JobSpec{Template: tpl}}}})
			runFor := 20 * time.Second
			s.sc.Pods = append(s.sc.Pods, cluster.PodBehavior{Namespace: "default",
				Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": app}}, RunFor: &runFor})
		}
		// v1.36.3's defaulting (the API server's decoding): both sides
		// start from what a real API server stores (the world's API
		// server does not default templates)
		legacyscheme.Scheme.Default(ko)
		obj, err := wcdFrom(ko)
		if err != nil {
			t.Fatal(err)
		}
		s.sc.Events = append(s.sc.Events, cluster.Event{At: 0, Kind: cluster.EventCreate, Object: obj})
		s.desc = append(s.desc, fmt.Sprintf("create %s %s replicas %d", kind, name, replicas))
	}
	if rapid.Bool().Draw(t, "neverReady") {
		s.sc.Pods = append(s.sc.Pods, cluster.PodBehavior{Namespace: "default",
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "w0"}}, NeverReady: true})
		s.desc = append(s.desc, "pods of w0 never ready")
	}
	ne := rapid.IntRange(0, 4).Draw(t, "events")
	for i := 0; i < ne; i++ {
		at := time.Duration(rapid.IntRange(1, 24).Draw(t, fmt.Sprintf("at%d", i))) * 5 * time.Second
		ev := cluster.Event{At: at}
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("ev%d", i)) {
		case 0:
			if len(scalable) == 0 {
				continue
			}
			ev.Kind, ev.Target = cluster.EventScale, rapid.SampledFrom(scalable).Draw(t, fmt.Sprintf("scale%d", i))
			ev.Replicas = wcPtr(int32(rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("to%d", i))))
		case 1:
			if len(templated) == 0 {
				continue
			}
			ev.Kind, ev.Target = cluster.EventImage, rapid.SampledFrom(templated).Draw(t, fmt.Sprintf("image%d", i))
			ev.Image = fmt.Sprintf("registry.example/%s:%d", ev.Target.Name, i+2)
		case 2:
			ev.Kind = cluster.EventStopNode
			ev.Target = cluster.Key{Kind: cluster.KindNode, Name: fmt.Sprintf("n%d", rapid.IntRange(1, nodes).Draw(t, fmt.Sprintf("node%d", i)))}
		case 3:
			ev.Kind = cluster.EventStartNode
			ev.Target = cluster.Key{Kind: cluster.KindNode, Name: fmt.Sprintf("n%d", rapid.IntRange(1, nodes).Draw(t, fmt.Sprintf("node%d", i)))}
		}
		s.sc.Events = append(s.sc.Events, ev)
		s.desc = append(s.desc, fmt.Sprintf("at %v %s %s %v %q", at, ev.Kind, ev.Target, wcdDeref(ev.Replicas), ev.Image))
	}
	s.dur = time.Duration(rapid.IntRange(6, 36).Draw(t, "duration")) * 5 * time.Second
	s.desc = append(s.desc, fmt.Sprintf("run %v", s.dur))
	return s
}

func wcStartOr() time.Time { return wcdStart }

func wcdDeref(p *int32) any {
	if p == nil {
		return "-"
	}
	return *p
}

// wcdRun runs one scenario on both sides and returns the first difference
// ("" when none).
func wcdRun(t testing.TB, s wcdScenario) (string, error) {
	var wp *cluster.World
	opts := cluster.Options{Namer: wcdNamer{w: &wp}}
	opts.Rollout.TemplateHash = k8s.TemplateHash
	w, err := cluster.New(s.sc, opts)
	if err != nil {
		return "", fmt.Errorf("cluster.New: %w", err)
	}
	wp = w
	h, err := newWCWorld(wcdStart)
	if err != nil {
		return "", err
	}
	defer h.close()
	p := &wcdPair{w: w, h: h}
	h.api.mu.Lock()
	h.api.nameFor, h.api.uidFor, h.api.admitTolerations = p.nameFor, p.uidFor, true
	h.api.mu.Unlock()
	// the initial objects (the world stores them as given)
	h.clock.SetTime(wcdStart)
	for _, o := range w.State.Objects() {
		ko, err := wcdTo(o)
		if err != nil {
			return "", err
		}
		if _, err := h.Apply(cluster.CtlUser, plan.VerbCreate, ko, "", nil); err != nil {
			return "", fmt.Errorf("initial %s: %w", wcKey(ko), err)
		}
	}
	end := wcdStart.Add(s.dur)
	for {
		more, diff, err := p.instant(end)
		if err != nil {
			return "", err
		}
		if diff != "" {
			return diff, nil
		}
		if !more {
			break
		}
	}
	if d := p.finalDiff(); d != "" {
		return "final state differs at " + s.dur.String() + ":\n" + d, nil
	}
	return "", nil
}

// TestWholeClusterDifferential runs random scenarios on the world and on
// the harness and compares every controller write and the final state.
func TestWholeClusterDifferential(t *testing.T) {
	n := wcdDefaultScenarios
	if v := os.Getenv("KUBESEM_WHOLE_SCENARIOS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	if err := flag.Set("rapid.checks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
	start := time.Now()
	runs := 0
	rapid.Check(t, func(rt *rapid.T) {
		s := wcdGen(rt)
		runs++
		diff, err := wcdRun(t, s)
		if err != nil {
			rt.Fatalf("scenario %q: %v", s.desc, err)
		}
		if diff != "" {
			rt.Fatalf("scenario %q:\n%s", s.desc, diff)
		}
	})
	t.Logf("%d scenarios in %v", runs, time.Since(start))
}
