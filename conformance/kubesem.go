package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
		return json.Marshal(errorOut{WantError{Field: fe.Path, Kind: field.Kind(fe)}})
	}
	return plan.Encode(out)
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
		return field.New(te.Field, te.Value, field.ErrInvalid)
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
		return field.New(strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`), "", field.ErrUnsupported)
	}
	return field.New("", err.Error(), field.ErrInvalid)
}

// errorOut is a decision's answer for invalid input.
type errorOut struct {
	Error WantError `json:"error"`
}
