package k8s

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/statefulset"
)

// FromStatefulSet converts set, with Spec.TemplateRevision set to
// [StatefulSetRevisionName], the revision v1.36.3 builds for set's
// template. When set already has ControllerRevisions, use
// [FromStatefulSetWithRevisions], which picks the existing revision that
// holds the same template.
func FromStatefulSet(set *appsv1.StatefulSet) (*statefulset.StatefulSet, error) {
	return FromStatefulSetWithRevisions(set, nil)
}

// FromStatefulSetWithRevisions is [FromStatefulSet] with
// Spec.TemplateRevision set to [StatefulSetUpdateRevision] of set and its
// revisions.
func FromStatefulSetWithRevisions(set *appsv1.StatefulSet, revisions []*appsv1.ControllerRevision) (*statefulset.StatefulSet, error) {
	if set == nil {
		return nil, nil
	}
	out, err := convert[statefulset.StatefulSet]("StatefulSet", set)
	if err != nil {
		return nil, err
	}
	if out.Spec.TemplateRevision, err = StatefulSetUpdateRevision(set, revisions); err != nil {
		return nil, err
	}
	return out, nil
}

// ToStatefulSet converts set back to the API type: the fields kubesem
// models (the selector and the pod template included), each volume claim
// template as a claim with only its metadata (the model keeps no claim
// spec); TemplateRevision, not an API field, is dropped.
func ToStatefulSet(set *statefulset.StatefulSet) (*appsv1.StatefulSet, error) {
	return toAPI[appsv1.StatefulSet]("apps/v1", "StatefulSet", set)
}

// FromPersistentVolumeClaim converts a claim: its metadata (name, UID,
// deletion time, owner references …).
func FromPersistentVolumeClaim(c *corev1.PersistentVolumeClaim) (*statefulset.Claim, error) {
	if c == nil {
		return nil, nil
	}
	return convert[statefulset.Claim]("PersistentVolumeClaim", c)
}

// FromPersistentVolumeClaims converts every claim of a list.
func FromPersistentVolumeClaims(claims []*corev1.PersistentVolumeClaim) ([]*statefulset.Claim, error) {
	return convertAll("claims", claims, FromPersistentVolumeClaim)
}

// ToPersistentVolumeClaim converts c back to the API type (metadata only).
func ToPersistentVolumeClaim(c *statefulset.Claim) (*corev1.PersistentVolumeClaim, error) {
	return toAPI[corev1.PersistentVolumeClaim]("v1", "PersistentVolumeClaim", c)
}

// FromDaemonSet converts ds: metadata, selector, the pod template's
// modelled fields (labels, node selector, tolerations, node affinity, host
// network, containers' names and images …), update strategy and status.
// The hash of ds's template comes with its revisions: [DaemonSetHistory].
func FromDaemonSet(ds *appsv1.DaemonSet) (*daemonset.DaemonSet, error) {
	if ds == nil {
		return nil, nil
	}
	return convert[daemonset.DaemonSet]("DaemonSet", ds)
}

// ToDaemonSet converts ds back to the API type (the fields kubesem models,
// and what else the template held when it was decoded, see
// podstatus.Template).
func ToDaemonSet(ds *daemonset.DaemonSet) (*appsv1.DaemonSet, error) {
	return toAPI[appsv1.DaemonSet]("apps/v1", "DaemonSet", ds)
}

// FromStatefulSetStatus converts a StatefulSet status, such as the one the
// controller writes (conditions are not modelled).
func FromStatefulSetStatus(st *appsv1.StatefulSetStatus) (statefulset.Status, error) {
	if st == nil {
		return statefulset.Status{}, nil
	}
	out, err := convert[statefulset.Status]("StatefulSetStatus", st)
	if err != nil {
		return statefulset.Status{}, err
	}
	return *out, nil
}
