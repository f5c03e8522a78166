package difftest

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
)

// Main is the TestMain of every differential package: it raises rapid's
// default number of checks to 10,000 states per differential property.
// Pass -rapid.checks=1000000 for the long run:
//
//	go -C conformance/upstream test ./... -args -rapid.checks=1000000
//
// With -v it prints the number of goroutines left when the tests are done
// (a harness that does not stop its controllers shows there; see
// CheckNoLeak).
func Main(m *testing.M) {
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
	code := m.Run()
	if testing.Verbose() {
		fmt.Printf("goroutines at exit: %d\n", runtime.NumGoroutine())
	}
	os.Exit(code)
}
