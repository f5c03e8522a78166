package pdb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the eviction storage's budget lookup

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	api "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	policy "k8s.io/kubernetes/pkg/apis/policy"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname evictionBudgets k8s.io/kubernetes/pkg/registry/core/pod/storage.(*EvictionREST).getPodDisruptionBudgets
func evictionBudgets(r *podstorage.EvictionREST, ctx context.Context, pod *api.Pod) ([]policyv1.PodDisruptionBudget, error)

// evictVecIn is the input of a pdb.Evict vector.
type evictVecIn struct {
	Pod     podstatus.Pod             `json:"pod"`
	Budgets []pdb.PodDisruptionBudget `json:"budgets"`
	Request pdb.Request               `json:"request"`
	Now     time.Time                 `json:"now"`
}

// evictUpstream runs one eviction of the vector's pod through the v1.36.3
// eviction subresource (EvictionREST.Create on a one-pod store and a fake
// clientset holding the vector's budgets, through the k8s adapter) and
// renders what it did as a pdb.Decision's JSON:
//
//   - allowed: the store's Delete was called; code: 200 for the Success
//     status, else the status code of the answer;
//   - budget: the budget upstream's getPodDisruptionBudgets matches, when
//     it matched exactly one and was asked (not for a pod canIgnorePDB
//     lets through);
//   - message: the DisruptionBudget cause of a 429, the Forbidden cause of
//     a 403 (the error message after "is forbidden: "), the message of the
//     500 status; retryAfterSeconds: the 429's;
//   - updateStatus: a status update of the budget was sent; status: the
//     status it carried (stated only then: under dry run upstream writes
//     nothing), the disruptedPods entry and condition transition upstream
//     stamps from the wall clock being the vector's now;
//   - disruptionTarget: the pod deleted holds DisruptionTarget=True;
//   - reason, kubesem's name for upstream's branch: IgnoresBudget when
//     upstream deleted without listing budgets (canIgnorePDB), NoBudget
//     when none matched, TooManyBudgets for the 500, UnhealthyAlwaysAllow or
//     UnhealthyHealthyBudget (by the budget's policy) when the delete
//     carried the resource-version precondition upstream sets for an
//     unready pod it lets through, BudgetDecremented for any other
//     deletion; GenerationNotObserved for the 429 that suggests a retry
//     after 10s, NoDisruptionsAllowed for the other 429, NegativeBudget and
//     TooManyDisruptedPods for the two Forbidden causes.
//
// Keys not upstream's to state (status under dry run) are returned in
// unstated.
func evictUpstream(t *testing.T, raw json.RawMessage) (json.RawMessage, []string) {
	t.Helper()
	var in evictVecIn
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("input: %v", err)
	}
	vp, err := k8s.ToPod(&in.Pod)
	if err != nil {
		t.Fatalf("pod: %v", err)
	}
	up := &api.Pod{}
	if err := corev1conv.Convert_v1_Pod_To_core_Pod(vp, up, nil); err != nil {
		t.Fatalf("pod: %v", err)
	}
	var objs []runtime.Object
	before := map[string]pdb.Status{}
	for i := range in.Budgets {
		ub, err := k8s.ToPodDisruptionBudget(&in.Budgets[i])
		if err != nil {
			t.Fatalf("budget: %v", err)
		}
		objs = append(objs, ub)
		before[in.Budgets[i].Namespace+"/"+in.Budgets[i].Name] = in.Budgets[i].Status
	}
	client := fake.NewClientset(objs...)
	store := &evictionStore{pod: up.DeepCopy()}
	r := newEvictionStorage(store, client.PolicyV1())
	opts := &metav1.CreateOptions{}
	if in.Request.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	ctx := requestContext(up.Namespace)
	start := time.Now()
	obj, err := r.Create(ctx, up.Name, &policy.Eviction{ObjectMeta: metav1.ObjectMeta{Name: up.Name, Namespace: up.Namespace}}, nil, opts)
	end := time.Now()

	var d pdb.Decision
	listed := false
	var written *policyv1.PodDisruptionBudget
	for _, a := range client.Actions() {
		switch {
		case a.GetVerb() == "list" && a.GetResource().Resource == "poddisruptionbudgets":
			listed = true
		case a.GetVerb() == "update" && a.GetSubresource() == "status":
			written = a.(core.UpdateAction).GetObject().(*policyv1.PodDisruptionBudget)
		}
	}
	matched, merr := evictionBudgets(r, ctx, up)
	if merr != nil {
		t.Fatalf("getPodDisruptionBudgets: %v", merr)
	}
	if listed && len(matched) == 1 {
		d.Budget = matched[0].Name
	}
	d.Allowed = store.deleted
	switch {
	case err != nil:
		var se apierrors.APIStatus
		if !errors.As(err, &se) {
			t.Fatalf("upstream answers with a non-status error: %v", err)
		}
		s := se.Status()
		d.Code = s.Code
		var cause string
		if s.Details != nil {
			d.RetryAfterSeconds = s.Details.RetryAfterSeconds
			if len(s.Details.Causes) > 0 {
				cause = s.Details.Causes[0].Message
			}
		}
		switch {
		case s.Code == 429 && d.RetryAfterSeconds == 10:
			d.Reason, d.Message = pdb.ReasonGenerationNotObserved, cause
		case s.Code == 429:
			d.Reason, d.Message = pdb.ReasonNoDisruptionsAllowed, cause
		case s.Code == 403:
			_, msg, ok := strings.Cut(s.Message, "is forbidden: ")
			if !ok {
				t.Fatalf("upstream 403 %q", s.Message)
			}
			d.Message = msg
			switch msg {
			case "pdb disruptions allowed is negative":
				d.Reason = pdb.ReasonNegativeBudget
			case "DisruptedPods map too big - too many evictions not confirmed by PDB controller":
				d.Reason = pdb.ReasonTooManyDisruptedPods
			default:
				t.Fatalf("upstream 403 %q: no kubesem reason", s.Message)
			}
		default:
			t.Fatalf("upstream answers %d %q: not a decision pdb.Evict states", s.Code, s.Message)
		}
	default:
		st, ok := obj.(*metav1.Status)
		if !ok {
			t.Fatalf("upstream answers %T", obj)
		}
		switch {
		case st.Status == metav1.StatusSuccess:
			d.Code = 200
		case st.Code == 500 && len(matched) > 1:
			d.Code, d.Reason, d.Message = st.Code, pdb.ReasonTooManyBudgets, st.Message
		default:
			t.Fatalf("upstream answers %+v: not a decision pdb.Evict states", st)
		}
	}
	if d.Allowed {
		switch {
		case d.Code != 200:
			t.Fatalf("upstream deleted the pod and answered %d", d.Code)
		case !listed:
			d.Reason = pdb.ReasonIgnoresBudget
		case len(matched) == 0:
			d.Reason = pdb.ReasonNoBudget
		case store.options != nil && store.options.Preconditions != nil && store.options.Preconditions.ResourceVersion != nil:
			d.Reason = pdb.ReasonUnhealthyHealthyBudget
			if p := matched[0].Spec.UnhealthyPodEvictionPolicy; p != nil && *p == policyv1.AlwaysAllow {
				d.Reason = pdb.ReasonUnhealthyAlwaysAllow
			}
		default:
			d.Reason = pdb.ReasonBudgetDecremented
		}
		d.DisruptionTarget = hasDisruptionTarget(store.pod)
	}
	if written != nil {
		d.UpdateStatus = true
		b, err := k8s.FromPodDisruptionBudget(written)
		if err != nil {
			t.Fatalf("written budget: %v", err)
		}
		s, old := b.Status, before[written.Namespace+"/"+written.Name]
		// The times upstream stamps with the wall clock are the vector's now.
		stamped := func(at time.Time) bool {
			return !at.Before(start.Truncate(time.Second)) && !at.After(end.Add(time.Second))
		}
		for name, at := range s.DisruptedPods {
			if was, ok := old.DisruptedPods[name]; ok && was.Equal(at) {
				continue
			}
			if !stamped(at) {
				t.Fatalf("disruptedPods[%s] at %v: not the time of the eviction", name, at)
			}
			s.DisruptedPods[name] = in.Now
		}
		for i, c := range s.Conditions {
			if was, ok := old.Conditions.Find(c.Type); ok && was.LastTransitionTime.Equal(c.LastTransitionTime) {
				continue
			}
			if !stamped(c.LastTransitionTime) {
				t.Fatalf("condition %s changed at %v: not the time of the eviction", c.Type, c.LastTransitionTime)
			}
			s.Conditions[i].LastTransitionTime = in.Now
		}
		d.Status = &s
	}
	var unstated []string
	if in.Request.DryRun && d.Allowed && d.Reason == pdb.ReasonBudgetDecremented {
		unstated = append(unstated, "status")
	}
	b, err := plan.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	return b, unstated
}

