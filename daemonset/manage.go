package daemonset

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// manage is upstream manage over states: podsShouldBeOnNode per listed
// node, then unscheduled pods of nodes that do not exist.
func manage(ds *DaemonSet, states []nodeState, hash string, p *Plan, now time.Time, opts Options) ([]PodCreation, []plan.Deletion) {
	var creates []PodCreation
	var deletes []plan.Deletion
	surge := AllowsSurge(ds)
	for i := range states {
		s := &states[i]
		if s.node == nil {
			for _, pod := range s.pods {
				if pod.Spec.NodeName == "" {
					deletes = append(deletes, del(pod, ReasonNodeGone))
				}
			}
			continue
		}
		switch {
		case s.elig.ShouldRun && !s.entry:
			creates = append(creates, PodCreation{Node: s.name, Reason: ReasonNoDaemonPod})
		case s.elig.ShouldContinueRunning:
			var running []*podstatus.Pod
			for _, pod := range s.pods {
				if pod.DeletionTimestamp != nil {
					continue
				}
				switch pod.Status.Phase {
				case podstatus.Failed:
					if wait, ok := p.Memory.allow(BackoffKey(ds, s.name), now, opts); !ok {
						p.Requeue = append(p.Requeue, plan.Requeue{After: wait, Reason: ReasonFailedPodBackoff})
						continue
					}
					p.Events = append(p.Events, plan.Event{Type: plan.Warning, Reason: ReasonFailedPod, Object: pod.Name})
					deletes = append(deletes, del(pod, ReasonFailedPod))
				case podstatus.Succeeded:
					p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonSucceededPod, Object: pod.Name})
					deletes = append(deletes, del(pod, ReasonSucceededPod))
				default:
					running = append(running, pod)
				}
			}
			if !surge {
				if len(running) <= 1 {
					break
				}
				slices.SortStableFunc(running, cmpOlder)
				for _, pod := range running[1:] {
					deletes = append(deletes, del(pod, ReasonExcessPod))
				}
				break
			}
			if len(running) <= 1 {
				if len(running) == 0 && s.elig.ShouldRun {
					creates = append(creates, PodCreation{Node: s.name, Reason: ReasonSurgeNoPod})
				}
				break
			}
			slices.SortStableFunc(running, cmpOlder)
			var oldestNew, oldestOld *podstatus.Pod
			for _, pod := range running {
				if pod.Labels[history.HashLabel] == hash {
					if oldestNew == nil {
						oldestNew = pod
						continue
					}
				} else if oldestOld == nil {
					oldestOld = pod
					continue
				}
				deletes = append(deletes, del(pod, ReasonExcessPod))
			}
			if oldestNew != nil && oldestOld != nil {
				switch {
				case !isReady(oldestOld):
					deletes = append(deletes, del(oldestOld, ReasonOldPodNotReady))
				case isAvailable(oldestNew, ds.Spec.MinReadySeconds, now):
					deletes = append(deletes, del(oldestOld, ReasonNewPodAvailable))
				}
			}
		case s.entry:
			for _, pod := range s.pods {
				if pod.DeletionTimestamp == nil {
					deletes = append(deletes, del(pod, ReasonShouldNotRun))
				}
			}
		}
	}
	return creates, deletes
}

func cmpOlder(a, b *podstatus.Pod) int {
	switch {
	case olderPod(a, b):
		return -1
	case olderPod(b, a):
		return 1
	}
	return 0
}
