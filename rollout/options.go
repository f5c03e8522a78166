package rollout

import "github.com/kubesem/kubesem/podstatus"

// Options changes the semantics of the rules and the Step. Its zero value is
// Kubernetes v1.36.3 with default feature gates.
type Options struct {
	// TemplateHash, when not nil, names the new ReplicaSet: it returns the
	// pod-template-hash of a template at a collision count, as v1.36.3's
	// controller.ComputeHash does (the k8s adapter supplies that exact
	// hash; see k8s.TemplateHash). It is not a deviation but the
	// injection of a hash kubesem does not reproduce. nil (or "" returned):
	// Deployment.TemplateHash when the caller gives one, else kubesem's own
	// hash (see [ReplicaSetName]). Not encoded in vectors.
	TemplateHash func(t *podstatus.Template, collisionCount *int32) string `json:"-"`
}

// hash returns the pod-template-hash of d's template at its collision
// count: opts.TemplateHash's (unless it returns ""), else d.TemplateHash,
// else kubesem's own.
func (o Options) hash(d *Deployment) string {
	switch {
	case o.TemplateHash != nil:
		if h := o.TemplateHash(&d.Spec.Template, d.Status.CollisionCount); h != "" {
			return h
		}
	}
	switch {
	case d.TemplateHash != "":
		return d.TemplateHash
	}
	return templateHash(&d.Spec.Template, d.Status.CollisionCount)
}
