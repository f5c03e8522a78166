package check

import (
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// durationsOf lists the durations a rule reads off obj against the clock:
// progressDeadlineSeconds, minReadySeconds, activeDeadlineSeconds and the
// tolerationSeconds of its pods' tolerations.
func durationsOf(obj any) []time.Duration {
	var out []time.Duration
	secs := func(n int64) { out = append(out, time.Duration(n)*time.Second) }
	spec := func(s *podstatus.Spec) {
		for _, t := range s.Tolerations {
			if t.TolerationSeconds != nil {
				secs(*t.TolerationSeconds)
			}
		}
	}
	switch o := obj.(type) {
	case *rollout.Deployment:
		if o.Spec.ProgressDeadlineSeconds != nil {
			secs(int64(*o.Spec.ProgressDeadlineSeconds))
		}
		secs(int64(o.Spec.MinReadySeconds))
		spec(&o.Spec.Template.Spec)
	case *replicaset.ReplicaSet:
		secs(int64(o.Spec.MinReadySeconds))
		spec(&o.Spec.Template.Spec)
	case *statefulset.StatefulSet:
		secs(int64(o.Spec.MinReadySeconds))
		spec(&o.Spec.Template.Spec)
	case *daemonset.DaemonSet:
		secs(int64(o.Spec.MinReadySeconds))
		spec(&o.Spec.Template.Spec)
	case *job.Job:
		if o.Spec.ActiveDeadlineSeconds != nil {
			secs(*o.Spec.ActiveDeadlineSeconds)
		}
		spec(&o.Spec.Template.Spec)
	case *cronjob.CronJob:
		spec(&o.Spec.JobTemplate.Spec.Template.Spec)
	case *podstatus.Pod:
		spec(&o.Spec)
	}
	return out
}
