package job_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/batch"
	jobregistry "k8s.io/kubernetes/pkg/registry/batch/job"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
)

// upstreamJobUpdate runs the Job registry's update path on the two batch/v1
// Jobs as stored: both converted to the internal version, then
// PrepareForUpdate (status kept from old, generation) and ValidateUpdate,
// with the default feature gates of v1.36.3. ok is false when upstream
// panics.
func upstreamJobUpdate(t *rapid.T, oldV1, newV1 *batchv1.Job) (errs utilfield.ErrorList, ok bool) {
	var o, n batch.Job
	if err := legacyscheme.Scheme.Convert(oldV1, &o, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	if err := legacyscheme.Scheme.Convert(newV1, &n, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{APIGroup: "batch", APIVersion: "v1", Resource: "jobs"})
	defer func() {
		if recover() != nil {
			errs, ok = nil, false
		}
	}()
	jobregistry.Strategy.PrepareForUpdate(ctx, &n, &o)
	return jobregistry.Strategy.ValidateUpdate(ctx, &n, &o), true
}

// drawJobUpdate draws a change of a stored Job as a user could send it.
func drawJobUpdate(t *rapid.T, n *batchv1.Job) {
	s := &n.Spec
	ptr := func(v int32) *int32 { return &v }
	if rapid.IntRange(0, 3).Draw(t, "changeParallelism") == 0 {
		s.Parallelism = ptr(rapid.SampledFrom([]int32{0, 1, 2, 3, 5}).Draw(t, "newParallelism"))
	}
	if rapid.IntRange(0, 3).Draw(t, "changeCompletions") == 0 {
		if s.Parallelism != nil && rapid.Bool().Draw(t, "inTandem") {
			s.Completions = ptr(*s.Parallelism)
		} else {
			s.Completions = ptr(rapid.SampledFrom([]int32{1, 2, 3, 5}).Draw(t, "newCompletions"))
		}
	}
	if rapid.IntRange(0, 5).Draw(t, "changeMode") == 0 {
		m := rapid.SampledFrom([]batchv1.CompletionMode{batchv1.NonIndexedCompletion, batchv1.IndexedCompletion}).Draw(t, "newMode")
		s.CompletionMode = &m
	}
	if rapid.IntRange(0, 3).Draw(t, "changeSuspend") == 0 {
		v := rapid.Bool().Draw(t, "newSuspend")
		s.Suspend = &v
	}
	if rapid.IntRange(0, 6).Draw(t, "dropPFP") == 0 {
		s.PodFailurePolicy = nil
	}
	if rapid.IntRange(0, 6).Draw(t, "changeBLPI") == 0 && s.BackoffLimitPerIndex != nil {
		s.BackoffLimitPerIndex = ptr(*s.BackoffLimitPerIndex + 1)
	}
	if rapid.IntRange(0, 8).Draw(t, "changeSelector") == 0 {
		s.Selector.MatchLabels = map[string]string{"other": "x"}
	}
	if rapid.IntRange(0, 6).Draw(t, "changeManagedBy") == 0 {
		m := "example.com/queue"
		s.ManagedBy = &m
	}
	tp := &s.Template
	c := &tp.Spec.Containers[0]
	switch rapid.IntRange(0, 8).Draw(t, "templateChange") {
	case 0:
		c.Image = "app:v2"
	case 1:
		tp.Spec.NodeSelector = map[string]string{"zone": "a"}
	case 2:
		tp.Spec.Tolerations = append(tp.Spec.Tolerations, corev1.Toleration{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
	case 3:
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}
	case 4:
		tp.Labels["extra"] = "x"
	case 5:
		tp.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/gate"}}
	case 6:
		tp.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}}}}}
	case 7:
		tp.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "zone"}}}}
	}
}

// TestValidationJobUpdateDifferential: job.ValidateUpdate refuses exactly
// the updates of a valid, stored Job that v1.36.3's Job registry refuses
// (PrepareForUpdate then ValidateUpdate), and its error's path is one of
// upstream's. The old Job is drawn suspended or not, started or not, with
// or without active pods and a Suspended condition.
func TestValidationJobUpdateDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		oldV1 := toV1Job(j)
		if errs, ok := upstreamValidateJob(t, oldV1); !ok || len(errs) > 0 {
			counts["old not valid (skipped)"]++
			return
		}
		// upstreamValidateJob defaulted oldV1: it is as stored.
		oldV1.ResourceVersion = "1"
		suspended := rapid.Bool().Draw(t, "oldSuspended")
		oldV1.Spec.Suspend = &suspended
		if rapid.Bool().Draw(t, "started") {
			st := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			oldV1.Status.StartTime = &st
		}
		oldV1.Status.Active = rapid.SampledFrom([]int32{0, 0, 1}).Draw(t, "active")
		if rapid.Bool().Draw(t, "suspendedCondition") {
			oldV1.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobSuspended, Status: corev1.ConditionTrue}}
		}
		newV1 := oldV1.DeepCopy()
		drawJobUpdate(t, newV1)
		legacyscheme.Scheme.Default(newV1)
		uerrs, ok := upstreamJobUpdate(t, oldV1, newV1)
		kOld, kNew := difftest.Must(k8s.FromJob(oldV1)), difftest.Must(k8s.FromJob(newV1))
		kerr := job.ValidateUpdate(kOld, kNew)
		if !ok {
			if kerr == nil {
				t.Fatalf("upstream panics; kubesem accepts")
			}
			counts["upstream panics; kubesem rejects"]++
			return
		}
		difftest.Verdict(t, "Job update", kerr, uerrs, func(error) string { return "" }, counts)
	})
	difftest.LogCounts(t, counts)
}

// TestJobUpdateVectorsUpstream replays testdata/job/validate_update.json
// through v1.36.3's Job registry: each side written as the batch/v1 Job
// the adapter makes of it and defaulted, as stored (resourceVersion "1"),
// then PrepareForUpdate and ValidateUpdate. A vector wanting {valid: true}
// is an update upstream accepts; one wanting an error names the path and
// kind of one of upstream's errors. The stored Job must be one the
// registry creates. KUBESEM_WRITE_VECTORS=1 rewrites the wants from
// upstream.
func TestJobUpdateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "job/validate_update.json", "job.ValidateUpdate", "new", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Old *job.Job `json:"old"`
			New *job.Job `json:"new"`
		}
		difftest.DecodeJSON(t, input, &in)
		oldV1, newV1 := difftest.Must(k8s.ToJob(in.Old)), difftest.Must(k8s.ToJob(in.New))
		for _, j := range []*batchv1.Job{oldV1, newV1} {
			legacyscheme.Scheme.Default(j)
			j.ResourceVersion = "1"
		}
		if errs := difftest.RegistryCreate(t, jobregistry.Strategy, "batch", "jobs", oldV1.DeepCopy(), &batch.Job{}); len(errs) > 0 {
			t.Errorf("the stored Job is one the registry refuses: %v", errs.ToAggregate())
		}
		return difftest.RegistryUpdate(t, jobregistry.Strategy, "batch", "jobs", oldV1, newV1, &batch.Job{}, &batch.Job{})
	})
	if ok < 4 || refused < 6 {
		t.Errorf("only %d accepted and %d refused updates replayed", ok, refused)
	}
}
