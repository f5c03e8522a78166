package pdb_test

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/controller/disruption"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/pdb"
)

// The four pdb rules without a controller of their own, each against the
// v1.36.3 code that decides it: updatePdbStatus's disruptionsAllowed,
// getExpectedPodCount (over getPodsForPdb's selection),
// nonTerminatingPodHasStaleDisruptionCondition and, for pdb.Validate,
// ValidatePodDisruptionBudget after policy/v1 conversion. kubesem is called
// through conformance.Kubesem().Decide with the decision's name, so the
// binding is checked with the rule. Every controller is built by the
// public NewDisruptionController, so its timeouts are upstream's own.

//go:linkname ruleUpdateStatus k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).updatePdbStatus
func ruleUpdateStatus(dc *disruption.DisruptionController, ctx context.Context, pdb *policyv1.PodDisruptionBudget, currentHealthy, desiredHealthy, expectedCount int32, disruptedPods map[string]metav1.Time) error

//go:linkname ruleExpectedPodCount k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).getExpectedPodCount
func ruleExpectedPodCount(dc *disruption.DisruptionController, ctx context.Context, pdb *policyv1.PodDisruptionBudget, pods []*v1.Pod) (expectedCount, desiredHealthy int32, unmanagedPods []string, err error)

//go:linkname rulePodsForPdb k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).getPodsForPdb
func rulePodsForPdb(dc *disruption.DisruptionController, pdb *policyv1.PodDisruptionBudget) ([]*v1.Pod, error)

//go:linkname ruleStale k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).nonTerminatingPodHasStaleDisruptionCondition
func ruleStale(dc *disruption.DisruptionController, pod *v1.Pod) (bool, time.Duration)

// ruleNewController returns a disruption controller over the world of in
// (its informer stores filled, its REST mapper, discovery and scale client
// those of upScaleWorld) and a function that stops it.
func ruleNewController(tb difftest.Fataler, in upIn) (*disruption.DisruptionController, func()) {
	client := fake.NewClientset()
	inf := informers.NewSharedInformerFactory(client, 0)
	mapper, disc, scales := upScaleWorld(in)
	dc := disruption.NewDisruptionController(difftest.Ctx,
		inf.Core().V1().Pods(), inf.Policy().V1().PodDisruptionBudgets(), inf.Core().V1().ReplicationControllers(),
		inf.Apps().V1().ReplicaSets(), inf.Apps().V1().Deployments(), inf.Apps().V1().StatefulSets(),
		client, mapper, scales, disc)
	add := func(store interface{ Add(any) error }, obj any) {
		if err := store.Add(obj); err != nil {
			tb.Fatalf("informer store: %v", err)
		}
	}
	if in.budget != nil {
		add(inf.Policy().V1().PodDisruptionBudgets().Informer().GetIndexer(), in.budget.DeepCopy())
	}
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
	return dc, func() { difftest.Stop(dc) }
}

// ---------------------------------------------------------------------
// pdb.DisruptionsAllowed

// ruleAllowedUp returns the disruptionsAllowed v1.36.3's updatePdbStatus
// writes for the counts: the controller is handed a budget whose observed
// generation is behind, so it always writes, and its updater records what.
type ruleAllowedUp struct {
	dc      *disruption.DisruptionController
	written *policyv1.PodDisruptionBudgetStatus
}

func newRuleAllowedUp(tb difftest.Fataler) (*ruleAllowedUp, func()) {
	dc, stop := ruleNewController(tb, upIn{})
	u := &ruleAllowedUp{dc: dc}
	f := difftest.DisruptionField(dc, "getUpdater")
	upd := reflect.MakeFunc(f.Type().Out(0), func(args []reflect.Value) []reflect.Value {
		u.written = args[1].Interface().(*policyv1.PodDisruptionBudget).Status.DeepCopy()
		return []reflect.Value{reflect.Zero(reflect.TypeFor[error]())}
	})
	f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { return []reflect.Value{upd} }))
	return u, stop
}

func (u *ruleAllowedUp) allowed(tb difftest.Fataler, current, desired, expected int32) int32 {
	u.written = nil
	b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default", Generation: 2},
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1}}
	if err := ruleUpdateStatus(u.dc, difftest.Ctx, b, current, desired, expected, map[string]metav1.Time{}); err != nil {
		tb.Fatalf("updatePdbStatus: %v", err)
	}
	if u.written == nil {
		tb.Fatalf("updatePdbStatus wrote nothing")
	}
	return u.written.DisruptionsAllowed
}

