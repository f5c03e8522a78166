package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/plan"
)

// kubesem is kubesem's own Implementation.
type kubesem struct {
	decisions map[string]Decision
}

// Kubesem returns kubesem's own implementation of every decision in the
// [Registry].
func Kubesem() Implementation {
	k := kubesem{decisions: map[string]Decision{}}
	for _, d := range Registry() {
		k.decisions[d.Name] = d
	}
	return k
}

// Decisions lists the decisions impl supports, when it is kubesem's own.
func Decisions(impl Implementation) []string {
	k, ok := impl.(kubesem)
	if !ok {
		return nil
	}
	names := make([]string, 0, len(k.decisions))
	for n := range k.decisions {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ErrInternal wraps the error of a decision that panicked: a bug in
// kubesem, to be reported with the request that caused it.
var ErrInternal = errors.New("internal error")

func (k kubesem) Decide(decision string, options, input json.RawMessage) (_ json.RawMessage, err error) {
	d, ok := k.decisions[decision]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, apijson.Clip(decision))
	}
	defer func() {
		if p := recover(); p != nil {
			err = panicked(decision, p)
		}
	}()
	out, err := d.decide(options, input)
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) {
			return nil, err
		}
		return json.Marshal(errorOut{inputError{Field: apijson.Clip(fe.Path), Kind: field.Kind(fe), Value: apijson.Clip(fe.Value), Reason: apijson.Clip(reason(fe))}})
	}
	return plan.Encode(out)
}

// decodeInput decodes a decision's input into v (a pointer to the input
// struct) as the API server reads JSON (internal/apijson: keys
// case-sensitive, a repeated key an error): strict about the input's own
// keys (an unknown top-level key, a case variant included, is an error),
// lenient inside the objects it holds, which are accepted as the API server
// returns them (apiVersion, kind, managedFields, fields kubesem does not
// model or that later releases add, all dropped). A list field may be
// given as a List object ({"kind": "...List", "items": [...]}, as kubectl
// get -o json prints it).
func decodeInput(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return apijson.Decode(raw, v, apijson.StrictTop|apijson.TopLists)
}

// decodeStrict decodes raw into v, rejecting unknown keys at every level
// (Options). Errors are *field.Error naming the offending key.
func decodeStrict(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return apijson.UnmarshalStrict(raw, v)
}

// panicked is the error for a decision that panicked with p.
func panicked(decision string, p any) error {
	return fmt.Errorf("%w: decision %s panicked: %s (a kubesem bug: please report it with the request)", ErrInternal, apijson.Clip(decision), apijson.Clip(fmt.Sprint(p)))
}

// inputError is kubesem's error answer: the field path from the top of
// the input, the kind a vector's wantError names, and, for people, the
// value as written and the reason.
type inputError struct {
	Field  string `json:"field"`
	Kind   string `json:"kind"`
	Value  string `json:"value,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// reason is the error's message without its path and value.
func reason(fe *field.Error) string {
	if fe.Err == nil {
		return "invalid value"
	}
	return fe.Err.Error()
}

// errorOut is a decision's answer for invalid input.
type errorOut struct {
	Error inputError `json:"error"`
}
