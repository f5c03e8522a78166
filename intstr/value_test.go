package intstr_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    intstr.Value
		wantErr error
		reason  string
	}{
		{"0", intstr.Int(0), nil, "zero is an integer"},
		{"5", intstr.Int(5), nil, "digits are an integer"},
		{"2147483647", intstr.Int(2147483647), nil, "MaxInt32 fits"},
		{"-2147483648", intstr.Int(-2147483648), nil, "MinInt32 fits; Scaled rejects it later"},
		{"2147483648", intstr.Value{}, field.ErrOverflow, "MaxInt32+1 does not fit"},
		{"-2147483649", intstr.Value{}, field.ErrOverflow, "MinInt32-1 does not fit"},
		{"25%", intstr.Percent(25), nil, "a percentage"},
		{"0%", intstr.Percent(0), nil, "zero percent"},
		{"05%", intstr.String("05%"), nil, "leading zeros are kept as written"},
		{"a%", intstr.Value{}, field.ErrInvalid, "not a number before %"},
		{"%", intstr.Value{}, field.ErrInvalid, "no digits"},
		{"-5%", intstr.Value{}, field.ErrInvalid, "sign before a percentage"},
		{"99999999999999999999%", intstr.Value{}, field.ErrOverflow, "beyond int64"},
		{"abc", intstr.Value{}, field.ErrInvalid, "neither"},
		{"", intstr.Value{}, field.ErrInvalid, "empty"},
	}
	for _, tc := range tests {
		got, err := intstr.Parse(tc.in)
		if tc.wantErr != nil {
			var fe *field.Error
			if !errors.As(err, &fe) || !errors.Is(err, tc.wantErr) {
				t.Errorf("Parse(%q) error = %v; want *field.Error wrapping %v (%s)", tc.in, err, tc.wantErr, tc.reason)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v (%s)", tc.in, got, err, tc.want, tc.reason)
		}
	}
}

func TestAccessors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v         intstr.Value
		isString  bool
		isPercent bool
		intValue  int32
		str       string
	}{
		{intstr.Value{}, false, false, 0, "0"},
		{intstr.Int(7), false, false, 7, "7"},
		{intstr.Int(-3), false, false, -3, "-3"},
		{intstr.Percent(25), true, true, 0, "25%"},
		{intstr.String("5"), true, false, 0, "5"},
		{intstr.String(""), true, false, 0, ""},
	}
	for _, tc := range tests {
		if got := tc.v.IsString(); got != tc.isString {
			t.Errorf("%v.IsString() = %v; want %v", tc.v, got, tc.isString)
		}
		if got := tc.v.IsPercent(); got != tc.isPercent {
			t.Errorf("%v.IsPercent() = %v; want %v", tc.v, got, tc.isPercent)
		}
		if got := tc.v.IntValue(); got != tc.intValue {
			t.Errorf("%v.IntValue() = %v; want %v", tc.v, got, tc.intValue)
		}
		if got := tc.v.String(); got != tc.str {
			t.Errorf("String() = %q; want %q", got, tc.str)
		}
	}
}

// holder mirrors upstream's IntOrStringHolder test type.
type holder struct {
	Val intstr.Value `json:"val"`
}

func TestJSON(t *testing.T) {
	t.Parallel()
	// Pairs: the number 123 and the string "123" stay distinct both ways
	// (upstream TestIntOrStringUnmarshalJSON, TestIntOrStringMarshalJSON).
	tests := []struct {
		json string
		v    intstr.Value
	}{
		{`{"val":123}`, intstr.Int(123)},
		{`{"val":"123"}`, intstr.String("123")},
		{`{"val":5}`, intstr.Int(5)},
		{`{"val":"5"}`, intstr.String("5")},
		{`{"val":"25%"}`, intstr.Percent(25)},
		{`{"val":0}`, intstr.Int(0)},
		{`{"val":-2147483648}`, intstr.Int(-2147483648)},
		{`{"val":""}`, intstr.String("")},
		{`{"val":"\u003c\u0026\u003e"}`, intstr.String("<&>")},
	}
	for _, tc := range tests {
		var got holder
		if err := json.Unmarshal([]byte(tc.json), &got); err != nil || got.Val != tc.v {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", tc.json, got.Val, err, tc.v)
		}
		out, err := json.Marshal(holder{tc.v})
		if err != nil || string(out) != tc.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.v, out, err, tc.json)
		}
	}
	if intstr.Int(5) == intstr.String("5") {
		t.Errorf("Int(5) == String(\"5\"); want distinct values")
	}
}

func TestJSONNull(t *testing.T) {
	t.Parallel()
	// As upstream, null decodes as the integer 0.
	var got holder
	got.Val = intstr.Percent(5)
	if err := json.Unmarshal([]byte(`{"val":null}`), &got); err != nil || got.Val != intstr.Int(0) {
		t.Errorf("Unmarshal(null) = %v, %v; want 0", got.Val, err)
	}
}

func TestJSONErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"val":1.5}`, `{"val":2147483648}`, `{"val":true}`, `{"val":[1]}`, `{"val":{}}`} {
		var got holder
		err := json.Unmarshal([]byte(in), &got)
		var fe *field.Error
		if !errors.As(err, &fe) || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v; want *field.Error wrapping ErrInvalid", in, err)
		}
	}
	var v intstr.Value
	if err := v.UnmarshalJSON(nil); err == nil {
		t.Errorf("UnmarshalJSON(nil) = nil; want an error")
	}
}
