package upstream_test

import (
	"context"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/disruption"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname pdbUpSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func pdbUpSync(dc *disruption.DisruptionController, ctx context.Context, key string) error

var pdbNow = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

func pdbField(dc *disruption.DisruptionController, name string) reflect.Value {
	f := reflect.ValueOf(dc).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// pdbCase is one random budget with its pods and ReplicaSets, in both
// models.
type pdbCase struct {
	upPDB   *policyv1.PodDisruptionBudget
	upPods  []*v1.Pod
	upRS    []*appsv1.ReplicaSet
	upDeps  []*appsv1.Deployment
	upRC    *v1.ReplicationController
	upSS    *appsv1.StatefulSet
	pdb     pdb.PodDisruptionBudget
	pods    []*podstatus.Pod
	ctls    []pdb.Controller
	maxPods int
}

func pdbDrawValue(t *rapid.T, label string) (*upintstr.IntOrString, *intstr.Value) {
	if rapid.Bool().Draw(t, label+"pct") {
		p := rapid.IntRange(0, 100).Draw(t, label+"p")
		u := upintstr.FromString(strconv.Itoa(p) + "%")
		return &u, ptrTo(intstr.Percent(int32(p)))
	}
	n := rapid.IntRange(0, 30).Draw(t, label+"i")
	u := upintstr.FromInt32(int32(n))
	return &u, ptrTo(intstr.Int(int32(n)))
}

func pdbDrawCase(t *rapid.T, maxPods int) pdbCase {
	var c pdbCase
	ns := "default"
	sel := map[string]string{"app": "web"}
	c.upPDB = &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns, Generation: int64(rapid.IntRange(1, 2).Draw(t, "gen"))},
		Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel}}}
	c.pdb.Name, c.pdb.Namespace, c.pdb.Generation = "b", ns, c.upPDB.Generation
	c.pdb.Spec.Selector = meta.SelectorFromSet(sel)
	switch rapid.IntRange(0, 2).Draw(t, "field") {
	case 0:
		c.upPDB.Spec.MinAvailable, c.pdb.Spec.MinAvailable = pdbDrawValue(t, "min")
	case 1:
		c.upPDB.Spec.MaxUnavailable, c.pdb.Spec.MaxUnavailable = pdbDrawValue(t, "max")
	}
	// Old status.
	st := policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: int64(rapid.IntRange(0, 2).Draw(t, "og")),
		DisruptionsAllowed: int32(rapid.IntRange(0, 3).Draw(t, "oldAllowed")),
		CurrentHealthy:     int32(rapid.IntRange(0, 3).Draw(t, "oldHealthy")),
		DesiredHealthy:     int32(rapid.IntRange(0, 3).Draw(t, "oldDesired")),
		ExpectedPods:       int32(rapid.IntRange(0, 3).Draw(t, "oldExpected")),
	}
	var kst pdb.Status
	if k := rapid.IntRange(0, 3).Draw(t, "oldCond"); k > 0 {
		reason := []string{"", policyv1.SufficientPodsReason, policyv1.InsufficientPodsReason, policyv1.SyncFailedReason}[k]
		status := metav1.ConditionFalse
		if k == 1 {
			status = metav1.ConditionTrue
		}
		ltt := pdbNow.Add(-time.Hour)
		st.Conditions = []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(ltt)}}
		kst.Conditions = meta.Conditions{{Type: pdb.DisruptionAllowed, Status: meta.ConditionStatus(status), Reason: reason, LastTransitionTime: ltt}}
	}
	// Controllers: Deployment d0 owning rs0; rs1, rs2 bare.
	depReplicas := int32(rapid.IntRange(0, 20).Draw(t, "dep"))
	c.upDeps = append(c.upDeps, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d0", Namespace: ns, UID: "d0-uid"}, Spec: appsv1.DeploymentSpec{Replicas: &depReplicas}})
	c.ctls = append(c.ctls, pdb.Controller{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Replicas: ptrTo(depReplicas)})
	nRS := rapid.IntRange(0, 3).Draw(t, "rs")
	for i := range nRS {
		name := "rs" + strconv.Itoa(i)
		r := int32(rapid.IntRange(0, 400).Draw(t, "rsReplicas"))
		u := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid")}, Spec: appsv1.ReplicaSetSpec{Replicas: &r}}
		k := pdb.Controller{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: name + "-uid", Replicas: ptrTo(r)}
		if i == 0 {
			u.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Controller: ptrTo(true)}}
			k.Owner = &meta.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Controller: ptrTo(true)}
		}
		c.upRS = append(c.upRS, u)
		c.ctls = append(c.ctls, k)
	}
	// A ReplicationController and a StatefulSet.
	rcR := int32(rapid.IntRange(0, 50).Draw(t, "rc"))
	ssR := int32(rapid.IntRange(0, 50).Draw(t, "ss"))
	c.upRC = &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc0", Namespace: ns, UID: "rc0-uid"}, Spec: v1.ReplicationControllerSpec{Replicas: &rcR}}
	c.upSS = &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "ss0", Namespace: ns, UID: "ss0-uid"}, Spec: appsv1.StatefulSetSpec{Replicas: &ssR}}
	c.ctls = append(c.ctls, pdb.Controller{APIVersion: "v1", Kind: "ReplicationController", Name: "rc0", UID: "rc0-uid", Replicas: ptrTo(rcR)},
		pdb.Controller{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "ss0", UID: "ss0-uid", Replicas: ptrTo(ssR)})
	n := rapid.IntRange(0, 40).Draw(t, "pods")
	if rapid.IntRange(0, 19).Draw(t, "large") == 0 {
		n = rapid.IntRange(0, maxPods).Draw(t, "manyPods")
	}
	disrupted := map[string]metav1.Time{}
	kdis := map[string]time.Time{}
	for i := range n {
		name := "p" + strconv.Itoa(i)
		up := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid"), Labels: sel}, Status: v1.PodStatus{Phase: v1.PodRunning}}
		kp := &podstatus.Pod{}
		kp.Name, kp.Namespace, kp.UID, kp.Labels = name, ns, name+"-uid", sel
		kp.Status.Phase = podstatus.Running
		// Owner: none, one of the ReplicaSets, or a missing one (rarely).
		o := rapid.IntRange(-1, nRS).Draw(t, "owner")
		if o == nRS && rapid.IntRange(0, 20).Draw(t, "missing") != 0 {
			o = -1
		}
		if o >= 0 && rapid.IntRange(0, 3).Draw(t, "otherKind") == 0 {
			api, kind, rn := "v1", "ReplicationController", "rc0"
			if rapid.Bool().Draw(t, "ss") {
				api, kind, rn = "apps/v1", "StatefulSet", "ss0"
			}
			up.OwnerReferences = []metav1.OwnerReference{{APIVersion: api, Kind: kind, Name: rn, UID: types.UID(rn + "-uid"), Controller: ptrTo(true)}}
			kp.OwnerReferences = []meta.OwnerReference{{APIVersion: api, Kind: kind, Name: rn, UID: rn + "-uid", Controller: ptrTo(true)}}
		} else if o >= 0 {
			rn := "rs" + strconv.Itoa(o)
			up.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rn, UID: types.UID(rn + "-uid"), Controller: ptrTo(true)}}
			kp.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rn, UID: rn + "-uid", Controller: ptrTo(true)}}
		}
		if r := rapid.IntRange(0, 2).Draw(t, "ready"); r > 0 {
			s := v1.ConditionTrue
			if r == 2 {
				s = v1.ConditionFalse
			}
			up.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: s}}
			kp.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionStatus(s)}}
		}
		if rapid.IntRange(0, 6).Draw(t, "deleting") == 0 {
			d := pdbNow.Add(-time.Second)
			up.DeletionTimestamp = &metav1.Time{Time: d}
			kp.DeletionTimestamp = &d
		}
		if rapid.IntRange(0, 4).Draw(t, "disrupted") == 0 {
			at := pdbNow.Add(-time.Duration(rapid.IntRange(0, 240).Draw(t, "ago")) * time.Second)
			disrupted[name] = metav1.NewTime(at)
			kdis[name] = at
		}
		c.upPods = append(c.upPods, up)
		c.pods = append(c.pods, kp)
	}
	if rapid.IntRange(0, 4).Draw(t, "ghost") == 0 {
		disrupted["ghost"] = metav1.NewTime(pdbNow.Add(-time.Second))
		kdis["ghost"] = pdbNow.Add(-time.Second)
	}
	if len(disrupted) > 0 || rapid.Bool().Draw(t, "emptyMap") {
		st.DisruptedPods = disrupted
		kst.DisruptedPods = kdis
	}
	c.upPDB.Status = st
	kst.ObservedGeneration, kst.DisruptionsAllowed, kst.CurrentHealthy, kst.DesiredHealthy, kst.ExpectedPods =
		st.ObservedGeneration, st.DisruptionsAllowed, st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods
	c.pdb.Status = kst
	return c
}

