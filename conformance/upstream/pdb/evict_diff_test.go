package pdb_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the eviction storage constructor

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/kubernetes/fake"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"
	core "k8s.io/client-go/testing"
	api "k8s.io/kubernetes/pkg/apis/core"
	policy "k8s.io/kubernetes/pkg/apis/policy"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname newEvictionStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func newEvictionStorage(store rest.StandardStorage, c policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// evictionStore is the pod storage the eviction subresource reads, updates (the
// DisruptionTarget condition) and deletes through; one pod, no conflicts.
type evictionStore struct {
	rest.StandardStorage
	pod     *api.Pod
	deleted bool
	options *metav1.DeleteOptions // of the Delete
}

func (s *evictionStore) Get(context.Context, string, *metav1.GetOptions) (runtime.Object, error) {
	return s.pod.DeepCopy(), nil
}

func (s *evictionStore) Update(ctx context.Context, _ string, info rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc, _ rest.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (runtime.Object, bool, error) {
	obj, err := info.UpdatedObject(ctx, s.pod.DeepCopy())
	if err != nil {
		return nil, false, err
	}
	s.pod = obj.(*api.Pod)
	return obj, false, nil
}

func (s *evictionStore) Delete(_ context.Context, _ string, _ rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	s.deleted, s.options = true, options
	return s.pod, true, nil
}

func checkEvictDifferential(t *rapid.T) {
	now := time.Now().UTC().Truncate(time.Second)
	sel := map[string]string{"app": "web"}
	// The pod.
	up := &api.Pod{ObjectMeta: metav1.ObjectMeta{Name: "victim", Namespace: "default", Labels: sel, ResourceVersion: "1"}}
	kp := &podstatus.Pod{}
	kp.Name, kp.Namespace, kp.Labels = "victim", "default", sel
	phase := rapid.SampledFrom([]string{"Running", "Running", "Running", "Pending", "Succeeded", "Failed"}).Draw(t, "phase")
	up.Status.Phase, kp.Status.Phase = api.PodPhase(phase), podstatus.Phase(phase)
	if r := rapid.IntRange(0, 2).Draw(t, "ready"); r > 0 {
		s := []string{"", "True", "False"}[r]
		up.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionStatus(s)}}
		kp.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionStatus(s)}}
	}
	if rapid.IntRange(0, 8).Draw(t, "deleting") == 0 {
		d := now.Add(-time.Second)
		up.DeletionTimestamp = &metav1.Time{Time: d}
		kp.DeletionTimestamp = &d
	}
	// The budgets.
	var ups []runtime.Object
	var kbs []pdb.PodDisruptionBudget
	for i := range rapid.IntRange(0, 2).Draw(t, "budgets") {
		name := "b" + strconv.Itoa(i)
		ns := "default"
		if rapid.IntRange(0, 5).Draw(t, "otherNS") == 0 {
			ns = "other"
		}
		var usel *metav1.LabelSelector
		var ksel *meta.LabelSelector
		switch rapid.IntRange(0, 4).Draw(t, "sel") {
		case 0:
		case 1:
			usel, ksel = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, meta.SelectorFromSet(map[string]string{"app": "db"})
		case 2:
			usel, ksel = &metav1.LabelSelector{}, &meta.LabelSelector{}
		default:
			usel, ksel = &metav1.LabelSelector{MatchLabels: sel}, meta.SelectorFromSet(sel)
		}
		gen := int64(rapid.IntRange(1, 2).Draw(t, "gen"))
		st := policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: int64(rapid.IntRange(0, 2).Draw(t, "og")),
			DisruptionsAllowed: int32(rapid.IntRange(-1, 3).Draw(t, "allowed")),
			CurrentHealthy:     int32(rapid.IntRange(0, 4).Draw(t, "healthy")),
			DesiredHealthy:     int32(rapid.IntRange(0, 4).Draw(t, "desired")),
		}
		kst := pdb.Status{ObservedGeneration: st.ObservedGeneration, DisruptionsAllowed: st.DisruptionsAllowed, CurrentHealthy: st.CurrentHealthy, DesiredHealthy: st.DesiredHealthy}
		switch rapid.IntRange(0, 6).Draw(t, "disrupted") {
		case 0:
			st.DisruptedPods, kst.DisruptedPods = map[string]metav1.Time{}, map[string]time.Time{}
			for j := range podstorage.MaxDisruptedPodSize + rapid.IntRange(0, 1).Draw(t, "overLimit") {
				st.DisruptedPods["d"+strconv.Itoa(j)] = metav1.NewTime(now)
				kst.DisruptedPods["d"+strconv.Itoa(j)] = now
			}
		case 1:
			st.DisruptedPods = map[string]metav1.Time{"other": metav1.NewTime(now.Add(-time.Minute))}
			kst.DisruptedPods = map[string]time.Time{"other": now.Add(-time.Minute)}
		}
		if k := rapid.IntRange(0, 4).Draw(t, "cond"); k > 0 {
			reason := []string{"", "SufficientPods", "InsufficientPods", "SyncFailed", "Other"}[k]
			status := metav1.ConditionFalse
			if k == 1 {
				status = metav1.ConditionTrue
			}
			msg := rapid.SampledFrom([]string{"", "boom"}).Draw(t, "msg")
			st.Conditions = []metav1.Condition{{Type: "DisruptionAllowed", Status: status, Reason: reason, Message: msg, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}}
			kst.Conditions = meta.Conditions{{Type: pdb.DisruptionAllowed, Status: meta.ConditionStatus(status), Reason: reason, Message: msg, LastTransitionTime: now.Add(-time.Hour)}}
		}
		ub := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Generation: gen}, Spec: policyv1.PodDisruptionBudgetSpec{Selector: usel}, Status: st}
		kb := pdb.PodDisruptionBudget{}
		kb.Name, kb.Namespace, kb.Generation, kb.Spec.Selector, kb.Status = name, ns, gen, ksel, kst
		switch rapid.IntRange(0, 2).Draw(t, "policy") {
		case 1:
			ub.Spec.UnhealthyPodEvictionPolicy = difftest.Ptr(policyv1.IfHealthyBudget)
			kb.Spec.UnhealthyPodEvictionPolicy = difftest.Ptr(pdb.IfHealthyBudget)
		case 2:
			ub.Spec.UnhealthyPodEvictionPolicy = difftest.Ptr(policyv1.AlwaysAllow)
			kb.Spec.UnhealthyPodEvictionPolicy = difftest.Ptr(pdb.AlwaysAllow)
		}
		ups = append(ups, ub)
		kbs = append(kbs, kb)
	}
	dry := rapid.Bool().Draw(t, "dryRun")

	client := fake.NewClientset(ups...)
	store := &evictionStore{pod: up}
	r := newEvictionStorage(store, client.PolicyV1())
	opts := &metav1.CreateOptions{}
	if dry {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	ev := &policy.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "victim", Namespace: "default"}}
	ctx := requestContext("default")
	obj, err := r.Create(ctx, "victim", ev, nil, opts)

	got, kerr := pdb.Evict(kp, kbs, pdb.Request{DryRun: dry}, now)
	if kerr != nil {
		t.Fatalf("kubesem error: %v", kerr)
	}
	var upCode int32 = 200
	var upMsg string
	var upRetry int32
	if err != nil {
		var se apierrors.APIStatus
		if !errors.As(err, &se) {
			t.Fatalf("upstream non-status error: %v", err)
		}
		s := se.Status()
		upCode = s.Code
		if s.Details != nil {
			upRetry = s.Details.RetryAfterSeconds
			if len(s.Details.Causes) > 0 {
				upMsg = s.Details.Causes[0].Message
			}
		}
		if upCode == 403 {
			upMsg = ""
		}
	} else if st, ok := obj.(*metav1.Status); ok && st.Status != metav1.StatusSuccess {
		upCode, upMsg = st.Code, st.Message
	}
	kMsg := got.Message
	if got.Code == 403 {
		kMsg = ""
	}
	if got.Code != upCode || kMsg != upMsg || got.RetryAfterSeconds != upRetry {
		t.Fatalf("decision: upstream %d %q retry %d (err %v), kubesem %+v", upCode, upMsg, upRetry, err, got)
	}
	if got.Allowed != store.deleted {
		t.Fatalf("deleted: upstream %v, kubesem %v", store.deleted, got.Allowed)
	}
	if got.DisruptionTarget != (store.deleted && !dry && store.pod.Status.Conditions != nil && hasDisruptionTarget(store.pod)) {
		t.Fatalf("DisruptionTarget: kubesem %v, upstream pod %+v", got.DisruptionTarget, store.pod.Status.Conditions)
	}
	var written *policyv1.PodDisruptionBudget
	for _, a := range client.Actions() {
		if u, ok := a.(core.UpdateAction); ok && a.GetSubresource() == "status" {
			written = u.GetObject().(*policyv1.PodDisruptionBudget)
		}
	}
	if (written != nil) != got.UpdateStatus {
		t.Fatalf("status write: upstream %v, kubesem %v", written != nil, got.UpdateStatus)
	}
	if written == nil {
		return
	}
	w, k := written.Status, got.Status
	if w.DisruptionsAllowed != k.DisruptionsAllowed || len(w.DisruptedPods) != len(k.DisruptedPods) {
		t.Fatalf("written status: upstream %+v, kubesem %+v", w, *k)
	}
	for name := range w.DisruptedPods {
		if _, ok := k.DisruptedPods[name]; !ok {
			t.Fatalf("disruptedPods %s missing in kubesem", name)
		}
	}
	if len(w.Conditions) != len(k.Conditions) {
		t.Fatalf("conditions: upstream %+v, kubesem %+v", w.Conditions, k.Conditions)
	}
	for i := range w.Conditions {
		if string(k.Conditions[i].Status) != string(w.Conditions[i].Status) || k.Conditions[i].Reason != w.Conditions[i].Reason || k.Conditions[i].Message != w.Conditions[i].Message {
			t.Fatalf("condition: upstream %+v, kubesem %+v", w.Conditions[i], k.Conditions[i])
		}
	}
}

func hasDisruptionTarget(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

// TestPDBEvictDifferential: the eviction subresource of v1.36.3 (its Create
// on a one-pod store and a fake budget client) against pdb.Evict, on random
// pods (phases, readiness, deletion), 0–2 budgets (selectors, namespaces,
// generations, negative and zero budgets, 2001 disrupted pods, conditions
// with and without messages, both policies) and dry run.
func TestPDBEvictDifferential(t *testing.T) {
	rapid.Check(t, checkEvictDifferential)
}

func requestContext(ns string) context.Context {
	return genericapirequest.WithNamespace(context.Background(), ns)
}
