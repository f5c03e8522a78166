package node

import (
	"github.com/kubesem/kubesem/internal/names"

	"github.com/kubesem/kubesem/field"
)

// validateStep rejects input Step cannot read: nil or unnamed nodes,
// duplicate node or lease names.
func validateStep(nodes []*Node, leases []Lease) error {
	// (paths are built only for an error; names listed in order, as
	// caches list them, show a duplicate as equal neighbours, and the sets
	// are built only once the order breaks, so the first duplicate found
	// is the same either way)
	var seen map[string]bool
	for i, n := range nodes {
		if n == nil {
			return field.New(field.Index("nodes", i), "", field.ErrRequired)
		}
		if n.Name == "" {
			return field.New(field.Index("nodes", i)+".metadata.name", "", field.ErrRequired)
		}
		if seen == nil && i > 0 {
			switch prev := nodes[i-1].Name; {
			case prev == n.Name:
				return field.New(field.Index("nodes", i)+".metadata.name", n.Name, field.ErrDuplicate)
			case prev > n.Name:
				seen = make(map[string]bool, len(nodes))
				for _, m := range nodes[:i] {
					seen[m.Name] = true
				}
			}
		}
		if seen != nil {
			if seen[n.Name] {
				return field.New(field.Index("nodes", i)+".metadata.name", n.Name, field.ErrDuplicate)
			}
			seen[n.Name] = true
		}
	}
	var seenL map[string]bool
	for i, l := range leases {
		if l.Name == "" {
			return field.New(field.Index("leases", i)+".metadata.name", "", field.ErrRequired)
		}
		if seenL == nil && i > 0 {
			switch prev := leases[i-1].Name; {
			case prev == l.Name:
				return field.New(field.Index("leases", i)+".metadata.name", l.Name, field.ErrDuplicate)
			case prev > l.Name:
				seenL = make(map[string]bool, len(leases))
				for _, m := range leases[:i] {
					seenL[m.Name] = true
				}
			}
		}
		if seenL != nil {
			if seenL[l.Name] {
				return field.New(field.Index("leases", i)+".metadata.name", l.Name, field.ErrDuplicate)
			}
			seenL[l.Name] = true
		}
	}
	return nil
}

// ValidateTolerations returns the first toleration the API server rejects
// in a pod spec, as a *field.Error under path ("spec.tolerations"): a key
// that is not a qualified name, an empty key without operator Exists,
// tolerationSeconds with an effect other than NoExecute, an Equal value
// that is not a label value, an Exists toleration with a value, Lt/Gt
// without opts.TaintTolerationComparisonOperators or with a value that is
// not a decimal int64, any other operator, an unknown effect.
//
// Source: upstream pkg/apis/core/validation ValidateTolerations (v1.36.3).
func ValidateTolerations(tols []Toleration, path string, opts Options) error {
	for i, t := range tols {
		p := field.Index(path, i)
		if t.Key != "" && !names.QualifiedName(t.Key) {
			return field.New(p+".key", t.Key, field.ErrInvalid)
		}
		if t.Key == "" && t.Operator != OpExists {
			return field.New(p+".operator", t.Operator, field.ErrInvalid)
		}
		if t.TolerationSeconds != nil && t.Effect != string(NoExecute) {
			return field.New(p+".effect", t.Effect, field.ErrInvalid)
		}
		switch t.Operator {
		case OpEqual, "":
			if !names.LabelValue(t.Value) {
				return field.New(p+".operator", t.Value, field.ErrInvalid)
			}
		case OpExists:
			if t.Value != "" {
				return field.New(p+".operator", t.Value, field.ErrInvalid)
			}
		case OpLt, OpGt:
			if !opts.TaintTolerationComparisonOperators {
				return field.New(p+".operator", t.Operator, field.ErrUnsupported)
			}
			if _, ok := parseDecimal(t.Value); !ok {
				return field.New(p+".value", t.Value, field.ErrInvalid)
			}
		default:
			return field.New(p+".operator", t.Operator, field.ErrUnsupported)
		}
		if t.Effect != "" {
			switch TaintEffect(t.Effect) {
			case NoSchedule, PreferNoSchedule, NoExecute:
			default:
				return field.New(p+".effect", t.Effect, field.ErrUnsupported)
			}
		}
	}
	return nil
}

// ValidateTaints returns the first taint the API server rejects in a
// node's spec.taints, under path: a key that is not a qualified name, a
// value that is not a label value, a missing or unknown effect, a key and
// effect given twice.
//
// Source: upstream pkg/apis/core/validation validateNodeTaints (v1.36.3).
func ValidateTaints(taints []Taint, path string) error {
	seen := map[[2]string]bool{}
	for i, t := range taints {
		p := field.Index(path, i)
		if !names.QualifiedName(t.Key) {
			return field.New(p+".key", t.Key, field.ErrInvalid)
		}
		if !names.LabelValue(t.Value) {
			return field.New(p+".value", t.Value, field.ErrInvalid)
		}
		switch t.Effect {
		case NoSchedule, PreferNoSchedule, NoExecute:
		case "":
			return field.New(p+".effect", "", field.ErrRequired)
		default:
			return field.New(p+".effect", string(t.Effect), field.ErrUnsupported)
		}
		k := [2]string{string(t.Effect), t.Key}
		if seen[k] {
			return field.New(p, t.Key, field.ErrDuplicate)
		}
		seen[k] = true
	}
	return nil
}
