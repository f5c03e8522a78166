package pdb

import (
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
)

// UnmarshalJSON decodes a controller in kubesem's flat form ({"apiVersion",
// "kind", "name", "uid", "owner", "replicas"}) or as the API server returns
// the object (a Deployment, ReplicaSet, StatefulSet…): name and UID from
// metadata, the owner from its controller reference, replicas from
// spec.replicas.
func (c *Controller) UnmarshalJSON(b []byte) error {
	type plain Controller
	var x struct {
		plain
		Metadata *struct {
			Name            string                `json:"name"`
			UID             string                `json:"uid"`
			OwnerReferences []meta.OwnerReference `json:"ownerReferences"`
		} `json:"metadata"`
		Spec *struct {
			Replicas *int32 `json:"replicas"`
		} `json:"spec"`
	}
	if err := apijson.Unmarshal(b, &x); err != nil {
		return err
	}
	if m := x.Metadata; m != nil && x.Name == "" {
		x.Name, x.UID = m.Name, m.UID
		for i := range m.OwnerReferences {
			if r := m.OwnerReferences[i]; r.Controller != nil && *r.Controller && x.Owner == nil {
				x.Owner = &r
			}
		}
		if x.Spec != nil && x.Replicas == nil {
			x.Replicas = x.Spec.Replicas
		}
	}
	*c = Controller(x.plain)
	return nil
}