type ruleAllowedIn struct {
	CurrentHealthy int32 `json:"currentHealthy"`
	DesiredHealthy int32 `json:"desiredHealthy"`
	ExpectedPods   int32 `json:"expectedPods"`
}

// TestPDBDisruptionsAllowedDifferential: pdb.DisruptionsAllowed against
// the disruptionsAllowed v1.36.3's updatePdbStatus writes, on counts drawn
// boundary-heavy (0, 1, −1, the int32 extremes and their neighbours, small,
// any). The status API admits only non-negative counts; a state where
// upstream's int32 subtraction wraps (a negative count against a large
// one) is outside it and is counted, not compared. Then every
// pdb.DisruptionsAllowed vector is replayed through updatePdbStatus: its
// want must be upstream's answer.
func TestPDBDisruptionsAllowedDifferential(t *testing.T) {
	up, stop := newRuleAllowedUp(t)
	defer stop()
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		in := ruleAllowedIn{difftest.DrawInt32(t, "current"), difftest.DrawInt32(t, "desired"), difftest.DrawInt32(t, "expected")}
		if d := int64(in.CurrentHealthy) - int64(in.DesiredHealthy); d != int64(int32(d)) {
			counts["skipped: int32 subtraction wraps (negative count)"]++
			return
		}
		want := up.allowed(t, in.CurrentHealthy, in.DesiredHealthy, in.ExpectedPods)
		var got struct {
			DisruptionsAllowed *int32 `json:"disruptionsAllowed"`
		}
		if e := difftest.Decide(t, "pdb.DisruptionsAllowed", nil, in, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if got.DisruptionsAllowed == nil || *got.DisruptionsAllowed != want {
			t.Fatalf("%+v: kubesem %s, upstream %d", in, difftest.JSON(t, got), want)
		}
		switch {
		case want > 0:
			counts["allowed > 0"]++
		default:
			counts["allowed 0"]++
		}
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "pdb", "pdb.DisruptionsAllowed") {
		var in ruleAllowedIn
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		want := difftest.JSON(t, map[string]int32{"disruptionsAllowed": up.allowed(t, in.CurrentHealthy, in.DesiredHealthy, in.ExpectedPods)})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d pdb.DisruptionsAllowed vectors replayed through updatePdbStatus", n)
}

// ---------------------------------------------------------------------
// pdb.ExpectedPods

// ruleExpectedCase is one budget, its namespace's pods and the
// controllers, in upstream's types and as the decision's input.
type ruleExpectedCase struct {
	up upIn
	in map[string]any
}

type ruleExpectedOut struct {
	ExpectedPods   int32    `json:"expectedPods"`
	DesiredHealthy int32    `json:"desiredHealthy"`
	Unmanaged      []string `json:"unmanaged"`
	ScaleError     string   `json:"scaleError,omitempty"`
}

// ruleExpectedUp is upstream's answer: the budget's pods as getPodsForPdb
// lists them, in name order (upstream's lister order is its map's; kubesem
// names the first failing pod by name, pdb doc Divergences), through
// getExpectedPodCount.
func ruleExpectedUp(tb difftest.Fataler, up upIn) ruleExpectedOut {
	dc, stop := ruleNewController(tb, up)
	defer stop()
	pods, err := rulePodsForPdb(dc, up.budget)
	if err != nil {
		tb.Fatalf("getPodsForPdb: %v", err)
	}
	slices.SortFunc(pods, func(a, b *v1.Pod) int { return strings.Compare(a.Name, b.Name) })
	e, d, un, err := ruleExpectedPodCount(dc, difftest.Ctx, up.budget, pods)
	if err != nil {
		return ruleExpectedOut{ScaleError: err.Error()}
	}
	return ruleExpectedOut{ExpectedPods: e, DesiredHealthy: d, Unmanaged: un}
}

// ruleReplicas draws a controller's spec.replicas: 0, 1, the int32
// maximum (sums of two overflow), small or up to a thousand.
func ruleReplicas(t *rapid.T, label string) int32 {
	switch rapid.IntRange(0, 5).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom([]int32{0, 1, math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32 / 2, math.MaxInt32/2 + 1}).Draw(t, label)
	case 1, 2, 3:
		return int32(rapid.IntRange(0, 12).Draw(t, label))
	}
	return int32(rapid.IntRange(0, 1000).Draw(t, label))
}

