package k8s

import (
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/cronjob"
)

// CronJobWrites are the writes of one CronJob sync as complete API
// objects.
type CronJobWrites struct {
	// CreateJob is the Job started, complete: the CronJob's whole
	// jobTemplate spec with the name, labels, annotations (the scheduled
	// timestamp included), creation time and controller reference the plan
	// computed; nil when the sync starts none.
	CreateJob *batchv1.Job
	// DeleteJobs names the Jobs deleted (history cleanup, then Replace).
	DeleteJobs []string
	// Status is the status to write, or nil when the controller writes none.
	Status *batchv1.CronJobStatus
}

// ToCronJobWrites turns p, the Plan of cronjob.Step on cj, into API objects
// to write: the Job carries cj's jobTemplate spec as given (every field,
// modelled or not). Inputs are not modified.
//
// Source: upstream pkg/controller/cronjob/utils.go getJobFromTemplate2
// (v1.36.3).
func ToCronJobWrites(cj *batchv1.CronJob, p cronjob.Plan) (CronJobWrites, error) {
	var w CronJobWrites
	if cj == nil {
		return w, fmt.Errorf("k8s: ToCronJobWrites: no CronJob")
	}
	if len(p.Create.Objects) > 0 {
		made, err := convert[batchv1.Job]("Job", &p.Create.Objects[0])
		if err != nil {
			return w, err
		}
		if made.Labels == nil {
			made.Labels = map[string]string{} // the controller's copy is never nil
		}
		j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{
			Name:              made.Name,
			Namespace:         cj.Namespace,
			Labels:            made.Labels,
			Annotations:       made.Annotations,
			CreationTimestamp: made.CreationTimestamp,
			OwnerReferences:   []metav1.OwnerReference{*metav1.NewControllerRef(cj, batchv1.SchemeGroupVersion.WithKind("CronJob"))},
		}}
		cj.Spec.JobTemplate.Spec.DeepCopyInto(&j.Spec)
		w.CreateJob = j
	}
	for _, d := range p.Delete {
		w.DeleteJobs = append(w.DeleteJobs, d.Name)
	}
	if p.UpdateStatus {
		st, err := convert[batchv1.CronJobStatus]("CronJobStatus", p.Status)
		if err != nil {
			return w, err
		}
		w.Status = st
	}
	return w, nil
}
