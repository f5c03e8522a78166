package names

import (
	"strings"
	"testing"
)

func TestQualifiedNameLimits(t *testing.T) {
	name63 := "a" + strings.Repeat("b", 61) + "c"
	prefix253 := strings.Repeat(strings.Repeat("a", 62)+".", 4)[:252] + "b"
	ok := []string{name63, "x/" + name63, prefix253 + "/n", "a_b", "a-b", "a.b", "1", "0a/9"}
	bad := []string{name63 + "d", prefix253 + "x/n", "a_", "_a", ".a", "a b", "A.com/n", "a-.b/n", "a.-b/n", "a../n", "-a/n", "a-/n", "a/", "a/_"}
	for _, s := range ok {
		if !QualifiedName(s) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range bad {
		if QualifiedName(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestLabelValue(t *testing.T) {
	for _, s := range []string{"", "a", "a.b_c-d", strings.Repeat("a", 63), "A9"} {
		if !LabelValue(s) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range []string{strings.Repeat("a", 64), "-a", "a-", ".", "a b", "a/b", "é"} {
		if LabelValue(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestDNS1123(t *testing.T) {
	for _, s := range []string{"a", "a-b", "a.b", "0", strings.Repeat("a", 253)} {
		if !DNS1123Subdomain(s) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range []string{"", "A", "a_b", "a..b", ".a", "a.", "-a", "a-", strings.Repeat("a", 254)} {
		if DNS1123Subdomain(s) {
			t.Errorf("%q accepted", s)
		}
	}
}
