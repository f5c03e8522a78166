package main

import (
	"bytes"
	"go/doc/comment"
	"go/format"
	"os"
	"strings"
	"testing"
)

// docIntro opens the manual in doc.go, before the usage and the commands'
// sections.
const docIntro = `Command kubesem asks kubesem what the Kubernetes v1.36.3 workload
controllers decide: it answers single decisions (decide, serve), checks
implementations against the conformance vectors (conformance), explains
what the controllers do next in a cluster dump or a live cluster
(explain), watches a live cluster for controller writes kubesem does not
predict (shadow), runs workloads and whole scenarios on the world of
package cluster (simulate), and explores every interleaving of a small
cluster's events against properties (check).

This comment is the CLI's manual. Each section below is exactly what
"kubesem help <command>" and "kubesem <command> -h" print
(TestDocIsTheManual keeps them equal; "go test -run TestDocIsTheManual
-update" in cmd/kubesem rewrites this file from the commands' help).

Install kubesem and the kubectl plugin kubectl-kubesem:

	go install github.com/kubesem/kubesem/cmd/kubesem/...@latest

# Usage
`

// manual is doc.go as the commands' help makes it: docIntro, the usage,
// then one section per help topic and the plugin's usage, formatted as
// gofmt formats a doc comment.
func manual(t *testing.T) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString(docIntro)
	b.WriteString("\n")
	b.WriteString(usage)
	for _, topic := range helpTopics() {
		code, out, errOut := runCLI(t, "", append([]string{"help"}, topic...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("kubesem help %v = %d, stderr %q", topic, code, errOut)
		}
		b.WriteString("\n# kubesem " + strings.Join(topic, " ") + "\n\n")
		b.WriteString(out)
	}
	b.WriteString("\n# kubectl kubesem\n\n")
	b.WriteString(pluginUsage)

	var p comment.Parser
	var pr comment.Printer
	text := pr.Comment(p.Parse(b.String()))
	var src bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		if line == "" {
			src.WriteString("//\n")
		} else {
			src.WriteString("// " + line + "\n")
		}
	}
	src.WriteString("package main\n")
	out, err := format.Source(src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocIsTheManual: doc.go's package comment is the CLI's manual, made
// of every command's help as "kubesem help <command>" prints it; -update
// rewrites doc.go.
func TestDocIsTheManual(t *testing.T) {
	want := manual(t)
	if *update {
		if err := os.WriteFile("doc.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("doc.go is not the commands' help; run go test -run TestDocIsTheManual -update in cmd/kubesem")
	}
}

// TestHelpCommand: every command has a manual; "kubesem help <command>"
// prints exactly what "<command> -h" and "<command> --help" print, on
// stdout, with exit 0; an unknown command is refused with exit 2; the
// plugin's help forwards to kubesem's.
func TestHelpCommand(t *testing.T) {
	for _, topic := range helpTopics() {
		code, out, errOut := runCLI(t, "", append([]string{"help"}, topic...)...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: kubesem "+strings.Join(topic, " ")) {
			t.Errorf("kubesem help %v = %d, stdout %.60q, stderr %q; want 0 and its usage", topic, code, out, errOut)
			continue
		}
		if len(strings.Fields(out)) < 15 {
			t.Errorf("kubesem help %v: %q is no manual", topic, out)
		}
		for _, h := range []string{"-h", "--help"} {
			_, direct, _ := runCLI(t, "", append(append([]string{}, topic...), h)...)
			if direct != out {
				t.Errorf("kubesem %v %s differs from kubesem help %v", topic, h, topic)
			}
		}
		var stdout, stderr bytes.Buffer
		if code := entry(append([]string{pluginName, "help"}, topic...), strings.NewReader(""), &stdout, &stderr); code != 0 || stdout.String() != out {
			t.Errorf("kubectl kubesem help %v = %d, differs from kubesem help %v", topic, code, topic)
		}
	}
	for _, bad := range [][]string{{"bogus"}, {"simulate", "bogus"}, {"check", "bogus"}} {
		code, out, errOut := runCLI(t, "", append([]string{"help"}, bad...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, "unknown command") {
			t.Errorf("kubesem help %v = %d, stdout %q, stderr %.60q; want 2 and an error", bad, code, out, errOut)
		}
	}
	if code, out, _ := runCLI(t, "", "help"); code != 0 || out != usage {
		t.Errorf("kubesem help = %d, %.40q; want 0 and the usage", code, out)
	}
}
