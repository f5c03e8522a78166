package k8s

import (
	"fmt"
	"maps"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/statefulset"
)

// StatefulSetWrites are the revision, claim and pod writes of one
// StatefulSet sync as complete API objects, in the controller's order
// within each list.
type StatefulSetWrites struct {
	// CreateRevisions are the ControllerRevisions created for the set's
	// template ([NewStatefulSetRevision]); UpdateRevisions are copies of
	// existing ones renumbered (a rollback); DeleteRevisions names those
	// the history limit removes.
	CreateRevisions []*appsv1.ControllerRevision
	UpdateRevisions []*appsv1.ControllerRevision
	DeleteRevisions []string
	// CreateClaims are the PersistentVolumeClaims made from the set's
	// volumeClaimTemplates before their pods, with the owner references
	// the retention policy gives them.
	CreateClaims []*corev1.PersistentVolumeClaim
	// UpdateClaims are copies of existing claims with their new owner
	// references.
	UpdateClaims []*corev1.PersistentVolumeClaim
	// CreatePods are the new pods, complete: the template of the pod's
	// revision, its identity (name, hostname, subdomain, the pod-name and
	// pod-index labels), the controller-revision-hash label, the claim
	// volumes and the controller reference.
	CreatePods []*corev1.Pod
	// UpdatePods are copies of existing pods with their identity and claim
	// volumes restored.
	UpdatePods []*corev1.Pod
	// DeletePods names the pods to delete.
	DeletePods []string
	// Status is the status to write, or nil when the controller writes none.
	Status *appsv1.StatefulSetStatus
}

// ToStatefulSetWrites turns p, the Plan of statefulset.Step on set, into
// API objects to write. Pods are built by [StatefulSetPods] from the
// template of their revision (among revisions, or the one the plan
// creates); revisions, pods and claims are the existing objects the plan
// renumbers or updates. Inputs are not modified.
//
// Source: upstream pkg/controller/statefulset newVersionedStatefulSetPod,
// newStatefulSetPod, initIdentity, updateIdentity, updateStorage,
// getPersistentVolumeClaims, and pkg/controller GetPodFromTemplate
// (v1.36.3).
func ToStatefulSetWrites(set *appsv1.StatefulSet, revisions []*appsv1.ControllerRevision, pods []*corev1.Pod, claims []*corev1.PersistentVolumeClaim, p statefulset.Plan) (StatefulSetWrites, error) {
	var w StatefulSetWrites
	if set == nil {
		return w, fmt.Errorf("k8s: ToStatefulSetWrites: no StatefulSet")
	}
	podByName := map[string]*corev1.Pod{}
	for _, pod := range pods {
		if pod != nil {
			podByName[pod.Name] = pod
		}
	}
	claimByName := map[string]*corev1.PersistentVolumeClaim{}
	for _, c := range claims {
		if c != nil {
			claimByName[c.Name] = c
		}
	}
	for _, cw := range p.Claims {
		refs, err := ownerRefs(cw.OwnerReferences)
		if err != nil {
			return w, err
		}
		switch cw.Verb {
		case statefulset.ClaimCreate:
			c, err := newClaim(set, cw.Name, cw.Pod)
			if err != nil {
				return w, err
			}
			c.OwnerReferences = refs
			w.CreateClaims = append(w.CreateClaims, c)
		case statefulset.ClaimUpdate:
			old, ok := claimByName[cw.Name]
			if !ok {
				return w, fmt.Errorf("k8s: the plan updates claim %q, which is not among the claims given", cw.Name)
			}
			c := old.DeepCopy()
			c.OwnerReferences = refs
			w.UpdateClaims = append(w.UpdateClaims, c)
		default:
			return w, fmt.Errorf("k8s: claim write %q: unknown verb %q", cw.Name, cw.Verb)
		}
	}
	revByName := map[string]*appsv1.ControllerRevision{}
	for _, r := range revisions {
		if r != nil {
			revByName[r.Name] = r
		}
	}
	for _, rw := range p.Revisions {
		switch rw.Verb {
		case plan.VerbCreate:
			r, err := NewStatefulSetRevision(set, rw.Revision)
			if err != nil {
				return w, err
			}
			if r.Name != rw.Name {
				return w, fmt.Errorf("k8s: the plan creates revision %s, the set's template is revision %s", rw.Name, r.Name)
			}
			w.CreateRevisions = append(w.CreateRevisions, r)
		case plan.VerbUpdate:
			old, ok := revByName[rw.Name]
			if !ok {
				return w, fmt.Errorf("k8s: the plan renumbers revision %q, which is not among the revisions given", rw.Name)
			}
			r := old.DeepCopy()
			r.Revision = rw.Revision
			w.UpdateRevisions = append(w.UpdateRevisions, r)
		case plan.VerbDelete:
			w.DeleteRevisions = append(w.DeleteRevisions, rw.Name)
		}
	}
	created, err := StatefulSetPods(set, revisions, p)
	if err != nil {
		return w, err
	}
	w.CreatePods = created
	for _, u := range p.Update {
		old, ok := podByName[u.Name]
		if !ok {
			return w, fmt.Errorf("k8s: the plan updates pod %q, which is not among the pods given", u.Name)
		}
		pod := old.DeepCopy()
		o := statefulset.ParseOrdinal(pod.Name)
		setIdentity(set, pod, o)
		setClaimVolumes(set, pod, o)
		w.UpdatePods = append(w.UpdatePods, pod)
	}
	for _, d := range p.Delete {
		w.DeletePods = append(w.DeletePods, d.Name)
	}
	if p.UpdateStatus {
		st, err := convert[appsv1.StatefulSetStatus]("StatefulSetStatus", p.Status)
		if err != nil {
			return w, err
		}
		w.Status = st
	}
	return w, nil
}

