package node

import (
	"github.com/kubesem/kubesem/internal/names"

	"strings"

	"github.com/kubesem/kubesem/field"
)

// ParseTaint parses one taint in kubectl's syntax, KEY[=VALUE][:EFFECT]:
// the key must be a qualified name, the value a label value, the effect
// (optional here) NoSchedule, PreferNoSchedule or NoExecute; more than one
// ':' or '=' is invalid. The error names path.
//
// Source: upstream pkg/util/taints parseTaint (v1.36.3), used by
// kubectl taint.
func ParseTaint(spec, path string) (Taint, error) {
	var t Taint
	key, effect, hasEffect := strings.Cut(spec, ":")
	if hasEffect {
		if strings.Contains(effect, ":") {
			return t, field.New(path, spec, field.ErrInvalid)
		}
		switch TaintEffect(effect) {
		case NoSchedule, PreferNoSchedule, NoExecute:
		default:
			return t, field.New(path, spec, field.ErrUnsupported)
		}
		t.Effect = TaintEffect(effect)
		k, v, hasValue := strings.Cut(key, "=")
		if hasValue {
			if strings.Contains(v, "=") {
				return Taint{}, field.New(path, spec, field.ErrInvalid)
			}
			if !names.LabelValue(v) {
				return Taint{}, field.New(path, spec, field.ErrInvalid)
			}
			t.Value = v
		}
		key = k
	}
	if !names.QualifiedName(key) {
		return Taint{}, field.New(path, spec, field.ErrInvalid)
	}
	t.Key = key
	return t, nil
}

// ParseTaints parses kubectl taint arguments: KEY[=VALUE]:EFFECT adds a
// taint (the effect is required; a key and effect given twice is an
// error), a trailing '-' removes one (KEY[:EFFECT]-, the value ignored).
//
// Source: upstream pkg/util/taints ParseTaints (v1.36.3).
func ParseTaints(specs []string) (add, remove []Taint, err error) {
	seen := map[[2]string]bool{}
	for i, s := range specs {
		path := field.Index("taints", i)
		if r, ok := strings.CutSuffix(s, "-"); ok {
			t, err := ParseTaint(r, path)
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := ParseTaint(s, path)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, field.New(path, s, field.ErrRequired)
		}
		k := [2]string{string(t.Effect), t.Key}
		if seen[k] {
			return nil, nil, field.New(path, s, field.ErrDuplicate)
		}
		seen[k] = true
		add = append(add, t)
	}
	return add, remove, nil
}
