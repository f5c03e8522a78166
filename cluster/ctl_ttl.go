package cluster

import (
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
)

// ttlController deletes each finished Job whose ttlSecondsAfterFinished
// has passed (job.TimeLeft), and requeues the others at their expiry.
// Upstream deletes with foreground propagation; the world's garbage
// collector deletes the Job at once and its pods after it (background).
func ttlController() controller {
	return controller{
		name:  CtlTTL,
		reads: []Kind{KindJob},
		keys: func(w *World) []Key {
			var out []Key
			for _, j := range w.State.Jobs() {
				if j.NeedsCleanup() && !j.IsDeleting() {
					out = append(out, Key{KindJob, j.Namespace, j.Name})
				}
			}
			return out
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			j, _ := w.State.Get(k).(*job.Job)
			if j == nil || !j.NeedsCleanup() || j.IsDeleting() {
				return stepOut{}
			}
			ttl, err := job.TimeLeft(j, now)
			if err != nil {
				return stepOut{plan: ttl, err: err}
			}
			if !ttl.Expired {
				return stepOut{plan: keepPlan(w, ttl), requeue: []plan.Requeue{{After: ttl.Remaining, Reason: ttl.Reason}}}
			}
			return stepOut{plan: keepPlan(w, ttl), writes: []plan.Write{{Verb: plan.VerbDelete, Resource: "jobs", Namespace: j.Namespace,
				Name: j.Name, UID: j.UID, Reason: ttl.Reason}}}
		},
	}
}
