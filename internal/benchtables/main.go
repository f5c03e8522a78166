// Command benchtables turns the output of the side-by-side benchmarks (go
// test -bench, several -count runs, any number of files) into BENCHMARKS.md:
// the machine and the command, then tables of medians with the ratios to
// upstream (or to the limit a goal names) and whether each goal is met.
// scripts/bench runs the benchmarks and calls it; see that script for the
// benchmarks it expects. Benchmarks missing from the input are left out.
//
// Usage:
//
//	go run ./internal/benchtables -out BENCHMARKS.md -machine FILE -command CMD FILE...
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// runs holds, per benchmark name (without the -GOMAXPROCS suffix), each
// run's metrics by unit (ns/op, allocs/op, cpu-ns/op …).
type runs map[string][]map[string]float64

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+(\d+)\s+(.*)$`)

// growthNote is a line the growth benchmarks log (with -test.v): the
// outcome both sides agreed on at one size, or why a side was skipped.
var growthNote = regexp.MustCompile(`growth (outcome|skip) (.*)$`)

// parse reads the benchmark lines of files, and the growth benchmarks'
// notes (the text after "growth outcome " and "growth skip ").
func parse(files []string) (runs, map[string][]string, error) {
	rs := runs{}
	notes := map[string][]string{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if g := growthNote.FindStringSubmatch(line); g != nil {
				notes[g[1]] = append(notes[g[1]], g[2])
				continue
			}
			m := benchLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			fields := strings.Fields(m[4])
			metrics := map[string]float64{}
			for i := 0; i+1 < len(fields); i += 2 {
				v, err := strconv.ParseFloat(fields[i], 64)
				if err != nil {
					break
				}
				metrics[fields[i+1]] = v
			}
			if len(metrics) > 0 {
				rs[m[1]] = append(rs[m[1]], metrics)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, nil, err
		}
	}
	return rs, notes, nil
}

// median returns the median of a metric over the runs of a benchmark, and
// the number of runs that have it.
func (rs runs) median(name, unit string) (float64, int) {
	var vs []float64
	for _, m := range rs[name] {
		if v, ok := m[unit]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return math.NaN(), 0
	}
	sort.Float64s(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2], len(vs)
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, len(vs)
}

func (rs runs) has(name string) bool { return len(rs[name]) > 0 }

// dur renders nanoseconds with a unit a reader takes in at a glance.
func dur(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "—"
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

func count(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	// thousands separators
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "—"
	}
	r := a / b
	if r >= 10 {
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

func mark(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

type doc struct {
	b     strings.Builder
	rs    runs
	notes map[string][]string // growth notes by kind: "outcome", "skip"
}

func (d *doc) p(format string, args ...any) { fmt.Fprintf(&d.b, format+"\n", args...) }

// sizes lists the pod counts of BenchmarkWholeClusterSync in the input.
func (d *doc) sizes() []int {
	re := regexp.MustCompile(`^BenchmarkWholeClusterSync/pods=(\d+)/world$`)
	var out []int
	for name := range d.rs {
		if m := re.FindStringSubmatch(name); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func (d *doc) wholeSync() {
	sizes := d.sizes()
	if len(sizes) == 0 {
		return
	}
	d.p("## One full control-plane sync: the world and upstream's controllers\n")
	d.p("`conformance/upstream/wholecluster` `BenchmarkWholeClusterSync` (file `sync_bench_test.go`): the same settled cluster,")
	d.p("given once as API objects, synced by `cluster.World.ForceSync` (every controller over every object it owns) and by")
	d.p("the real v1.36.3 controllers on the whole-cluster harness's fakes (every controller's sync handler over every key of")
	d.p("its informer once; informers already populated). An op is one full sync of a settled cluster; writes/op 0 on both")
	d.p("sides says both find it settled. Medians of the runs; cpu is the process's CPU time per op (user + system, every")
	d.p("thread, the garbage collector's too), which other processes on the shared machine disturb less than wall time.\n")
	d.p("| pods | nodes | workloads | objects | world | world cpu | world allocs | world B | upstream | upstream cpu | upstream allocs | ratio (wall) | ratio (cpu) | goal ≥ 10× | writes/op world / upstream |")
	d.p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for _, n := range sizes {
		w := fmt.Sprintf("BenchmarkWholeClusterSync/pods=%d/world", n)
		u := fmt.Sprintf("BenchmarkWholeClusterSync/pods=%d/upstream", n)
		pods, _ := d.rs.median(w, "pods")
		nodes, _ := d.rs.median(w, "nodes")
		wl, _ := d.rs.median(w, "workloads")
		objs, _ := d.rs.median(w, "objects")
		wns, _ := d.rs.median(w, "ns/op")
		wcpu, _ := d.rs.median(w, "cpu-ns/op")
		wal, _ := d.rs.median(w, "allocs/op")
		wb, _ := d.rs.median(w, "B/op")
		uns, _ := d.rs.median(u, "ns/op")
		ucpu, _ := d.rs.median(u, "cpu-ns/op")
		ual, _ := d.rs.median(u, "allocs/op")
		ww, _ := d.rs.median(w, "writes/op")
		uw, _ := d.rs.median(u, "writes/op")
		goal := "—"
		if !math.IsNaN(uns) {
			goal = mark(uns/wns >= 10) + " (wall), " + mark(ucpu/wcpu >= 10) + " (cpu)"
		}
		d.p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |", count(pods), count(nodes), count(wl), count(objs),
			dur(wns), dur(wcpu), count(wal), count(wb), dur(uns), dur(ucpu), count(ual), ratio(uns, wns), ratio(ucpu, wcpu), goal,
			count(ww), count(uw))
	}
	d.p("")
	d.p("Allocations per sync: the world's allocs/op and B/op columns (every Step's Plan and writes, nothing kept once the")
	d.p("sync returns but the trace's entries; the State itself is not copied).\n")

	// growth
	if len(sizes) > 1 {
		d.p("### How the cost grows\n")
		d.p("Each step multiplies the cluster by the ratio of objects; the exponent k is log(time ratio) / log(objects ratio)")
		d.p("(1: linear; a little above 1: n log n or cache effects), on the medians of the wall and the CPU time.\n")
		d.p("| from → to (pods) | objects × | world time × (wall / cpu) | k world (wall / cpu) | upstream time × (wall / cpu) | k upstream (wall / cpu) |")
		d.p("|---|---:|---:|---:|---:|---:|")
		for i := 1; i < len(sizes); i++ {
			a, b := sizes[i-1], sizes[i]
			get := func(n int, side, unit string) float64 {
				v, _ := d.rs.median(fmt.Sprintf("BenchmarkWholeClusterSync/pods=%d/%s", n, side), unit)
				return v
			}
			oa, ob := get(a, "world", "objects"), get(b, "world", "objects")
			of := ob / oa
			k := func(t1, t2 float64) string {
				if math.IsNaN(t1) || math.IsNaN(t2) {
					return "—"
				}
				return fmt.Sprintf("%.2f", math.Log(t2/t1)/math.Log(of))
			}
			x := func(t1, t2 float64) string {
				if math.IsNaN(t1) || math.IsNaN(t2) {
					return "—"
				}
				return fmt.Sprintf("%.1f", t2/t1)
			}
			ww1, ww2 := get(a, "world", "ns/op"), get(b, "world", "ns/op")
			wc1, wc2 := get(a, "world", "cpu-ns/op"), get(b, "world", "cpu-ns/op")
			uw1, uw2 := get(a, "upstream", "ns/op"), get(b, "upstream", "ns/op")
			uc1, uc2 := get(a, "upstream", "cpu-ns/op"), get(b, "upstream", "cpu-ns/op")
			d.p("| %s → %s | %.1f | %s / %s | %s / %s | %s / %s | %s / %s |", count(float64(a)), count(float64(b)), of,
				x(ww1, ww2), x(wc1, wc2), k(ww1, ww2), k(wc1, wc2), x(uw1, uw2), x(uc1, uc2), k(uw1, uw2), k(uc1, uc2))
		}
		d.p("")
	}

	// upstream per controller
	ctls := map[string]bool{}
	for _, n := range sizes {
		for _, m := range d.rs[fmt.Sprintf("BenchmarkWholeClusterSync/pods=%d/upstream", n)] {
			for unit := range m {
				if c, ok := strings.CutPrefix(unit, "ns/op-"); ok {
					ctls[c] = true
				}
			}
		}
	}
	if len(ctls) > 0 {
		names := slices.Sorted(func(yield func(string) bool) {
			for c := range ctls {
				if !yield(c) {
					return
				}
			}
		})
		d.p("### Upstream's sync, controller by controller (wall time per op, medians)\n")
		head := "| controller |"
		sep := "|---|"
		for _, n := range sizes {
			head += fmt.Sprintf(" pods=%s |", count(float64(n)))
			sep += "---:|"
		}
		d.p("%s", head)
		d.p("%s", sep)
		for _, c := range names {
			row := "| " + c + " |"
			for _, n := range sizes {
				v, _ := d.rs.median(fmt.Sprintf("BenchmarkWholeClusterSync/pods=%d/upstream", n), "ns/op-"+c)
				row += " " + dur(v) + " |"
			}
			d.p("%s", row)
		}
		d.p("")
	}
}

func (d *doc) hour() {
	const name = "BenchmarkHour100Nodes"
	if !d.rs.has(name) {
		return
	}
	ns, n := d.rs.median(name, "ns/op")
	cpu, _ := d.rs.median(name, "cpu-ns/op")
	al, _ := d.rs.median(name, "allocs/op")
	by, _ := d.rs.median(name, "B/op")
	d.p("## One simulated hour\n")
	d.p("`cluster` `BenchmarkHour100Nodes`: one simulated hour of 100 nodes, 20 Deployments of 15 pods (300 pods), a rolling")
	d.p("update of every Deployment at 5 minutes and a node that stops heartbeating at 10 minutes (building the world")
	d.p("included). Median of %d runs.\n", n)
	d.p("| wall | cpu | allocs | bytes | goal < 1 s (wall) |")
	d.p("|---:|---:|---:|---:|---|")
	d.p("| %s | %s | %s | %s | %s |", dur(ns), dur(cpu), count(al), count(by), mark(ns < 1e9))
	d.p("")
}

// pair is a row comparing kubesem with upstream or with a limit.
type pair struct {
	what, ours, theirs, theirsLabel string
	// goal: the ratio theirs/ours must reach (>= goal), or, when limit,
	// ours/theirs must stay within (<= goal)
	goal  float64
	limit bool
	info  bool // shown for comparison, no goal of its own
}

func (d *doc) rows() {
	pairs := []pair{
		{"PDB sync, budget over 10,000 pods", "BenchmarkPDBSync10000Pods/kubesem", "BenchmarkPDBSync10000Pods/upstream", "upstream", 10, false, false},
		{"node lifecycle pass, 5,000 nodes", "BenchmarkNodeLifecycleSync5000/kubesem", "BenchmarkNodeLifecycleSync5000/upstream", "upstream", 10, false, false},
		{"zone states, 5,000 nodes", "BenchmarkNodeZoneStates5000/kubesem", "BenchmarkNodeZoneStates5000/upstream", "upstream", 10, false, false},
		{"victim ranking, 100,000 pods (vs upstream's sort)", "BenchmarkReplicaSetRank100k/kubesem", "BenchmarkReplicaSetRank100k/upstream", "upstream", 10, false, false},
		{"victim ranking, 100,000 pods, a `Ranker` kept between rankings (vs `slices.Sort` of 100,000 int64 in a kept buffer)", "BenchmarkReplicaSetRank100k/reused", "BenchmarkReplicaSetRank100k/limit", "limit", 2, true, false},
		{"victim ranking, 100,000 pods, one call allocating its memory (vs the same limit)", "BenchmarkReplicaSetRank100k/kubesem", "BenchmarkReplicaSetRank100k/limit", "limit", 0, true, true},
	}
	var any bool
	for _, p := range pairs {
		if d.rs.has(p.ours) {
			any = true
		}
	}
	if !any {
		return
	}
	d.p("## Issue 24's rows\n")
	d.p("`conformance/upstream` side-by-side benchmarks (`pdb/bench_test.go`, `node/bench_test.go`, `replicaset/bench_test.go`),")
	d.p("medians of the runs.\n")
	d.p("| benchmark | kubesem | allocs | upstream / limit | allocs | ratio | goal | met |")
	d.p("|---|---:|---:|---:|---:|---:|---|---|")
	for _, p := range pairs {
		if !d.rs.has(p.ours) {
			continue
		}
		o, _ := d.rs.median(p.ours, "ns/op")
		oa, _ := d.rs.median(p.ours, "allocs/op")
		t, _ := d.rs.median(p.theirs, "ns/op")
		ta, _ := d.rs.median(p.theirs, "allocs/op")
		if p.info {
			d.p("| %s | %s | %s | %s (%s) | %s | %s the limit | — | — |", p.what, dur(o), count(oa), dur(t), p.theirsLabel, count(ta), ratio(o, t))
			continue
		}
		if p.limit {
			d.p("| %s | %s | %s | %s (%s) | %s | %s the limit | ≤ %.0f× the limit | %s |", p.what, dur(o), count(oa), dur(t), p.theirsLabel, count(ta),
				ratio(o, t), p.goal, mark(o/t <= p.goal))
			continue
		}
		d.p("| %s | %s | %s | %s | %s | %s | ≥ %.0f× | %s |", p.what, dur(o), count(oa), dur(t), count(ta), ratio(t, o), p.goal, mark(t/o >= p.goal))
	}
	d.p("")
	if floor := "BenchmarkNodeZoneStates5000/floor"; d.rs.has(floor) && d.rs.has("BenchmarkNodeZoneStates5000/kubesem") {
		f, _ := d.rs.median(floor, "ns/op")
		o, _ := d.rs.median("BenchmarkNodeZoneStates5000/kubesem", "ns/op")
		t, _ := d.rs.median("BenchmarkNodeZoneStates5000/upstream", "ns/op")
		d.p("Zone states' bound, same run: only reading the inputs every zone-state rule must read (the zone and region")
		d.p("labels, the exclusion label, the Ready condition; `BenchmarkNodeZoneStates5000/floor`, no grouping) takes %s;", dur(f))
		d.p("kubesem's rule takes %s the floor, and upstream %s the floor, the most any rule over these Node objects", ratio(o, f), ratio(t, f))
		d.p("could be faster than upstream.\n")
	}
	if floor := "BenchmarkPDBSync10000Pods/floor"; d.rs.has(floor) && d.rs.has("BenchmarkPDBSync10000Pods/kubesem") {
		f, _ := d.rs.median(floor, "ns/op")
		o, _ := d.rs.median("BenchmarkPDBSync10000Pods/kubesem", "ns/op")
		t, _ := d.rs.median("BenchmarkPDBSync10000Pods/upstream", "ns/op")
		d.p("The PDB sync's bound, same run: only reading what any exact sync of this budget must read of the 10,000 pods")
		d.p("(the namespace, the selector's label, the controller reference, the deletion, the Ready and DisruptionTarget")
		d.p("conditions; `BenchmarkPDBSync10000Pods/floor`) takes %s; kubesem's sync takes %s the floor, and upstream %s the", dur(f), ratio(o, f), ratio(t, f))
		d.p("floor, the most any sync over these pods could be faster than upstream.\n")
	}
	if read := "BenchmarkReplicaSetRank100k/read"; d.rs.has(read) && d.rs.has("BenchmarkReplicaSetRank100k/limit") {
		r, _ := d.rs.median(read, "ns/op")
		l, _ := d.rs.median("BenchmarkReplicaSetRank100k/limit", "ns/op")
		o, _ := d.rs.median("BenchmarkReplicaSetRank100k/reused", "ns/op")
		d.p("The ranking's reads alone, same run: only reading what any exact ranking must read of the 100,000 pods")
		d.p("(`BenchmarkReplicaSetRank100k/read`, no keys, sorting or output) takes %s, %s the limit; kubesem's ranking (a kept `Ranker`)", dur(r), ratio(r, l))
		d.p("spends %s beyond those reads, %s the limit.\n", dur(o-r), ratio(o-r, l))
	}
	re := regexp.MustCompile(`^BenchmarkCount/(.+)/([^/]+)/10y$`)
	var counts []string
	for name := range d.rs {
		if re.MatchString(name) {
			counts = append(counts, name)
		}
	}
	slices.Sort(counts)
	if len(counts) == 0 {
		return
	}
	d.p("The exact missed-schedule count over 10 years (`cronjob` `BenchmarkCount/<zone>/<schedule>/10y`; upstream has no")
	d.p("such count: it stops at 100), goal ≤ 1 µs in every zone:\n")
	d.p("| zone / schedule | ns/op | allocs | goal ≤ 1 µs |")
	d.p("|---|---:|---:|---|")
	for _, name := range counts {
		v, _ := d.rs.median(name, "ns/op")
		a, _ := d.rs.median(name, "allocs/op")
		// (the name's underscores in the schedule are its spaces)
		label := strings.TrimSuffix(strings.TrimPrefix(name, "BenchmarkCount/"), "/10y")
		d.p("| `%s` | %s | %s | %s |", label, dur(v), count(a), mark(v <= 1000))
	}
	d.p("")
}

func main() {
	out := flag.String("out", "BENCHMARKS.md", "file to write")
	machine := flag.String("machine", "", "file with the machine description (markdown lines)")
	command := flag.String("command", "scripts/bench", "the command that produced the input")
	notesFile := flag.String("notes", "", "file appended at the end (the notes on goals not reached)")
	flag.Parse()
	rs, notes, err := parse(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	d := &doc{rs: rs, notes: notes}
	d.p("# Benchmarks\n")
	d.p("Generated by `%s` (do not edit: rerun it). kubesem and upstream v1.36.3 side by side in one run on identical", *command)
	d.p("inputs; every figure is the median of the runs (-count).\n")
	if *machine != "" {
		b, err := os.ReadFile(*machine)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		d.p("%s", strings.TrimSpace(string(b)))
		d.p("")
	}
	d.wholeSync()
	d.hour()
	d.rows()
	d.growth()
	if *notesFile != "" {
		b, err := os.ReadFile(*notesFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		d.p("%s", strings.TrimSpace(string(b)))
		d.p("")
	}
	if err := os.WriteFile(*out, []byte(d.b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
