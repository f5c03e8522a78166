package podstatus

import (
	"maps"
	"slices"

	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/internal/names"
	"github.com/kubesem/kubesem/meta"
)

// PodPrefix returns the generateName of the pods a controller named
// controllerName creates: the name and a dash, or the bare name when the
// dash would make it an invalid pod-name prefix (a name of 253 characters).
//
// Source: getPodsPrefix, pkg/controller/controller_utils.go (v1.36.3).
func PodPrefix(controllerName string) string {
	prefix := controllerName + "-"
	// A prefix is checked with its trailing dash read as a letter, as the
	// API server does for generateName.
	if !names.DNS1123Subdomain(controllerName + "a") {
		return controllerName
	}
	return prefix
}

// FromTemplate returns the pod a controller creates from template t in
// namespace ns, owned by owner (nil: no owner reference) and named by the
// API server from generateName: labels, annotations and finalizers copied
// from the template's metadata, the template's spec, and spec.nodeName set
// when nodeName is not "" (the DaemonSet controller's pods are not, since
// it schedules through node affinity). Nothing of t is shared with the
// result.
//
// Source: GetPodFromTemplate and RealPodControl.createPods,
// pkg/controller/controller_utils.go (v1.36.3).
func FromTemplate(t *Template, ns, generateName, nodeName string, owner *meta.OwnerReference) *Pod {
	p := &Pod{}
	p.Namespace = ns
	p.GenerateName = generateName
	p.Labels = maps.Clone(t.Labels)
	p.Annotations = maps.Clone(t.Annotations)
	p.Finalizers = slices.Clone(t.Finalizers)
	if owner != nil {
		p.OwnerReferences = []meta.OwnerReference{deepcopy.Copy(*owner)}
	}
	p.Spec = deepcopy.Copy(t.Spec)
	if nodeName != "" {
		p.Spec.NodeName = nodeName
	}
	return p
}
