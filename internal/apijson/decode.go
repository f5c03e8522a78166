// Package apijson decodes JSON the way the Kubernetes API server reads a
// request body, for every decoding kubesem does (the library's
// UnmarshalJSON methods, the conformance runner, the CLI):
//
//   - Keys match struct fields case-sensitively. A key that names no field,
//     including one that matches a field only when case is ignored
//     ("Replicas" for "replicas"), is unknown: dropped, as the API server
//     prunes unknown fields, or an error in the strict modes.
//   - A key given twice in one object is an error naming its path; the
//     API server's strict field validation rejects it too.
//   - Exactly one JSON value: anything but white space after it is an
//     error. Nesting is bounded by [MaxDepth].
//   - A time.Duration reads a Go duration string ("1m30s"), the form
//     plan.Encode writes, or integer nanoseconds.
//
// Every error is a *field.Error whose path names the offending key from
// the top of the document ("spec.template.metadata.labels.app",
// "pods[3].metadata.name"); syntax errors carry the line and column
// ([SyntaxError]). Values the input holds are never echoed whole: an
// error quotes at most [EchoLimit] bytes of one.
//
// The mechanism: a single pass walks the document against the target Go
// type, checking syntax, duplicate keys, nesting and the JSON kind of each
// value, and records the edits encoding/json then needs: the members no
// field names exactly are cut out (so that encoding/json's
// case-insensitive fallback never sees one), duration strings become
// integers, a top-level List gives way to its items. The document, edited
// only where needed (not copied when nothing is), goes to encoding/json.
// Types with their own UnmarshalJSON are checked but passed on whole; each
// of kubesem's calls this package in turn. When such a method fails, a
// second walk calls each in document order to name the failing one's path.
package apijson

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/kubesem/kubesem/field"
)

// Mode says what happens to a key that names no field.
type Mode uint8

const (
	// Lenient drops unknown keys everywhere.
	Lenient Mode = 0
	// StrictTop makes an unknown key of the top-level object an error and
	// drops those deeper down (a decision's input: its own keys are fixed,
	// the API objects it holds are read as the API server returns them).
	StrictTop Mode = 1 << iota
	// Strict makes every unknown key an error (Options, requests).
	Strict
	// TopLists accepts, for a list field of the top-level object, a List
	// object ({"kind": "PodList", "items": [...]}, as kubectl get -o json
	// prints one) in place of the list: its items are decoded.
	TopLists
)

// MaxDepth is the deepest nesting of objects and arrays accepted, as in
// encoding/json.
const MaxDepth = 10000

// EchoLimit is the most bytes of an input value an error quotes.
const EchoLimit = 256

// Unmarshal decodes data into v (a non-nil pointer), dropping unknown
// keys.
func Unmarshal(data []byte, v any) error { return Decode(data, v, Lenient) }

// UnmarshalStrict decodes data into v; an unknown key is an
// Unsupported error at its path.
func UnmarshalStrict(data []byte, v any) error { return Decode(data, v, Strict) }

// Decode decodes data into v (a non-nil pointer) in the given mode.
func Decode(data []byte, v any, mode Mode) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	t := rv.Type().Elem()
	d := &decoder{data: data, mode: mode, rewrite: true}
	if err := d.document(t); err != nil {
		return err
	}
	err := json.Unmarshal(d.edited(), v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return field.New(te.Field, "a JSON "+te.Value, fmt.Errorf("%w: want %s", field.ErrInvalid, te.Type))
	}
	// An UnmarshalJSON method failed; encoding/json does not say where.
	// Walk again, calling each such method in document order, to find it.
	l := &decoder{data: data, mode: mode, locate: true}
	if lerr := l.document(t); lerr != nil {
		return lerr
	}
	var fe *field.Error
	if errors.As(err, &fe) {
		return clipped(fe)
	}
	return field.New("", "", fmt.Errorf("%w: %s", field.ErrInvalid, Clip(err.Error())))
}

// clipped returns fe with its value clipped to EchoLimit bytes.
func clipped(fe *field.Error) *field.Error {
	if len(fe.Value) <= EchoLimit {
		return fe
	}
	return &field.Error{Path: fe.Path, Value: Clip(fe.Value), Err: fe.Err}
}

// Valid checks that data is one JSON value without duplicate keys, nested
// at most MaxDepth deep.
func Valid(data []byte) error {
	d := &decoder{data: data}
	return d.document(nil)
}

// Clip returns s whole when it is at most EchoLimit bytes long, else its
// first EchoLimit bytes (cut at a character boundary) and "…(N bytes)".
func Clip(s string) string {
	if len(s) <= EchoLimit {
		return s
	}
	n := EchoLimit
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// SyntaxError is malformed JSON: what was wrong and where, as a byte
// offset and a 1-based line and column. A *field.Error wraps it.
type SyntaxError struct {
	Msg          string
	Offset       int64
	Line, Column int
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

var (
	unmarshalerT     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerT = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// call runs the UnmarshalJSON (or, for a string, UnmarshalText) of a
// fresh value of ti's type on raw, and places its error at the current
// path.
func (d *decoder) call(ti *typeInfo, raw []byte) error {
	p := reflect.New(ti.t).Interface()
	var err error
	if u, ok := p.(json.Unmarshaler); ok {
		err = u.UnmarshalJSON(raw)
	} else if u, ok := p.(encoding.TextUnmarshaler); ok && len(raw) > 0 && raw[0] == '"' {
		var s string
		if err = json.Unmarshal(raw, &s); err == nil {
			err = u.UnmarshalText([]byte(s))
		}
	}
	if err == nil {
		return nil
	}
	path := d.pathString()
	var fe *field.Error
	if errors.As(err, &fe) {
		return field.Under(path, clipped(fe))
	}
	return field.New(path, Clip(string(raw)), fmt.Errorf("%w: %s", field.ErrInvalid, Clip(err.Error())))
}

// Describe writes a decoding error on one line: a syntax error as "line
// L, column C: what (in path)", a field error as "path: reason" or
// "path: "value": reason", values clipped.
func Describe(err error) string {
	var se *SyntaxError
	var fe *field.Error
	switch {
	case errors.As(err, &se):
		s := se.Error()
		if errors.As(err, &fe) && fe.Path != "" {
			s += " (in " + fe.Path + ")"
		}
		return s
	case errors.As(err, &fe):
		reason := "invalid value"
		if fe.Err != nil {
			reason = fe.Err.Error()
		}
		path := fe.Path
		if path == "" {
			path = "(top)"
		}
		if fe.Value == "" {
			return path + ": " + Clip(reason)
		}
		return path + ": " + strconv.Quote(Clip(fe.Value)) + ": " + Clip(reason)
	}
	return Clip(err.Error())
}
