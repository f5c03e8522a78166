package node

import (
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
)

// UnmarshalJSON decodes a lease in kubesem's flat form ({"name",
// "renewTime"}) or as the API server returns a coordination.k8s.io/v1
// Lease (metadata.name, spec.renewTime).
func (l *Lease) UnmarshalJSON(b []byte) error {
	type plain Lease
	var x struct {
		plain
		Metadata *struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec *struct {
			RenewTime *time.Time `json:"renewTime"`
		} `json:"spec"`
	}
	if err := apijson.Unmarshal(b, &x); err != nil {
		return err
	}
	if m := x.Metadata; m != nil && x.Name == "" {
		x.Name = m.Name
		if x.Spec != nil && x.RenewTime == nil {
			x.RenewTime = x.Spec.RenewTime
		}
	}
	*l = Lease(x.plain)
	return nil
}
