package daemonset

import (
	"strings"
	"testing"

	"github.com/kubesem/kubesem/internal/names"
)

func TestNames(t *testing.T) {
	t.Parallel()
	l63 := strings.Repeat("a", 63)
	for _, c := range []struct {
		s                    string
		qualified, value, dn bool
	}{
		{"", false, true, false},
		{"a", true, true, true},
		{"A", true, true, false},
		{l63, true, true, true},
		{l63 + "a", false, false, true}, // a subdomain's labels are not limited to 63
		{"a-b_c.d", true, true, false},
		{"a.b-c", true, true, true},
		{"-a", false, false, false},
		{"a-", false, false, false},
		{"example.com/app", true, false, false},
		{"Example.com/app", false, false, false},
		{"/app", false, false, false},
		{"example.com/", false, false, false},
		{"a/b/c", false, false, false},
		{"a..b", true, true, false},
		{"a b", false, false, false},
		{strings.Repeat("a.", 126) + "a", false, false, true},   // 253 characters
		{strings.Repeat("a.", 126) + "ab", false, false, false}, // 254
		{strings.Repeat("a.", 127) + "a", false, false, false},  // 255
	} {
		if got := names.QualifiedName(c.s); got != c.qualified {
			t.Errorf("names.QualifiedName(%q) = %v", c.s, got)
		}
		if got := names.LabelValue(c.s); got != c.value {
			t.Errorf("names.LabelValue(%q) = %v", c.s, got)
		}
		if got := names.DNS1123Subdomain(c.s); got != c.dn {
			t.Errorf("names.DNS1123Subdomain(%q) = %v", c.s, got)
		}
	}
}
