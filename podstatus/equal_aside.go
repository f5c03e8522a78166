package podstatus

import "slices"

// EqualAsideSchedulingAndResources reports whether the specs of a and b
// (defaulted as [Equal] defaults them) are equal once set aside: the node
// selector, tolerations, node affinity and scheduling gates, and the
// resources of each container and init container that has the same name at
// the same index in both, when both have as many. The templates' metadata
// is not compared. It is what the API server still compares of a suspended
// Job's template that has not started (or carries JobSuspended) and has no
// active pods.
//
// Source: upstream pkg/apis/batch/validation/validation.go
// validatePodTemplateUpdate, validatePodResourceUpdatesOnly;
// pkg/registry/batch/job/strategy.go shouldAllowMutablePodTemplate
// (v1.36.3, gates MutableSchedulingDirectivesForSuspendedJobs and
// MutablePodResourcesForSuspendedJobs on).
func EqualAsideSchedulingAndResources(a, b *Template) bool {
	sa, sb := a.Spec, b.Spec
	for _, s := range []*Spec{&sa, &sb} {
		s.NodeSelector, s.Tolerations, s.Affinity = nil, nil, nil
	}
	if !equalSpec(&sa, &sb) {
		return false
	}
	if a.norm.Get() == nil && b.norm.Get() == nil && a.rest.Get() == nil && b.rest.Get() == nil {
		return true
	}
	ra, rb := asideSpec(a.normal(), a, b), asideSpec(b.normal(), b, a)
	return equalJSON(ra, rb)
}

// asideSpec returns the unmodelled spec of t's normal form norm with what
// EqualAsideSchedulingAndResources sets aside removed, copying what it
// changes (norm is shared); other is the template t is compared with.
func asideSpec(norm any, t, other *Template) any {
	top, _ := norm.(map[string]any)
	spec, _ := top["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	out := make(map[string]any, len(spec))
	for k, v := range spec {
		switch k {
		case "schedulingGates", "nodeSelector", "tolerations":
			continue
		case "affinity":
			if aff, ok := v.(map[string]any); ok {
				rest := map[string]any{}
				for ak, av := range aff {
					if ak != "nodeAffinity" {
						rest[ak] = av
					}
				}
				if len(rest) > 0 {
					out[k] = rest
				}
				continue
			}
		case "containers", "initContainers":
			mine, theirs := t.Spec.Containers, other.Spec.Containers
			if k == "initContainers" {
				mine, theirs = t.Spec.InitContainers, other.Spec.InitContainers
			}
			if list, ok := v.([]any); ok && len(mine) == len(theirs) && len(list) == len(mine) {
				list = withoutResources(list, mine, theirs)
				if !slices.ContainsFunc(list, func(x any) bool { return x != nil }) {
					continue // (as residual leaves a list with nothing unmodelled)
				}
				v = list
			}
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// withoutResources returns the containers' unmodelled parts list without
// the resources of the containers named alike in mine and theirs.
func withoutResources(list []any, mine, theirs []Container) []any {
	out := make([]any, len(list))
	for i, x := range list {
		c, ok := x.(map[string]any)
		if !ok || mine[i].Name != theirs[i].Name {
			out[i] = x
			continue
		}
		rest := map[string]any{}
		for ck, cv := range c {
			if ck != "resources" {
				rest[ck] = cv
			}
		}
		if len(rest) > 0 {
			out[i] = rest
		}
	}
	return out
}
