package conformance_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

// The request path's budget: every decision answers any input within
// decideTime and decideAlloc bytes of allocation (issue 19).
const (
	decideTime  = time.Second
	decideAlloc = 100 << 20
)

// FuzzDecide drives kubesem's request path, Kubesem().Decide, over the
// registry: which picks the decision (modulo the registry's size), options
// and input are its JSON. Every decision must answer within decideTime and
// decideAlloc, never panic, and return either its output or a field error
// answer as JSON (never a Go error).
//
// The seed corpus is every vector's (decision, options, input) and, for
// each vector, its structural mutations (decideMutations: a number set to
// 0, -1, MaxInt32, MaxInt64 or 1e300, a string made 64 KiB long, an array
// doubled, a key removed). As a plain `go test` it runs that corpus; CI
// fuzzes briefly with
//
//	go test ./conformance -run '^$' -fuzz '^FuzzDecide$' -fuzztime 60s
func FuzzDecide(f *testing.F) {
	reg := conformance.Registry()
	index := map[string]uint16{}
	for i, d := range reg {
		index[d.Name] = uint16(i)
	}
	for _, s := range decideSeeds(f) {
		f.Add(index[s.decision], []byte(s.options), []byte(s.input))
	}
	impl := conformance.Kubesem()
	fuzzlimit.NoMinimize(f)
	f.Fuzz(func(t *testing.T, which uint16, options, input []byte) {
		d := reg[int(which)%len(reg)].Name
		what := fmt.Sprintf("%s (options %s, input %.2000s)", d, options, input)
		out, err := withinBudget(t, what, func() (json.RawMessage, error) {
			return impl.Decide(d, options, input)
		})
		if err != nil {
			t.Fatalf("%s: Decide returned a Go error, not a field error answer: %v\noptions: %s\ninput: %.2000s", d, err, options, input)
		}
		if !json.Valid(out) {
			t.Fatalf("%s: answer is not JSON: %.500s\ninput: %.2000s", d, out, input)
		}
	})
}

// FuzzServe drives conformance.Serve, the loop `kubesem serve` runs, with
// a fuzzed request line followed by a valid one: Serve answers each line
// with one response line, keeps serving after the fuzzed one, and stays
// within the request budget. Seeds are every vector's request line.
func FuzzServe(f *testing.F) {
	seeds := decideSeeds(f)
	for _, s := range seeds {
		if s.mutation != "" {
			continue
		}
		line, err := json.Marshal(conformance.Request{Decision: s.decision, Options: json.RawMessage(s.options), Input: json.RawMessage(s.input)})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(line)
	}
	f.Add([]byte("not json"))
	f.Add([]byte(`{"decision":"intstr.Scaled"}`))
	f.Add([]byte(`{"decision":"nope.Nope","input":{}}`))
	const probe = `{"decision":"intstr.Scaled","input":{"value":5,"total":1}}`
	impl := conformance.Kubesem()
	fuzzlimit.NoMinimize(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\r\n") {
			return // one request per line: the framing is not under test
		}
		var out bytes.Buffer
		_, err := withinBudget(t, fmt.Sprintf("Serve of %.2000s", line), func() (json.RawMessage, error) {
			return nil, conformance.Serve(impl, bytes.NewReader(append(append(line, '\n'), probe+"\n"...)), &out)
		})
		if err != nil {
			t.Fatalf("Serve: %v\nline: %.2000s", err, line)
		}
		var got []string
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<28)
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		if len(got) != 2 {
			t.Fatalf("Serve answered %d lines for 2 requests\nline: %.2000s\nanswers: %.2000q", len(got), line, got)
		}
		var resp conformance.Response
		if err := json.Unmarshal([]byte(got[0]), &resp); err != nil {
			t.Fatalf("response is not a Response: %v: %.500s", err, got[0])
		}
		if !strings.Contains(got[1], `"output":{"value":5,"untruncated":5}`) {
			t.Fatalf("after the fuzzed line Serve answered the probe with %.500s\nline: %.2000s", got[1], line)
		}
	})
}

// withinBudget runs call within the request budget, failing t when it is
// exceeded (see budgetExceeded). what names the decision.
func withinBudget(t *testing.T, what string, call func() (json.RawMessage, error)) (json.RawMessage, error) {
	t.Helper()
	out, err, why := budgetExceeded(decideTime, decideHang, decideAlloc, call)
	if why != "" {
		t.Fatalf("%s %s", what, why)
	}
	return out, err
}

