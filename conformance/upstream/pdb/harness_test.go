package pdb_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/disruption"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
)

// This file runs one v1.36.3 disruption controller sync of a budget on
// fakes and reads back everything upstream lets an observer see, so that
// the sync differential (diff_test.go) and the vector replay
// (vectors_test.go) can compare whole Plans with it.
//
// The controller is built by the public NewDisruptionController, so its
// stale DisruptionTarget timeout is upstream's own default; only its clock
// is replaced (by a fake clock at the sync's now). Its recorder, its status
// updater, its recheck queue and its stale-pod queue are instrumented. The
// world it looks into is a realistic API server: a REST mapper and a
// discovery document in which ReplicationControllers, ReplicaSets,
// Deployments and StatefulSets (and every custom kind given a scale) serve
// the scale subresource, and a scale client that answers for the objects
// that exist.

var syncNow = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

// upIn is the world of one sync in upstream's types.
type upIn struct {
	budget *policyv1.PodDisruptionBudget
	pods   []*v1.Pod
	rcs    []*v1.ReplicationController
	rss    []*appsv1.ReplicaSet
	deps   []*appsv1.Deployment
	sss    []*appsv1.StatefulSet
	// scales are objects of other kinds, reached through the scale
	// subresource.
	scales []upScale
	now    time.Time
	// staleTimeout overrides the stale DisruptionTarget timeout (the
	// constructor's test knob); 0 keeps upstream's default.
	staleTimeout time.Duration
}

// upScale is an object of a kind the disruption controller reaches only
// through the scale subresource; replicas nil means its resource has none.
type upScale struct {
	gvk       schema.GroupVersionKind
	namespace string
	name      string
	uid       types.UID
	replicas  *int32
}

type upEvent struct {
	object                     runtime.Object
	eventtype, reason, message string
}

// upOut is what one upstream sync let an observer see.
type upOut struct {
	// err is what sync returned.
	err error
	// written is the status handed to the updater; nil when none.
	written *policyv1.PodDisruptionBudgetStatus
	events  []upEvent
	// recheck are the delays given to the recheck queue's AddAfter.
	recheck []time.Duration
	// staleAfter are the delays the stale-pod worker re-enqueued pods with.
	staleAfter []time.Duration
	// resets are the pods whose status the stale-pod worker wrote.
	resets []*v1.Pod
	// wallFrom and wallTo bracket the run on the wall clock.
	wallFrom, wallTo time.Time
	// actions are the requests the fake clientset received, the budget's
	// status update (sent by the updater as writePdbStatus sends it) and
	// the stale-pod worker's pod status updates.
	actions []core.Action
}

type recorder struct{ events *[]upEvent }

func (r recorder) Event(o runtime.Object, eventtype, reason, message string) {
	*r.events = append(*r.events, upEvent{o, eventtype, reason, message})
}

func (r recorder) Eventf(o runtime.Object, eventtype, reason, format string, args ...any) {
	r.Event(o, eventtype, reason, fmt.Sprintf(format, args...))
}

func (r recorder) AnnotatedEventf(o runtime.Object, _ map[string]string, eventtype, reason, format string, args ...any) {
	r.Eventf(o, eventtype, reason, format, args...)
}

// recheckQueue records the recheck queue's AddAfter calls.
type recheckQueue struct {
	workqueue.TypedDelayingInterface[string]
	adds *[]time.Duration
}

func (q recheckQueue) AddAfter(_ string, d time.Duration) { *q.adds = append(*q.adds, d) }

// staleQueue records the stale-pod queue's AddAfter calls.
type staleQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	adds *[]time.Duration
}

func (q staleQueue) AddAfter(_ string, d time.Duration) { *q.adds = append(*q.adds, d) }

type fataler interface{ Fatalf(string, ...any) }

var builtinKinds = []schema.GroupVersionKind{
	{Version: "v1", Kind: "ReplicationController"},
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "apps", Version: "v1", Kind: "Deployment"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"},
}

