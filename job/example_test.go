package job_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// The pi job of the Job documentation (seed 000): the first sync creates one
// pod; once it succeeds the job completes.
func ExampleStep() {
	four := int32(4)
	pi := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi"}, Spec: job.Spec{BackoffLimit: &four,
		Template: podstatus.Template{Spec: podstatus.Spec{RestartPolicy: podstatus.RestartNever}}}}
	start := time.Date(2022, 6, 15, 8, 40, 15, 0, time.UTC)
	p, _ := job.Step(pi, nil, job.BackoffRecord{}, start, job.Options{})
	fmt.Println(p.Create.Count, p.Create.Reason)

	pi.Status = p.Status
	done := start.Add(65 * time.Second)
	pod := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "pi-5rwd7", UID: "u1", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Succeeded}}
	p, _ = job.Step(pi, []*podstatus.Pod{pod}, p.Memory, done, job.Options{})
	fmt.Println(p.Status.Succeeded, (&job.Job{Status: p.Status}).IsFinished(), p.Status.CompletionTime.Sub(start))
	// Output:
	// 1 TooFewActive
	// 1 true 1m5s
}

// The documented backoff series: 10s, 20s, 40s, ... capped (10m in v1.36.3).
func ExampleBackoffDelay() {
	for n := int32(1); n <= 8; n++ {
		fmt.Print(job.BackoffDelay(n, job.Options{}), " ")
	}
	fmt.Println()
	// Output: 10s 20s 40s 1m20s 2m40s 5m20s 10m0s 10m0s
}

// The pod failure policy example of the Job documentation: exit code 42 in
// container main fails the job; a disruption is ignored.
func ExampleMatchPodFailurePolicy() {
	main := "main"
	policy := &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{
		{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &main, Operator: job.OpIn, Values: []int32{42}}},
		{Action: job.ActionIgnore, OnPodConditions: []job.OnPodConditionsRequirement{{Type: podstatus.DisruptionTarget}}},
	}}
	exit42 := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "default"}, Status: podstatus.Status{Phase: podstatus.Failed,
		ContainerStatuses: []podstatus.ContainerStatus{{Name: "main", State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 42}}}}}}
	disrupted := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed,
		Conditions: []podstatus.Condition{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue}}}}
	fmt.Println(job.MatchPodFailurePolicy(policy, exit42).Action)
	m := job.MatchPodFailurePolicy(policy, disrupted)
	fmt.Println(m.Action, m.CountFailed)
	// Output:
	// FailJob
	// Ignore false
}

// pi-with-ttl (seed 000): deleted 100 seconds after it finished, inclusive.
func ExampleTimeLeft() {
	ttl := int32(100)
	fin := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	j := &job.Job{Spec: job.Spec{TTLSecondsAfterFinished: &ttl},
		Status: job.Status{Conditions: []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue, LastTransitionTime: fin}}}}
	a, _ := job.TimeLeft(j, fin.Add(99*time.Second))
	b, _ := job.TimeLeft(j, fin.Add(100*time.Second))
	fmt.Println(a.Expired, a.Remaining, b.Expired, b.Reason)
	// Output: false 1s true TTLExpired
}