type pdbUpResult struct {
	status  *policyv1.PodDisruptionBudgetStatus
	updated bool
	err     error
}

// pdbRunUpstream runs one sync of the v1.36.3 disruption controller on fake
// informers, capturing the status it writes.
func pdbRunUpstream(t *rapid.T, c pdbCase) pdbUpResult {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	client := fake.NewClientset()
	inf := informers.NewSharedInformerFactory(client, 0)
	scheme := runtime.NewScheme()
	dc := disruption.NewDisruptionControllerInternal(ctx,
		inf.Core().V1().Pods(), inf.Policy().V1().PodDisruptionBudgets(), inf.Core().V1().ReplicationControllers(),
		inf.Apps().V1().ReplicaSets(), inf.Apps().V1().Deployments(), inf.Apps().V1().StatefulSets(),
		client, testrestmapper.TestOnlyStaticRESTMapper(scheme), &scalefake.FakeScaleClient{},
		&discoveryfake.FakeDiscovery{Fake: &core.Fake{}}, clocktesting.NewFakeClock(pdbNow), 2*time.Minute)
	pdbField(dc, "recorder").Set(reflect.ValueOf(record.EventRecorder(record.NewFakeRecorder(1000))))
	var res pdbUpResult
	f := pdbField(dc, "getUpdater")
	upd := reflect.MakeFunc(f.Type().Out(0), func(args []reflect.Value) []reflect.Value {
		p := args[1].Interface().(*policyv1.PodDisruptionBudget)
		res.status = p.Status.DeepCopy()
		res.updated = true
		return []reflect.Value{reflect.Zero(reflect.TypeFor[error]())}
	})
	f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { return []reflect.Value{upd} }))
	add := func(store interface{ Add(any) error }, obj any) {
		if err := store.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	add(inf.Policy().V1().PodDisruptionBudgets().Informer().GetIndexer(), c.upPDB.DeepCopy())
	for _, p := range c.upPods {
		add(inf.Core().V1().Pods().Informer().GetIndexer(), p.DeepCopy())
	}
	for _, r := range c.upRS {
		add(inf.Apps().V1().ReplicaSets().Informer().GetIndexer(), r.DeepCopy())
	}
	for _, d := range c.upDeps {
		add(inf.Apps().V1().Deployments().Informer().GetIndexer(), d.DeepCopy())
	}
	add(inf.Core().V1().ReplicationControllers().Informer().GetIndexer(), c.upRC.DeepCopy())
	add(inf.Apps().V1().StatefulSets().Informer().GetIndexer(), c.upSS.DeepCopy())
	res.err = pdbUpSync(dc, ctx, "default/b")
	return res
}