// upScaleWorld returns the REST mapper, discovery and scale client of
// the world in: every built-in kind and every custom kind of in.scales is
// mapped; built-ins and custom kinds given replicas serve autoscaling/v1
// Scale; a scale Get answers for an existing object of that resource, name
// and namespace, else NotFound.
func upScaleWorld(in upIn) (apimeta.RESTMapper, *discoveryfake.FakeDiscovery, *scalefake.FakeScaleClient) {
	mapper := apimeta.NewDefaultRESTMapper(nil)
	scalable := map[schema.GroupVersionResource]bool{}
	var gvks []schema.GroupVersionKind
	add := func(gvk schema.GroupVersionKind, scale bool) {
		if !slices.Contains(gvks, gvk) {
			gvks = append(gvks, gvk)
			mapper.Add(gvk, apimeta.RESTScopeNamespace)
		}
		res, _ := apimeta.UnsafeGuessKindToResource(gvk)
		scalable[res] = scalable[res] || scale
	}
	for _, k := range builtinKinds {
		add(k, true)
	}
	for _, s := range in.scales {
		add(s.gvk, s.replicas != nil)
	}
	disc := &discoveryfake.FakeDiscovery{Fake: &core.Fake{}}
	lists := map[string]*metav1.APIResourceList{}
	for _, gvk := range gvks {
		gv := gvk.GroupVersion().String()
		l := lists[gv]
		if l == nil {
			l = &metav1.APIResourceList{GroupVersion: gv}
			lists[gv] = l
			disc.Resources = append(disc.Resources, l)
		}
		res, _ := apimeta.UnsafeGuessKindToResource(gvk)
		l.APIResources = append(l.APIResources, metav1.APIResource{Name: res.Resource, Namespaced: true, Kind: gvk.Kind})
		if scalable[res] {
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: res.Resource + "/scale", Namespaced: true,
				Group: "autoscaling", Version: "v1", Kind: "Scale"})
		}
	}
	type object struct {
		uid      types.UID
		replicas *int32
	}
	objects := map[string]object{} // group/resource/namespace/name
	key := func(gvk schema.GroupVersionKind, ns, name string) string {
		res, _ := apimeta.UnsafeGuessKindToResource(gvk)
		return res.Group + "/" + res.Resource + "/" + ns + "/" + name
	}
	for _, o := range in.rcs {
		objects[key(builtinKinds[0], o.Namespace, o.Name)] = object{o.UID, o.Spec.Replicas}
	}
	for _, o := range in.rss {
		objects[key(builtinKinds[1], o.Namespace, o.Name)] = object{o.UID, o.Spec.Replicas}
	}
	for _, o := range in.deps {
		objects[key(builtinKinds[2], o.Namespace, o.Name)] = object{o.UID, o.Spec.Replicas}
	}
	for _, o := range in.sss {
		objects[key(builtinKinds[3], o.Namespace, o.Name)] = object{o.UID, o.Spec.Replicas}
	}
	for _, s := range in.scales {
		if s.replicas != nil {
			objects[key(s.gvk, s.namespace, s.name)] = object{s.uid, s.replicas}
		}
	}
	sc := &scalefake.FakeScaleClient{}
	sc.AddReactor("get", "*", func(a core.Action) (bool, runtime.Object, error) {
		g := a.(core.GetAction)
		gr := g.GetResource().GroupResource()
		o, ok := objects[gr.Group+"/"+gr.Resource+"/"+g.GetNamespace()+"/"+g.GetName()]
		if !ok || o.replicas == nil {
			return true, nil, apierrors.NewNotFound(gr, g.GetName())
		}
		return true, &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: g.GetName(), Namespace: g.GetNamespace(), UID: o.uid},
			Spec: autoscalingv1.ScaleSpec{Replicas: *o.replicas}}, nil
	})
	return mapper, disc, sc
}

