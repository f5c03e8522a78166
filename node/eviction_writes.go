package node

import (
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TaintEvictionMessage is the message of the DisruptionTarget condition the
// taint-eviction controller puts on a pod it deletes.
const TaintEvictionMessage = "Taint manager: deleting due to NoExecute taint"

// Writes returns the API requests of the pass, given the node and pods
// [EvictionStep] read and its now: for each pod of Delete, in order, the
// status patch (pods/status, the pod's uid as precondition) that sets
// DisruptionTarget=True, reason DeletionByTaintManager, message
// [TaintEvictionMessage] (in place of an older condition of that type, the
// transition time kept when it was already True, else now) unless the pod
// already carries exactly that condition, then the delete (the pod's own
// grace period, no preconditions). A deletion naming no pod bound to n is
// a *field.Error at delete[i].name.
//
// Source: upstream pkg/controller/tainteviction/taint_eviction.go
// deletePodHandler, addConditionAndDeletePod; pkg/api/v1/pod
// UpdatePodCondition (v1.36.3).
func (p EvictionPlan) Writes(n *Node, pods []*podstatus.Pod, now time.Time) ([]plan.Write, error) {
	if n == nil {
		return nil, field.New("node", "", field.ErrRequired)
	}
	byName := make(map[string]*podstatus.Pod, len(pods))
	for _, q := range pods {
		if q != nil && q.Spec.NodeName == n.Name {
			byName[q.Name] = q
		}
	}
	out := make([]plan.Write, 0, 2*len(p.Delete))
	for i, d := range p.Delete {
		pod := byName[d.Name]
		if pod == nil {
			return nil, field.New(field.Index("delete", i)+".name", d.Name, field.ErrInvalid)
		}
		c := podstatus.Condition{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue,
			Reason: podstatus.ReasonDeletionByTaintManager, Message: TaintEvictionMessage, LastTransitionTime: now,
			ObservedGeneration: pod.Generation}
		obj := deepcopy.Copy(pod)
		changed := true
		replaced := false
		for j := range obj.Status.Conditions {
			old := obj.Status.Conditions[j]
			if old.Type != c.Type {
				continue
			}
			if old.Status == c.Status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			changed = old.Status != c.Status || old.Reason != c.Reason || old.Message != c.Message ||
				!old.LastProbeTime.IsZero() || !old.LastTransitionTime.Equal(c.LastTransitionTime)
			obj.Status.Conditions[j] = c
			replaced = true
			break
		}
		if !replaced {
			obj.Status.Conditions = append(obj.Status.Conditions, c)
		}
		if changed {
			out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Subresource: "status",
				Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: obj, Reason: d.Reason})
		}
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, Reason: d.Reason})
	}
	return out, nil
}
