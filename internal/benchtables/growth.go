package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// growthStep is one Step of the growth benchmarks (BenchmarkGrowth in
// each kind's package of conformance/upstream).
type growthStep struct {
	name     string // the sub-benchmark's step: BenchmarkGrowth/<name>/n=…
	step     string // kubesem's Step
	upstream string // what upstream runs
	pkg      string // the kind's package of conformance/upstream
	objects  string // what n counts
	state    string // the state at n
}

var growthSteps = []growthStep{
	{"rollout", "rollout.Step", "syncDeployment", "deployment", "pods",
		"a Deployment of n replicas mid-rollout (25%/25%): new ReplicaSet at n/4, old at 3n/4, all Ready; both scale the new one up by the surge"},
	{"replicaset", "replicaset.Step", "syncReplicaSet", "replicaset", "pods",
		"a ReplicaSet n/10 pods too many: both rank all n pods and delete min(n/10, 500)"},
	{"statefulset", "statefulset.Step", "UpdateStatefulSet (the StatefulSet control, as sync calls it)", "statefulset", "pods",
		"n Ready pods at the old revision, rolling update: both walk every pod and delete the highest"},
	{"daemonset", "daemonset.Step", "syncDaemonSet", "daemonset", "nodes (one pod each)",
		"n nodes (a quarter not-ready, tainted, cordoned), every pod old, maxUnavailable 10%: both delete min(10%, 250) to update"},
	{"job", "job.Step", "syncJob", "job", "pods",
		"a Job of parallelism n, a tenth of its pods Succeeded and uncounted: both count them (≤ 500), remove finalizers, create replacements (≤ 500)"},
	{"pdb", "pdb.Step", "the disruption controller's sync", "pdb", "pods",
		"a budget over n pods of four ReplicaSets, a tenth not Ready: both compute and write its status"},
	{"node", "node.Step", "monitorNodeHealth", "node", "nodes",
		"n nodes in three zones, a third silent past the grace period: both mark that third Unknown"},
	{"podgc", "podgc.Step", "the pod GC pass (gc)", "podgc", "pods",
		"n pods on n/10 nodes, a tenth Succeeded (under the threshold), ten on a vanished node: both delete those ten"},
	{"cronjob", "cronjob.Step", "sync (list, cleanupFinishedJobs, syncCronJob, status)", "cronjob", "Jobs",
		"a CronJob every 5 minutes with n Jobs, history limit n−2: both start one Job and delete the oldest"},
}

// growthClass names the growth an exponent k shows between two sizes (k
// as printed, to two decimals, so that the table reads consistently).
func growthClass(k float64) string {
	k = math.Round(k*100) / 100
	switch {
	case k < 0.85:
		return "sublinear"
	case k <= 1.15:
		return "linear"
	case k <= 1.35:
		return "n log n"
	}
	return "superlinear"
}

var growthOutcome = regexp.MustCompile(`^(\S+) n=(\d+): (.*) \(built in `)
var growthSkip = regexp.MustCompile(`^(BenchmarkGrowth/\S+): (.*)$`)

