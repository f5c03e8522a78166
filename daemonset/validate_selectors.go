package daemonset

import (
	"slices"
	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/names"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

// validateLabels checks a label map: keys qualified names, values label
// values; upstream reports both at the map's path.
func validateLabels(labels map[string]string, path string) error {
	for _, k := range sortedKeys(labels) {
		if !names.QualifiedName(k) {
			return field.New(path, k, field.ErrInvalid)
		}
		if v := labels[k]; !names.LabelValue(v) {
			return field.New(path, v, field.ErrInvalid)
		}
	}
	return nil
}

// validateSelector checks a label selector's syntax (matchLabels, then
// each expression's operator and values, key, and values).
func validateSelector(s *meta.LabelSelector, path string) error {
	if s == nil {
		return nil
	}
	if err := validateLabels(s.MatchLabels, path+".matchLabels"); err != nil {
		return err
	}
	if err := s.Validate(path); err != nil {
		return err
	}
	for i, r := range s.MatchExpressions {
		p := field.Index(path+".matchExpressions", i)
		if !names.QualifiedName(r.Key) {
			return field.New(p+".key", r.Key, field.ErrInvalid)
		}
		for j, v := range r.Values {
			if !names.LabelValue(v) {
				return field.New(field.Index(p+".values", j), v, field.ErrInvalid)
			}
		}
	}
	return nil
}

// validateNodeSelector checks a required node affinity the way the API
// server does.
func validateNodeSelector(sel *node.NodeSelector, path string) error {
	path += ".nodeSelectorTerms"
	if len(sel.NodeSelectorTerms) == 0 {
		return field.New(path, "", field.ErrRequired)
	}
	for i, term := range sel.NodeSelectorTerms {
		tp := field.Index(path, i)
		for j, r := range term.MatchExpressions {
			if err := validateExpression(r, field.Index(tp+".matchExpressions", j)); err != nil {
				return err
			}
		}
		for j, r := range term.MatchFields {
			if err := validateFieldExpression(r, field.Index(tp+".matchFields", j)); err != nil {
				return err
			}
		}
	}
	return nil
}

func validateExpression(r node.NodeSelectorRequirement, p string) error {
	switch r.Operator {
	case node.SelectorIn, node.SelectorNotIn:
		if len(r.Values) == 0 {
			return field.New(p+".values", "", field.ErrRequired)
		}
	case node.SelectorExists, node.SelectorDoesNotExist:
		if len(r.Values) > 0 {
			return field.New(p+".values", r.Values[0], field.ErrForbidden)
		}
	case node.SelectorGt, node.SelectorLt:
		if len(r.Values) != 1 {
			return field.New(p+".values", strconv.Itoa(len(r.Values)), field.ErrRequired)
		}
	default:
		return field.New(p+".operator", string(r.Operator), field.ErrInvalid)
	}
	if !names.QualifiedName(r.Key) {
		return field.New(p+".key", r.Key, field.ErrInvalid)
	}
	for k, v := range r.Values {
		if !names.LabelValue(v) {
			return field.New(field.Index(p+".values", k), v, field.ErrInvalid)
		}
	}
	return nil
}

func validateFieldExpression(r node.NodeSelectorRequirement, p string) error {
	switch r.Operator {
	case node.SelectorIn, node.SelectorNotIn:
		if len(r.Values) != 1 {
			return field.New(p+".values", strconv.Itoa(len(r.Values)), field.ErrRequired)
		}
	default:
		return field.New(p+".operator", string(r.Operator), field.ErrInvalid)
	}
	if r.Key != node.FieldNodeName {
		return field.New(p+".key", r.Key, field.ErrInvalid)
	}
	for k, v := range r.Values {
		if !names.DNS1123Subdomain(v) {
			return field.New(field.Index(p+".values", k), v, field.ErrInvalid)
		}
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