func checkPDBSyncDifferential(t *rapid.T, maxPods int) {
	c := pdbDrawCase(t, maxPods)
	up := pdbRunUpstream(t, c)
	if up.err != nil {
		t.Fatalf("upstream sync error: %v", up.err)
	}
	got, err := pdb.Step(&c.pdb, c.pods, c.ctls, pdbNow, pdb.Options{})
	if err != nil {
		t.Fatalf("kubesem error: %v", err)
	}
	if got.UpdateStatus != up.updated {
		t.Fatalf("updateStatus: kubesem %v, upstream %v (%+v)", got.UpdateStatus, up.updated, got.Status)
	}
	if !up.updated {
		return
	}
	u, k := up.status, got.Status
	if u.DisruptionsAllowed != k.DisruptionsAllowed || u.CurrentHealthy != k.CurrentHealthy || u.DesiredHealthy != k.DesiredHealthy ||
		u.ExpectedPods != k.ExpectedPods || u.ObservedGeneration != k.ObservedGeneration {
		t.Fatalf("status differs:\nupstream %+v\nkubesem  %+v", *u, k)
	}
	if len(u.DisruptedPods) != len(k.DisruptedPods) {
		t.Fatalf("disruptedPods: upstream %v, kubesem %v", u.DisruptedPods, k.DisruptedPods)
	}
	for name, at := range u.DisruptedPods {
		if kt, ok := k.DisruptedPods[name]; !ok || !kt.Equal(at.Time) {
			t.Fatalf("disruptedPods[%s]: upstream %v, kubesem %v", name, at, kt)
		}
	}
	if len(u.Conditions) != len(k.Conditions) {
		t.Fatalf("conditions: upstream %+v, kubesem %+v", u.Conditions, k.Conditions)
	}
	for i, uc := range u.Conditions {
		kc := k.Conditions[i]
		if string(kc.Type) != uc.Type || string(kc.Status) != string(uc.Status) || kc.Reason != uc.Reason {
			t.Fatalf("condition %d: upstream %+v, kubesem %+v", i, uc, kc)
		}
		// A failed controller lookup: upstream's REST mapper names the
		// failure differently (see pdb doc, Divergences).
		if uc.Reason != policyv1.SyncFailedReason && kc.Message != uc.Message {
			t.Fatalf("condition %d message: upstream %q, kubesem %q", i, uc.Message, kc.Message)
		}
		if !uc.LastTransitionTime.Time.IsZero() && !kc.LastTransitionTime.Equal(uc.LastTransitionTime.Time) &&
			!(kc.LastTransitionTime.Equal(pdbNow) && time.Since(uc.LastTransitionTime.Time) < time.Hour) {
			t.Fatalf("condition %d transition: upstream %v, kubesem %v", i, uc.LastTransitionTime, kc.LastTransitionTime)
		}
	}
}

// TestPDBSyncDifferential: one disruption controller sync, kubesem's Step
// against v1.36.3 on fakes, on random budgets (int and percent, both
// fields), up to 40 pods (one state in twenty: up to 1,000), a Deployment and up to three ReplicaSets, a ReplicationController and a
// StatefulSet,
// unmanaged pods, pods whose ReplicaSet is missing, recently disrupted pods.
func TestPDBSyncDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkPDBSyncDifferential(t, 1000) })
}
