package conformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
)

// Request is one line an external implementation reads on its standard
// input.
type Request struct {
	Decision string          `json:"decision"`
	Options  json.RawMessage `json:"options,omitempty"`
	Input    json.RawMessage `json:"input"`
}

// ParseRequest reads one request as the API server reads JSON (the whole
// line checked: syntax, repeated keys, nothing after the request); its
// keys are strict. Options and Input refer to line, uncopied.
func ParseRequest(line []byte) (Request, error) {
	var req Request
	members, ok, err := apijson.Members(line)
	if err != nil {
		return req, err
	}
	if !ok {
		return req, field.New("", "", fmt.Errorf("%w: want a request object", field.ErrInvalid))
	}
	for _, m := range members {
		switch m.Key {
		case "decision":
			if err := apijson.Unmarshal(m.Value, &req.Decision); err != nil {
				return req, field.Under("decision", err)
			}
		case "options":
			req.Options = m.Value
		case "input":
			req.Input = m.Value
		default:
			msg := "unknown field"
			for _, k := range []string{"decision", "options", "input"} {
				if strings.EqualFold(k, m.Key) {
					msg += fmt.Sprintf(" (keys are case-sensitive: %q is not %q)", m.Key, k)
				}
			}
			return req, field.New(apijson.Clip(m.Key), "", fmt.Errorf("%w: %s", field.ErrUnsupported, msg))
		}
	}
	return req, nil
}

// Response is the one line an external implementation writes on its
// standard output for each Request: the output, or unsupported: true, or a
// failure message.
type Response struct {
	Output      json.RawMessage `json:"output,omitempty"`
	Unsupported bool            `json:"unsupported,omitempty"`
	Failure     string          `json:"failure,omitempty"`
}

// ErrGone wraps the errors of a [Process] whose program has ended or was
// stopped: no later request can be answered.
var ErrGone = errors.New("implementation gone")

// Process is an external implementation: a program that reads one JSON
// Request per line on its standard input and answers each with one JSON
// Response line on its standard output, in order. It is safe for use by one
// goroutine at a time; Decide serialises calls.
type Process struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies chan reply
	timeout time.Duration
	max     int
	stderr  *tail
	dead    error
}

type reply struct {
	line []byte
	long bool
	err  error
}

// ExecOptions says how [ExecWith] runs an implementation.
type ExecOptions struct {
	// Stderr receives the implementation's standard error as it writes it
	// (nil: discarded). The last lines are also quoted in errors.
	Stderr io.Writer
	// Timeout bounds the wait for each response line (0: [DefaultTimeout]).
	Timeout time.Duration
	// MaxLine is the longest response line read, in bytes (0:
	// [DefaultMaxLine]); a longer one fails its request.
	MaxLine int
}

// Exec starts name with args as an external implementation, with the
// default ExecOptions.
func Exec(name string, args ...string) (*Process, error) {
	return ExecWith(ExecOptions{}, name, args...)
}

// ExecWith starts name with args as an external implementation.
func ExecWith(opts ExecOptions, name string, args ...string) (*Process, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t := &tail{}
	if opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(opts.Stderr, t)
	} else {
		cmd.Stderr = t
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", name, err)
	}
	p := &Process{cmd: cmd, in: in, replies: make(chan reply), timeout: opts.Timeout, stderr: t}
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	max := opts.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	p.max = max
	go func() {
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, long, err := readLine(r, max)
			if err == io.EOF && (len(line) > 0 || long) {
				err = nil // the last line, without its end: the next read ends
			}
			p.replies <- reply{line, long, err}
			if err != nil {
				close(p.replies)
				return
			}
		}
	}()
	return p, nil
}

// Decide sends one request and reads its response.
func (p *Process) Decide(decision string, options, input json.RawMessage) (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead != nil {
		return nil, p.dead
	}
	line, err := json.Marshal(Request{Decision: decision, Options: options, Input: input})
	if err != nil {
		return nil, err
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		p.dead = p.exited("writing a request", err)
		return nil, p.dead
	}
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	var r reply
	select {
	case got, ok := <-p.replies:
		r = got
		if !ok {
			r.err = io.EOF
		}
	case <-timer.C:
		p.cmd.Process.Kill()
		p.dead = fmt.Errorf("%w: no answer to %s within %v: an implementation must write one response line per request and flush it (the process was stopped)%s", ErrGone, decision, p.timeout, p.stderr.quote())
		return nil, p.dead
	}
	if r.err != nil {
		p.dead = p.exited("reading its answer", r.err)
		return nil, p.dead
	}
	if r.long {
		return nil, fmt.Errorf("implementation wrote a response line longer than %d bytes", p.max)
	}
	var resp Response
	if err := apijson.Unmarshal(r.line, &resp); err != nil {
		return nil, fmt.Errorf("implementation wrote an invalid response line %q: %v", truncate(r.line, 200), err)
	}
	switch {
	case resp.Unsupported:
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, decision)
	case resp.Failure != "":
		return nil, errors.New(resp.Failure)
	}
	return resp.Output, nil
}