// ruleIntOrPercent draws a budget value the API accepts: an integer
// (0, 1, small, the int32 maximum) or a percentage 0%–100%, boundary-heavy.
func ruleIntOrPercent(t *rapid.T, label string) upintstr.IntOrString {
	if rapid.Bool().Draw(t, label+"Pct") {
		p := rapid.OneOf(rapid.SampledFrom([]int{0, 1, 33, 50, 99, 100}), rapid.IntRange(0, 100)).Draw(t, label+"P")
		return upintstr.FromString(strconv.Itoa(p) + "%")
	}
	return upintstr.FromInt32(rapid.OneOf(rapid.SampledFrom([]int32{0, 1, 2, math.MaxInt32}), rapid.Int32Range(0, 15)).Draw(t, label+"I"))
}

// ruleDrawExpected draws a budget (minAvailable or maxUnavailable, int or
// percent, or neither; nil, empty or label selector), up to two
// Deployments, three ReplicaSets (apps/v1, as the API serves them; owned by
// a Deployment, by a missing one,
// by one with another UID, by a kind of another group, or by none), a
// ReplicationController, a StatefulSet and two custom kinds (one with a
// scale subresource, one without), and up to 12 pods of the namespace and
// another, each owned (as controller or not) by one of them, a missing
// one, one with a wrong UID or apiVersion, or by nothing.
func ruleDrawExpected(t *rapid.T) ruleExpectedCase {
	ns := "default"
	var c ruleExpectedCase
	b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns, UID: "b-uid"}}
	switch rapid.IntRange(0, 4).Draw(t, "field") {
	case 0, 1:
		v := ruleIntOrPercent(t, "min")
		b.Spec.MinAvailable = &v
	case 2, 3:
		v := ruleIntOrPercent(t, "max")
		b.Spec.MaxUnavailable = &v
	}
	switch rapid.IntRange(0, 5).Draw(t, "selector") {
	case 0:
	case 1:
		b.Spec.Selector = &metav1.LabelSelector{}
	case 2:
		b.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web", "db"}}}}
	default:
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	}
	c.up.budget = b
	var ctls []map[string]any
	ctl := func(apiVersion, kind, name, uid string, replicas *int32, owner *metav1.OwnerReference) {
		// the API object pdb.Controller reads: its controller reference
		// among ownerReferences, spec.replicas (none: no scale subresource)
		md := map[string]any{"name": name, "uid": uid}
		if owner != nil {
			md["ownerReferences"] = []*metav1.OwnerReference{owner}
		}
		spec := map[string]any{}
		if replicas != nil {
			spec["replicas"] = *replicas
		}
		ctls = append(ctls, map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md, "spec": spec})
	}
	type ref struct{ apiVersion, kind, name, uid string }
	var refs []ref
	for i := range rapid.IntRange(0, 2).Draw(t, "deps") {
		name := "d" + strconv.Itoa(i)
		r := ruleReplicas(t, "depReplicas")
		c.up.deps = append(c.up.deps, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid")}, Spec: appsv1.DeploymentSpec{Replicas: &r}})
		ctl("apps/v1", "Deployment", name, name+"-uid", &r, nil)
		refs = append(refs, ref{"apps/v1", "Deployment", name, name + "-uid"})
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "rss") {
		name := "rs" + strconv.Itoa(i)
		r := ruleReplicas(t, "rsReplicas")
		om := metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid")}
		var owner *metav1.OwnerReference
		switch rapid.IntRange(0, 5).Draw(t, "rsOwner") {
		case 0, 1:
			d := "d" + strconv.Itoa(rapid.IntRange(0, 1).Draw(t, "rsDep"))
			owner = &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: d, UID: types.UID(d + "-uid"), Controller: difftest.Ptr(true)}
		case 2:
			owner = &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "other-uid", Controller: difftest.Ptr(true)}
		case 3:
			owner = &metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Controller: difftest.Ptr(true)}
		}
		if owner != nil {
			om.OwnerReferences = []metav1.OwnerReference{*owner}
		}
		c.up.rss = append(c.up.rss, &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{Replicas: &r}})
		ctl("apps/v1", "ReplicaSet", name, name+"-uid", &r, owner)
		refs = append(refs, ref{"apps/v1", "ReplicaSet", name, name + "-uid"})
	}
	if rapid.Bool().Draw(t, "rc") {
		r := ruleReplicas(t, "rcReplicas")
		c.up.rcs = append(c.up.rcs, &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc0", Namespace: ns, UID: "rc0-uid"}, Spec: v1.ReplicationControllerSpec{Replicas: &r}})
		ctl("v1", "ReplicationController", "rc0", "rc0-uid", &r, nil)
		refs = append(refs, ref{"v1", "ReplicationController", "rc0", "rc0-uid"})
	}
	if rapid.Bool().Draw(t, "ss") {
		r := ruleReplicas(t, "ssReplicas")
		c.up.sss = append(c.up.sss, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "ss0", Namespace: ns, UID: "ss0-uid"}, Spec: appsv1.StatefulSetSpec{Replicas: &r}})
		ctl("apps/v1", "StatefulSet", "ss0", "ss0-uid", &r, nil)
		refs = append(refs, ref{"apps/v1", "StatefulSet", "ss0", "ss0-uid"})
	}
	if rapid.Bool().Draw(t, "custom") {
		r := ruleReplicas(t, "customReplicas")
		gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
		c.up.scales = append(c.up.scales, upScale{gvk: gvk, namespace: ns, name: "w0", uid: "w0-uid", replicas: &r})
		ctl("example.com/v1", "Widget", "w0", "w0-uid", &r, nil)
		refs = append(refs, ref{"example.com/v1", "Widget", "w0", "w0-uid"})
	}
	if rapid.IntRange(0, 3).Draw(t, "unscalable") == 0 {
		gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gadget"}
		c.up.scales = append(c.up.scales, upScale{gvk: gvk, namespace: ns, name: "g0", uid: "g0-uid"})
		ctl("example.com/v1", "Gadget", "g0", "g0-uid", nil, nil)
		refs = append(refs, ref{"example.com/v1", "Gadget", "g0", "g0-uid"})
	}
	var pods []*v1.Pod
	for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
		name := "p" + strconv.Itoa(i)
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid")}}
		if rapid.IntRange(0, 7).Draw(t, "otherNS") == 0 {
			p.Namespace = "other"
		}
		switch rapid.IntRange(0, 5).Draw(t, "labels") {
		case 0:
		case 1:
			p.Labels = map[string]string{"app": "db"}
		case 2:
			p.Labels = map[string]string{"app": "other"}
		default:
			p.Labels = map[string]string{"app": "web"}
		}
		// A missing or mismatched owner is rare: it fails the count.
		switch k := rapid.IntRange(0, 24).Draw(t, "owner"); {
		case k < 4:
		case k == 4:
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "missing", UID: "missing-uid", Controller: difftest.Ptr(true)}}
		case k == 5 && len(refs) > 0:
			r := rapid.SampledFrom(refs).Draw(t, "wrongUID")
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: r.apiVersion, Kind: r.kind, Name: r.name, UID: "wrong-uid", Controller: difftest.Ptr(true)}}
		case k == 6 && len(refs) > 0:
			r := rapid.SampledFrom(refs).Draw(t, "wrongAPI")
			api := rapid.SampledFrom([]string{"extensions/v1beta1", "apps/v1beta2", "v1", "apps/v1", "example.com/v2", "other.io/v1", "a/b/c"}).Draw(t, "api")
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: api, Kind: r.kind, Name: r.name, UID: types.UID(r.uid), Controller: difftest.Ptr(true)}}
		case k == 7 && len(refs) > 0:
			r := rapid.SampledFrom(refs).Draw(t, "notController")
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: r.apiVersion, Kind: r.kind, Name: r.name, UID: types.UID(r.uid)}}
		case len(refs) > 0:
			r := rapid.SampledFrom(refs).Draw(t, "ref")
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: r.apiVersion, Kind: r.kind, Name: r.name, UID: types.UID(r.uid), Controller: difftest.Ptr(true)}}
		}
		pods = append(pods, p)
	}
	c.up.pods = pods
	c.in = map[string]any{"budget": b, "pods": pods, "controllers": ctls}
	if ctls == nil {
		c.in["controllers"] = []any{}
	}
	if pods == nil {
		c.in["pods"] = []any{}
	}
	return c
}

