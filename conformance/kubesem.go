package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/field"
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

func (k kubesem) Decide(decision string, options, input json.RawMessage) (json.RawMessage, error) {
	d, ok := k.decisions[decision]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, decision)
	}
	out, err := d.decide(options, input)
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) {
			return nil, err
		}
		return json.Marshal(errorOut{inputError{Field: fe.Path, Kind: field.Kind(fe), Value: fe.Value, Reason: reason(fe)}})
	}
	return plan.Encode(out)
}

// decodeInput decodes a decision's input into v (a pointer to the input
// struct): strict about the input's own keys (an unknown top-level key is
// an error), lenient inside the objects it holds, which are accepted as the
// API server returns them (apiVersion, kind, managedFields, fields kubesem
// does not model or that later releases add). A list field may be given as
// a List object ({"kind": "...List", "items": [...]}, as kubectl get -o json
// prints it).
func decodeInput(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	t := reflect.TypeOf(v).Elem()
	if t.Kind() == reflect.Struct {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(raw, &top); err != nil {
			return decodeStrict(raw, v) // reports the syntax or type error
		}
		keys := jsonKeys(t)
		names := make([]string, 0, len(top))
		for k := range top {
			names = append(names, k)
		}
		slices.Sort(names)
		changed := false
		for _, k := range names {
			ft, ok := matchKey(keys, k)
			if !ok {
				return field.New(k, "", fmt.Errorf("%w: unknown field", field.ErrUnsupported))
			}
			if items, ok := listItems(top[k], ft); ok {
				top[k], changed = items, true
			}
		}
		if changed {
			b, err := json.Marshal(top)
			if err != nil {
				return err
			}
			raw = b
		}
	}
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return field.New(te.Field, "a JSON "+te.Value, fmt.Errorf("%w: want %s", field.ErrInvalid, te.Type))
	}
	var fe *field.Error
	if errors.As(err, &fe) {
		return fe
	}
	return field.New("", err.Error(), field.ErrInvalid)
}

// listItems returns the items of a List object given for a field of slice
// type t.
func listItems(raw json.RawMessage, t reflect.Type) (json.RawMessage, bool) {
	if t.Kind() != reflect.Slice || len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var list struct {
		Items json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &list) != nil || len(list.Items) == 0 || list.Items[0] != '[' {
		return nil, false
	}
	return list.Items, true
}

// decodeStrict decodes raw into v, rejecting unknown fields. Decoding errors
// become a *field.Error naming the offending field.
func decodeStrict(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var fe *field.Error
	if errors.As(err, &fe) {
		return fe
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return field.New(te.Field, "a JSON "+te.Value, fmt.Errorf("%w: want %s", field.ErrInvalid, te.Type))
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
		name := strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
		path := unknownField(raw, reflect.TypeOf(v), name)
		if path == "" {
			path = name
		}
		return field.New(path, "", fmt.Errorf("%w: unknown field", field.ErrUnsupported))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(raw, se.Offset)
		return field.New("", fmt.Sprintf("line %d, column %d: %v", line, col, se), field.ErrInvalid)
	}
	return field.New("", err.Error(), field.ErrInvalid)
}

// lineCol returns the 1-based line and column of byte offset off in b.
func lineCol(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(b[:off], '\n')
	return line, col
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
