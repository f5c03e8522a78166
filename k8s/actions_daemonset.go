package k8s

import (
	"fmt"
	"maps"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/node"
)

// DaemonSetWrites are the pod writes of one DaemonSet sync as complete API
// objects, in the controller's order.
type DaemonSetWrites struct {
	// CreatePods are the new daemon pods, one per creation, complete: the
	// DaemonSet's template with the default daemon tolerations, the
	// pod-template-generation and controller-revision-hash labels, the
	// node affinity pinned to the pod's node and the controller reference.
	CreatePods []*corev1.Pod
	// DeletePods names the pods to delete.
	DeletePods []string
	// Status is the status to write, or nil when the controller writes none.
	Status *appsv1.DaemonSetStatus
}

// DaemonSetActions turns p, the Plan of daemonset.Step on ds with the
// current template's hash, into API objects to write. Inputs are not
// modified.
//
// Source: upstream pkg/controller/daemon syncNodes, util.CreatePodTemplate,
// util.ReplaceDaemonSetPodNodeNameNodeAffinity, and pkg/controller
// GetPodFromTemplate (v1.36.3).
func DaemonSetActions(ds *appsv1.DaemonSet, hash string, p daemonset.Plan) (DaemonSetWrites, error) {
	var w DaemonSetWrites
	if ds == nil {
		return w, fmt.Errorf("k8s: DaemonSetActions: no DaemonSet")
	}
	for _, c := range p.Create.Objects {
		pod, err := NewDaemonPod(ds, hash, c.Node)
		if err != nil {
			return w, err
		}
		w.CreatePods = append(w.CreatePods, pod)
	}
	for _, d := range p.Delete {
		w.DeletePods = append(w.DeletePods, d.Name)
	}
	if p.UpdateStatus {
		st, err := convert[appsv1.DaemonSetStatus]("DaemonSetStatus", p.Status)
		if err != nil {
			return w, err
		}
		w.Status = st
	}
	return w, nil
}

// NewDaemonPod returns the pod the DaemonSet controller creates on
// nodeName: the template with the default daemon tolerations
// (daemonset.PodTolerations), the pod-template-generation label when the
// DaemonSet carries the deprecated.daemonset.template.generation
// annotation, the controller-revision-hash label when hash is not empty,
// the required node affinity replaced by metadata.name In [nodeName], the
// template's labels, annotations and finalizers, generateName "<ds>-", the
// DaemonSet as controller owner. An unparseable generation annotation is
// an error, as upstream's sync fails on it.
//
// Source: upstream pkg/controller/daemon syncNodes, util.CreatePodTemplate,
// util.GetTemplateGeneration, util.ReplaceDaemonSetPodNodeNameNodeAffinity;
// pkg/controller GetPodFromTemplate (v1.36.3).
func NewDaemonPod(ds *appsv1.DaemonSet, hash, nodeName string) (*corev1.Pod, error) {
	t := ds.Spec.Template.DeepCopy()
	tols, err := daemonTolerations(&t.Spec)
	if err != nil {
		return nil, err
	}
	t.Spec.Tolerations = tols
	labels := map[string]string{}
	maps.Copy(labels, t.Labels)
	if g, ok := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		gen, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("k8s: DaemonSet %s annotation %s: %q is not an integer", ds.Name, appsv1.DeprecatedTemplateGeneration, g)
		}
		labels[daemonset.LabelTemplateGeneration] = strconv.FormatInt(gen, 10)
	}
	if hash != "" {
		labels[appsv1.DefaultDaemonSetUniqueLabelKey] = hash
	}
	t.Spec.Affinity = pinAffinity(t.Spec.Affinity, nodeName)
	t.Labels = labels
	pod := newTemplatePod(t, ds.Namespace, ds.Name, *metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("DaemonSet")))
	return pod, nil
}

// daemonTolerations applies daemonset.PodTolerations to spec's
// tolerations (converted to and from kubesem's model, which holds every
// field of a toleration).
func daemonTolerations(spec *corev1.PodSpec) ([]corev1.Toleration, error) {
	in, err := convert[[]node.Toleration]("tolerations", spec.Tolerations)
	if err != nil {
		return nil, err
	}
	var ps daemonset.PodSpec
	ps.Tolerations, ps.HostNetwork = *in, spec.HostNetwork
	out := daemonset.PodTolerations(&ps)
	res, err := convert[[]corev1.Toleration]("tolerations", out)
	if err != nil {
		return nil, err
	}
	return *res, nil
}

// pinAffinity returns affinity with its required node affinity replaced by
// the one term metadata.name In [nodeName]; other parts are kept.
func pinAffinity(affinity *corev1.Affinity, nodeName string) *corev1.Affinity {
	terms := []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
		Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{nodeName}}}}}
	if affinity == nil {
		affinity = &corev1.Affinity{}
	}
	if affinity.NodeAffinity == nil {
		affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	if affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{}
	}
	affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = terms
	return affinity
}