// growthSizes lists the sizes of the growth benchmarks in the input.
func (d *doc) growthSizes() []int {
	re := regexp.MustCompile(`^BenchmarkGrowth/[^/]+/n=(\d+)/`)
	seen := map[int]bool{}
	add := func(name string) {
		if m := re.FindStringSubmatch(name); m != nil {
			n, _ := strconv.Atoi(m[1])
			seen[n] = true
		}
	}
	for name := range d.rs {
		add(name)
	}
	for _, s := range d.notes["skip"] {
		if m := growthSkip.FindStringSubmatch(s); m != nil {
			add(m[1] + "/")
		}
	}
	var out []int
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (d *doc) growth() {
	sizes := d.growthSizes()
	if len(sizes) == 0 {
		return
	}
	outcome := map[string]string{} // "<step> n=<n>" → outcome
	for _, s := range d.notes["outcome"] {
		if m := growthOutcome.FindStringSubmatch(s); m != nil {
			outcome[m[1]+" n="+m[2]] = m[3]
		}
	}
	skipped := map[string]string{} // benchmark name → why
	for _, s := range d.notes["skip"] {
		if m := growthSkip.FindStringSubmatch(s); m != nil {
			skipped[m[1]] = m[2]
		}
	}
	name := func(g growthStep, n int, side string) string {
		return fmt.Sprintf("BenchmarkGrowth/%s/n=%d/%s", g.name, n, side)
	}
	has := func(g growthStep) bool {
		for _, n := range sizes {
			for _, side := range []string{"kubesem", "upstream"} {
				if d.rs.has(name(g, n, side)) || skipped[name(g, n, side)] != "" {
					return true
				}
			}
		}
		return false
	}

	d.p("## How each Step's cost grows\n")
	d.p("`conformance/upstream/<kind>` `BenchmarkGrowth/<step>/n=<n>/{kubesem,upstream}` (file `growth_bench_test.go`, driven by")
	d.p("`internal/difftest/growth.go`): each Step and the upstream v1.36.3 sync it states, on the same state of n objects, built")
	d.p("once and converted outside the timed loops; each side is run once first, and both must report the same main outcome")
	d.p("(the outcome column; the last timed op must have it too). An op is one Step, or one upstream sync on the kind's")
	d.p("harness with what it needs to start from the same state each time (said in each benchmark's doc: expectations")
	d.p("dropped, or the controller rebuilt with the timer stopped). Medians of the runs; allocations per op. A side whose one")
	d.p("op took over 10 s is not timed (\"skipped\", with the time that op took).\n")
	d.p("| Step | upstream | objects (n) | state |")
	d.p("|---|---|---|---|")
	for _, g := range growthSteps {
		if has(g) {
			d.p("| `%s` | %s | %s | %s |", g.step, g.upstream, g.objects, g.state)
		}
	}
	d.p("")
	cell := func(g growthStep, n int, side string) (wall, cpu, allocs string) {
		nm := name(g, n, side)
		if why := skipped[nm]; why != "" {
			return "—, " + strings.Replace(why, ">", "skipped: >", 1), "—", "—"
		}
		t, _ := d.rs.median(nm, "ns/op")
		c, _ := d.rs.median(nm, "cpu-ns/op")
		a, _ := d.rs.median(nm, "allocs/op")
		return dur(t), dur(c), count(a)
	}
	d.p("| Step | n | kubesem | cpu | allocs | upstream | cpu | allocs | upstream ÷ kubesem (cpu) | outcome (both sides) |")
	d.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, g := range growthSteps {
		if !has(g) {
			continue
		}
		for _, n := range sizes {
			kt, kc, ka := cell(g, n, "kubesem")
			ut, uc, ua := cell(g, n, "upstream")
			k, _ := d.rs.median(name(g, n, "kubesem"), "cpu-ns/op")
			u, _ := d.rs.median(name(g, n, "upstream"), "cpu-ns/op")
			o := outcome[fmt.Sprintf("%s n=%d", g.name, n)]
			if o == "" {
				o = "—"
			}
			d.p("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |", g.step, count(float64(n)), kt, kc, ka, ut, uc, ua, ratio(u, k), o)
		}
	}
	d.p("")
	if len(sizes) < 2 {
		d.p("(One size only: no growth to state.)\n")
		return
	}

	d.p("### The exponents\n")
	d.p("Between two sizes n₁ → n₂, k = log(t₂ / t₁) / log(n₂ / n₁) on the medians of the CPU time per op (the")
	d.p("process's, every thread's: upstream's parallel writes and the garbage collector count; other processes on the")
	d.p("shared machine disturb it less than the wall time, which also holds the time the process waited for a core: in")
	d.p("brackets). The class reads the CPU k: **linear** for 0.85 ≤ k ≤ 1.15, **n log n** for 1.15 < k ≤ 1.35,")
	d.p("**superlinear** above, **sublinear** below 0.85. A pure n log n gives k = 1 + log(log n₂ / log n₁) / log(n₂ / n₁),")
	d.p("1.10–1.15 between these decades: by k alone it is linear here, and k in (1.15, 1.35] is a sort together with a")
	d.p("working set outgrowing the caches. The last column is k over the whole range (up to the largest size timed).\n")
	head := "| Step | side |"
	sep := "|---|---|"
	for i := 1; i < len(sizes); i++ {
		head += fmt.Sprintf(" %s → %s |", count(float64(sizes[i-1])), count(float64(sizes[i])))
		sep += "---|"
	}
	head += fmt.Sprintf(" %s → %s |", count(float64(sizes[0])), count(float64(sizes[len(sizes)-1])))
	sep += "---|"
	d.p("%s", head)
	d.p("%s", sep)
	kOf := func(g growthStep, side string, a, b int) string {
		na, nb := name(g, a, side), name(g, b, side)
		lr := math.Log(float64(b) / float64(a))
		k := func(unit string) (float64, bool) {
			t1, _ := d.rs.median(na, unit)
			t2, _ := d.rs.median(nb, unit)
			if math.IsNaN(t1) || math.IsNaN(t2) || t1 <= 0 || t2 <= 0 {
				return 0, false
			}
			return math.Log(t2/t1) / lr, true
		}
		kw, okw := k("ns/op")
		kc, okc := k("cpu-ns/op")
		switch {
		case okc && okw:
			return fmt.Sprintf("%.2f %s (%.2f)", kc, growthClass(kc), kw)
		case okw: // no CPU metric (not unix): the wall k
			return fmt.Sprintf("(%.2f) %s", kw, growthClass(kw))
		}
		return "—"
	}
	for _, g := range growthSteps {
		if !has(g) {
			continue
		}
		for _, side := range []string{"kubesem", "upstream"} {
			row := fmt.Sprintf("| `%s` | %s |", g.step, side)
			for i := 1; i < len(sizes); i++ {
				row += " " + kOf(g, side, sizes[i-1], sizes[i]) + " |"
			}
			// (over the sizes timed: a skipped last size ends the range earlier)
			last := len(sizes) - 1
			for last > 0 && !d.rs.has(name(g, sizes[last], side)) {
				last--
			}
			whole := "—"
			if last > 0 {
				whole = kOf(g, side, sizes[0], sizes[last])
				if last < len(sizes)-1 {
					whole += " (to " + count(float64(sizes[last])) + ")"
				}
			}
			row += " " + whole + " |"
			d.p("%s", row)
		}
	}
	d.p("")
}
