package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestServeAnswersEveryLine: a script of valid, invalid, panicking, slow
// and over-long lines (and lines with trailing data or a repeated key) is
// answered line by line, in order, and serving goes on after each.
func TestServeAnswersEveryLine(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	k := Kubesem().(kubesem)
	k.decisions["test.Panic"] = Bind("test.Panic", func(struct{}, struct{}) (struct{}, error) { panic("boom") })
	k.decisions["test.Slow"] = Bind("test.Slow", func(struct{}, struct{}) (struct{}, error) {
		<-release
		return struct{}{}, nil
	})
	valid := `{"decision":"intstr.Scaled","input":{"value":5,"total":1}}`
	script := []struct{ line, want string }{
		{valid, `"output":{"value":5,"untruncated":5}`},
		{"not json", `"failure":"bad request: `},
		{`{"decision":"intstr.Scaled","input":{"value":"abc%","total":3}}`, `"output":{"error":{"field":"value","kind":"Invalid"`},
		{`{"decision":"test.Panic","input":{}}`, `"failure":"internal error: decision test.Panic panicked: boom`},
		{valid, `"output":{"value":5,"untruncated":5}`},
		{`{"decision":"test.Slow","input":{}}`, `"failure":"internal error: decision test.Slow did not answer within 100ms`},
		{`{"decision":"intstr.Scaled","input":{"value":"` + strings.Repeat("9", 5000) + `"}}`, `"failure":"bad request: line longer than 1024 bytes (skipped)"`},
		{valid + ` {}`, `"failure":"bad request: `},
		{`{"decision":"intstr.Scaled","input":{"value":1,"value":2,"total":1}}`, `"failure":"bad request: input.value: duplicate value: key given more than once"`},
		{`{"decision":"nope.Nope","input":{}}`, `"unsupported":true`},
		{"", `"failure":"bad request: `},
		{valid, `"output":{"value":5,"untruncated":5}`},
	}
	var in strings.Builder
	for i, s := range script {
		in.WriteString(s.line)
		if i < len(script)-1 {
			in.WriteString("\n") // the last line has no end
		}
	}
	var out bytes.Buffer
	start := time.Now()
	if err := ServeWith(ServeOptions{Timeout: 100 * time.Millisecond, MaxLine: 1024}, k, strings.NewReader(in.String()), &out); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("served the script in %v", d)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(script) {
		t.Fatalf("%d answers for %d lines:\n%s", len(lines), len(script), out.String())
	}
	for i, s := range script {
		var resp Response
		if err := json.Unmarshal([]byte(lines[i]), &resp); err != nil {
			t.Errorf("answer %d is not a response: %q", i, lines[i])
		}
		if !strings.Contains(lines[i], s.want) {
			t.Errorf("answer %d = %s; want it to contain %s", i, lines[i], s.want)
		}
	}
}

// TestDecidePanicIsAnError: kubesem's own Decide turns a panicking
// decision into an ErrInternal error naming it.
func TestDecidePanicIsAnError(t *testing.T) {
	t.Parallel()
	k := Kubesem().(kubesem)
	k.decisions["test.Panic"] = Bind("test.Panic", func(struct{}, struct{}) (struct{}, error) { panic("boom") })
	_, err := k.Decide("test.Panic", nil, json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "test.Panic") || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("Decide(test.Panic) = %v; want an internal error naming it", err)
	}
}

func TestReadLine(t *testing.T) {
	t.Parallel()
	in := "a\r\n" + strings.Repeat("x", 10) + "\n" + strings.Repeat("y", 11) + "\nlast"
	r := newReader(in)
	for _, want := range []struct {
		line string
		long bool
	}{{"a", false}, {strings.Repeat("x", 10), false}, {"", true}, {"last", false}} {
		line, long, _ := readLine(r, 10)
		if string(line) != want.line || long != want.long {
			t.Errorf("readLine = %q, %v; want %q, %v", line, long, want.line, want.long)
		}
	}
	if line, long, err := readLine(r, 10); len(line) != 0 || long || err == nil {
		t.Errorf("after the end: %q, %v, %v", line, long, err)
	}
}

// newReader reads s through a 16-byte buffer, so that lines span reads.
func newReader(s string) *bufio.Reader {
	return bufio.NewReaderSize(strings.NewReader(s), 16)
}
