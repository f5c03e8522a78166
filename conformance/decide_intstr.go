package conformance

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// intstrDecisions returns the intstr decisions the vectors in testdata/intstr name.
func intstrDecisions() map[string]decider {
	return map[string]decider{
		// input {"value": 5 | "25%", "total": 10, "roundUp": true} → {"value": 3}
		"intstr.Scaled": rule(func(in struct {
			Value   intstr.Value `json:"value"`
			Total   int32        `json:"total"`
			RoundUp bool         `json:"roundUp"`
		}, _ struct{}) (any, error) {
			n, err := intstr.Scaled(in.Value, in.Total, intstr.Rounding(in.RoundUp))
			if err != nil {
				return nil, field.At(err, "value")
			}
			return map[string]int32{"value": n}, nil
		}),
	}
}
