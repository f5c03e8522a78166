package node

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/names"
)

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
