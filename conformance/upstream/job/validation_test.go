package job_test

import (
	"math"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// The Job half of the validation differential (see validation_apps_test.go).
// The registry generates the selector and the job-name / controller-uid
// template labels on create (manualSelector unset), so they are added here
// as PrepareForCreate does; the pod template is one container with
// restartPolicy Never (not modelled by kubesem's validation).

func genOptFrom[T any](t *rapid.T, label string, vals ...T) *T {
	if rapid.IntRange(0, 2).Draw(t, label+"Nil") == 0 {
		return nil
	}
	v := rapid.SampledFrom(vals).Draw(t, label)
	return &v
}

func genJob(t *rapid.T) *job.Job {
	j := &job.Job{}
	j.Name = rapid.SampledFrom([]string{"pi", "pi", "pi", "a.b", strings.Repeat("x", 58), strings.Repeat("x", 60)}).Draw(t, "name")
	j.Namespace, j.UID = "default", "uid-1"
	s := &j.Spec
	counts := []int32{0, 1, 2, 2, 3, 5, 5, 10_000, 10_001, 100_000, 100_001, math.MaxInt32, -1}
	s.Parallelism = genOptFrom(t, "parallelism", counts...)
	s.Completions = genOptFrom(t, "completions", counts...)
	s.ActiveDeadlineSeconds = genOptFrom(t, "activeDeadlineSeconds", int64(-1), 0, 1, 30, 30, 30, math.MaxInt64)
	s.BackoffLimit = genOptFrom(t, "backoffLimit", int32(-1), 0, 6, 6, 6, math.MaxInt32)
	s.TTLSecondsAfterFinished = genOptFrom(t, "ttlSecondsAfterFinished", int32(-1), 0, 100, 100, 100)
	s.CompletionMode = genOptFrom(t, "completionMode", job.NonIndexed, job.Indexed, job.Indexed, job.Indexed, job.Indexed, "Bogus")
	if rapid.Bool().Draw(t, "perIndex") {
		s.BackoffLimitPerIndex = genOptFrom(t, "backoffLimitPerIndex", int32(-1), 0, 1, 3, 3, 3)
		s.MaxFailedIndexes = genOptFrom(t, "maxFailedIndexes", int32(-1), 0, 1, 3, 10_000, 10_001, 100_001)
	}
	s.PodReplacementPolicy = genOptFrom(t, "podReplacementPolicy", job.TerminatingOrFailed, job.FailedOnly, job.FailedOnly, "Bogus")
	if rapid.IntRange(0, 2).Draw(t, "hasPFP") == 0 {
		s.PodFailurePolicy = genPodFailurePolicy(t)
	}
	if rapid.IntRange(0, 2).Draw(t, "hasSP") == 0 {
		s.SuccessPolicy = genSuccessPolicy(t)
	}
	return j
}

func genPodFailurePolicy(t *rapid.T) *job.PodFailurePolicy {
	n := rapid.SampledFrom([]int{0, 1, 1, 2, 3, 20, 21}).Draw(t, "pfpRules")
	p := &job.PodFailurePolicy{}
	for range n {
		r := job.PodFailurePolicyRule{
			Action: job.PodFailurePolicyAction(rapid.SampledFrom([]string{"FailJob", "FailIndex", "Ignore", "Count", "", "Bogus"}).Draw(t, "action")),
		}
		shape := rapid.IntRange(0, 4).Draw(t, "ruleShape")
		if shape == 0 || shape == 1 || shape == 3 {
			r.OnExitCodes = &job.OnExitCodesRequirement{
				Operator: rapid.SampledFrom([]string{"In", "In", "NotIn", "", "Bogus"}).Draw(t, "operator"),
				Values:   rapid.SliceOfN(rapid.SampledFrom([]int32{0, 1, 2, 42}), 0, 3).Draw(t, "exitCodes"),
			}
			if rapid.Bool().Draw(t, "containerName") {
				c := "c"
				r.OnExitCodes.ContainerName = &c
			}
		}
		if shape == 2 || shape == 3 {
			m := rapid.IntRange(1, 2).Draw(t, "nConditions")
			for range m {
				r.OnPodConditions = append(r.OnPodConditions, job.OnPodConditionsRequirement{
					Type:   podstatus.ConditionType(rapid.SampledFrom([]string{"DisruptionTarget", "ConfigIssue", ""}).Draw(t, "conditionType")),
					Status: meta.ConditionStatus(rapid.SampledFrom([]string{"", "True", "False", "Unknown", "Bogus"}).Draw(t, "conditionStatus")),
				})
			}
		}
		p.Rules = append(p.Rules, r)
	}
	return p
}

func genSuccessPolicy(t *rapid.T) *job.SuccessPolicy {
	n := rapid.SampledFrom([]int{0, 1, 1, 2, 21}).Draw(t, "spRules")
	p := &job.SuccessPolicy{}
	for range n {
		p.Rules = append(p.Rules, job.SuccessPolicyRule{
			SucceededIndexes: genOptFrom(t, "succeededIndexes", "", "0", "0-1", "1,3", "3,1", "0-0", "1-0", "a", "4", "0-1-2", "+1", "0,0", "0-1,1", "0-2"),
			SucceededCount:   genOptFrom(t, "succeededCount", int32(-1), 0, 1, 2, 3, 6),
		})
	}
	return p
}

// toV1Job is j as submitted (the adapter's batch/v1 Job) with what the
// Job registry strategy adds on create (the controller-uid selector and
// labels) and, where j's template leaves them out, a container and
// restartPolicy Never.
func toV1Job(j *job.Job) *batchv1.Job {
	out := difftest.UpJob(j)
	uid := string(j.UID)
	lbl := map[string]string{
		batchv1.ControllerUidLabel: uid, "controller-uid": uid,
		batchv1.JobNameLabel: j.Name, "job-name": j.Name,
	}
	out.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: uid}}
	if out.Spec.Template.Labels == nil {
		out.Spec.Template.Labels = map[string]string{}
	}
	for k, v := range lbl {
		out.Spec.Template.Labels[k] = v
	}
	if out.Spec.Template.Spec.RestartPolicy == "" {
		out.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	}
	if len(out.Spec.Template.Spec.Containers) == 0 {
		out.Spec.Template.Spec.Containers = []corev1.Container{{Name: "c", Image: "app:v1"}}
	}
	return out
}