// setIdentity gives pod its name, namespace and identity labels.
func setIdentity(set *appsv1.StatefulSet, pod *corev1.Pod, ordinal int32) {
	pod.Name = statefulset.PodName(set.Name, ordinal)
	pod.Namespace = set.Namespace
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[appsv1.StatefulSetPodNameLabel] = pod.Name
	pod.Labels[appsv1.PodIndexLabel] = strconv.Itoa(int(ordinal))
}

// setClaimVolumes puts one persistentVolumeClaim volume per claim template
// first, in template order (upstream walks a map: its order varies), and
// keeps the pod's other volumes after them.
func setClaimVolumes(set *appsv1.StatefulSet, pod *corev1.Pod, ordinal int32) {
	names := map[string]bool{}
	vols := make([]corev1.Volume, 0, len(set.Spec.VolumeClaimTemplates)+len(pod.Spec.Volumes))
	for _, t := range set.Spec.VolumeClaimTemplates {
		if names[t.Name] {
			continue
		}
		names[t.Name] = true
		vols = append(vols, corev1.Volume{Name: t.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: statefulset.ClaimName(t.Name, set.Name, ordinal)}}})
	}
	for _, v := range pod.Spec.Volumes {
		if !names[v.Name] {
			vols = append(vols, v)
		}
	}
	pod.Spec.Volumes = vols
}

// newClaim builds claim name of pod from the set's claim template it is
// named after: the template with that name and namespace, the set
// selector's matchLabels added to its labels.
func newClaim(set *appsv1.StatefulSet, name, pod string) (*corev1.PersistentVolumeClaim, error) {
	for i := range set.Spec.VolumeClaimTemplates {
		t := &set.Spec.VolumeClaimTemplates[i]
		if t.Name+"-"+pod != name {
			continue
		}
		c := t.DeepCopy()
		c.Name, c.Namespace = name, set.Namespace
		if set.Spec.Selector != nil {
			if c.Labels == nil {
				c.Labels = maps.Clone(set.Spec.Selector.MatchLabels)
			} else {
				maps.Copy(c.Labels, set.Spec.Selector.MatchLabels)
			}
		}
		return c, nil
	}
	return nil, fmt.Errorf("k8s: claim %q of pod %q matches no volumeClaimTemplate", name, pod)
}

// ownerRefs converts kubesem owner references.
func ownerRefs(refs []meta.OwnerReference) ([]metav1.OwnerReference, error) {
	if refs == nil {
		return nil, nil
	}
	out, err := convert[[]metav1.OwnerReference]("ownerReferences", refs)
	if err != nil {
		return nil, err
	}
	return *out, nil
}
