package node

import (
	"github.com/kubesem/kubesem/internal/names"

	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// The pod's node affinity is modelled once, in podstatus (a pod's
// spec.affinity); these aliases name it here, where it is matched.
type (
	// Affinity is the node part of a pod's spec.affinity.
	Affinity = podstatus.Affinity
	// NodeAffinity holds a pod's required node affinity.
	NodeAffinity = podstatus.NodeAffinity
	// NodeSelector is a list of terms, OR-ed.
	NodeSelector = podstatus.NodeSelector
	// NodeSelectorTerm is a list of label and field expressions, AND-ed.
	NodeSelectorTerm = podstatus.NodeSelectorTerm
	// NodeSelectorRequirement is one expression.
	NodeSelectorRequirement = podstatus.NodeSelectorRequirement
	// NodeSelectorOperator is a node selector expression's operator.
	NodeSelectorOperator = podstatus.NodeSelectorOperator
)

// Node selector operators. Field expressions accept only In and NotIn.
const (
	SelectorIn           = podstatus.SelectorIn
	SelectorNotIn        = podstatus.SelectorNotIn
	SelectorExists       = podstatus.SelectorExists
	SelectorDoesNotExist = podstatus.SelectorDoesNotExist
	SelectorGt           = podstatus.SelectorGt
	SelectorLt           = podstatus.SelectorLt
)

// FieldNodeName is the only node field a matchFields expression can name.
const FieldNodeName = "metadata.name"

const requiredPath = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"

// MatchesNodeSelector reports whether a pod with nodeSelector and affinity
// may run on n: every nodeSelector label is on the node with that value,
// and, when the pod has a required node affinity, one of its terms matches
// ([MatchNodeSelectorTerms]). The error is a *field.Error for a malformed
// term, returned only when no term matched, the way upstream reports parse
// errors lazily; the boolean is what the DaemonSet controller and the
// scheduler act on.
//
// Source: upstream k8s.io/component-helpers scheduling/corev1/nodeaffinity
// GetRequiredNodeAffinity(pod).Match (v1.36.3).
func MatchesNodeSelector(nodeSelector map[string]string, affinity *Affinity, n *Node) (bool, error) {
	if n == nil {
		return false, nil
	}
	for k, v := range nodeSelector {
		if got, ok := n.Labels[k]; !ok || got != v {
			return false, nil
		}
	}
	req := affinity.Required()
	if req == nil {
		return true, nil
	}
	return matchTerms(n, req.NodeSelectorTerms, requiredPath+".nodeSelectorTerms")
}

// MatchNodeSelectorTerms reports whether n matches one of terms: a term
// matches when all its label expressions match the node's labels and all
// its field expressions match the node's name (field expressions are
// ignored for a node without a name); a term with no expressions matches
// nothing. A malformed term (unknown operator, In/NotIn without values,
// Exists/DoesNotExist with values, Gt/Lt without exactly one integer, an
// invalid label key or value, a field expression other than In/NotIn with
// one value) never matches; its *field.Error is returned when no other
// term matched.
//
// Source: upstream k8s.io/component-helpers scheduling/corev1/nodeaffinity
// LazyErrorNodeSelector.Match (v1.36.3).
func MatchNodeSelectorTerms(n *Node, terms []NodeSelectorTerm) (bool, error) {
	if n == nil {
		return false, nil
	}
	return matchTerms(n, terms, "nodeSelectorTerms")
}

func matchTerms(n *Node, terms []NodeSelectorTerm, path string) (bool, error) {
	var first *field.Error
	for i := range terms {
		t := &terms[i]
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		ok, err := matchTerm(n, t)
		if err != nil {
			if first == nil {
				fe := err
				fe.Path = field.Index(path, i) + "." + fe.Path
				first = fe
			}
			continue
		}
		if ok {
			return true, nil
		}
	}
	if first == nil {
		return false, nil
	}
	return false, first
}

// matchTerm checks the whole term for parse errors first (upstream parses
// every expression before matching), then matches.
func matchTerm(n *Node, t *NodeSelectorTerm) (bool, *field.Error) {
	for i := range t.MatchExpressions {
		if err := checkLabelRequirement(&t.MatchExpressions[i]); err != nil {
			err.Path = field.Index("matchExpressions", i) + "." + err.Path
			return false, err
		}
	}
	for i := range t.MatchFields {
		if err := checkFieldRequirement(&t.MatchFields[i]); err != nil {
			err.Path = field.Index("matchFields", i) + "." + err.Path
			return false, err
		}
	}
	for i := range t.MatchExpressions {
		if !matchLabelRequirement(&t.MatchExpressions[i], n.Labels) {
			return false, nil
		}
	}
	if n.Name != "" {
		for i := range t.MatchFields {
			r := &t.MatchFields[i]
			v := ""
			if r.Key == FieldNodeName {
				v = n.Name
			}
			if (v == r.Values[0]) != (r.Operator == SelectorIn) {
				return false, nil
			}
		}
	}
	return true, nil
}

func checkLabelRequirement(r *NodeSelectorRequirement) *field.Error {
	if !names.QualifiedName(r.Key) {
		return field.New("key", r.Key, field.ErrInvalid)
	}
	switch r.Operator {
	case SelectorIn, SelectorNotIn:
		if len(r.Values) == 0 {
			return field.New("values", "", field.ErrRequired)
		}
	case SelectorExists, SelectorDoesNotExist:
		if len(r.Values) != 0 {
			return field.New("values", r.Values[0], field.ErrInvalid)
		}
	case SelectorGt, SelectorLt:
		if len(r.Values) != 1 {
			return field.Int("values", int64(len(r.Values)), field.ErrInvalid)
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return field.New("values[0]", r.Values[0], field.ErrInvalid)
		}
	default:
		return field.New("operator", string(r.Operator), field.ErrUnsupported)
	}
	for i, v := range r.Values {
		if !names.LabelValue(v) {
			return field.New(field.Index("values", i), v, field.ErrInvalid)
		}
	}
	return nil
}

func checkFieldRequirement(r *NodeSelectorRequirement) *field.Error {
	switch r.Operator {
	case SelectorIn, SelectorNotIn:
		if len(r.Values) != 1 {
			return field.Int("values", int64(len(r.Values)), field.ErrInvalid)
		}
		return nil
	}
	return field.New("operator", string(r.Operator), field.ErrUnsupported)
}

func matchLabelRequirement(r *NodeSelectorRequirement, labels map[string]string) bool {
	v, has := labels[r.Key]
	switch r.Operator {
	case SelectorIn:
		return has && contains(r.Values, v)
	case SelectorNotIn:
		return !has || !contains(r.Values, v)
	case SelectorExists:
		return has
	case SelectorDoesNotExist:
		return !has
	case SelectorGt, SelectorLt:
		if !has {
			return false
		}
		lv, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		rv, _ := strconv.ParseInt(r.Values[0], 10, 64)
		if r.Operator == SelectorGt {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}
