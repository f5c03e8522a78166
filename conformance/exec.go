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
)

// Request is one line an external implementation reads on its standard
// input.
type Request struct {
	Decision string          `json:"decision"`
	Options  json.RawMessage `json:"options,omitempty"`
	Input    json.RawMessage `json:"input"`
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
	stderr  *tail
	dead    error
}

type reply struct {
	line []byte
	err  error
}

// ExecOptions says how [ExecWith] runs an implementation.
type ExecOptions struct {
	// Stderr receives the implementation's standard error as it writes it
	// (nil: discarded). The last lines are also quoted in errors.
	Stderr io.Writer
	// Timeout bounds the wait for each response line (0: 10 seconds).
	Timeout time.Duration
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
		p.timeout = 10 * time.Second
	}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			p.replies <- reply{line, err}
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
	var resp Response
	if err := json.Unmarshal(r.line, &resp); err != nil {
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

// Serve answers Requests read from r with Responses written to w, deciding
// each with impl, until r ends. It is the other end of [Exec]: `kubesem serve`
// runs it, and implementations in other languages mirror it.
func Serve(impl Implementation, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		var req Request
		var resp Response
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Failure = "bad request: " + err.Error()
		} else if out, err := impl.Decide(req.Decision, req.Options, req.Input); errors.Is(err, ErrUnsupported) {
			resp.Unsupported = true
		} else if err != nil {
			resp.Failure = err.Error()
		} else {
			resp.Output = out
		}
		line, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		bw.Write(append(line, '\n'))
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}
