package fuzzlimit

import (
	"flag"
	"testing"
)

// TestLimitMinimize: an unset -test.fuzzminimizetime becomes MinimizeLimit;
// one given on the command line is kept.
func TestLimitMinimize(t *testing.T) {
	fl := flag.Lookup(minimizeFlag)
	if fl == nil {
		t.Fatal("testing registers no " + minimizeFlag)
	}
	if err := limitMinimize(MinimizeLimit); err != nil {
		t.Fatal(err)
	}
	if got := fl.Value.String(); got != MinimizeLimit {
		t.Fatalf("-%s = %s; want %s", minimizeFlag, got, MinimizeLimit)
	}
	if err := flag.Set(minimizeFlag, "7s"); err != nil {
		t.Fatal(err)
	}
	if err := limitMinimize(MinimizeLimit); err != nil {
		t.Fatal(err)
	}
	if got := fl.Value.String(); got != "7s" {
		t.Fatalf("a given -%s was overridden: %s", minimizeFlag, got)
	}
}
