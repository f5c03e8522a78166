package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/conformance"
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
	var data []byte
	var err error
	if len(args) == 1 && args[0] != "-" {
		data, err = os.ReadFile(args[0])
	} else {
		data, err = io.ReadAll(stdin)
	}
	if err != nil {
		return usagef("decide: %v", err)
	}
	var req conformance.Request
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:se.Offset], []byte("\n"))
			col := int(se.Offset) - bytes.LastIndexByte(data[:se.Offset], '\n')
			return usagef("decide: request: line %d, column %d: %v", line, col, err)
		}
		return usagef("decide: request: %v", err)
	}
	if req.Decision == "" {
		return usagef("decide: request: decision: required value")
	}
	out, err := conformance.Kubesem().Decide(req.Decision, req.Options, req.Input)
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
			Field, Kind, Value, Reason string
		} `json:"error"`
	}
	if json.Unmarshal(out, &probe) == nil && probe.Error != nil {
		e := probe.Error
		path := "input"
		if e.Field != "" {
			path = "input." + e.Field
			if strings.HasPrefix(e.Field, "[") {
				path = "input" + e.Field
			}
		}
		if e.Reason == "" {
			e.Reason = e.Kind
		}
		return usagef("decide: %s: %s: %s", path, strconv.Quote(e.Value), e.Reason)
	}
	return nil
}

func serve(stdin io.Reader, stdout io.Writer) error {
	return conformance.Serve(conformance.Kubesem(), stdin, stdout)
}

func listDecisions(args []string, stdout io.Writer) error {
	verbose := false
	for _, a := range args {
		switch a {
		case "-v", "--v", "-verbose", "--verbose":
			verbose = true
		case "-h", "--help", "-help":
			io.WriteString(stdout, "usage: kubesem decisions [-v]\n\nLists every decision kubesem answers; -v adds each one's input, options and output shape.\n")
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
