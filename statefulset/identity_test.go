package statefulset

import (
	"errors"
	"reflect"

	"math"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func TestParentAndOrdinal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pod    string
		parent string
		ord    int32
		ok     bool
	}{
		{"web-0", "web", 0, true},
		{"web-12", "web", 12, true},
		{"my-web-3", "my-web", 3, true},
		{"web", "", -1, false},
		{"web-", "", -1, false},
		{"web-x", "", -1, false},
		{"web--1", "web-", 1, true},
		{"web-2147483647", "web", 2147483647, true},
		{"web-2147483648", "web", -1, false},
		{"web-99999999999999999999", "web", -1, false},
		{"web-01", "web", 1, true},
		{"-5", "", 5, true},
	}
	for _, c := range cases {
		p, o, ok := ParentAndOrdinal(c.pod)
		if p != c.parent || o != c.ord || ok != c.ok {
			t.Errorf("%q: got %q %d %v, want %q %d %v", c.pod, p, o, ok, c.parent, c.ord, c.ok)
		}
	}
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	if got := DNSName("web-0", "nginx", "default", "cluster.local"); got != "web-0.nginx.default.svc.cluster.local" {
		t.Error(got)
	}
	if got := ClaimName("www", "web", 2); got != "www-web-2" {
		t.Error(got)
	}
	l := IdentityLabels("web", 1)
	if !IdentityMatches("web", 1, "nginx", "web-1", "web-1", "nginx", l) {
		t.Error("identity should match")
	}
	if IdentityMatches("web", 1, "nginx", "web-1", "web-1", "other", l) {
		t.Error("subdomain mismatch should not match")
	}
	if IsMemberOf("web", "webx-1") || !IsMemberOf("web", "web-1") || !IsMemberOf("web", "web-2147483648") || IsMemberOf("web", "web--1") || IsMemberOf("web", "web-x") {
		t.Error("membership")
	}
}

func TestOrdinals(t *testing.T) {
	t.Parallel()
	if f, e, err := Ordinals(3, 5); err != nil || f != 5 || e != 8 {
		t.Error(f, e, err)
	}
	_, _, err := Ordinals(-1, 0)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.replicas" || !errors.Is(err, field.ErrNegative) {
		t.Error(err)
	}
	if f, e, err := Ordinals(1, 2147483647); err != nil || f != 2147483647 || e != 2147483648 {
		t.Errorf("Ordinals(1, MaxInt32) = %d, %d, %v; want the one ordinal MaxInt32", f, e, err)
	}
	// The API accepts a last ordinal past int32; upstream counts in int.
	if f, e, err := Ordinals(2147483647, 2147483647); err != nil || f != 2147483647 || e != 4294967294 {
		t.Errorf("Ordinals(MaxInt32, MaxInt32) = %d, %d, %v; want [MaxInt32, 2*MaxInt32)", f, e, err)
	}
	if _, _, err := Ordinals(0, -1); !errors.Is(err, field.ErrNegative) {
		t.Error(err)
	}
}

func FuzzParentAndOrdinal(f *testing.F) {
	f.Add("web-0")
	f.Add("a-b-c-99")
	f.Fuzz(func(t *testing.T, s string) {
		p, o, ok := ParentAndOrdinal(s)
		// The parent is taken from the name's last line.
		last := s[strings.LastIndexByte(s, '\n')+1:]
		if ok && PodName(p, o) != last && o >= 0 {
			// Leading zeros parse but do not round-trip; everything else must.
			if last[len(p)+1] != '0' {
				t.Fatalf("%q -> %q %d", s, p, o)
			}
		}
		if ParseOrdinal(s) != o {
			t.Fatalf("ParseOrdinal(%q) = %d; ParentAndOrdinal says %d", s, ParseOrdinal(s), o)
		}
		if !ok && o != -1 {
			t.Fatal("ordinal must be -1 when not ok")
		}
	})
}

func BenchmarkParentAndOrdinal(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ParentAndOrdinal("web-1234")
	}
}

// TestPodIdentity: seed 002's web-1 with claim template www, two claim
// templates in order, none; every identity matches itself.
func TestPodIdentity(t *testing.T) {
	t.Parallel()
	got := Identity("web", 1, "nginx", "default", "cluster.local", []string{"www"})
	want := PodIdentity{
		Pod: "web-1", Hostname: "web-1", DNS: "web-1.nginx.default.svc.cluster.local",
		Claims: []string{"www-web-1"},
		Labels: map[string]string{LabelPodName: "web-1", LabelPodIndex: "1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Identity(web, 1, nginx, default, cluster.local, [www]) = %+v; want %+v", got, want)
	}
	if got := Identity("db", 0, "s", "ns", "d", []string{"data", "logs"}).Claims; !reflect.DeepEqual(got, []string{"data-db-0", "logs-db-0"}) {
		t.Errorf("Identity(db, 0, [data logs]).Claims = %q; want [data-db-0 logs-db-0]", got)
	}
	if got := Identity("db", 0, "s", "ns", "d", nil).Claims; got == nil || len(got) != 0 {
		t.Errorf("Identity(db, 0, no templates).Claims = %#v; want empty, not nil", got)
	}
	for _, o := range []int32{0, 7, 2147483647} {
		id := Identity("web", o, "nginx", "default", "cluster.local", nil)
		if !IdentityMatches("web", o, "nginx", id.Pod, id.Hostname, "nginx", id.Labels) {
			t.Errorf("Identity(web, %d) = %+v does not match itself", o, id)
		}
	}
}

func BenchmarkIdentity(b *testing.B) {
	claims := []string{"www"}
	b.ReportAllocs()
	for b.Loop() {
		Identity("web", 12, "nginx", "default", "cluster.local", claims)
	}
}

func TestDecimalNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		o    int32
		want bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"10", 10, true},
		{"00", 0, false}, {"07", 7, false}, {"", 0, false}, {"-1", -1, false}, {"1", -1, false},
		{"2147483647", math.MaxInt32, true}, {"02147483647", math.MaxInt32, false},
		{"12345678901", 0, false}, {"1x", 1, false},
	} {
		if got := isDecimal(c.s, c.o); got != c.want {
			t.Errorf("isDecimal(%q, %d) = %v", c.s, c.o, got)
		}
	}
	if !isPodName("web-3", "web", 3) || isPodName("web3", "web", 3) || isPodName("web-3", "we", 3) || isPodName("web-", "web", 0) {
		t.Error("isPodName")
	}
	if !isClaimName("www-web-3", "www", "web", 3) || isClaimName("www-web-3", "ww", "web", 3) || isClaimName("wwwxweb-3", "www", "web", 3) ||
		isClaimName("www-webx3", "www", "web", 3) || isClaimName("www-web-", "www", "web", 0) {
		t.Error("isClaimName")
	}
}
