package daemonset

import "github.com/kubesem/kubesem/internal/apijson"

// UnmarshalJSON decodes a revision in kubesem's flat form ({"name",
// "revision", "hash"}) or as the API server returns a ControllerRevision:
// the name under "metadata", the hash its controller-revision-hash label
// (the name when unlabelled, as the controller's constructHistory treats
// it).
func (r *Revision) UnmarshalJSON(b []byte) error {
	type plain Revision
	var x struct {
		plain
		Metadata *struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
	}
	if err := apijson.Unmarshal(b, &x); err != nil {
		return err
	}
	if m := x.Metadata; m != nil && x.Name == "" {
		x.Name = m.Name
		if x.Hash == "" {
			x.Hash = m.Name
			if h, ok := m.Labels[LabelRevisionHash]; ok {
				x.Hash = h
			}
		}
	}
	*r = Revision(x.plain)
	return nil
}
