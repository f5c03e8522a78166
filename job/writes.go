package job

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Writes returns the API requests the sync sends, in v1.36.3's order, given
// the job and pods Step read:
//
//  1. for a finishing job (deletion reason JobFinishing), a delete of each
//     pod in Delete; otherwise, for each pod in Delete, a patch removing the
//     tracking finalizer when the pod carries it (the pod after the patch),
//     then its delete; or the creates of Create: pods from the job's
//     template ([podstatus.FromTemplate], generateName
//     [podstatus.PodPrefix] of the job's name; an Indexed job's pod with
//     the generateName of its index, the completion-index annotation and
//     label, spec.hostname <job>-<index> and, with backoffLimitPerIndex,
//     the failure-count annotations), each with the tracking finalizer
//     appended when the template lacks it and the controller reference
//     meta.NewControllerRef("batch/v1", "Job", …);
//  2. the status update of FlushStatus (subresource status), when set;
//  3. a patch removing the tracking finalizer from each pod in
//     RemoveFinalizers (the pod after the patch);
//  4. the status update of Status, when the sync writes it after the
//     removals ([Plan.StatusWrites]).
//
// Deletes carry no UID precondition and no grace period (upstream's
// DeletePod sends empty options). Upstream creates, deletes and patches
// pods concurrently within each of steps 1 and 3: the API server may
// receive them in any order; Writes gives the Plan's. Not modelled: the
// JOB_COMPLETION_INDEX environment variable upstream adds to an Indexed
// job's containers (podstatus.Container has no env). A Plan without
// Outcome Synced writes nothing.
//
// It returns a *field.Error when the Plan names a pod (Delete, or
// RemoveFinalizers by UID) that pods does not hold, or j is nil.
//
// Source: upstream pkg/controller/job/job_controller.go manageJob,
// deleteJobPods, deleteActivePods, flushUncountedAndRemoveFinalizers,
// removeTrackingFinalizerFromPods, removeTrackingFinalizerPatch,
// trackJobStatusAndRemoveFinalizers; indexed_job_utils.go
// addCompletionIndexAnnotation, addCompletionIndexLabel,
// addIndexFailureCountAnnotation (v1.36.3).
func (p Plan) Writes(j *Job, pods []*podstatus.Pod) ([]plan.Write, error) {
	if j == nil {
		return nil, field.New("job", "", field.ErrRequired)
	}
	if p.Outcome != ReasonSynced {
		return nil, nil
	}
	var byName, byUID map[string]*podstatus.Pod // (only deletes and releases look pods up)
	if len(p.Delete) > 0 || len(p.RemoveFinalizers) > 0 {
		byName = make(map[string]*podstatus.Pod, len(pods))
		byUID = make(map[string]*podstatus.Pod, len(pods))
		for _, pod := range pods {
			if pod != nil {
				byName[pod.Name] = pod
				byUID[pod.UID] = pod
			}
		}
	}
	var out []plan.Write
	for i, d := range p.Delete {
		pod := byName[d.Name]
		if pod == nil || (d.UID != "" && pod.UID != d.UID) {
			return nil, field.New(field.Child(field.Index("delete", i), "name"), d.Name, fmt.Errorf("%w: no such pod among the inputs", field.ErrInvalid))
		}
		if d.Reason != ReasonFinishing && hasFinalizer(pod) {
			out = append(out, releaseWrite(pod, d.Reason))
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, Reason: d.Reason})
	}
	out = append(out, p.creates(j)...)
	if p.FlushStatus != nil {
		out = append(out, statusWrite(j, *p.FlushStatus, ReasonFlushStatus))
	}
	for i, uid := range p.RemoveFinalizers {
		pod := byUID[uid]
		if pod == nil {
			return nil, field.New(field.Index("removeFinalizers", i), uid, fmt.Errorf("%w: no such pod among the inputs", field.ErrInvalid))
		}
		out = append(out, releaseWrite(pod, ReasonRemoveTrackingFinalizer))
	}
	if w := p.StatusWrites(); len(w) > 0 && (p.FlushStatus == nil || len(w) == 2) {
		out = append(out, statusWrite(j, p.Status, ReasonStatusUpdate))
	}
	return out, nil
}

// StatusWrites returns the statuses the sync writes, in order: FlushStatus
// when set, then Status when the sync writes it after removing finalizers,
// which it does when UpdateStatus holds and Status differs from
// FlushStatus (upstream writes again only when the counters moved or the
// final condition was added, both of which change the status).
//
// Source: upstream trackJobStatusAndRemoveFinalizers (v1.36.3).
func (p Plan) StatusWrites() []Status {
	var out []Status
	if p.FlushStatus != nil {
		out = append(out, *p.FlushStatus)
	}
	if !p.UpdateStatus {
		return out
	}
	if p.FlushStatus != nil {
		a, errA := json.Marshal(p.FlushStatus)
		b, errB := json.Marshal(p.Status)
		if errA == nil && errB == nil && string(a) == string(b) {
			return out
		}
	}
	return append(out, p.Status)
}

// creates returns the pod creates of Create.
func (p Plan) creates(j *Job) []plan.Write {
	if p.Create.Count <= 0 {
		return nil
	}
	tpl := deepcopy.Copy(j.Spec.Template)
	if !slices.Contains(tpl.Finalizers, TrackingFinalizer) {
		tpl.Finalizers = append(tpl.Finalizers, TrackingFinalizer)
	}
	ref := meta.NewControllerRef("batch/v1", "Job", j.Name, j.UID)
	write := func(pod *podstatus.Pod) plan.Write {
		return plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: j.Namespace, Object: pod, Reason: p.Create.Reason}
	}
	var out []plan.Write
	if len(p.Create.Objects) == 0 {
		for range p.Create.Count {
			out = append(out, write(podstatus.FromTemplate(&tpl, j.Namespace, podstatus.PodPrefix(j.Name), "", &ref)))
		}
		return out
	}
	for _, np := range p.Create.Objects {
		t := deepcopy.Copy(tpl)
		ix := strconv.Itoa(np.Index)
		t.Annotations = maps.Clone(t.Annotations)
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Labels = maps.Clone(t.Labels)
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Annotations[CompletionIndexAnnotation] = ix
		t.Labels[CompletionIndexAnnotation] = ix
		if np.IndexFailureCount != nil {
			t.Annotations[IndexFailureCountAnnotation] = strconv.Itoa(int(*np.IndexFailureCount))
		}
		if np.IndexIgnoredFailureCount != nil {
			t.Annotations[IndexIgnoredFailureCountAnnotation] = strconv.Itoa(int(*np.IndexIgnoredFailureCount))
		}
		t.Spec.Hostname = np.Hostname
		out = append(out, write(podstatus.FromTemplate(&t, j.Namespace, np.GenerateName, "", &ref)))
	}
	return out
}

// releaseWrite is the patch removing the tracking finalizer from pod: the
// pod as the patch leaves it.
func releaseWrite(pod *podstatus.Pod, reason Reason) plan.Write {
	after := deepcopy.Copy(*pod)
	after.Finalizers = slices.DeleteFunc(after.Finalizers, func(f string) bool { return f == TrackingFinalizer })
	return plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &after, Reason: reason}
}

// statusWrite is the update of j's status subresource to st.
func statusWrite(j *Job, st Status, reason Reason) plan.Write {
	obj := deepcopy.Copy(*j)
	obj.Status = deepcopy.Copy(st)
	return plan.Write{Verb: plan.VerbUpdate, Resource: "jobs", Subresource: "status", Namespace: j.Namespace, Name: j.Name, UID: j.UID, Object: &obj, Reason: reason}
}