// decideHang is how long a call may run on the wall clock before it counts
// as hung: the time budget is CPU time (a loaded machine and the fuzzer's
// coverage instrumentation slow the wall clock, not the work).
const decideHang = 10 * decideTime

// budgetExceeded runs call and says how it broke the budget ("" when it
// did not): it panicked, did not return within hang, used more than limit
// of its thread's CPU time (wall time where that is not measured) or
// allocated more than alloc bytes.
func budgetExceeded(limit, hang time.Duration, alloc uint64, call func() (json.RawMessage, error)) (json.RawMessage, error, string) {
	type result struct {
		out   json.RawMessage
		err   error
		alloc uint64
		cpu   time.Duration
		panic string
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- r
		}()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start, cpu0 := time.Now(), threadCPU()
		r.out, r.err = call()
		r.cpu = time.Since(start)
		if cpu1 := threadCPU(); cpu0 >= 0 && cpu1 >= 0 {
			r.cpu = cpu1 - cpu0
		}
		runtime.ReadMemStats(&after)
		r.alloc = after.TotalAlloc - before.TotalAlloc
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(hang):
		return nil, nil, fmt.Sprintf("did not return within %v", hang)
	}
	switch {
	case r.panic != "":
		return nil, nil, "panicked: " + r.panic
	case r.cpu > limit:
		return nil, nil, fmt.Sprintf("took %v (budget %v)", r.cpu, limit)
	case r.alloc > alloc:
		return nil, nil, fmt.Sprintf("allocated %d MB (budget %d MB)", r.alloc>>20, alloc>>20)
	}
	return r.out, r.err, ""
}

// decideSeed is one seed of the request-path fuzz targets.
type decideSeed struct {
	decision, options, input string
	// mutation names the structural mutation applied, "" for the vector.
	mutation string
}

// decideSeeds returns every vector's request and its structural mutations.
func decideSeeds(tb testing.TB) []decideSeed {
	vectors, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		tb.Fatal(err)
	}
	var out []decideSeed
	for _, v := range vectors {
		out = append(out, decideSeed{decision: v.Decision, options: string(v.Options), input: string(v.Input)})
		for _, m := range decideMutations(v.Package+"/"+v.Name, v.Input) {
			out = append(out, decideSeed{decision: v.Decision, options: string(v.Options), input: m.input, mutation: m.name})
		}
	}
	return out
}

type mutated struct{ name, input string }

// decideMutations returns input with one structural change per kind, each
// at one place chosen by hashing key: a number set to 0, -1, MaxInt32,
// MaxInt64 or 1e300, a string made 64 KiB long, an array doubled, a key
// removed. Kinds with no place in input are left out.
func decideMutations(key string, input json.RawMessage) []mutated {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return nil
	}
	var nums, strs, arrays, keys [][]any
	walkJSON(doc, nil, func(path []any, v any) {
		p := slices.Clone(path)
		switch x := v.(type) {
		case json.Number:
			nums = append(nums, p)
		case string:
			strs = append(strs, p)
		case []any:
			if len(x) > 0 {
				arrays = append(arrays, p)
			}
		}
		if len(p) > 0 {
			if _, ok := p[len(p)-1].(string); ok {
				keys = append(keys, p)
			}
		}
	})
	h := fnv.New64a()
	h.Write([]byte(key))
	seed := h.Sum64()
	pick := func(kind int, paths [][]any) []any {
		return paths[(seed+uint64(kind)*0x9e3779b97f4a7c15)%uint64(len(paths))]
	}
	long := strings.Repeat("x", 1<<16)
	kinds := []struct {
		name  string
		paths [][]any
		set   func(any) (any, bool)
	}{
		{"zero", nums, func(any) (any, bool) { return json.Number("0"), true }},
		{"minus one", nums, func(any) (any, bool) { return json.Number("-1"), true }},
		{"MaxInt32", nums, func(any) (any, bool) { return json.Number(strconv.Itoa(math.MaxInt32)), true }},
		{"MaxInt64", nums, func(any) (any, bool) { return json.Number(strconv.FormatInt(math.MaxInt64, 10)), true }},
		{"1e300", nums, func(any) (any, bool) { return json.Number("1e300"), true }},
		{"long string", strs, func(any) (any, bool) { return long, true }},
		{"doubled array", arrays, func(v any) (any, bool) { a := v.([]any); return append(slices.Clip(a), a...), true }},
		{"key removed", keys, func(any) (any, bool) { return nil, false }},
	}
	var out []mutated
	for i, k := range kinds {
		if len(k.paths) == 0 {
			continue
		}
		m := setJSON(doc, pick(i, k.paths), k.set)
		b, err := json.Marshal(m)
		if err != nil {
			continue
		}
		out = append(out, mutated{k.name, string(b)})
	}
	return out
}

