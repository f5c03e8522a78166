package pdb

import (
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Writes returns the API requests of the sync, given the budget and pods
// [Step] read and the sync's now: first, when UpdateStatus, the budget's
// status write (update of poddisruptionbudgets/status carrying the whole
// budget with [Plan].Status); then, for each pod of ResetDisruptionTarget
// in order, the stale-pod worker's write (update of pods/status carrying
// the whole pod, its DisruptionTarget condition replaced by status False,
// no reason or message, transition time now). Upstream runs the two
// workers independently; kubesem lists the budget's write first. A reset
// naming no pod of b's namespace is a *field.Error at
// resetDisruptionTarget[i].name.
//
// Source: upstream pkg/controller/disruption/disruption.go updatePdbStatus,
// failSafe, writePdbStatus and syncStalePodDisruption (v1.36.3).
func (p Plan) Writes(b *PodDisruptionBudget, pods []*podstatus.Pod, now time.Time) ([]plan.Write, error) {
	if b == nil {
		return nil, field.New("budget", "", field.ErrRequired)
	}
	var byName map[string]*podstatus.Pod // (only the resets look pods up)
	if len(p.ResetDisruptionTarget) > 0 {
		byName = make(map[string]*podstatus.Pod, len(pods))
		for _, q := range pods {
			if q != nil && q.Namespace == b.Namespace {
				byName[q.Name] = q
			}
		}
	}
	out := make([]plan.Write, 0, 1+len(p.ResetDisruptionTarget))
	if p.UpdateStatus {
		obj := deepcopy.Copy(b)
		obj.Status = deepcopy.Copy(p.Status)
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "poddisruptionbudgets", Subresource: "status",
			Namespace: b.Namespace, Name: b.Name, UID: b.UID, Object: obj, Reason: p.Outcome})
	}
	for i, r := range p.ResetDisruptionTarget {
		pod := byName[r.Name]
		if pod == nil {
			return nil, field.New(field.Index("resetDisruptionTarget", i)+".name", r.Name, field.ErrInvalid)
		}
		obj := deepcopy.Copy(pod)
		c := podstatus.Condition{Type: podstatus.DisruptionTarget, Status: meta.ConditionFalse, LastTransitionTime: now,
			ObservedGeneration: pod.Generation}
		replaced := false
		for j := range obj.Status.Conditions {
			if obj.Status.Conditions[j].Type == c.Type {
				if obj.Status.Conditions[j].Status == c.Status {
					c.LastTransitionTime = obj.Status.Conditions[j].LastTransitionTime
				}
				obj.Status.Conditions[j] = c
				replaced = true
				break
			}
		}
		if !replaced {
			obj.Status.Conditions = append(obj.Status.Conditions, c)
		}
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Subresource: "status",
			Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: obj, Reason: r.Reason})
	}
	return out, nil
}