// TestPDBEvictVectorsUpstream replays every pdb.Evict vector of testdata/pdb
// (evict.json and the check-*.json files of kubesem check --vectors)
// through the v1.36.3 eviction subresource (evictUpstream). The want must
// agree with upstream's answer on every key it states (a key upstream does
// not state, evictUpstream's unstated, left out), and kubesem's answer
// through conformance.Kubesem().Decide must match both the want and every
// key of upstream's answer. Vectors with wantError are inputs kubesem
// rejects before the rule (a budget the API server would not store).
//
// With KUBESEM_WRITE_VECTORS=1 an empty want ({}, as kubesem check writes
// it) is filled with upstream's answer, never kubesem's; other wants are
// checked as always.
func TestPDBEvictVectorsUpstream(t *testing.T) {
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	n := 0
	for _, file := range vecFiles(t, "pdb.Evict") {
		vs := readVecs(t, file)
		changed := false
		for i, v := range vs {
			if v.Decision != "pdb.Evict" || v.WantError != nil {
				continue
			}
			n++
			t.Run(v.Name, func(t *testing.T) {
				up, unstated := evictUpstream(t, v.Input)
				want := v.Want
				if write && bytes.Equal(difftest.CanonicalRaw(want), difftest.CanonicalRaw(json.RawMessage("{}"))) {
					vs[i].Want, want, changed = up, up, true
				}
				var w map[string]json.RawMessage
				if err := json.Unmarshal(want, &w); err != nil {
					t.Fatalf("want: %v", err)
				}
				for k := range w {
					if slices.Contains(unstated, k) {
						delete(w, k)
					}
				}
				if len(w) == 0 {
					t.Fatalf("want states nothing upstream answers (upstream: %s)", up)
				}
				wb, _ := json.Marshal(w)
				if ok, why := conformance.Match(wb, up); !ok {
					t.Fatalf("%s: want is not upstream's: %s\nwant:     %s\nupstream: %s", file, why, want, up)
				}
				got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.Input)
				if err != nil {
					t.Fatalf("kubesem: %v", err)
				}
				if ok, why := conformance.Match(want, got); !ok {
					t.Errorf("%s: kubesem differs from the want: %s\nkubesem: %s", file, why, got)
				}
				if ok, why := conformance.Match(up, got); !ok {
					t.Errorf("%s: kubesem differs from v1.36.3: %s\nupstream: %s\nkubesem:  %s", file, why, up, got)
				}
			})
		}
		if write && changed && !t.Failed() {
			writeVectorFile(t, file, vs)
		}
	}
	if n < 50 {
		t.Fatalf("only %d pdb.Evict vectors", n)
	}
	t.Logf("%d pdb.Evict vectors replayed through the eviction subresource", n)
}
