package conformance

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

type intstrScaledIn struct {
	Value   intstr.Value `json:"value"`
	Total   int32        `json:"total"`
	RoundUp bool         `json:"roundUp,omitempty"` // absent: round down
}

type intstrScaledOut struct {
	// Value is what upstream's callers use: int32(Untruncated).
	Value int32 `json:"value"`
	// Untruncated is GetScaledValueFromIntOrPercent's int result.
	Untruncated int64 `json:"untruncated"`
}

// intstrDecisions returns the intstr decisions the vectors in testdata/intstr name.
func intstrDecisions() []Decision {
	return []Decision{
		Bind("intstr.Scaled", func(in intstrScaledIn, _ struct{}) (intstrScaledOut, error) {
			n, err := intstr.ScaledInt(in.Value, in.Total, intstr.Rounding(in.RoundUp))
			return intstrScaledOut{Value: int32(n), Untruncated: n}, field.At(err, "value")
		}),
	}
}
