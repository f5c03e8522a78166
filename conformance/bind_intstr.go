package conformance

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

type intstrScaledIn struct {
	Value   intstr.Value `json:"value"`
	Total   int32        `json:"total"`
	RoundUp bool         `json:"roundUp"`
}

type intstrScaledOut struct {
	Value int32 `json:"value"`
}

// intstrDecisions returns the intstr decisions the vectors in testdata/intstr name.
func intstrDecisions() []Decision {
	return []Decision{
		Bind("intstr.Scaled", func(in intstrScaledIn, _ struct{}) (intstrScaledOut, error) {
			n, err := intstr.Scaled(in.Value, in.Total, intstr.Rounding(in.RoundUp))
			return intstrScaledOut{n}, field.At(err, "value")
		}),
	}
}
