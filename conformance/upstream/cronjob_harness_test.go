package upstream_test

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/robfig/cron/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	"k8s.io/kubernetes/pkg/util/parsers"

	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
)

//go:linkname upMostRecentScheduleTime k8s.io/kubernetes/pkg/controller/cronjob.mostRecentScheduleTime
func upMostRecentScheduleTime(cj *batchv1.CronJob, now time.Time, schedule cron.Schedule, includeSDS bool) (time.Time, *time.Time, int, error)

//go:linkname upNextScheduleTimeDuration k8s.io/kubernetes/pkg/controller/cronjob.nextScheduleTimeDuration
func upNextScheduleTimeDuration(cj *batchv1.CronJob, now time.Time, schedule cron.Schedule) *time.Duration

//go:linkname upSyncCronJob k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).syncCronJob
func upSyncCronJob(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, jobs []*batchv1.Job) (*time.Duration, bool, error)

//go:linkname upCleanupFinishedJobs k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).cleanupFinishedJobs
func upCleanupFinishedJobs(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, js []*batchv1.Job) bool

// upSchedule parses a CronJob's schedule as the controller does.
func upSchedule(cj *batchv1.CronJob) (cron.Schedule, error) {
	spec := cj.Spec.Schedule
	if cj.Spec.TimeZone != nil {
		spec = "TZ=" + *cj.Spec.TimeZone + " " + spec
	}
	return parsers.ParseCronScheduleWithPanicRecovery(spec)
}

// toUpstreamCronJob converts a kubesem CronJob (only the fields the
// controller reads) and applies the API defaults.
func toUpstreamCronJob(c *kcronjob.CronJob) *batchv1.CronJob {
	cj := &batchv1.CronJob{
		TypeMeta: metav1.TypeMeta{Kind: "CronJob", APIVersion: "batch/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: c.Name, Namespace: c.Namespace, UID: types.UID(c.UID),
			CreationTimestamp: metav1.Time{Time: c.CreationTimestamp},
			Labels:            c.Labels, Annotations: c.Annotations,
		},
		Spec: batchv1.CronJobSpec{
			Schedule: c.Spec.Schedule, TimeZone: c.Spec.TimeZone,
			StartingDeadlineSeconds:    c.Spec.StartingDeadlineSeconds,
			ConcurrencyPolicy:          batchv1.ConcurrencyPolicy(c.Spec.ConcurrencyPolicy),
			Suspend:                    c.Spec.Suspend,
			SuccessfulJobsHistoryLimit: c.Spec.SuccessfulJobsHistoryLimit,
			FailedJobsHistoryLimit:     c.Spec.FailedJobsHistoryLimit,
			JobTemplate: batchv1.JobTemplateSpec{ObjectMeta: metav1.ObjectMeta{
				Labels: c.Spec.JobTemplate.Labels, Annotations: c.Spec.JobTemplate.Annotations,
			}},
		},
	}
	if c.DeletionTimestamp != nil {
		cj.DeletionTimestamp = &metav1.Time{Time: *c.DeletionTimestamp}
	}
	if cj.Spec.ConcurrencyPolicy == "" {
		cj.Spec.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	if cj.Spec.SuccessfulJobsHistoryLimit == nil {
		three := int32(3)
		cj.Spec.SuccessfulJobsHistoryLimit = &three
	}
	if cj.Spec.FailedJobsHistoryLimit == nil {
		one := int32(1)
		cj.Spec.FailedJobsHistoryLimit = &one
	}
	for _, r := range c.Status.Active {
		cj.Status.Active = append(cj.Status.Active, corev1.ObjectReference{
			Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: types.UID(r.UID), APIVersion: r.APIVersion,
		})
	}
	if t := c.Status.LastScheduleTime; t != nil {
		cj.Status.LastScheduleTime = &metav1.Time{Time: *t}
	}
	if t := c.Status.LastSuccessfulTime; t != nil {
		cj.Status.LastSuccessfulTime = &metav1.Time{Time: *t}
	}
	return cj
}

// toUpstreamJob converts a kubesem Job's metadata and status.
func toUpstreamJob(j *job.Job) *batchv1.Job {
	out := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: j.Name, Namespace: j.Namespace, UID: types.UID(j.UID),
			CreationTimestamp: metav1.Time{Time: j.CreationTimestamp},
		},
	}
	for _, r := range j.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, metav1.OwnerReference{
			APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID), Controller: r.Controller,
		})
	}
	for _, c := range j.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, batchv1.JobCondition{
			Type: batchv1.JobConditionType(c.Type), Status: corev1.ConditionStatus(c.Status),
		})
	}
	if t := j.Status.StartTime; t != nil {
		out.Status.StartTime = &metav1.Time{Time: *t}
	}
	if t := j.Status.CompletionTime; t != nil {
		out.Status.CompletionTime = &metav1.Time{Time: *t}
	}
	return out
}

// upstreamSync is what upstream's sync did.
type upstreamSync struct {
	requeue      *time.Duration
	updateStatus bool
	err          error
	status       batchv1.CronJobStatus
	created      []string // job names
	createdAnn   []string // scheduled-timestamp annotations
	deleted      []string // job names
	events       []string // "Warning Reason" / "Normal Reason"
}

// runUpstreamSync runs cleanupFinishedJobs and syncCronJob, as sync does,
// on a ControllerV2 backed by a fake clientset holding the CronJob and
// jobs, at the given clock.
//
// Upstream reconciles Jobs in its informer's order, which is arbitrary;
// kubesem pins name, then UID, so the harness hands upstream that order.
func runUpstreamSync(cj *batchv1.CronJob, jobs []*batchv1.Job, now time.Time) upstreamSync {
	jobs = slices.Clone(jobs)
	slices.SortStableFunc(jobs, func(a, b *batchv1.Job) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(string(a.UID), string(b.UID)))
	})
	objs := []runtime.Object{cj.DeepCopy()}
	for _, j := range jobs {
		objs = append(objs, j.DeepCopy())
	}
	client := fake.NewSimpleClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	ctx := context.Background()
	jm, err := cronjob.NewControllerV2(ctx, factory.Batch().V1().Jobs(), factory.Batch().V1().CronJobs(), client)
	if err != nil {
		panic(err)
	}
	recorder := record.NewFakeRecorder(1000)
	setField(jm, "now", func() time.Time { return now })
	setField(jm, "recorder", record.EventRecorder(recorder))
	cp := cj.DeepCopy()
	updated := upCleanupFinishedJobs(jm, ctx, cp, jobs)
	var out upstreamSync
	out.requeue, out.updateStatus, out.err = upSyncCronJob(jm, ctx, cp, jobs)
	out.updateStatus = out.updateStatus || updated
	out.status = cp.Status
	for _, a := range client.Actions() {
		switch a.GetVerb() {
		case "create":
			if c, ok := a.(interface{ GetObject() runtime.Object }); ok {
				if j, ok := c.GetObject().(*batchv1.Job); ok {
					out.created = append(out.created, j.Name)
					out.createdAnn = append(out.createdAnn, j.Annotations[batchv1.CronJobScheduledTimestampAnnotation])
				}
			}
		case "delete":
			if d, ok := a.(interface{ GetName() string }); ok {
				out.deleted = append(out.deleted, d.GetName())
			}
		}
	}
	close(recorder.Events)
	for e := range recorder.Events {
		out.events = append(out.events, e)
	}
	return out
}

// setField sets an unexported field of the controller for the test.
func setField(jm *cronjob.ControllerV2, name string, value any) {
	f := reflect.ValueOf(jm).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(value))
}
