package podgc

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Writes returns the API requests of the pass, in the order the collector
// sends them, given the pods [Step] read: for each deleted pod, in
// [Plan].Delete's order, first its status patch when the Plan has one
// (patch of pods/status carrying the pod's uid as a precondition; the
// object is the pod with phase Failed and, for an orphan, its
// DisruptionTarget condition in place of the old one or appended), then the
// force delete (grace period 0, no preconditions). A deletion or patch
// naming no pod of pods, or a patch of a pod the Plan does not delete, is a
// *field.Error (invalid value) at delete[i].name or patch[i].name.
//
// Source: upstream pkg/controller/podgc/gc_controller.go
// markFailedAndDeletePodWithCondition, pkg/util/pod PatchPodStatus
// (v1.36.3).
func (p Plan) Writes(pods []*podstatus.Pod) ([]plan.Write, error) {
	type key struct{ ns, name string }
	byKey := make(map[key]*podstatus.Pod, len(pods))
	for _, q := range pods {
		if q != nil {
			byKey[key{q.Namespace, q.Name}] = q
		}
	}
	patches := make(map[key]PodPatch, len(p.Patch))
	for i, pa := range p.Patch {
		k := key{pa.Namespace, pa.Name}
		if byKey[k] == nil {
			return nil, field.New(field.Index("patch", i)+".name", pa.Name, field.ErrInvalid)
		}
		patches[k] = pa
	}
	out := make([]plan.Write, 0, len(p.Patch)+len(p.Delete))
	for i, d := range p.Delete {
		k := key{d.Namespace, d.Name}
		pod := byKey[k]
		if pod == nil {
			return nil, field.New(field.Index("delete", i)+".name", d.Name, field.ErrInvalid)
		}
		if pa, ok := patches[k]; ok {
			obj := deepcopy.Copy(pod)
			obj.Status.Phase = pa.Phase
			obj.Status.ObservedGeneration = pod.Generation // (CalculatePodStatusObservedGeneration, gate locked on)
			if pa.Condition != nil {
				replaced := false
				for j := range obj.Status.Conditions {
					if obj.Status.Conditions[j].Type == pa.Condition.Type {
						obj.Status.Conditions[j] = *pa.Condition
						replaced = true
						break
					}
				}
				if !replaced {
					obj.Status.Conditions = append(obj.Status.Conditions, *pa.Condition)
				}
			}
			out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Subresource: "status",
				Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: obj, Reason: d.Reason})
			delete(patches, k)
		}
		zero := int64(0)
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name,
			GracePeriodSeconds: &zero, Reason: d.Reason})
	}
	for i, pa := range p.Patch {
		if _, left := patches[key{pa.Namespace, pa.Name}]; left {
			return nil, field.New(field.Index("patch", i)+".name", pa.Name, field.ErrInvalid)
		}
	}
	return out, nil
}
