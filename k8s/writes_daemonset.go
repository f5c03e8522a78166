package k8s

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
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

// ToDaemonSetWrites turns p, the Plan of daemonset.Step on ds with the
// current template's hash, into API objects to write. Inputs are not
// modified.
//
// Source: upstream pkg/controller/daemon syncNodes, util.CreatePodTemplate,
// util.ReplaceDaemonSetPodNodeNameNodeAffinity, and pkg/controller
// GetPodFromTemplate (v1.36.3).
func ToDaemonSetWrites(ds *appsv1.DaemonSet, hash string, p daemonset.Plan) (DaemonSetWrites, error) {
	var w DaemonSetWrites
	if ds == nil {
		return w, fmt.Errorf("k8s: ToDaemonSetWrites: no DaemonSet")
	}
	pods, err := DaemonSetPods(ds, hash, p)
	if err != nil {
		return w, err
	}
	w.CreatePods = pods
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

// daemonTolerations applies daemonset.PodTolerations to spec's
// tolerations (converted to and from kubesem's model, which holds every
// field of a toleration).
func daemonTolerations(spec *corev1.PodSpec) ([]corev1.Toleration, error) {
	in, err := convert[[]node.Toleration]("tolerations", spec.Tolerations)
	if err != nil {
		return nil, err
	}
	var ps podstatus.Spec
	ps.Tolerations, ps.HostNetwork = *in, spec.HostNetwork
	out := daemonset.PodTolerations(&ps)
	res, err := convert[[]corev1.Toleration]("tolerations", out)
	if err != nil {
		return nil, err
	}
	return *res, nil
}
