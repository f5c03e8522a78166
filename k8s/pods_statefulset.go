package k8s

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/statefulset"
)

// RevisionTemplate returns the pod template a StatefulSet's
// ControllerRevision holds: the spec.template of its data, decoded as
// restoring the revision decodes it (integers that the revision stored
// rounded stay rounded; one rounded past MaxInt64 is an error, as it is
// upstream).
//
// Source: upstream pkg/controller/statefulset ApplyRevision (v1.36.3).
func RevisionTemplate(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	var stored struct {
		Spec struct {
			Template corev1.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(rev.Data.Raw, &stored); err != nil {
		return nil, fmt.Errorf("k8s: restoring ControllerRevision %s: %w", rev.Name, err)
	}
	return &stored.Spec.Template, nil
}

// StatefulSetPod returns the pod v1.36.3's StatefulSet controller creates
// for ordinal from revision rev (one of set's ControllerRevisions, or
// [NewStatefulSetRevision] for a revision the same sync creates): rev's
// template as a pod (its labels, annotations, finalizers and spec),
// generateName "<set>-", controlled by set; named "<set>-<ordinal>" in
// set's namespace with the pod-name and pod-index labels, hostname the pod
// name and subdomain spec.serviceName; one persistentVolumeClaim volume
// per claim template (claim "<template>-<set>-<ordinal>", replacing a
// template volume of that name), then the template's other volumes; and
// controller-revision-hash set to rev's name. Upstream builds the claim
// volumes from a Go map, so their order varies from sync to sync; here
// they follow spec.volumeClaimTemplates.
//
// Source: upstream pkg/controller/statefulset newVersionedStatefulSetPod,
// newStatefulSetPod, initIdentity, updateStorage, setPodRevision;
// controller.GetPodFromTemplate (v1.36.3).
func StatefulSetPod(set *appsv1.StatefulSet, rev *appsv1.ControllerRevision, ordinal int32) (*corev1.Pod, error) {
	tmpl, err := RevisionTemplate(rev)
	if err != nil {
		return nil, err
	}
	pod := newTemplatePod(tmpl, set.Namespace, set.Name, *metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet")))
	setIdentity(set, pod, ordinal)
	pod.Spec.Hostname, pod.Spec.Subdomain = pod.Name, set.Spec.ServiceName
	// updateStorage reads the ordinal back from the name: the pod of
	// ordinal -1 ("<set>--1", created for an ordinal past int32) gets the
	// claims of ordinal 1.
	setClaimVolumes(set, pod, statefulset.ParseOrdinal(pod.Name))
	pod.Labels[appsv1.StatefulSetRevisionLabel] = rev.Name
	return pod, nil
}

// StatefulSetPods returns the pods p, a Plan of statefulset.Step on set,
// creates, complete ([StatefulSetPod]): each from the revision it names,
// found among revisions or created by p's revision writes.
func StatefulSetPods(set *appsv1.StatefulSet, revisions []*appsv1.ControllerRevision, p statefulset.Plan) ([]*corev1.Pod, error) {
	byName := make(map[string]*appsv1.ControllerRevision, len(revisions))
	for _, r := range revisions {
		if r != nil {
			byName[r.Name] = r
		}
	}
	out := make([]*corev1.Pod, 0, len(p.Create.Objects))
	for _, np := range p.Create.Objects {
		rev, ok := byName[np.Revision]
		if !ok {
			for _, w := range p.Revisions {
				if w.Verb == plan.VerbCreate && w.Name == np.Revision {
					r, err := NewStatefulSetRevision(set, w.Revision)
					if err != nil {
						return nil, err
					}
					if r.Name != np.Revision {
						return nil, fmt.Errorf("k8s: the plan creates revision %s, the set's template is revision %s", np.Revision, r.Name)
					}
					rev, ok = r, true
					byName[r.Name] = r
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("k8s: pod %s is of revision %s, which is neither given nor created by the plan", np.Name, np.Revision)
		}
		pod, err := StatefulSetPod(set, rev, np.Ordinal)
		if err != nil {
			return nil, err
		}
		out = append(out, pod)
	}
	return out, nil
}
