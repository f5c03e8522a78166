package check

import (
	"fmt"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
)

// The builtin properties of Jobs, CronJobs, budgets and drains.

func parallelism(j *job.Job) int {
	if j.Spec.Parallelism == nil {
		return 1
	}
	return int(*j.Spec.Parallelism)
}

func replacementPolicy(j *job.Job) job.PodReplacementPolicy {
	switch {
	case j.Spec.PodReplacementPolicy != nil:
		return *j.Spec.PodReplacementPolicy
	case j.Spec.PodFailurePolicy != nil:
		return "Failed"
	}
	return job.TerminatingOrFailed
}

// jobParallelism: job-parallelism.
func jobParallelism() Property {
	return Property{
		Name: "job-parallelism",
		Doc: "a Job never has more active pods (neither finished nor being deleted) than spec.parallelism (1 when unset), " +
			"and, under podReplacementPolicy Failed, never more active plus terminating pods",
		Applies: has(cluster.KindJob, cluster.KindCronJob),
		Holds: func(s Snapshot) string {
			for _, j := range s.State.Jobs() {
				c := count(controlledPods(s.State, j.UID), 0, s)
				par := parallelism(j)
				switch {
				case c.active > par:
					return fmt.Sprintf("Job %s/%s has %d active pods, more than parallelism %d", j.Namespace, j.Name, c.active, par)
				case replacementPolicy(j) == "Failed" && c.active+c.terminating > par:
					return fmt.Sprintf("Job %s/%s (podReplacementPolicy Failed) has %d active and %d terminating pods, more than parallelism %d",
						j.Namespace, j.Name, c.active, c.terminating, par)
				}
			}
			return ""
		},
	}
}

// jobExclusive: job-exclusive.
func jobExclusive() Property {
	return Property{
		Name: "job-exclusive",
		Doc: "a Job never runs a replacement pod beside one still terminating: its active plus terminating pods never exceed " +
			"spec.parallelism (what podReplacementPolicy Failed promises; under TerminatingOrFailed, the default without a " +
			"podFailurePolicy, a replacement starts as soon as a pod is being deleted)",
		Applies: has(cluster.KindJob, cluster.KindCronJob),
		Holds: func(s Snapshot) string {
			for _, j := range s.State.Jobs() {
				c := count(controlledPods(s.State, j.UID), 0, s)
				if par := parallelism(j); c.active+c.terminating > par {
					return fmt.Sprintf("Job %s/%s (podReplacementPolicy %s) runs %d active pods beside %d terminating, more than parallelism %d",
						j.Namespace, j.Name, replacementPolicy(j), c.active, c.terminating, par)
				}
			}
			return ""
		},
	}
}

// cronJobForbid: cronjob-forbid.
func cronJobForbid() Property {
	return Property{
		Name:    "cronjob-forbid",
		Doc:     "a CronJob with concurrencyPolicy Forbid never has two Jobs running at once (a Job runs until it has a Complete or Failed condition, and is not being deleted)",
		Applies: has(cluster.KindCronJob),
		Holds: func(s Snapshot) string {
			for _, cj := range s.State.CronJobs() {
				if cj.Spec.ConcurrencyPolicy != cronjob.Forbid {
					continue
				}
				var running []string
				for _, j := range controlledJobs(s.State, cj.UID) {
					if !j.IsDeleting() && !isCondition(j.Status.Conditions, "Complete") && !isCondition(j.Status.Conditions, "Failed") {
						running = append(running, j.Name)
					}
				}
				if len(running) > 1 {
					return fmt.Sprintf("CronJob %s/%s (Forbid) runs %d Jobs at once: %v", cj.Namespace, cj.Name, len(running), running)
				}
			}
			return ""
		},
	}
}

// pdbEviction: pdb-eviction.
func pdbEviction() Property {
	return Property{
		Name: "pdb-eviction",
		Doc: "an eviction the API server accepts never takes a budget's healthy pods below its status.desiredHealthy: " +
			"when the evicted pod was healthy (Ready, not being deleted, not recently disrupted), each budget selecting it " +
			"keeps at least desiredHealthy healthy pods after it",
		Applies: has(cluster.KindPodDisruptionBudget),
		Sees: func(e cluster.Entry) bool {
			return e.Write != nil && e.Err == "" && e.Write.Verb == plan.VerbCreate && e.Write.Resource == "pods" && e.Write.Subresource == "eviction"
		},
		Allows: func(s Snapshot, e cluster.Entry) string {
			p := s.State.Pod(e.Write.Namespace, e.Write.Name)
			if p == nil {
				return ""
			}
			for _, b := range s.State.PDBs() {
				if b.Namespace != p.Namespace || b.Spec.Selector == nil || !b.Spec.Selector.Matches(p.Labels) {
					continue
				}
				if !pdb.IsHealthy(p, b.Status.DisruptedPods, s.Now, pdb.Options{}) {
					continue
				}
				healthy := 0
				for _, q := range s.State.Pods() {
					if q.Namespace == b.Namespace && b.Spec.Selector.Matches(q.Labels) && pdb.IsHealthy(q, b.Status.DisruptedPods, s.Now, pdb.Options{}) {
						healthy++
					}
				}
				if healthy-1 < int(b.Status.DesiredHealthy) {
					return fmt.Sprintf("evicting %s leaves %d healthy pods under PodDisruptionBudget %s/%s, fewer than desiredHealthy %d",
						p.Name, healthy-1, b.Namespace, b.Name, b.Status.DesiredHealthy)
				}
			}
			return ""
		},
	}
}

// drainCompletes: drain-completes.
func drainCompletes() Property {
	return goal(Property{
		Name: "drain-completes",
		Doc: "from every state with a drain in progress, once the environment stops failing (no further event), the drain " +
			"finishes: every pod of the node but the DaemonSets' is evicted (kubectl drain retries refused evictions every 5s)",
		Applies: func(s Snapshot, a Alphabet) bool {
			if a.Drains > 0 || len(s.Draining) > 0 {
				return true
			}
			for _, e := range a.Events {
				if e.Kind == cluster.EventDrain {
					return true
				}
			}
			return false
		},
	}, func(s Snapshot) (bool, []string) {
		var why []string
		for _, n := range s.Draining {
			why = append(why, "node "+n+" is still being drained")
		}
		return len(s.Draining) > 0, why
	})
}
