package upstream_test

import (
	"flag"
	"os"
	"testing"
)

// TestMain raises rapid's default number of checks to 10,000 states per
// differential property. Pass -rapid.checks=1000000 for the long run:
//
//	go -C conformance/upstream test ./... -args -rapid.checks=1000000
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "rapid.checks" {
			set = true
		}
	})
	if !set {
		if err := flag.Set("rapid.checks", "10000"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
