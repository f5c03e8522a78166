package meta

import (
	"github.com/kubesem/kubesem/internal/names"

	"slices"

	"github.com/kubesem/kubesem/field"
)

// LabelSelector selects objects by label: every matchLabels pair and every
// matchExpressions requirement must hold.
type LabelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []Requirement     `json:"matchExpressions,omitempty"`
}

// Requirement is one matchExpressions entry.
type Requirement struct {
	Key      string   `json:"key"`
	Operator Operator `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Operator is a label selector operator.
type Operator string

// Label selector operators.
const (
	OpIn           Operator = "In"
	OpNotIn        Operator = "NotIn"
	OpExists       Operator = "Exists"
	OpDoesNotExist Operator = "DoesNotExist"
)

// SelectorFromSet returns the selector that matches exactly the given labels,
// the equality-based selector a ReplicationController uses.
func SelectorFromSet(set map[string]string) *LabelSelector {
	return &LabelSelector{MatchLabels: set}
}

// IsEmpty reports whether the selector has no requirements. An empty
// selector matches everything; workload controllers treat it as invalid.
func (s *LabelSelector) IsEmpty() bool {
	return s == nil || (len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0)
}

// Matches reports whether labels satisfy every requirement of s. A nil
// selector matches nothing and an empty one matches everything, as in
// metav1.LabelSelectorAsSelector.
//
// s must be valid (see [LabelSelector.Validate]); an invalid operator matches
// nothing.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		got, ok := labels[k]
		if !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		if !r.matches(labels) {
			return false
		}
	}
	return true
}

// Matcher returns [LabelSelector.Matches] of s as a function that lists
// s's matchLabels once, for matching many label sets: each call of Matches
// ranges over the matchLabels map, which Go starts at a random place.
// s must not change while the function is used.
func (s *LabelSelector) Matcher() func(labels map[string]string) bool {
	if s == nil {
		return func(map[string]string) bool { return false }
	}
	type pair struct{ k, v string }
	pairs := make([]pair, 0, len(s.MatchLabels))
	for k, v := range s.MatchLabels {
		pairs = append(pairs, pair{k, v})
	}
	exprs := s.MatchExpressions
	return func(labels map[string]string) bool {
		for _, p := range pairs {
			if got, ok := labels[p.k]; !ok || got != p.v {
				return false
			}
		}
		for _, r := range exprs {
			if !r.matches(labels) {
				return false
			}
		}
		return true
	}
}

func (r Requirement) matches(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case OpIn:
		return ok && slices.Contains(r.Values, v)
	case OpNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case OpExists:
		return ok
	case OpDoesNotExist:
		return !ok
	}
	return false
}

// Validate returns a *field.Error naming path when a matchLabels key is not
// a qualified name or its value not a label value (at matchLabels,
// ErrInvalid), or a requirement's operator is unknown (ErrInvalid), In/NotIn
// has no values (ErrRequired), Exists/DoesNotExist has values
// (ErrForbidden), its key is not a qualified name (empty included) or one
// of its values is not a label value (ErrInvalid): the kinds upstream
// reports.
//
// Source: upstream k8s.io/apimachinery pkg/apis/meta/v1/validation
// ValidateLabelSelector, as the API server calls it on create
// (AllowInvalidLabelValueInSelector false) (v0.36.3).
func (s *LabelSelector) Validate(path string) error {
	if s == nil {
		return nil
	}
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !names.QualifiedName(k) {
			return field.New(field.Child(path, "matchLabels"), k, field.ErrInvalid)
		}
		if v := s.MatchLabels[k]; !names.LabelValue(v) {
			return field.New(field.Child(path, "matchLabels"), v, field.ErrInvalid)
		}
	}
	for i, r := range s.MatchExpressions {
		p := field.Index(field.Child(path, "matchExpressions"), i)
		switch r.Operator {
		case OpIn, OpNotIn:
			if len(r.Values) == 0 {
				return field.New(field.Child(p, "values"), "", field.ErrRequired)
			}
		case OpExists, OpDoesNotExist:
			if len(r.Values) != 0 {
				return field.New(field.Child(p, "values"), r.Values[0], field.ErrForbidden)
			}
		default:
			return field.New(field.Child(p, "operator"), string(r.Operator), field.ErrInvalid)
		}
		if r.Key == "" {
			return field.New(field.Child(p, "key"), "", field.ErrInvalid)
		}
		if !names.QualifiedName(r.Key) {
			return field.New(field.Child(p, "key"), r.Key, field.ErrInvalid)
		}
		for j, v := range r.Values {
			if !names.LabelValue(v) {
				return field.New(field.Index(field.Child(p, "values"), j), v, field.ErrInvalid)
			}
		}
	}
	return nil
}
