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
	// The hashes are given a copy of the template, so that d (a sync's
	// working copy) does not move to the heap with the pointer.
	if o.TemplateHash != nil {
		t := d.Spec.Template
		if h := o.TemplateHash(&t, d.Status.CollisionCount); h != "" {
			return h
		}
	}
	if d.TemplateHash != "" {
		return d.TemplateHash
	}
	t := d.Spec.Template
	return templateHash(&t, d.Status.CollisionCount)
}
