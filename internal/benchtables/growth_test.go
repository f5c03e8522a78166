package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGrowth renders the growth section from benchmark output in the shape
// scripts/bench keeps (-test.v: the outcome and skip notes), with a side
// skipped at the largest size.
func TestGrowth(t *testing.T) {
	in := `    growth.go:120: growth outcome node n=100: node status writes=34 (built in 1ms; check run: kubesem 1ms, upstream 2ms)
BenchmarkGrowth/node/n=100/kubesem-2   	     100	    200000 ns/op	    100000 cpu-ns/op	       100.0 objects	    1000 B/op	      40 allocs/op
BenchmarkGrowth/node/n=100/upstream-2  	     100	   1000000 ns/op	   1000000 cpu-ns/op	       100.0 objects	    1000 B/op	     400 allocs/op
    growth.go:120: growth outcome node n=1000: node status writes=334 (built in 1ms; check run: kubesem 1ms, upstream 2ms)
BenchmarkGrowth/node/n=1000/kubesem-2  	      10	   2000000 ns/op	   1000000 cpu-ns/op	      1000 objects	    1000 B/op	     400 allocs/op
BenchmarkGrowth/node/n=1000/upstream-2 	      10	  10000000 ns/op	  20000000 cpu-ns/op	      1000 objects	    1000 B/op	    4000 allocs/op
    growth.go:120: growth outcome node n=10000: node status writes=3334 (built in 1ms; check run: kubesem 12s, upstream 2ms)
    growth.go:130: growth skip BenchmarkGrowth/node/n=10000/kubesem: >10s/op (one op took 12s in the check run)
--- SKIP: BenchmarkGrowth/node/n=10000/kubesem
BenchmarkGrowth/node/n=10000/upstream-2	       3	 100000000 ns/op	 200000000 cpu-ns/op	     10000 objects	    1000 B/op	   40000 allocs/op
`
	dir := t.TempDir()
	f := filepath.Join(dir, "growth.txt")
	if err := os.WriteFile(f, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, notes, err := parse([]string{f})
	if err != nil {
		t.Fatal(err)
	}
	d := &doc{rs: rs, notes: notes}
	d.growth()
	out := d.b.String()
	for _, want := range []string{
		"| `node.Step` | 100 | 200.00 µs | 100.00 µs | 40 | 1.00 ms | 1.00 ms | 400 | 10.0× | node status writes=34 |",
		"| `node.Step` | 10,000 | —, skipped: >10s/op (one op took 12s in the check run) | — | — | 100.00 ms | 200.00 ms | 40,000 | — | node status writes=3334 |",
		"| `node.Step` | kubesem | 1.00 linear (1.00) | — | 1.00 linear (1.00) (to 1,000) |",
		"| `node.Step` | upstream | 1.30 n log n (1.00) | 1.00 linear (1.00) | 1.15 linear (1.00) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "rollout.Step") {
		t.Errorf("a Step without benchmarks is listed:\n%s", out)
	}
}
