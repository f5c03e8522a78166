package cronjob_test

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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	"k8s.io/kubernetes/pkg/util/parsers"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

//go:linkname upMostRecentScheduleTime k8s.io/kubernetes/pkg/controller/cronjob.mostRecentScheduleTime
func upMostRecentScheduleTime(cj *batchv1.CronJob, now time.Time, schedule cron.Schedule, includeSDS bool) (time.Time, *time.Time, int, error)

//go:linkname upNextScheduleTimeDuration k8s.io/kubernetes/pkg/controller/cronjob.nextScheduleTimeDuration
func upNextScheduleTimeDuration(cj *batchv1.CronJob, now time.Time, schedule cron.Schedule) *time.Duration

//go:linkname upSyncCronJob k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).syncCronJob
func upSyncCronJob(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, jobs []*batchv1.Job) (*time.Duration, bool, error)

//go:linkname upCleanupFinishedJobs k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).cleanupFinishedJobs
func upCleanupFinishedJobs(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, js []*batchv1.Job) bool

//go:linkname upFormatSchedule k8s.io/kubernetes/pkg/controller/cronjob.formatSchedule
func upFormatSchedule(cj *batchv1.CronJob, recorder record.EventRecorder) string

// upSchedule parses a CronJob's schedule as the controller does
// (formatSchedule, then ParseCronScheduleWithPanicRecovery).
func upSchedule(cj *batchv1.CronJob) (cron.Schedule, error) {
	return parsers.ParseCronScheduleWithPanicRecovery(upFormatSchedule(cj, nil))
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
	// cleanupDeletes is how many of deleted cleanupFinishedJobs made
	// (the first ones); the rest are syncCronJob's (Replace).
	cleanupDeletes int
	events         []string // "Warning Reason" / "Normal Reason"
	// writes are the write requests the sync sent to the fake clientset,
	// in order, as "<verb> <resource>[/<subresource>] <name>", a delete
	// with " propagation=<policy>"; the status update is the one sync
	// sends after syncCronJob when either step asks for it.
	writes []string
	// jobs are the Jobs the create requests carried.
	jobs []*batchv1.Job
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
	defer difftest.Stop(jm)
	recorder := record.NewFakeRecorder(1000)
	setField(jm, "now", func() time.Time { return now })
	setField(jm, "recorder", record.EventRecorder(recorder))
	cp := cj.DeepCopy()
	updated := upCleanupFinishedJobs(jm, ctx, cp, jobs)
	var out upstreamSync
	for _, a := range client.Actions() {
		if a.GetVerb() == "delete" {
			out.cleanupDeletes++
		}
	}
	out.requeue, out.updateStatus, out.err = upSyncCronJob(jm, ctx, cp, jobs)
	out.updateStatus = out.updateStatus || updated
	out.status = cp.Status
	if out.updateStatus {
		// What sync does next: jm.cronJobControl.UpdateStatus(ctx, cp).
		f := reflect.ValueOf(jm).Elem().FieldByName("cronJobControl")
		ctl := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		ctl.MethodByName("UpdateStatus").Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(cp)})
	}
	for _, a := range client.Actions() {
		r := a.GetResource().Resource
		if a.GetSubresource() != "" {
			r += "/" + a.GetSubresource()
		}
		switch a.GetVerb() {
		case "create":
			name := ""
			obj := a.(k8stesting.CreateAction).GetObject()
			if m, ok := obj.(metav1.Object); ok {
				name = m.GetName()
			}
			if j, ok := obj.(*batchv1.Job); ok {
				out.jobs = append(out.jobs, j)
			}
			out.writes = append(out.writes, "create "+r+" "+name)
		case "update":
			name := ""
			if m, ok := a.(k8stesting.UpdateAction).GetObject().(metav1.Object); ok {
				name = m.GetName()
			}
			out.writes = append(out.writes, "update "+r+" "+name)
		case "delete":
			d := a.(k8stesting.DeleteAction)
			pp := ""
			if p := d.GetDeleteOptions().PropagationPolicy; p != nil {
				pp = string(*p)
			}
			out.writes = append(out.writes, "delete "+r+" "+d.GetName()+" propagation="+pp)
		case "patch":
			out.writes = append(out.writes, "patch "+r+" "+a.(k8stesting.PatchAction).GetName())
		}
	}
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
