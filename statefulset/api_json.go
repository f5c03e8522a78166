package statefulset

import (
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
)

// UnmarshalJSON decodes a claim in kubesem's flat form ({"name", "uid",
// "deletionTimestamp", "ownerReferences"}) or as the API server returns a
// PersistentVolumeClaim (those fields under "metadata"), so that a real
// claim keeps its name and owners.
func (c *Claim) UnmarshalJSON(b []byte) error {
	type plain Claim
	var x struct {
		plain
		Metadata *plain `json:"metadata"`
	}
	if err := apijson.Unmarshal(b, &x); err != nil {
		return err
	}
	if x.Metadata != nil && x.Name == "" {
		*c = Claim(*x.Metadata)
		return nil
	}
	*c = Claim(x.plain)
	return nil
}

// UnmarshalJSON decodes a revision in kubesem's flat form ({"name",
// "revision", "creationTimestamp"}) or as the API server returns a
// ControllerRevision (name and creation time under "metadata").
func (r *Revision) UnmarshalJSON(b []byte) error {
	type plain Revision
	var x struct {
		plain
		Metadata *struct {
			Name              string    `json:"name"`
			CreationTimestamp time.Time `json:"creationTimestamp"`
		} `json:"metadata"`
	}
	if err := apijson.Unmarshal(b, &x); err != nil {
		return err
	}
	if m := x.Metadata; m != nil && x.Name == "" {
		x.Name, x.CreationTimestamp = m.Name, m.CreationTimestamp
	}
	*r = Revision(x.plain)
	return nil
}
