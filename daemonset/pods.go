package daemonset

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TemplateGeneration returns the template generation of the deprecated
// annotation deprecated.daemonset.template.generation; ok is false when it
// is absent or not a base-10 int64 (upstream then ignores it).
//
// Source: upstream pkg/controller/daemon/util GetTemplateGeneration (v1.36.3).
func TemplateGeneration(ds *DaemonSet) (gen int64, ok bool) {
	s, found := ds.Annotations[AnnotationTemplateGeneration]
	if !found {
		return 0, false
	}
	g, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return g, true
}

// IsPodUpdated reports whether pod belongs to the current template of ds:
// a non-empty hash (the current template's controller-revision-hash)
// equals the pod's controller-revision-hash label, or ds has a template
// generation ([TemplateGeneration]) equal to the pod's
// pod-template-generation label. A nil pod is not updated; a nil ds has no
// template generation.
//
// Source: upstream pkg/controller/daemon/util IsPodUpdated (v1.36.3);
// TestIsPodUpdated.
func IsPodUpdated(pod *podstatus.Pod, hash string, ds *DaemonSet) bool {
	if pod == nil {
		return false
	}
	var gen int64
	hasGen := false
	if ds != nil {
		gen, hasGen = TemplateGeneration(ds)
	}
	return isUpdated(pod.Labels, hash, gen, hasGen)
}

// isUpdated is IsPodUpdated on a pod's labels, with the DaemonSet's
// template generation read once by the caller (hasGen false when it has
// none).
func isUpdated(labels map[string]string, hash string, gen int64, hasGen bool) bool {
	if hash != "" && labels[history.HashLabel] == hash {
		return true
	}
	if !hasGen {
		return false
	}
	return labels[LabelTemplateGeneration] == strconv.FormatInt(gen, 10)
}

// TargetNodeName returns the node a daemon pod is for: spec.nodeName, or
// for an unscheduled pod the single value of the first matchFields
// metadata.name In expression of its required node affinity, searched
// term by term. It is a *field.Error when there is none or when that
// expression has other than one value.
//
// Source: upstream pkg/controller/daemon/util GetTargetNodeName (v1.36.3);
// TestGetTargetNodeName.
func TargetNodeName(spec *podstatus.Spec) (string, error) {
	if spec.NodeName != "" {
		return spec.NodeName, nil
	}
	const path = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
	req := spec.Affinity.Required()
	if req == nil {
		return "", field.New(path, "", field.ErrRequired)
	}
	if len(req.NodeSelectorTerms) == 0 {
		return "", field.New(path+".nodeSelectorTerms", "", field.ErrRequired)
	}
	for i := range req.NodeSelectorTerms {
		for j, e := range req.NodeSelectorTerms[i].MatchFields {
			if e.Key == node.FieldNodeName && e.Operator == node.SelectorIn {
				if len(e.Values) != 1 {
					p := field.Index(field.Index(path+".nodeSelectorTerms", i)+".matchFields", j) + ".values"
					return "", field.New(p, strconv.Itoa(len(e.Values)), field.ErrInvalid)
				}
				return e.Values[0], nil
			}
		}
	}
	return "", field.New(path+".nodeSelectorTerms", "", field.ErrRequired)
}

// PinToNode returns the affinity a new daemon pod gets: affinity (copied,
// never modified) with its required node affinity replaced by one term
// matching metadata.name In [nodeName]; other affinity parts are kept.
//
// Source: upstream pkg/controller/daemon/util
// ReplaceDaemonSetPodNodeNameNodeAffinity (v1.36.3);
// TestReplaceDaemonSetPodNodeNameNodeAffinity; seed 000:L2718.
func PinToNode(affinity *node.Affinity, nodeName string) *node.Affinity {
	sel := &node.NodeSelector{NodeSelectorTerms: []node.NodeSelectorTerm{{
		MatchFields: []node.NodeSelectorRequirement{{Key: node.FieldNodeName, Operator: node.SelectorIn, Values: []string{nodeName}}},
	}}}
	out := &node.Affinity{}
	if affinity != nil {
		*out = *affinity
	}
	na := &node.NodeAffinity{}
	if out.NodeAffinity != nil {
		*na = *out.NodeAffinity
	}
	na.RequiredDuringSchedulingIgnoredDuringExecution = sel
	out.NodeAffinity = na
	return out
}

// NewPod returns the pod template the controller creates on nodeName: the
// DaemonSet's template with the default tolerations ([PodTolerations]),
// the pod-template-generation label when the DaemonSet has a template
// generation, the controller-revision-hash label when hash is not empty,
// and the node affinity pinned to nodeName ([PinToNode]).
//
// Source: upstream pkg/controller/daemon/util CreatePodTemplate and
// syncNodes (v1.36.3); TestCreatePodTemplate.
func NewPod(ds *DaemonSet, nodeName, hash string) podstatus.Template {
	t := ds.Spec.Template
	t.Labels = make(map[string]string, len(ds.Spec.Template.Labels)+2)
	for k, v := range ds.Spec.Template.Labels {
		t.Labels[k] = v
	}
	if g, ok := TemplateGeneration(ds); ok {
		t.Labels[LabelTemplateGeneration] = strconv.FormatInt(g, 10)
	}
	if hash != "" {
		t.Labels[history.HashLabel] = hash
	}
	t.Spec.Tolerations = PodTolerations(&ds.Spec.Template.Spec)
	t.Spec.Affinity = PinToNode(ds.Spec.Template.Spec.Affinity, nodeName)
	return t
}

// olderPod orders daemon pods the way the controller picks the one to
// keep: scheduled (nodeName set) first, then earlier creationTimestamp,
// then name.
//
// Source: upstream pkg/controller/daemon podByCreationTimestampAndPhase
// (v1.36.3).
func olderPod(a, b *podstatus.Pod) bool {
	as, bs := a.Spec.NodeName != "", b.Spec.NodeName != ""
	if as != bs {
		return as
	}
	if a.CreationTimestamp.Equal(b.CreationTimestamp) {
		return a.Name < b.Name
	}
	return a.CreationTimestamp.Before(b.CreationTimestamp)
}

func isReady(p *podstatus.Pod) bool {
	return podstatus.IsReady(p)
}

func isAvailable(p *podstatus.Pod, minReady int32, now time.Time) bool {
	return podstatus.IsAvailable(p, minReady, now)
}

func del(p *podstatus.Pod, r Reason) plan.Deletion {
	return plan.Deletion{Name: p.Name, UID: p.UID, Reason: r}
}
