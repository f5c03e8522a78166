package statefulset

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// newPod builds the pod of one creation (newVersionedStatefulSetPod).
func (w *writer) newPod(np NewPod, i int) (*podstatus.Pod, error) {
	set := w.set
	t := &set.Spec.Template
	if np.Revision != set.Spec.TemplateRevision {
		r := w.revs[np.Revision]
		if r == nil || r.Data == nil {
			return nil, field.New(field.Child(field.Child(field.Index("create.objects", i), "revision"), "data"), np.Revision,
				fmt.Errorf("%w: the pod is created at revision %s, whose data (pod template) is not among the inputs", field.ErrRequired, np.Revision))
		}
		t = &r.Data.Template
	}
	pod := podstatus.FromTemplate(t, set.Namespace, podstatus.PodPrefix(set.Name), "", &w.ref)
	pod.Name = np.Name
	w.setIdentity(pod, np.Ordinal)
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	w.setStorage(pod)
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[history.HashLabel] = np.Revision
	return pod, nil
}

// setIdentity is updateIdentity for the pod whose name parses to ordinal
// o: its name "<set>-<o>", the set's namespace, the identity labels.
func (w *writer) setIdentity(pod *podstatus.Pod, o int32) {
	pod.Name = PodName(w.set.Name, o)
	pod.Namespace = w.set.Namespace
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	maps.Copy(pod.Labels, IdentityLabels(w.set.Name, o))
}

// setStorage is updateStorage: a claim volume per template, then the
// pod's volumes of other names.
func (w *writer) setStorage(pod *podstatus.Pod) {
	tmpls := w.set.Spec.VolumeClaimTemplates
	if len(tmpls) == 0 {
		return
	}
	o := ParseOrdinal(pod.Name)
	vols := make([]podstatus.Volume, 0, len(tmpls)+len(pod.Spec.Volumes))
	names := map[string]bool{}
	for _, t := range tmpls {
		if names[t.Name] {
			continue // the last template of a name wins upstream's map; their claims are alike
		}
		names[t.Name] = true
		vols = append(vols, podstatus.Volume{Name: t.Name, PersistentVolumeClaim: &podstatus.PersistentVolumeClaimVolumeSource{ClaimName: ClaimName(t.Name, w.set.Name, o)}})
	}
	for _, v := range pod.Spec.Volumes {
		if !names[v.Name] {
			vols = append(vols, v)
		}
	}
	pod.Spec.Volumes = vols
}

// updatedPod is the pod an update sends (UpdateStatefulPod).
func (w *writer) updatedPod(u PodUpdate, path string, created []keyed) (*podstatus.Pod, error) {
	o := ParseOrdinal(u.Name)
	src := w.byOrd[o]
	if slices.Contains(u.Reasons, ReasonIdentity) {
		// A pod this sync created whose name parses to o under another
		// name ("<set>--1", o 1) is the one whose identity is restored.
		for _, k := range created {
			if pod, ok := k.w.Object.(*podstatus.Pod); ok && k.w.Verb == plan.VerbCreate && pod.Name != u.Name && ParseOrdinal(pod.Name) == o {
				src = pod
			}
		}
	}
	if src == nil || len(u.Reasons) == 0 {
		return nil, noSuch(field.Child(path, "name"), u.Name, "pod")
	}
	pod := deepcopy.Copy(*src)
	for _, r := range u.Reasons {
		switch r {
		case ReasonIdentity:
			w.setIdentity(&pod, o)
		case ReasonStorage:
			w.setStorage(&pod)
		}
	}
	return &pod, nil
}

// claimWrite is the request of one claim write.
func (w *writer) claimWrite(cw ClaimWrite, path string) (plan.Write, error) {
	set := w.set
	switch cw.Verb {
	case ClaimCreate:
		var tmpl *Claim
		o := ParseOrdinal(cw.Name)
		for i := range set.Spec.VolumeClaimTemplates {
			if t := &set.Spec.VolumeClaimTemplates[i]; ClaimName(t.Name, set.Name, o) == cw.Name {
				tmpl = t
			}
		}
		if tmpl == nil {
			return plan.Write{}, noSuch(field.Child(path, "name"), cw.Name, "volume claim template")
		}
		c := deepcopy.Copy(*tmpl)
		c.Name, c.Namespace = cw.Name, set.Namespace
		c.UID = ""
		if set.Spec.Selector != nil && len(set.Spec.Selector.MatchLabels) > 0 {
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			maps.Copy(c.Labels, set.Spec.Selector.MatchLabels)
		}
		pod := Owner{Name: cw.Pod}
		if p := w.pods[cw.Pod]; p != nil && !slices.ContainsFunc(w.p.Create.Objects, func(n NewPod) bool { return n.Name == cw.Pod }) {
			pod.UID = p.UID
		}
		c.OwnerReferences = ClaimOwnerRefs(&c, set, pod)
		if len(c.OwnerReferences) == 0 {
			c.OwnerReferences = nil
		}
		return plan.Write{Verb: plan.VerbCreate, Resource: "persistentvolumeclaims", Namespace: set.Namespace, Object: &c, Reason: cw.Reason}, nil
	case ClaimUpdate:
		old := w.claims[cw.Name]
		if old == nil {
			return plan.Write{}, noSuch(field.Child(path, "name"), cw.Name, "claim")
		}
		c := deepcopy.Copy(*old)
		c.OwnerReferences = nil
		if len(cw.OwnerReferences) > 0 {
			c.OwnerReferences = deepcopy.Copy(cw.OwnerReferences)
		}
		return plan.Write{Verb: plan.VerbUpdate, Resource: "persistentvolumeclaims", Namespace: c.Namespace, Name: c.Name, UID: c.UID, Object: &c, Reason: cw.Reason}, nil
	}
	return plan.Write{}, field.New(field.Child(path, "verb"), string(cw.Verb), field.ErrUnsupported)
}
