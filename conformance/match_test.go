package conformance_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/conformance"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		want, got string
		ok        bool
	}{
		{"equal objects", `{"a":1}`, `{"a":1}`, true},
		{"extra keys in got are not checked", `{"a":1}`, `{"a":1,"b":2}`, true},
		{"missing key fails", `{"a":1,"b":2}`, `{"a":1}`, false},
		{"null want matches absent key", `{"a":null}`, `{}`, true},
		{"null want rejects a value", `{"a":null}`, `{"a":0}`, false},
		{"numbers compare by value", `{"a":1.0}`, `{"a":1}`, true},
		{"different numbers fail", `{"a":2}`, `{"a":1}`, false},
		{"big integers compare exactly", `9007199254740993`, `9007199254740992`, false},
		{"arrays must have equal length", `[1,2]`, `[1,2,3]`, false},
		{"arrays compare element-wise as subsets", `[{"a":1}]`, `[{"a":1,"b":2}]`, true},
		{"empty array matches null", `[]`, `null`, true},
		{"times compare as instants", `"2026-01-01T01:00:00+01:00"`, `"2026-01-01T00:00:00Z"`, true},
		{"different times fail", `"2026-01-01T00:00:01Z"`, `"2026-01-01T00:00:00Z"`, false},
		{"durations compare by value", `"1m30s"`, `"90s"`, true},
		{"different durations fail", `"1m"`, `"61s"`, false},
		{"strings differ", `"a"`, `"b"`, false},
		{"bools", `true`, `false`, false},
		{"type mismatch", `{"a":"1"}`, `{"a":1}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ok, why := conformance.Match(json.RawMessage(c.want), json.RawMessage(c.got))
			if ok != c.ok {
				t.Errorf("Match(%s, %s) = %v (%s); want %v", c.want, c.got, ok, why, c.ok)
			}
		})
	}
}
