package cluster

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// jobController runs job.Step on each Job with the pods it controls and
// the backoff record kept in the World.
//
// TEMPORARY: until job.Plan.Writes lands on main, jobWrites turns the
// Plan's fields into writes here.
func jobController() controller {
	return controller{
		name:  CtlJob,
		reads: []Kind{KindJob, KindPod},
		keys:  func(w *World) []Key { return w.State.Keys(KindJob) },
		step: func(w *World, k Key, now time.Time) stepOut {
			j, _ := w.State.Get(k).(*job.Job)
			if j == nil {
				return stepOut{}
			}
			pods := controlled[*podstatus.Pod](w.State, KindPod, j.UID)
			p, err := job.Step(j, pods, w.jobBackoff[k], now, w.Opts.Job)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			return stepOut{plan: p, writes: jobWrites(p, j, pods), requeue: p.Requeue,
				after: func() { w.jobBackoff[k] = p.Memory }}
		},
	}
}

// jobWrites (TEMPORARY): deletions, creations (with the tracking
// finalizer; an Indexed job's pods with their index annotation and label),
// the finalizer removals, then the status.
func jobWrites(p job.Plan, j *job.Job, pods []*podstatus.Pod) []plan.Write {
	var out []plan.Write
	for _, d := range p.Delete {
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: j.Namespace, Name: d.Name, UID: d.UID, Reason: d.Reason})
	}
	ref := meta.NewControllerRef("batch/v1", "Job", j.Name, j.UID)
	newPod := func() *podstatus.Pod {
		pod := podstatus.FromTemplate(&j.Spec.Template, j.Namespace, podstatus.PodPrefix(j.Name), "", &ref)
		pod.Finalizers = append(slices.Clone(pod.Finalizers), job.TrackingFinalizer)
		return pod
	}
	if len(p.Create.Objects) > 0 {
		for _, np := range p.Create.Objects {
			pod := newPod()
			pod.GenerateName = np.GenerateName
			idx := strconv.Itoa(np.Index)
			pod.Annotations = maps.Clone(pod.Annotations)
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[job.CompletionIndexAnnotation] = idx
			if np.IndexFailureCount != nil {
				pod.Annotations[job.IndexFailureCountAnnotation] = strconv.Itoa(int(*np.IndexFailureCount))
			}
			if np.IndexIgnoredFailureCount != nil {
				pod.Annotations[job.IndexIgnoredFailureCountAnnotation] = strconv.Itoa(int(*np.IndexIgnoredFailureCount))
			}
			pod.Labels = maps.Clone(pod.Labels)
			if pod.Labels == nil {
				pod.Labels = map[string]string{}
			}
			pod.Labels[job.CompletionIndexAnnotation] = idx
			out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: j.Namespace, Object: pod, Reason: p.Create.Reason})
		}
	} else {
		for range p.Create.Count {
			out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: j.Namespace, Object: newPod(), Reason: p.Create.Reason})
		}
	}
	byUID := make(map[string]*podstatus.Pod, len(pods))
	for _, pod := range pods {
		byUID[pod.UID] = pod
	}
	for _, uid := range p.RemoveFinalizers {
		pod := byUID[uid]
		if pod == nil {
			continue
		}
		c := *pod
		c.Finalizers = slices.DeleteFunc(slices.Clone(pod.Finalizers), func(f string) bool { return f == job.TrackingFinalizer })
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: p.Outcome})
	}
	if p.UpdateStatus {
		c := *j
		c.Status = p.Status
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "jobs", Subresource: "status", Namespace: j.Namespace, Name: j.Name, UID: j.UID, Object: &c, Reason: p.Outcome})
	}
	return out
}

// cronJobController runs cronjob.Step on each CronJob with the Jobs it
// controls.
//
// TEMPORARY: until cronjob.Plan.Writes lands on main, the deletions, the
// Job's creation and the status are written here.
func cronJobController() controller {
	return controller{
		name:  CtlCronJob,
		reads: []Kind{KindCronJob, KindJob},
		keys:  func(w *World) []Key { return w.State.Keys(KindCronJob) },
		step: func(w *World, k Key, now time.Time) stepOut {
			cj, _ := w.State.Get(k).(*cronjob.CronJob)
			if cj == nil {
				return stepOut{}
			}
			jobs := controlled[*job.Job](w.State, KindJob, cj.UID)
			p, err := cronjob.Step(cj, jobs, now, w.Opts.CronJob)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			var out []plan.Write
			for _, d := range p.Delete {
				out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "jobs", Namespace: cj.Namespace, Name: d.Name, UID: d.UID, Reason: d.Reason})
			}
			if nj := p.Job(); nj != nil {
				out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "jobs", Namespace: cj.Namespace, Object: nj, Reason: p.Create.Reason})
			}
			if p.UpdateStatus {
				c := *cj
				c.Status = p.Status
				out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "cronjobs", Subresource: "status", Namespace: cj.Namespace, Name: cj.Name, UID: cj.UID, Object: &c, Reason: p.Outcome})
			}
			// The new Active entry gets the UID the API server gave the Job.
			resolve := func(i int, results []Result, wr plan.Write) plan.Write {
				if wr.Subresource != "status" {
					return wr
				}
				for _, r := range results {
					if r.Key.Kind != KindJob || r.UID == "" {
						continue
					}
					c := *wr.Object.(*cronjob.CronJob)
					c.Status.Active = slices.Clone(c.Status.Active)
					for j := range c.Status.Active {
						if c.Status.Active[j].Name == r.Key.Name && c.Status.Active[j].UID == "" {
							c.Status.Active[j].UID = r.UID
						}
					}
					wr.Object = &c
				}
				return wr
			}
			return stepOut{plan: p, writes: out, events: p.Events, requeue: p.Requeue, resolve: resolve}
		},
	}
}
