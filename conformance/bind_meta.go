package conformance

import "github.com/kubesem/kubesem/meta"

type (
	conditionTypeIn struct {
		Conditions meta.Conditions    `json:"conditions"`
		Type       meta.ConditionType `json:"type"`
	}
	findConditionOut struct {
		Found     bool            `json:"found"`
		Condition *meta.Condition `json:"condition,omitempty"`
	}
	setConditionIn struct {
		Conditions meta.Conditions `json:"conditions"`
		Condition  meta.Condition  `json:"condition"`
	}
	conditionsOut struct {
		Conditions []meta.Condition `json:"conditions"`
	}
)

// metaDecisions returns the meta decisions the vectors in testdata/meta
// name: the condition list every kind's status holds.
func metaDecisions() []Decision {
	return []Decision{
		Bind("meta.Conditions.Find", func(in conditionTypeIn, _ struct{}) (findConditionOut, error) {
			if c, ok := in.Conditions.Find(in.Type); ok {
				return findConditionOut{true, &c}, nil
			}
			return findConditionOut{}, nil
		}),
		Bind("meta.Conditions.Set", func(in setConditionIn, _ struct{}) (conditionsOut, error) {
			cs, _ := in.Conditions.Set(in.Condition)
			return conditionsOut{orEmpty(cs)}, nil
		}),
		Bind("meta.Conditions.Remove", func(in conditionTypeIn, _ struct{}) (conditionsOut, error) {
			return conditionsOut{orEmpty(in.Conditions.Remove(in.Type))}, nil
		}),
	}
}
