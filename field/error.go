package field

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinels for [Error.Err]. Match them with errors.Is.
var (
	ErrInvalid     = errors.New("invalid value")
	ErrNegative    = errors.New("must be non-negative")
	ErrOverflow    = errors.New("out of range")
	ErrRequired    = errors.New("required value")
	ErrUnsupported = errors.New("unsupported value")
	ErrDuplicate   = errors.New("duplicate value")
	ErrForbidden   = errors.New("forbidden")
	// ErrImmutable: an update changes a field the API server keeps as
	// it was (upstream's ValidateImmutableField, an Invalid error whose
	// detail is "field is immutable"). It wraps ErrInvalid.
	ErrImmutable = fmt.Errorf("%w: field is immutable", ErrInvalid)
)

// Error reports an invalid input field. Path names the field the way
// Kubernetes validation does, Value is the offending input as written, and Err
// is one of the sentinels of this package, possibly wrapping a more specific
// cause.
type Error struct {
	Path  string
	Value string
	Err   error
}

// New returns an *Error for the field at path holding value.
func New(path, value string, err error) *Error {
	return &Error{Path: path, Value: value, Err: err}
}

// Int returns an *Error for an integer field.
func Int(path string, value int64, err error) *Error {
	return &Error{Path: path, Value: strconv.FormatInt(value, 10), Err: err}
}

// Error formats the error as `path: "value": reason`.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	reason := "invalid value"
	if e.Err != nil {
		reason = e.Err.Error()
	}
	return e.Path + ": " + strconv.Quote(e.Value) + ": " + reason
}

// Unwrap returns the sentinel (or wrapped cause) so errors.Is works.
func (e *Error) Unwrap() error { return e.Err }

// Kind returns the name of the sentinel e wraps: "Invalid", "Negative",
// "Overflow", "Required", "Unsupported", "Duplicate", "Forbidden", or "" for
// none. It is the language-neutral spelling conformance vectors use.
func Kind(err error) string {
	switch {
	case errors.Is(err, ErrInvalid):
		return "Invalid"
	case errors.Is(err, ErrNegative):
		return "Negative"
	case errors.Is(err, ErrOverflow):
		return "Overflow"
	case errors.Is(err, ErrRequired):
		return "Required"
	case errors.Is(err, ErrUnsupported):
		return "Unsupported"
	case errors.Is(err, ErrDuplicate):
		return "Duplicate"
	case errors.Is(err, ErrForbidden):
		return "Forbidden"
	}
	return ""
}

// Index returns path with "[i]" appended, for elements of a list.
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// Child returns path with "." and name appended; an empty path yields name.
func Child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// At returns err with its path set to path when err is an *Error whose Path
// is empty; any other error is returned unchanged. Rules that do not know
// which field they were handed (intstr, say) leave the path empty and their
// callers name it.
func At(err error, path string) error {
	fe, ok := err.(*Error)
	if !ok || fe.Path != "" {
		return err
	}
	return &Error{Path: path, Value: fe.Value, Err: fe.Err}
}

// Under returns err with its path placed under prefix ("deployment" and
// "spec.replicas" make "deployment.spec.replicas"; an empty path becomes
// prefix). Errors other than *Error, and a nil err, are returned as they are.
func Under(prefix string, err error) error {
	fe, ok := err.(*Error)
	if !ok || prefix == "" {
		return err
	}
	path := prefix
	switch {
	case fe.Path == "":
	case strings.HasPrefix(fe.Path, "["):
		path += fe.Path
	default:
		path += "." + fe.Path
	}
	return &Error{Path: path, Value: fe.Value, Err: fe.Err}
}