// ruleSameExpected compares kubesem's answer with upstream's: the counts
// and unmanaged pods (nil and empty alike), or the scale error, whose
// message must be upstream's unless it is one kubesem states differently on
// purpose (divergentMessage).
func ruleSameExpected(got, want ruleExpectedOut) bool {
	if (got.ScaleError != "") != (want.ScaleError != "") {
		return false
	}
	if want.ScaleError != "" {
		if divergentMessage(want.ScaleError) {
			return divergentMessage(got.ScaleError) || strings.Contains(got.ScaleError, "does not implement the scale subresource") || strings.HasPrefix(got.ScaleError, "found no controllers")
		}
		return got.ScaleError == want.ScaleError
	}
	return got.ExpectedPods == want.ExpectedPods && got.DesiredHealthy == want.DesiredHealthy &&
		slices.Equal(got.Unmanaged, want.Unmanaged)
}

// TestPDBExpectedPodsDifferential: pdb.ExpectedPods against v1.36.3's
// getExpectedPodCount over getPodsForPdb's pods, on a disruption
// controller whose listers, REST mapper, discovery and scale client serve
// the drawn controllers (ruleDrawExpected). A sum of controller scales
// beyond int32, which upstream wraps and kubesem refuses (pdb doc,
// Divergences), is counted, not compared. Then every pdb.ExpectedPods
// vector is replayed through the same code: each key its want states must
// be upstream's.
func TestPDBExpectedPodsDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		c := ruleDrawExpected(t)
		want := ruleExpectedUp(t, c.up)
		var got ruleExpectedOut
		if e := difftest.Decide(t, "pdb.ExpectedPods", nil, c.in, &got); e != nil {
			t.Fatalf("kubesem input error %+v; upstream %+v", e, want)
		}
		if !ruleSameExpected(got, want) {
			t.Fatalf("kubesem %+v\nupstream %+v\ninput %s", got, want, difftest.JSON(t, c.in))
		}
		switch {
		case want.ScaleError != "":
			counts["scale error"]++
		case ruleScalesOverflow(c.up):
			counts["counted, the controllers' scales past int32 (the sum may wrap)"]++
		case len(want.Unmanaged) > 0:
			counts["counted, with unmanaged pods"]++
		default:
			counts["counted"]++
		}
	})
	difftest.Count(t, counts)
	total := 0
	for _, n := range counts {
		total += n
	}
	if total >= 1000 && counts["counted, the controllers' scales past int32 (the sum may wrap)"]*50 < total {
		t.Errorf("too few states whose scales sum past int32: %v", counts)
	}

	n := 0
	for _, v := range difftest.Vectors(t, "pdb", "pdb.ExpectedPods") {
		if v.WantError != nil {
			continue
		}
		var in stepVecIn
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		// The informers hold ReplicaSets and Deployments as apps/v1 objects,
		// whatever apiVersion a controller is given at.
		in.Controllers = slices.Clone(in.Controllers)
		for i, c := range in.Controllers {
			if strings.HasPrefix(c.APIVersion, "extensions/") && (c.Kind == "ReplicaSet" || c.Kind == "Deployment") {
				in.Controllers[i].APIVersion = "apps/v1"
			}
		}
		up, err := vecUpIn(in, pdb.Options{}, 0)
		if err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		want := ruleExpectedUp(t, up)
		var vw ruleExpectedOut
		if err := json.Unmarshal(v.Want, &vw); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		for _, k := range difftest.WantKeys(t, v.Want) {
			ok := true
			switch k {
			case "expectedPods":
				ok = vw.ExpectedPods == want.ExpectedPods && want.ScaleError == ""
			case "desiredHealthy":
				ok = vw.DesiredHealthy == want.DesiredHealthy && want.ScaleError == ""
			case "unmanaged":
				ok = slices.Equal(vw.Unmanaged, want.Unmanaged) && want.ScaleError == ""
			case "scaleError":
				ok = ruleSameExpected(ruleExpectedOut{ScaleError: vw.ScaleError}, ruleExpectedOut{ScaleError: want.ScaleError})
			default:
				ok = false
			}
			if !ok {
				t.Errorf("%q: want %s; upstream %+v", v.Name, v.Want, want)
				break
			}
		}
		n++
	}
	t.Logf("%d pdb.ExpectedPods vectors replayed through getExpectedPodCount", n)
}