// upstreamValidateJob defaults, converts and validates as
// pkg/registry/batch/job/strategy.go Validate does on create
// (RequirePrefixedLabels set). ok is false when upstream panics: a
// successPolicy on an Indexed Job without completions dereferences nil in
// validateSuccessPolicyRule (the API server would answer 500).
func upstreamValidateJob(t *rapid.T, v1 *batchv1.Job) (errs utilfield.ErrorList, ok bool) {
	legacyscheme.Scheme.Default(v1)
	var in batch.Job
	if err := legacyscheme.Scheme.Convert(v1, &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	opts := batchvalidation.JobValidationOptions{
		PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&in.Spec.Template, nil),
		RequirePrefixedLabels: true,
	}
	defer func() {
		if recover() != nil {
			errs, ok = nil, false
		}
	}()
	return batchvalidation.ValidateJob(&in, opts), true
}

func TestValidationJobDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		uerrs, ok := upstreamValidateJob(t, toV1Job(j))
		kerr := job.Validate(j, nil)
		if !ok {
			if kerr == nil {
				t.Fatalf("upstream panics; kubesem accepts")
			}
			counts["upstream panics; kubesem rejects"]++
			return
		}
		difftest.Verdict(t, "Job", kerr, uerrs, func(error) string { return "" }, counts)
	})
	difftest.LogCounts(t, counts)
}
