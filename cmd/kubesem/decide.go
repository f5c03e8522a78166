package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/internal/apijson"
)

// decide reads one request and prints the decision's JSON output. An input
// error is printed as the {"error": ...} output and also reported on stderr,
// naming the field, with exit code 2.
func decide(args []string, stdin io.Reader, stdout io.Writer) error {
	if wantsHelp(args) {
		fmt.Fprintf(stdout, "usage: kubesem decide [FILE]\n\n%s\n", decideSynopsis)
		return nil
	}
	if len(args) > 1 {
		return usagef("decide: want at most one FILE")
	}
	file := "-"
	if len(args) == 1 {
		file = args[0]
	}
	data, err := readInput(file, stdin, maxRequestBytes)
	if err != nil {
		return usagef("decide: %v", err)
	}
	req, err := conformance.ParseRequest(data)
	if err != nil {
		return usagef("decide: request: %s", describe(err))
	}
	if req.Decision == "" {
		return usagef("decide: request: decision: required value")
	}
	out, err := conformance.Kubesem().Decide(req.Decision, req.Options, req.Input)
	if errors.Is(err, conformance.ErrInternal) {
		return fmt.Errorf("decide: %v", err)
	}
	if err != nil {
		return usagef("decide: %v", err)
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") == nil {
		out = pretty.Bytes()
	}
	stdout.Write(append(out, '\n'))
	var probe struct {
		Error *struct {
			Field  string `json:"field"`
			Kind   string `json:"kind"`
			Value  string `json:"value"`
			Reason string `json:"reason"`
		} `json:"error"`
	}
	if apijson.Unmarshal(out, &probe) == nil && probe.Error != nil {
		e := probe.Error
		path := "input"
		switch {
		case e.Field == "options" || strings.HasPrefix(e.Field, "options."):
			path = e.Field
		case strings.HasPrefix(e.Field, "["):
			path = "input" + e.Field
		case e.Field != "":
			path = "input." + e.Field
		}
		if e.Reason == "" {
			e.Reason = e.Kind
		}
		switch {
		case e.Value == "":
			return usagef("decide: %s: %s", path, e.Reason)
		case strings.HasPrefix(e.Value, `"`):
			return usagef("decide: %s: %s: %s", path, e.Value, e.Reason)
		}
		return usagef("decide: %s: %s: %s", path, strconv.Quote(e.Value), e.Reason)
	}
	return nil
}

// maxRequestBytes bounds what decide reads: a request larger than this is
// refused before it is decoded.
const maxRequestBytes = conformance.DefaultMaxLine

// readInput reads file ("-": stdin, when there is one), refusing more
// than limit bytes.
func readInput(file string, stdin io.Reader, limit int64) ([]byte, error) {
	r := stdin
	name := "standard input"
	size := int64(0)
	if file != "-" || stdin == nil {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, file
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	if size > limit {
		return nil, fmt.Errorf("%s is larger than %s; refused", name, byteSize(limit))
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+512))
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s; refused", name, byteSize(limit))
	}
	return data, nil
}

// byteSize writes n bytes as "64 MiB", "1 GiB", "512 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// describe writes a decoding error for one line of stderr.
func describe(err error) string { return apijson.Describe(err) }

const serveSynopsisFlags = `Every line is answered with exactly one response line, in order. A line
that is not a request, longer than --max-line, whose decision panics (an
internal error naming the decision: please report it with the request)
or that takes longer than --timeout is answered with a failure, and the
next line is read. A decision that timed out is abandoned but may keep
running in the background until it ends (it uses a CPU meanwhile).`

func serve(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	timeout := fs.Duration("timeout", conformance.DefaultTimeout, "the longest one request may take before it is answered with a failure")
	maxLine := fs.Int("max-line", conformance.DefaultMaxLine, "the longest request line read, in bytes; a longer one is answered with a failure and skipped")
	if err := parseFlags(fs, args, stdout, serveSynopsis+"\n\n"+serveSynopsisFlags); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected argument %q", fs.Arg(0))
	}
	if *timeout <= 0 || *maxLine <= 0 {
		return usagef("serve: --timeout and --max-line must be positive")
	}
	return conformance.ServeWith(conformance.ServeOptions{Timeout: *timeout, MaxLine: *maxLine}, conformance.Kubesem(), stdin, stdout)
}

const decisionsUsage = `usage: kubesem decisions [-v]

Lists every decision kubesem answers; -v adds each one's input, options
and output shape (a key printed without "?" is required). Each decision,
its vectors and the tests that check it against v1.36.3 are listed in
conformance/DECISIONS.md.

Example:

  kubesem decisions -v    # every decision with its input, options and output shape
`

func listDecisions(args []string, stdout io.Writer) error {
	verbose := false
	for _, a := range args {
		switch a {
		case "-v", "--v", "-verbose", "--verbose":
			verbose = true
		case "-h", "--help", "-help":
			io.WriteString(stdout, decisionsUsage)
			return nil
		default:
			return usagef("decisions: unknown argument %q", a)
		}
	}
	for _, d := range conformance.Registry() {
		io.WriteString(stdout, d.Name+"\n")
		if verbose {
			fmt.Fprintf(stdout, "  input:   %s\n  options: %s\n  output:  %s\n",
				conformance.Shape(d.Input), conformance.Shape(d.Options), conformance.Shape(d.Output))
		}
	}
	return nil
}
