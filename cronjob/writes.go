package cronjob

import (
	"fmt"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
)

// Writes returns the API requests the sync sends, in v1.36.3's order, given
// the CronJob and Jobs Step read: a delete of each Job in Delete (history
// cleanup first, then those the Replace policy removes), with
// propagationPolicy Background and no UID precondition; the create of the
// Job in Create ([JobFromTemplate]: named <cronjob>-<start time in
// minutes>, the template's labels and annotations plus the scheduled
// timestamp, the controller reference meta.NewControllerRef("batch/v1",
// "CronJob", …)), also when the API server refuses it (Outcome
// AlreadyExists); then the update of the CronJob's status subresource to
// Status when UpdateStatus holds.
//
// It returns a *field.Error when a deletion names a Job that jobs does not
// hold (by name, and by UID when the deletion has one) or cj is nil.
// A Job without a namespace is taken to be in the CronJob's.
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go sync,
// cleanupFinishedJobs, syncCronJob, deleteJob; injection.go
// realJobControl.CreateJob, DeleteJob, realCJControl.UpdateStatus (v1.36.3).
func (p Plan) Writes(cj *CronJob, jobs []*job.Job) ([]plan.Write, error) {
	if cj == nil {
		return nil, field.New("cronJob", "", field.ErrRequired)
	}
	var out []plan.Write
	for i, d := range p.Delete {
		ns := cj.Namespace
		found := false
		for _, j := range jobs {
			if j != nil && j.Name == d.Name && (d.UID == "" || j.UID == d.UID) {
				ns, found = j.Namespace, true
				break
			}
		}
		if !found {
			return nil, field.New(field.Child(field.Index("delete", i), "name"), d.Name, fmt.Errorf("%w: no such Job among the inputs", field.ErrInvalid))
		}
		if ns == "" {
			ns = cj.Namespace
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "jobs", Namespace: ns, Name: d.Name, PropagationPolicy: "Background", Reason: d.Reason})
	}
	if j := p.Job(); j != nil {
		obj := deepcopy.Copy(*j)
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "jobs", Namespace: cj.Namespace, Name: obj.Name, Object: &obj, Reason: p.Create.Reason})
	}
	if p.UpdateStatus {
		obj := deepcopy.Copy(*cj)
		obj.Status = deepcopy.Copy(p.Status)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "cronjobs", Subresource: "status", Namespace: cj.Namespace, Name: cj.Name, UID: cj.UID, Object: &obj, Reason: ReasonStatusUpdate})
	}
	return out, nil
}
