package conformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
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

// Process is an external implementation: a program that reads one JSON
// Request per line on its standard input and answers each with one JSON
// Response line on its standard output, in order. It is safe for use by one
// goroutine at a time; Decide serialises calls.
type Process struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	dead error
}

// Exec starts name with args as an external implementation.
func Exec(name string, args ...string) (*Process, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Process{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
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
		p.dead = fmt.Errorf("writing to implementation: %w", err)
		return nil, p.dead
	}
	reply, err := p.out.ReadBytes('\n')
	if err != nil {
		p.dead = fmt.Errorf("reading from implementation: %w", err)
		return nil, p.dead
	}
	var r Response
	if err := json.Unmarshal(reply, &r); err != nil {
		return nil, fmt.Errorf("implementation wrote an invalid response line: %v", err)
	}
	switch {
	case r.Unsupported:
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, decision)
	case r.Failure != "":
		return nil, errors.New(r.Failure)
	}
	return r.Output, nil
}

// Close closes the implementation's standard input and waits for it to exit.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.in.Close()
	return p.cmd.Wait()
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
