// Package fuzzlimit sets kubesem's fuzz targets up so that they keep
// fuzzing.
//
// The Go fuzzing engine minimises every input that finds new coverage, for
// up to -fuzzminimizetime (60 s by default) before it fuzzes on. A rapid
// input is a stream of choices, not a document: almost every input widens
// coverage, and cutting bytes out of it redraws the whole value, so
// minimisation rarely converges and a target spends its time there — about
// 1,300 executions in 20 s where 65,000 are possible. Crash minimisation is
// of little use to rapid targets either, since rapid's own shrinking does
// not run under MakeFuzz. Targets over JSON documents stall the same way
// when their inputs are large.
//
// [Rapid] and [Limit] therefore bound minimisation to [MinimizeLimit]
// executions per input, and [NoMinimize] turns it off, unless the command
// line sets -fuzzminimizetime.
package fuzzlimit

import (
	"flag"
	"testing"

	"pgregory.net/rapid"
)

// MinimizeLimit is the -fuzzminimizetime [Limit] sets when the command line
// does not: 100 executions per input.
const MinimizeLimit = "100x"

const minimizeFlag = "test.fuzzminimizetime"

// Rapid runs prop as the fuzz target of f, as f.Fuzz(rapid.MakeFuzz(prop))
// does, with minimisation bounded by [Limit]. As a plain test it runs the
// seed corpus.
func Rapid(f *testing.F, prop func(*rapid.T)) {
	f.Helper()
	Limit(f)
	f.Fuzz(rapid.MakeFuzz(prop))
}

// Limit bounds the minimisation of f's inputs to MinimizeLimit executions
// unless -fuzzminimizetime is given. Call it before f.Fuzz, which reads
// the flag.
func Limit(f *testing.F) {
	f.Helper()
	if err := limitMinimize(MinimizeLimit); err != nil {
		f.Fatal(err)
	}
}

// NoMinimize turns minimisation off unless -fuzzminimizetime is given: for
// targets whose inputs are readable as found (JSON documents) and where a
// slow input, the kind such a target looks for, would be run again for
// every candidate. Call it before f.Fuzz.
func NoMinimize(f *testing.F) {
	f.Helper()
	if err := limitMinimize("0"); err != nil {
		f.Fatal(err)
	}
}

// limitMinimize sets -test.fuzzminimizetime to limit unless it was given.
func limitMinimize(limit string) error {
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
	return flag.Set(minimizeFlag, limit)
}