// walkJSON calls visit for v and everything inside it, with its path of
// object keys (string) and array indexes (int).
func walkJSON(v any, path []any, visit func([]any, any)) {
	visit(path, v)
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			walkJSON(e, append(path, k), visit)
		}
	case []any:
		for i, e := range x {
			walkJSON(e, append(path, i), visit)
		}
	}
}

// setJSON returns a copy of v with the value at path replaced by set's
// result, or removed when set reports false.
func setJSON(v any, path []any, set func(any) (any, bool)) any {
	if len(path) == 0 {
		n, _ := set(v)
		return n
	}
	switch x := v.(type) {
	case map[string]any:
		k := path[0].(string)
		c := make(map[string]any, len(x))
		for kk, e := range x {
			c[kk] = e
		}
		if len(path) == 1 {
			if n, keep := set(x[k]); keep {
				c[k] = n
			} else {
				delete(c, k)
			}
			return c
		}
		c[k] = setJSON(x[k], path[1:], set)
		return c
	case []any:
		i := path[0].(int)
		c := slices.Clone(x)
		if len(path) == 1 {
			if n, keep := set(x[i]); keep {
				c[i] = n
			} else {
				c = slices.Delete(c, i, i+1)
			}
			return c
		}
		c[i] = setJSON(x[i], path[1:], set)
		return c
	}
	return v
}

// TestDecideMutations shows each structural mutation applied once.
func TestDecideMutations(t *testing.T) {
	t.Parallel()
	in := json.RawMessage(`{"a":{"n":5,"s":"x","l":[1]}}`)
	got := map[string]string{}
	for _, m := range decideMutations("k", in) {
		got[m.name] = m.input
	}
	checks := map[string]string{
		"zero": `0`, "minus one": `-1`, "MaxInt32": `2147483647`, "MaxInt64": `9223372036854775807`,
		"1e300": `1e300`, "long string": strings.Repeat("x", 1<<16), "doubled array": `[`,
	}
	for name, want := range checks {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: %.200s lacks %.40s", name, got[name], want)
		}
	}
	if m := got["key removed"]; len(m) >= len(in) {
		t.Errorf("key removed: %s", m)
	}
	if len(got) != 8 {
		t.Errorf("got %d mutations; want 8: %v", len(got), got)
	}
}

// TestBudgetExceeded: a panic, a call over the allocation budget, one over
// the time budget and one that does not return are each reported; a call
// within budget is not. It does not run in parallel: the allocation budget
// is measured process-wide.
func TestBudgetExceeded(t *testing.T) {
	spin := func(d time.Duration) { // uses d of CPU time (of wall time where that is not measured)
		start, cpu0 := time.Now(), threadCPU()
		for {
			if cpu := threadCPU(); cpu0 >= 0 && cpu >= 0 {
				if cpu-cpu0 >= d {
					return
				}
			} else if time.Since(start) >= d {
				return
			}
		}
	}
	for name, c := range map[string]struct {
		call func() (json.RawMessage, error)
		want string
	}{
		"fine":   {func() (json.RawMessage, error) { return json.RawMessage(`1`), nil }, ""},
		"panic":  {func() (json.RawMessage, error) { panic("boom") }, "panicked: boom"},
		"memory": {func() (json.RawMessage, error) { b := make([]byte, 2<<20); return b[:1], nil }, "allocated 2 MB"},
		"slow":   {func() (json.RawMessage, error) { spin(30 * time.Millisecond); return nil, nil }, "budget 10ms"},
		"hung":   {func() (json.RawMessage, error) { time.Sleep(3 * time.Second); return nil, nil }, "did not return within 1.5s"},
	} {
		_, _, why := budgetExceeded(10*time.Millisecond, 1500*time.Millisecond, 1<<20, c.call)
		if (c.want == "") != (why == "") || !strings.Contains(why, c.want) {
			t.Errorf("%s: budgetExceeded says %.80q; want %q", name, why, c.want)
		}
	}
}
