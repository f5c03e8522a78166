package k8s

import (
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/rollout"
)

// DeploymentWrites are the API writes one Deployment sync makes, in the
// controller's order: Create or Update the new ReplicaSet, Update the
// resized ones, Delete old ones, then UpdateStatus (and, for the revision
// annotation or a rollback, an Update of the Deployment).
type DeploymentWrites struct {
	// Create is the new ReplicaSet, complete: the Deployment's whole pod
	// template with the pod-template-hash label, its selector, owner
	// reference, annotations and size.
	Create []*appsv1.ReplicaSet
	// Update holds copies of the existing ReplicaSets with their new
	// spec.replicas, annotations and minReadySeconds, in write order (a
	// ReplicaSet written twice appears twice).
	Update []*appsv1.ReplicaSet
	// Delete names the ReplicaSets to delete.
	Delete []string
	// Deployment is a copy of the Deployment with its new annotations (and
	// a rollback's template), or nil when the sync does not write it.
	Deployment *appsv1.Deployment
	// Status is the status to write, or nil when the controller writes none.
	Status *appsv1.DeploymentStatus
}

// ToDeploymentWrites turns p, the Plan of rollout.Step on d and
// replicaSets, into API objects to write. Inputs are not modified.
func ToDeploymentWrites(d *appsv1.Deployment, replicaSets []*appsv1.ReplicaSet, p rollout.Plan) (DeploymentWrites, error) {
	var w DeploymentWrites
	byName := map[string]*appsv1.ReplicaSet{}
	for _, rs := range replicaSets {
		if rs != nil {
			byName[rs.Name] = rs
		}
	}
	for i := range p.Create.Objects {
		rs, err := ToReplicaSet(&p.Create.Objects[i])
		if err != nil {
			return w, err
		}
		rs.Namespace = d.Namespace
		// As the controller sends it: the API server stamps the creation
		// time; the controller reference blocks the owner's deletion
		// (metav1.NewControllerRef).
		rs.CreationTimestamp = metav1.Time{}
		rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}
		w.Create = append(w.Create, rs)
		byName[rs.Name] = rs
	}
	current := map[string]*appsv1.ReplicaSet{}
	get := func(name string) (*appsv1.ReplicaSet, error) {
		if rs, ok := current[name]; ok {
			return rs.DeepCopy(), nil
		}
		rs, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("k8s: the plan writes ReplicaSet %q, which is not among the ReplicaSets given", name)
		}
		return rs.DeepCopy(), nil
	}
	for _, u := range p.Update {
		rs, err := get(u.Name)
		if err != nil {
			return w, err
		}
		rs.Annotations = maps.Clone(u.Annotations)
		rs.Spec.MinReadySeconds = u.MinReadySeconds
		current[u.Name] = rs
		w.Update = append(w.Update, rs)
	}
	for _, s := range p.Scale {
		rs, err := get(s.Name)
		if err != nil {
			return w, err
		}
		n := s.Replicas
		rs.Spec.Replicas = &n
		if s.Annotations != nil {
			rs.Annotations = maps.Clone(s.Annotations)
		}
		current[s.Name] = rs
		w.Update = append(w.Update, rs)
	}
	for _, del := range p.Delete {
		w.Delete = append(w.Delete, del.Name)
	}
	if p.Annotations != nil || p.Template != nil {
		dc := d.DeepCopy()
		if p.Annotations != nil {
			dc.Annotations = maps.Clone(p.Annotations)
		}
		if p.Template != nil {
			t, err := convert[corev1.PodTemplateSpec]("PodTemplateSpec", p.Template)
			if err != nil {
				return w, err
			}
			dc.Spec.Template = *t
		}
		w.Deployment = dc
	}
	if p.UpdateStatus {
		st, err := convert[appsv1.DeploymentStatus]("DeploymentStatus", p.Status)
		if err != nil {
			return w, err
		}
		w.Status = st
	}
	return w, nil
}