// exited describes the implementation's end after an I/O error: its exit
// status when it has exited, and the last lines of its standard error.
func (p *Process) exited(doing string, err error) error {
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case werr := <-done:
		status := "exit status 0"
		if werr != nil {
			status = werr.Error()
		}
		return fmt.Errorf("%w: it ended (%s) while kubesem was %s%s", ErrGone, status, doing, p.stderr.quote())
	case <-time.After(time.Second):
		return fmt.Errorf("%w: %s: %v%s", ErrGone, doing, err, p.stderr.quote())
	}
}

// Close closes the implementation's standard input and waits for it to exit.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.in.Close()
	if p.dead != nil {
		return nil
	}
	return p.cmd.Wait()
}

// tail keeps the last few kilobytes an implementation wrote on its
// standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(b), nil
}

// quote returns "; its standard error ended with: ..." or "".
func (t *tail) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return "; its standard error ended with:\n  " + strings.Join(lines, "\n  ")
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// ServeOptions bounds what [ServeWith] spends on one request.
type ServeOptions struct {
	// Timeout is how long one request may take (0: [DefaultTimeout]). A
	// request still undecided then is answered with a failure and the next
	// line is read; its decision is abandoned but keeps running in the
	// background until it returns (Go cannot stop it).
	Timeout time.Duration
	// MaxLine is the longest request line read, in bytes (0:
	// [DefaultMaxLine]). A longer line is answered with a failure and
	// skipped; no more than MaxLine bytes of it are held meanwhile.
	MaxLine int
}

// Defaults of [ServeOptions] and [ExecOptions].
const (
	DefaultTimeout = 10 * time.Second
	DefaultMaxLine = 256 << 20
)

// Serve answers Requests read from r with Responses written to w, deciding
// each with impl, until r ends, with the default [ServeOptions]. It is the
// other end of [Exec]: `kubesem serve` runs it, and implementations in
// other languages mirror it.
func Serve(impl Implementation, r io.Reader, w io.Writer) error {
	return ServeWith(ServeOptions{}, impl, r, w)
}

// ServeWith answers every line read from r with exactly one Response line
// on w, in order, until r ends: a request's output, unsupported: true, or
// a failure. A line that is not a request (malformed JSON, an unknown or
// repeated key, anything after the request), a line longer than
// opts.MaxLine, a decision that panics (an internal error naming the
// decision, to be reported) and a decision that takes longer than
// opts.Timeout are each answered with a failure, and serving goes on.
func ServeWith(opts ServeOptions, impl Implementation, r io.Reader, w io.Writer) error {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriter(w)
	for {
		line, long, err := readLine(br, opts.MaxLine)
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF && len(line) == 0 && !long {
			return nil
		}
		var resp Response
		if long {
			resp.Failure = fmt.Sprintf("bad request: line longer than %d bytes (skipped)", opts.MaxLine)
		} else {
			resp = answer(impl, line, opts.Timeout)
		}
		out, merr := json.Marshal(resp)
		if merr != nil {
			out, _ = json.Marshal(Response{Failure: "internal error: cannot encode the answer: " + merr.Error()})
		}
		bw.Write(append(out, '\n'))
		if ferr := bw.Flush(); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// answer decides one request line.
func answer(impl Implementation, line []byte, timeout time.Duration) Response {
	req, err := ParseRequest(line)
	if err != nil {
		return Response{Failure: "bad request: " + apijson.Describe(err)}
	}
	type result struct {
		out json.RawMessage
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: panicked(req.Decision, p)}
			}
		}()
		out, err := impl.Decide(req.Decision, req.Options, req.Input)
		done <- result{out, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var res result
	select {
	case res = <-done:
	case <-timer.C:
		return Response{Failure: fmt.Sprintf("%v: decision %s did not answer within %v and was abandoned (a kubesem bug: please report it with the request)", ErrInternal, apijson.Clip(req.Decision), timeout)}
	}
	switch {
	case errors.Is(res.err, ErrUnsupported):
		return Response{Unsupported: true}
	case res.err != nil:
		return Response{Failure: apijson.Clip(res.err.Error())}
	}
	return Response{Output: res.out}
}

// readLine reads one line (without its end, \n or \r\n). A line longer
// than max bytes is read to its end and dropped: long is set and line is
// nil; at most max bytes of it are held meanwhile. err is io.EOF for the
// last line when it has no end, and when r is done.
func readLine(r *bufio.Reader, max int) (line []byte, long bool, err error) {
	var chunks [][]byte
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		size := len(chunk)
		if size > 0 && chunk[size-1] == '\n' {
			size--
		}
		if !long && n+size > max {
			long, chunks = true, nil
		}
		if !long && len(chunk) > 0 {
			chunks = append(chunks, append([]byte(nil), chunk...))
			n += len(chunk)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			return nil, true, err
		}
		if len(chunks) == 1 {
			line = chunks[0]
		} else if len(chunks) > 1 {
			line = make([]byte, 0, n)
			for _, c := range chunks {
				line = append(line, c...)
			}
		}
		if k := len(line); k > 0 && line[k-1] == '\n' {
			line = line[:k-1]
			if k := len(line); k > 0 && line[k-1] == '\r' {
				line = line[:k-1]
			}
		}
		return line, false, err
	}
}
