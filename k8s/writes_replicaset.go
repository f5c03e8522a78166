package k8s

import (
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/replicaset"
)

// ReplicaSetWrites are the pod writes of one ReplicaSet sync as complete
// API objects.
type ReplicaSetWrites struct {
	// CreatePods are the pods to create (identical copies, names generated
	// by the API server): the ReplicaSet's whole template with its labels,
	// annotations and finalizers, generateName "<rs>-", the ReplicaSet as
	// controller owner.
	CreatePods []*corev1.Pod
	// DeletePods names the pods to delete, in order.
	DeletePods []string
	// Status is the status to write, or nil when the controller writes none.
	Status *appsv1.ReplicaSetStatus
}

// ToReplicaSetWrites turns p, the Plan of replicaset.Step on rs, into API
// objects to write. Adoptions and releases are left to the caller (they
// are patches of the pods' owner references). Inputs are not modified.
//
// Source: upstream pkg/controller/replicaset manageReplicas and
// pkg/controller GetPodFromTemplate (v1.36.3).
func ToReplicaSetWrites(rs *appsv1.ReplicaSet, p replicaset.Plan) (ReplicaSetWrites, error) {
	var w ReplicaSetWrites
	if rs == nil {
		return w, fmt.Errorf("k8s: ToReplicaSetWrites: no ReplicaSet")
	}
	for range p.Create.Count {
		w.CreatePods = append(w.CreatePods, newTemplatePod(&rs.Spec.Template, rs.Namespace, rs.Name,
			*metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))))
	}
	for _, d := range p.Delete {
		w.DeletePods = append(w.DeletePods, d.Name)
	}
	if p.UpdateStatus {
		st, err := convert[appsv1.ReplicaSetStatus]("ReplicaSetStatus", p.Status)
		if err != nil {
			return w, err
		}
		w.Status = st
	}
	return w, nil
}

// newTemplatePod is a controller's pod from tmpl (as GetPodFromTemplate
// makes it): copies of the labels, annotations and finalizers (never nil),
// [generateName], the controller reference, the spec, in namespace.
func newTemplatePod(tmpl *corev1.PodTemplateSpec, namespace, owner string, ref metav1.OwnerReference) *corev1.Pod {
	t := tmpl.DeepCopy()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       namespace,
			GenerateName:    generateName(owner),
			Labels:          map[string]string{},
			Annotations:     map[string]string{},
			Finalizers:      make([]string, len(t.Finalizers)),
			OwnerReferences: []metav1.OwnerReference{ref},
		},
		Spec: t.Spec,
	}
	pod.APIVersion, pod.Kind = "v1", "Pod"
	maps.Copy(pod.Labels, t.Labels)
	maps.Copy(pod.Annotations, t.Annotations)
	copy(pod.Finalizers, t.Finalizers)
	return pod
}

// generateName is the prefix a controller puts on the pods it makes:
// "<owner>-", or the owner's name alone when that is not a valid prefix.
//
// Source: upstream pkg/controller getPodsPrefix (v1.36.3).
func generateName(owner string) string {
	if len(apivalidation.NameIsDNSSubdomain(owner+"-", true)) != 0 {
		return owner
	}
	return owner + "-"
}
