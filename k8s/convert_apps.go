package k8s

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/statefulset"
)

// FromStatefulSet converts set, with Spec.VolumeClaimTemplates reduced to
// the templates' names and Spec.TemplateRevision set to
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
	c := *set
	c.Spec.VolumeClaimTemplates = nil
	out, err := convert[statefulset.StatefulSet]("StatefulSet", &c)
	if err != nil {
		return nil, err
	}
	for i := range set.Spec.VolumeClaimTemplates {
		out.Spec.VolumeClaimTemplates = append(out.Spec.VolumeClaimTemplates, set.Spec.VolumeClaimTemplates[i].Name)
	}
	if out.Spec.TemplateRevision, err = StatefulSetUpdateRevision(set, revisions); err != nil {
		return nil, err
	}
	return out, nil
}

// ToStatefulSet converts set back to the API type: the fields kubesem
// models, each volume claim template as a claim with only its name (the
// model keeps names only), no pod template or selector (the model has
// none; TemplateRevision, not an API field, is dropped).
func ToStatefulSet(set *statefulset.StatefulSet) (*appsv1.StatefulSet, error) {
	if set == nil {
		return nil, nil
	}
	c := *set
	c.Spec.VolumeClaimTemplates = nil
	out, err := convert[appsv1.StatefulSet]("StatefulSet", &c)
	if err != nil {
		return nil, err
	}
	for _, n := range set.Spec.VolumeClaimTemplates {
		pvc := corev1.PersistentVolumeClaim{}
		pvc.Name = n
		out.Spec.VolumeClaimTemplates = append(out.Spec.VolumeClaimTemplates, pvc)
	}
	out.APIVersion, out.Kind = "apps/v1", "StatefulSet"
	return out, nil
}

// FromPersistentVolumeClaim converts a claim: name, UID, deletion time and
// owner references.
func FromPersistentVolumeClaim(c *corev1.PersistentVolumeClaim) (*statefulset.Claim, error) {
	if c == nil {
		return nil, nil
	}
	m, err := convert[struct {
		Metadata statefulset.Claim `json:"metadata"`
	}]("PersistentVolumeClaim", c)
	if err != nil {
		return nil, err
	}
	return &m.Metadata, nil
}

// FromPersistentVolumeClaims converts every claim of a list.
func FromPersistentVolumeClaims(claims []*corev1.PersistentVolumeClaim) ([]*statefulset.Claim, error) {
	return convertAll("claims", claims, FromPersistentVolumeClaim)
}

// ToPersistentVolumeClaim converts c back to the API type (metadata only;
// namespace is left empty, the model has none).
func ToPersistentVolumeClaim(c *statefulset.Claim) (*corev1.PersistentVolumeClaim, error) {
	if c == nil {
		return nil, nil
	}
	out, err := convert[corev1.PersistentVolumeClaim]("PersistentVolumeClaim", struct {
		Metadata *statefulset.Claim `json:"metadata"`
	}{c})
	if err != nil {
		return nil, err
	}
	out.APIVersion, out.Kind = "v1", "PersistentVolumeClaim"
	return out, nil
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
