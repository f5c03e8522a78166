package statefulset

import (
	"encoding/json"
	"fmt"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
)

// ClaimTemplates is spec.volumeClaimTemplates reduced to the templates'
// names, the only part of a claim template the controller's decisions read
// (claims are named <template>-<set>-<ordinal>).
type ClaimTemplates []string

// UnmarshalJSON accepts each template as a name (kubesem's vectors) or as
// the PersistentVolumeClaim object the API server returns, of which it
// keeps metadata.name; every other field of the object is ignored. An
// error's path is relative to the list ("[2]"; "" for the list itself).
func (c *ClaimTemplates) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := apijson.Unmarshal(b, &raw); err != nil {
		if fe, ok := err.(*field.Error); ok && field.Kind(fe) == "Duplicate" {
			return err
		}
		return field.New("", apijson.Clip(string(b)), fmt.Errorf("want a list of names or PersistentVolumeClaims: %w", field.ErrInvalid))
	}
	if raw == nil {
		*c = nil
		return nil
	}
	out := make(ClaimTemplates, len(raw))
	for i, r := range raw {
		if apijson.Unmarshal(r, &out[i]) == nil {
			continue
		}
		var obj struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := apijson.Unmarshal(r, &obj); err != nil || obj.Metadata.Name == "" {
			return field.New(field.Index("", i), apijson.Clip(string(r)), fmt.Errorf("want a name or a PersistentVolumeClaim with metadata.name: %w", field.ErrInvalid))
		}
		out[i] = obj.Metadata.Name
	}
	*c = out
	return nil
}
