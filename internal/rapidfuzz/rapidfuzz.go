// Package rapidfuzz runs rapid properties as Go fuzz targets that keep
// fuzzing.
//
// The Go fuzzing engine minimises every input that finds new coverage, for
// up to -fuzzminimizetime (60 s by default) before it fuzzes on. A rapid
// input is a stream of choices, not a document: almost every input widens
// coverage, and cutting bytes out of it redraws the whole value, so
// minimisation rarely converges and a target spends its time there — about
// 900 executions in 20 s where 75,000 are possible. Crash minimisation is
// of little use too, since rapid's own shrinking does not run under
// MakeFuzz.
//
// [Fuzz] therefore bounds minimisation to [MinimizeLimit] executions per
// input unless the command line sets -fuzzminimizetime itself.
package rapidfuzz

import (
	"flag"
	"testing"

	"pgregory.net/rapid"
)

// MinimizeLimit is the -fuzzminimizetime [Fuzz] sets when the command line
// does not: 100 executions per input.
const MinimizeLimit = "100x"

const minimizeFlag = "test.fuzzminimizetime"

// Fuzz runs prop as the fuzz target of f, as f.Fuzz(rapid.MakeFuzz(prop))
// does, with minimisation bounded to MinimizeLimit unless
// -fuzzminimizetime is given. As a plain test it runs the seed corpus.
func Fuzz(f *testing.F, prop func(*rapid.T)) {
	f.Helper()
	if err := limitMinimize(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(rapid.MakeFuzz(prop))
}

// limitMinimize sets -test.fuzzminimizetime to MinimizeLimit unless it was
// given. The flag is read when the fuzz target calls f.Fuzz.
func limitMinimize() error {
	if flag.Lookup(minimizeFlag) == nil {
		return nil
	}
	given := false
	flag.Visit(func(fl *flag.Flag) {
		if fl.Name == minimizeFlag {
			given = true
		}
	})
	if given {
		return nil
	}
	return flag.Set(minimizeFlag, MinimizeLimit)
}
