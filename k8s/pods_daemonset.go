package k8s

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/daemonset"
)

// DaemonSetPod returns the pod v1.36.3's DaemonSet controller creates on
// nodeName for ds's current template with revision hash hash: the whole
// template with the default daemon tolerations ([daemonset.PodTolerations]:
// each replaces the template's tolerations equal to it in key, operator,
// value and effect, or is appended), the pod-template-generation label when
// ds has the deprecated.daemonset.template.generation annotation, the
// controller-revision-hash label when hash is not empty, the required node
// affinity replaced by one term matching metadata.name to nodeName (other
// affinity kept); generateName "<ds>-", controlled by ds, in ds's
// namespace. A generation annotation that is not an integer is an error,
// as it fails the sync upstream.
//
// Source: upstream pkg/controller/daemon syncNodes; daemon/util
// CreatePodTemplate, AddOrUpdateDaemonPodTolerations,
// ReplaceDaemonSetPodNodeNameNodeAffinity, GetTemplateGeneration;
// controller.GetPodFromTemplate (v1.36.3).
func DaemonSetPod(ds *appsv1.DaemonSet, nodeName, hash string) (*corev1.Pod, error) {
	tmpl := ds.Spec.Template.DeepCopy()
	tols, err := daemonTolerations(&tmpl.Spec)
	if err != nil {
		return nil, err
	}
	tmpl.Spec.Tolerations = tols
	if tmpl.Labels == nil {
		tmpl.Labels = map[string]string{}
	}
	if g, ok := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("k8s: DaemonSet %s: annotation %s: %w", ds.Name, appsv1.DeprecatedTemplateGeneration, err)
		}
		tmpl.Labels[daemonset.LabelTemplateGeneration] = strconv.FormatInt(n, 10)
	}
	if hash != "" {
		tmpl.Labels[appsv1.DefaultDaemonSetUniqueLabelKey] = hash
	}
	tmpl.Spec.Affinity = pinToNode(tmpl.Spec.Affinity, nodeName)

	pod := newTemplatePod(tmpl, ds.Namespace, ds.Name, *metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("DaemonSet")))
	return pod, nil
}

// pinToNode replaces a's required node affinity with the single term
// metadata.name In [nodeName], keeping everything else of a (a is a copy).
func pinToNode(a *corev1.Affinity, nodeName string) *corev1.Affinity {
	sel := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{
		{Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{nodeName}}}}}}
	switch {
	case a == nil:
		return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}}
	case a.NodeAffinity == nil:
		a.NodeAffinity = &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}
	case a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil:
		a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = sel
	default:
		a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = sel.NodeSelectorTerms
	}
	return a
}

// DaemonSetPods returns the pods p, a Plan of daemonset.Step on ds with
// current hash hash (daemonset.History.Hash), creates, complete
// ([DaemonSetPod]), in the Plan's order.
func DaemonSetPods(ds *appsv1.DaemonSet, hash string, p daemonset.Plan) ([]*corev1.Pod, error) {
	out := make([]*corev1.Pod, 0, len(p.Create.Objects))
	for _, c := range p.Create.Objects {
		pod, err := DaemonSetPod(ds, c.Node, hash)
		if err != nil {
			return nil, err
		}
		out = append(out, pod)
	}
	return out, nil
}