// ruleScalesOverflow reports whether the scales of the drawn controllers
// add up beyond int32: the necessary condition for upstream's sum to wrap.
func ruleScalesOverflow(up upIn) bool {
	var sum int64
	for _, o := range up.deps {
		sum += int64(*o.Spec.Replicas)
	}
	for _, o := range up.rss {
		sum += int64(*o.Spec.Replicas)
	}
	for _, o := range up.rcs {
		sum += int64(*o.Spec.Replicas)
	}
	for _, o := range up.sss {
		sum += int64(*o.Spec.Replicas)
	}
	for _, s := range up.scales {
		if s.replicas != nil {
			sum += int64(*s.replicas)
		}
	}
	return sum > math.MaxInt32
}

// ---------------------------------------------------------------------
// pdb.StaleDisruptionTarget

// ruleStaleUp is a disruption controller whose clock and stale timeout a
// case sets; its default timeout is the constructor's.
type ruleStaleUp struct {
	dc             *disruption.DisruptionController
	defaultTimeout time.Duration
}

func newRuleStaleUp(tb difftest.Fataler) (*ruleStaleUp, func()) {
	dc, stop := ruleNewController(tb, upIn{})
	return &ruleStaleUp{dc, difftest.DisruptionField(dc, "stalePodDisruptionTimeout").Interface().(time.Duration)}, stop
}

