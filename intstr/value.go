package intstr

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
)

// Value is an int-or-string, as in the Kubernetes API: either an integer or
// a string that should be a percentage such as "25%". The zero value is the
// integer 0.
//
// A Value remembers whether it was written as a string: the JSON string "5"
// is not the number 5, and, as upstream, it is not a valid percentage.
type Value struct {
	isString bool
	// num is the integer, or, for a string, its percentage when the string
	// is a valid one of at most 7 digits (parsed once here so that scaling
	// is a multiply and a divide), and -1 otherwise.
	num int32
	str string
}

// Int returns the integer value n.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go FromInt32.
func Int(n int32) Value { return Value{num: n} }

// Percent returns the percentage p, written "p%".
func Percent(p int32) Value { return String(strconv.Itoa(int(p)) + "%") }

// String returns the string value s, as written; it need not be valid.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go FromString.
func String(s string) Value { return Value{isString: true, num: shortPercent(s), str: s} }

// shortPercent returns the percentage s spells when s matches `^[0-9]{1,7}%$`,
// and -1 otherwise.
func shortPercent(s string) int32 {
	n := len(s)
	if n < 2 || n > 8 || s[n-1] != '%' {
		return -1
	}
	var p int32
	for i := 0; i < n-1; i++ {
		d := s[i] - '0'
		if d > 9 {
			return -1
		}
		p = p*10 + int32(d)
	}
	return p
}

// Parse reads a command-line spelling: "25%" is a percentage and "5" the
// integer 5. It returns a *field.Error wrapping field.ErrInvalid for
// anything else, and field.ErrOverflow for an integer beyond int32.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go Parse, which turns
// every spelling that is not an int32 into a string value; Parse keeps
// only the percentages API validation accepts (`^[0-9]+%$`).
func Parse(s string) (Value, error) {
	if strings.HasSuffix(s, "%") {
		v := String(s)
		if _, err := percent(s); err != nil {
			return Value{}, err
		}
		return v, nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Value{}, field.New("", s, field.ErrOverflow)
		}
		return Value{}, field.New("", s, field.ErrInvalid)
	}
	return Int(int32(n)), nil
}

// IsString reports whether the value was written as a string.
func (v Value) IsString() bool { return v.isString }

// IsPercent reports whether the value is a string ending in "%".
func (v Value) IsPercent() bool { return v.isString && strings.HasSuffix(v.str, "%") }

// IntValue returns the integer, or 0 for a string value.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go IntOrString.IntValue,
// which reads a string value with strconv.Atoi ("5" is 5, "25%" is 0);
// kubesem never reads a string as an integer.
func (v Value) IntValue() int32 {
	if v.isString {
		return 0
	}
	return v.num
}

// String returns the value as written: "5" or "25%".
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go IntOrString.String.
func (v Value) String() string {
	if v.isString {
		return v.str
	}
	return strconv.Itoa(int(v.num))
}

// MarshalJSON writes an integer as a JSON number and a string as a JSON
// string, as the Kubernetes API does.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go IntOrString.MarshalJSON.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.isString {
		return json.Marshal(v.str)
	}
	return strconv.AppendInt(nil, int64(v.num), 10), nil
}

// UnmarshalJSON accepts a JSON number that fits int32, or a JSON string.
//
// Source: apimachinery v0.36.3 pkg/util/intstr/intstr.go IntOrString.UnmarshalJSON.
func (v *Value) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := apijson.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = String(s)
		return nil
	}
	var n int32
	if err := apijson.Unmarshal(b, &n); err != nil {
		return field.New("", apijson.Clip(string(b)), field.ErrInvalid)
	}
	*v = Int(n)
	return nil
}