// upRun runs one sync of in.budget by the v1.36.3 disruption controller
// at in.now, then its stale-pod worker on every pod of the budget's
// namespace (as the pod informer's handlers would enqueue them).
func upRun(tb fataler, in upIn) upOut {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	var out upOut
	client := fake.NewClientset()
	client.PrependReactor("update", "pods", func(a core.Action) (bool, runtime.Object, error) {
		u := a.(core.UpdateAction)
		if u.GetSubresource() != "status" {
			return false, nil, nil
		}
		p := u.GetObject().(*v1.Pod)
		out.resets = append(out.resets, p.DeepCopy())
		return true, p, nil
	})
	client.PrependReactor("update", "poddisruptionbudgets", func(a core.Action) (bool, runtime.Object, error) {
		return true, a.(core.UpdateAction).GetObject(), nil
	})
	inf := informers.NewSharedInformerFactory(client, 0)
	mapper, disc, scales := upScaleWorld(in)
	dc := disruption.NewDisruptionController(ctx,
		inf.Core().V1().Pods(), inf.Policy().V1().PodDisruptionBudgets(), inf.Core().V1().ReplicationControllers(),
		inf.Apps().V1().ReplicaSets(), inf.Apps().V1().Deployments(), inf.Apps().V1().StatefulSets(),
		client, mapper, scales, disc)
	difftest.DisruptionField(dc, "clock").Set(reflect.ValueOf(clocktesting.NewFakeClock(in.now)))
	if in.staleTimeout > 0 {
		difftest.DisruptionField(dc, "stalePodDisruptionTimeout").Set(reflect.ValueOf(in.staleTimeout))
	}
	difftest.DisruptionField(dc, "recorder").Set(reflect.ValueOf(record.EventRecorder(recorder{&out.events})))
	f := difftest.DisruptionField(dc, "getUpdater")
	upd := reflect.MakeFunc(f.Type().Out(0), func(args []reflect.Value) []reflect.Value {
		if out.written != nil {
			tb.Fatalf("upstream wrote the budget status twice")
		}
		b := args[1].Interface().(*policyv1.PodDisruptionBudget)
		out.written = b.Status.DeepCopy()
		// what writePdbStatus, the default updater, sends
		if _, err := client.PolicyV1().PodDisruptionBudgets(b.Namespace).UpdateStatus(ctx, b, metav1.UpdateOptions{}); err != nil {
			tb.Fatalf("budget status update: %v", err)
		}
		return []reflect.Value{reflect.Zero(reflect.TypeFor[error]())}
	})
	f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { return []reflect.Value{upd} }))
	recheck := difftest.DisruptionField(dc, "recheckQueue")
	rq := recheck.Interface().(workqueue.TypedDelayingInterface[string])
	recheck.Set(reflect.ValueOf(recheckQueue{rq, &out.recheck}))
	stale := difftest.DisruptionField(dc, "stalePodDisruptionQueue")
	sq := stale.Interface().(workqueue.TypedRateLimitingInterface[string])
	stale.Set(reflect.ValueOf(staleQueue{sq, &out.staleAfter}))
	defer difftest.Stop(dc)

	add := func(store interface{ Add(any) error }, obj any) {
		if err := store.Add(obj); err != nil {
			tb.Fatalf("informer store: %v", err)
		}
	}
	add(inf.Policy().V1().PodDisruptionBudgets().Informer().GetIndexer(), in.budget.DeepCopy())
	for _, p := range in.pods {
		add(inf.Core().V1().Pods().Informer().GetIndexer(), p.DeepCopy())
	}
	for _, o := range in.rcs {
		add(inf.Core().V1().ReplicationControllers().Informer().GetIndexer(), o.DeepCopy())
	}
	for _, o := range in.rss {
		add(inf.Apps().V1().ReplicaSets().Informer().GetIndexer(), o.DeepCopy())
	}
	for _, o := range in.deps {
		add(inf.Apps().V1().Deployments().Informer().GetIndexer(), o.DeepCopy())
	}
	for _, o := range in.sss {
		add(inf.Apps().V1().StatefulSets().Informer().GetIndexer(), o.DeepCopy())
	}
	out.wallFrom = time.Now()
	out.err = difftest.DisruptionSync(dc, ctx, in.budget.Namespace+"/"+in.budget.Name)
	for _, p := range in.pods {
		if p.Namespace != in.budget.Namespace {
			continue
		}
		if err := difftest.DisruptionSyncStale(dc, ctx, p.Namespace+"/"+p.Name); err != nil {
			tb.Fatalf("upstream stale-pod worker on %s: %v", p.Name, err)
		}
	}
	out.wallTo = time.Now()
	out.actions = client.Actions()
	return out
}