func (u *ruleStaleUp) stale(pod *v1.Pod, now time.Time, timeout time.Duration) (bool, time.Duration) {
	difftest.DisruptionField(u.dc, "clock").Set(reflect.ValueOf(clocktesting.NewFakeClock(now)))
	if timeout <= 0 {
		timeout = u.defaultTimeout
	}
	difftest.DisruptionField(u.dc, "stalePodDisruptionTimeout").Set(reflect.ValueOf(timeout))
	return ruleStale(u.dc, pod)
}

type ruleStaleOut struct {
	Stale bool   `json:"stale"`
	After string `json:"after"`
}

// TestPDBStaleDisruptionTargetDifferential:
// pdb.StaleDisruptionTarget against v1.36.3's
// nonTerminatingPodHasStaleDisruptionCondition on a controller at now:
// pods being deleted or not, in every phase, with up to three conditions
// (DisruptionTarget True/False/Unknown with each reason, Ready, repeated
// DisruptionTarget), the condition's lastTransitionTime exactly at the
// stale timeout's expiry, a second either side, within minutes, at the
// zero time or in the future; now with and without nanoseconds; the
// timeout upstream's default or an option from 1s to the longest
// Duration. The pod goes through JSON as the API server would store it.
// Then every vector is replayed through the same function.
func TestPDBStaleDisruptionTargetDifferential(t *testing.T) {
	up, stop := newRuleStaleUp(t)
	defer stop()
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		now := syncNow
		if rapid.IntRange(0, 3).Draw(t, "fractionalNow") == 0 {
			now = now.Add(time.Duration(rapid.Int64Range(1, int64(time.Second)-1).Draw(t, "nowNs")))
		}
		var opts pdb.Options
		timeout := up.defaultTimeout
		if rapid.IntRange(0, 2).Draw(t, "timeoutOpt") == 0 {
			opts.StalePodDisruptionTimeout = rapid.SampledFrom([]time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour * 365 * 100,
				time.Duration(math.MaxInt64), time.Duration(math.MaxInt64) - time.Second}).Draw(t, "timeout")
			timeout = opts.StalePodDisruptionTimeout
		}
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "p-uid"}}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			d := metav1.NewTime(syncNow.Add(-time.Second))
			pod.DeletionTimestamp = &d
		}
		pod.Status.Phase = rapid.SampledFrom([]v1.PodPhase{v1.PodRunning, v1.PodRunning, v1.PodPending, v1.PodSucceeded, v1.PodFailed, v1.PodUnknown, ""}).Draw(t, "phase")
		for i := range rapid.IntRange(0, 3).Draw(t, "conds") {
			l := "c" + strconv.Itoa(i)
			typ := rapid.SampledFrom([]v1.PodConditionType{v1.DisruptionTarget, v1.DisruptionTarget, v1.PodReady}).Draw(t, l+"type")
			st := rapid.SampledFrom([]v1.ConditionStatus{v1.ConditionTrue, v1.ConditionTrue, v1.ConditionFalse, v1.ConditionUnknown}).Draw(t, l+"status")
			reason := rapid.SampledFrom([]string{"EvictionByEvictionAPI", v1.PodReasonTerminationByKubelet, "DeletionByTaintManager", "PreemptionByScheduler", ""}).Draw(t, l+"reason")
			var ltt time.Time
			expiry := now.Add(-timeout).Truncate(time.Second)
			switch rapid.IntRange(0, 6).Draw(t, l+"ltt") {
			case 0:
				ltt = expiry
			case 1:
				ltt = expiry.Add(-time.Second)
			case 2:
				ltt = expiry.Add(time.Second)
			case 3:
				ltt = now.Add(time.Duration(rapid.IntRange(-600, 600).Draw(t, l+"s")) * time.Second).Truncate(time.Second)
			case 4:
				ltt = time.Time{}
			case 5:
				ltt = now.Add(time.Hour).Truncate(time.Second)
			default:
				ltt = expiry.Add(time.Duration(rapid.IntRange(-3, 3).Draw(t, l+"near")) * time.Second)
			}
			pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: typ, Status: st, Reason: reason, LastTransitionTime: metav1.NewTime(ltt)})
		}
		// What the API server stores: the pod as JSON.
		raw := difftest.JSON(t, pod)
		stored := &v1.Pod{}
		if err := json.Unmarshal(raw, stored); err != nil {
			t.Fatal(err)
		}
		ws, wa := up.stale(stored, now, timeout)
		var got ruleStaleOut
		var o any
		if opts != (pdb.Options{}) {
			o = opts
		}
		if e := difftest.Decide(t, "pdb.StaleDisruptionTarget", o, map[string]any{"pod": json.RawMessage(raw), "now": now}, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		ga, err := time.ParseDuration(got.After)
		if err != nil {
			t.Fatalf("kubesem after %q: %v", got.After, err)
		}
		if got.Stale != ws || ga != wa {
			t.Fatalf("pod %s at %s (timeout %v): kubesem (%v, %v), upstream (%v, %v)", raw, now.Format(time.RFC3339Nano), timeout, got.Stale, ga, ws, wa)
		}
		switch {
		case !ws:
			counts["not stale"]++
		case wa == 0:
			counts["stale, reset now"]++
		default:
			counts["stale, later"]++
		}
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "pdb", "pdb.StaleDisruptionTarget") {
		var in struct {
			Pod json.RawMessage `json:"pod"`
			Now time.Time       `json:"now"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		var opts pdb.Options
		if len(v.Options) > 0 {
			if err := json.Unmarshal(v.Options, &opts); err != nil {
				t.Fatalf("%q: %v", v.Name, err)
			}
		}
		pod := &v1.Pod{}
		if err := json.Unmarshal(in.Pod, pod); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		s, a := up.stale(pod, in.Now, opts.StalePodDisruptionTimeout)
		want := difftest.JSON(t, ruleStaleOut{s, a.String()})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d pdb.StaleDisruptionTarget vectors replayed through nonTerminatingPodHasStaleDisruptionCondition", n)
}

// ---------------------------------------------------------------------
// pdb.Validate

var ruleKeys = []string{"app", "example.com/app", "-bad", "a/b/c", "", strings.Repeat("k", 63), strings.Repeat("k", 64), "UPPER", "a_b.c"}

var ruleValues = []string{"web", "", "-bad", strings.Repeat("v", 63), strings.Repeat("v", 64), "a b", "A.b_c"}

// ruleDrawValue draws an IntOrString around the limits of validation.
func ruleDrawValue(t *rapid.T, label string) upintstr.IntOrString {
	if rapid.Bool().Draw(t, label+"Str") {
		return upintstr.FromString(rapid.SampledFrom([]string{"0%", "1%", "50%", "100%", "101%", "-1%", "+5%", "5", "", "%", "abc",
			"1.5%", "05%", "0100%", "00%", " 5%", "5%%", "9223372036854775807%", "9223372036854775808%", "99999999999999999999%", "٣%"}).Draw(t, label))
	}
	return upintstr.FromInt32(rapid.SampledFrom([]int32{0, 1, 5, -1, math.MaxInt32, math.MinInt32}).Draw(t, label))
}

// ruleDrawBudget draws a policy/v1 budget whose fields sit at and around
// the limits of API validation.
func ruleDrawBudget(t *rapid.T) *policyv1.PodDisruptionBudget {
	b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}}
	if rapid.Bool().Draw(t, "min") {
		v := ruleDrawValue(t, "minV")
		b.Spec.MinAvailable = &v
	}
	if rapid.IntRange(0, 2).Draw(t, "max") == 0 {
		v := ruleDrawValue(t, "maxV")
		b.Spec.MaxUnavailable = &v
	}
	switch rapid.IntRange(0, 3).Draw(t, "selector") {
	case 0:
	case 1:
		b.Spec.Selector = &metav1.LabelSelector{}
	default:
		s := &metav1.LabelSelector{}
		for i := range rapid.IntRange(0, 2).Draw(t, "labels") {
			if s.MatchLabels == nil {
				s.MatchLabels = map[string]string{}
			}
			s.MatchLabels[rapid.SampledFrom(ruleKeys).Draw(t, "lk"+strconv.Itoa(i))] = rapid.SampledFrom(ruleValues).Draw(t, "lv")
		}
		for range rapid.IntRange(0, 2).Draw(t, "exprs") {
			r := metav1.LabelSelectorRequirement{
				Key:      rapid.SampledFrom(ruleKeys).Draw(t, "ek"),
				Operator: metav1.LabelSelectorOperator(rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "in", "Gt", ""}).Draw(t, "op")),
			}
			for range rapid.IntRange(0, 2).Draw(t, "vals") {
				r.Values = append(r.Values, rapid.SampledFrom(ruleValues).Draw(t, "ev"))
			}
			s.MatchExpressions = append(s.MatchExpressions, r)
		}
		b.Spec.Selector = s
	}
	if rapid.IntRange(0, 2).Draw(t, "policy") == 0 {
		p := policyv1.UnhealthyPodEvictionPolicyType(rapid.SampledFrom([]string{"IfHealthyBudget", "AlwaysAllow", "", "ifHealthyBudget", "Never"}).Draw(t, "policyV"))
		b.Spec.UnhealthyPodEvictionPolicy = &p
	}
	return b
}

// ruleUpstreamErrors converts b (policy/v1, as a client sends it) to the
// internal type as the API server does and validates it as its strategy
// does on create.
func ruleUpstreamErrors(t difftest.Fataler, b *policyv1.PodDisruptionBudget) utilfield.ErrorList {
	var internal policy.PodDisruptionBudget
	in := b.DeepCopy()
	legacyscheme.Scheme.Default(in)
	if err := legacyscheme.Scheme.Convert(in, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return policyvalidation.ValidatePodDisruptionBudget(&internal, policyvalidation.PodDisruptionBudgetValidationOptions{})
}

// rulePaths returns the field paths of errs.
func rulePaths(errs utilfield.ErrorList) []string {
	paths := make([]string, len(errs))
	for i, e := range errs {
		paths[i] = e.Field
	}
	return paths
}

// TestPDBValidationParity: pdb.Validate (through Decide, on the budget's
// policy/v1 JSON) accepts exactly the budgets v1.36.3 accepts after
// policy/v1 conversion (ValidatePodDisruptionBudget, as on create), and
// the path of its error is one of upstream's: both fields set, integers
// negative and at the int32 extremes, percentages 0%/100%/101%, malformed,
// signed, padded and beyond int64, label selectors with keys and values at
// and past their length and character limits and every operator, and the
// unhealthyPodEvictionPolicy values. Then every pdb.Validate vector is
// replayed: valid exactly when upstream accepts, its error path among
// upstream's.
func TestPDBValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		b := ruleDrawBudget(t)
		uerrs := ruleUpstreamErrors(t, b)
		var got struct {
			Valid bool `json:"valid"`
		}
		e := difftest.Decide(t, "pdb.Validate", nil, map[string]any{"budget": b}, &got)
		if e == nil && !got.Valid {
			t.Fatalf("kubesem answered neither valid nor an error")
		}
		difftest.Verdict(t, string(difftest.JSON(t, b.Spec)), ruleStripBudget(e).AsFieldError(), uerrs, none, counts)
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "pdb", "pdb.Validate") {
		var in struct {
			Budget *policyv1.PodDisruptionBudget `json:"budget"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		paths := rulePaths(ruleUpstreamErrors(t, in.Budget))
		switch {
		case v.WantError == nil:
			if len(paths) > 0 || !difftest.SameJSON(v.Want, json.RawMessage(`{"valid":true}`)) {
				t.Errorf("%q: want %s; upstream rejects at %q", v.Name, v.Want, paths)
			}
		default:
			var we difftest.InputError
			if err := json.Unmarshal(v.WantError, &we); err != nil {
				t.Fatalf("%q: %v", v.Name, err)
			}
			if !slices.Contains(paths, strings.TrimPrefix(we.Field, "budget.")) {
				t.Errorf("%q: wantError at %q; upstream rejects at %q", v.Name, we.Field, paths)
			}
		}
		n++
	}
	t.Logf("%d pdb.Validate vectors replayed through ValidatePodDisruptionBudget", n)
}

// ruleStripBudget states a decision's error path in the budget's own terms
// (the decision reports it under "budget.").
func ruleStripBudget(e *difftest.InputError) *difftest.InputError {
	if e == nil {
		return nil
	}
	c := *e
	c.Field = strings.TrimPrefix(c.Field, "budget.")
	return &c
}