// planOf states what upstream did as a pdb.Plan, by this mapping:
//
//   - outcome: SyncFailed when upstream wrote a status whose
//     DisruptionAllowed condition has reason SyncFailed (only failSafe writes
//     that reason), else Synced;
//   - updateStatus: whether the updater was called; status: the status it
//     was handed, else old (the budget's status, untouched); disruptedPods
//     entries moved back by shift (see shift); conditions without
//     observedGeneration (not modelled); a lastTransitionTime inside the
//     run's wall-clock window (apimachinery's SetStatusCondition stamps
//     time.Now, not the controller's clock) is the sync's now;
//   - events, in the order recorded: type, reason, object (the pod's name
//     for an event about a pod, "" for the budget), and the message of the
//     NoPods and CalculateExpectedPodCountFailed events (the only ones
//     kubesem reproduces); NotDeleted events, which upstream records in its
//     pod lister's (map) order, sorted by pod name;
//   - requeue: the recheck queue's AddAfter delay as DisruptedPodExpiry,
//     then the smallest delay the stale-pod worker re-enqueued a pod with as
//     StaleDisruptionTarget;
//   - resetDisruptionTarget: the pods whose status the stale-pod worker
//     wrote, by name.
func planOf(out upOut, old pdb.Status, now time.Time, shift time.Duration) (pdb.Plan, error) {
	p := pdb.Plan{Outcome: pdb.ReasonSynced, Status: old}
	if out.err != nil {
		return p, fmt.Errorf("upstream sync error: %v", out.err)
	}
	if w := out.written; w != nil {
		p.UpdateStatus = true
		p.Status = pdb.Status{ObservedGeneration: w.ObservedGeneration, DisruptionsAllowed: w.DisruptionsAllowed,
			CurrentHealthy: w.CurrentHealthy, DesiredHealthy: w.DesiredHealthy, ExpectedPods: w.ExpectedPods}
		if len(w.DisruptedPods) > 0 {
			p.Status.DisruptedPods = map[string]time.Time{}
			for name, at := range w.DisruptedPods {
				p.Status.DisruptedPods[name] = at.Time.Add(-shift)
			}
		}
		for _, c := range w.Conditions {
			ltt := c.LastTransitionTime.Time
			if !ltt.Before(out.wallFrom) && !ltt.After(out.wallTo) {
				ltt = now
			}
			p.Status.Conditions = append(p.Status.Conditions, meta.Condition{Type: meta.ConditionType(c.Type),
				Status: meta.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: ltt,
				ObservedGeneration: c.ObservedGeneration})
			if c.Type == string(pdb.DisruptionAllowed) && c.Reason == policyv1.SyncFailedReason {
				p.Outcome = pdb.ReasonSyncFailed
			}
		}
	}
	p.Events = []plan.Event{}
	for _, e := range out.events {
		ev := plan.Event{Type: plan.EventType(e.eventtype), Reason: plan.Reason(e.reason)}
		switch o := e.object.(type) {
		case *v1.Pod:
			ev.Object = o.Name
		case *policyv1.PodDisruptionBudget:
		default:
			return p, fmt.Errorf("event %s about a %T", e.reason, e.object)
		}
		if e.reason == string(pdb.ReasonNoPods) || e.reason == string(pdb.ReasonCalculateExpectedPodCountFailed) {
			ev.Message = e.message
		}
		p.Events = append(p.Events, ev)
	}
	var notDeleted []int
	for i, e := range p.Events {
		if e.Reason == pdb.ReasonNotDeleted {
			notDeleted = append(notDeleted, i)
		}
	}
	sorted := make([]plan.Event, len(notDeleted))
	for i, j := range notDeleted {
		sorted[i] = p.Events[j]
	}
	slices.SortStableFunc(sorted, func(a, b plan.Event) int { return strings.Compare(a.Object, b.Object) })
	for i, j := range notDeleted {
		p.Events[j] = sorted[i]
	}
	p.Requeue = []plan.Requeue{}
	switch len(out.recheck) {
	case 0:
	case 1:
		p.Requeue = append(p.Requeue, plan.Requeue{After: out.recheck[0], Reason: pdb.ReasonDisruptedPodExpiry})
	default:
		return p, fmt.Errorf("upstream rechecked %d times", len(out.recheck))
	}
	if len(out.staleAfter) > 0 {
		p.Requeue = append(p.Requeue, plan.Requeue{After: slices.Min(out.staleAfter), Reason: pdb.ReasonStaleDisruptionTarget})
	}
	p.ResetDisruptionTarget = []pdb.PodRef{}
	for _, pod := range out.resets {
		p.ResetDisruptionTarget = append(p.ResetDisruptionTarget, pdb.PodRef{Name: pod.Name, UID: string(pod.UID), Reason: pdb.ReasonStaleDisruptionTarget})
	}
	slices.SortFunc(p.ResetDisruptionTarget, func(a, b pdb.PodRef) int { return strings.Compare(a.Name, b.Name) })
	return p, nil
}

// shift is how far disruptedPods entries move so that upstream, whose
// DeletionTimeout is a constant, decides as it would with timeout d: an
// entry at t expires at t+d, which is (t+shift)+DeletionTimeout. 0 when d
// is 0 (upstream's default).
func shift(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d - disruption.DeletionTimeout
}

// divergentMessage reports whether a sync failure's message is one that
// kubesem states differently on purpose (pdb doc, Divergences): upstream
// names the failing resource through its REST mapper ("no matches for
// kind", "<resource>.<group> does not implement the scale subresource"),
// which kubesem, given controllers and not resources, cannot know.
func divergentMessage(msg string) bool {
	return strings.Contains(msg, "no matches for kind") || strings.Contains(msg, "does not implement the scale subresource")
}
