package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

const statefulsetWorldSynopsis = `A scenario on the cluster world (package cluster): StatefulSet web (image
web:v1) is created at 0s on three nodes; its pods become ready
--ready-after × 10s after they start, and a deleted pod terminates over
--grace (the world's kubelet model). --update-at changes the template to
web:v2 (at that many 10s), --scale-at/--scale-to change replicas,
--never-ready makes the pod of that ordinal at web:v2 never Ready. Prints,
for every instant at which something other than a heartbeat was written,
what the StatefulSet controller wrote and every ordinal with its revision
number and state (R ready, N not ready, T terminating), then a chart: one
row per ordinal, one column per printed instant; --svg FILE draws the pods
per revision over time.

Example, ordinals, revisions and states per instant of a partitioned update:

  kubesem simulate statefulset --replicas 3 --update-at 4 --partition 1`

// simulateStatefulSet builds the StatefulSet scenario from the flags, runs
// it on the world and prints the timeline.
func simulateStatefulSet(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate statefulset", flag.ContinueOnError)
	replicas := fs.Int("replicas", 3, "spec.replicas")
	start := fs.Int("start", 0, "spec.ordinals.start")
	policy := fs.String("policy", "OrderedReady", "spec.podManagementPolicy: OrderedReady or Parallel")
	strategy := fs.String("strategy", "RollingUpdate", "spec.updateStrategy.type: RollingUpdate or OnDelete")
	partition := fs.Int("partition", 0, "spec.updateStrategy.rollingUpdate.partition")
	maxUnavailable := fs.String("max-unavailable", "", "spec.updateStrategy.rollingUpdate.maxUnavailable (integer or percentage; empty: unset)")
	gate := fs.Bool("gate", false, "turn on the MaxUnavailableStatefulSet feature gate (off in v1.36.3)")
	readyAfter := fs.Int("ready-after", 1, "a started pod becomes Ready after this many 10s")
	grace := fs.Duration("grace", 10*time.Second, "the pods' terminationGracePeriodSeconds")
	neverReady := fs.Int("never-ready", -1, "ordinal whose pod at web:v2 never becomes Ready (-1: none)")
	updateAt := fs.Int("update-at", 6, "at this many 10s the template changes to web:v2 (-1: never)")
	scaleAt := fs.Int("scale-at", -1, "at this many 10s replicas change to --scale-to (-1: never)")
	scaleTo := fs.Int("scale-to", 1, "replicas after --scale-at")
	steps := fs.Int("steps", 60, "simulate at most this many 10s")
	svg := fs.String("svg", "", "also write the pods' states after each printed instant as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, statefulsetWorldSynopsis); err != nil {
		return err
	}
	if *steps < 1 || *steps > 1000 || *readyAfter < 0 || *readyAfter > 1000 || *replicas > 1000 || *scaleTo > 1000 || *scaleTo < 0 || *grace < 0 {
		return usagef("simulate statefulset: --steps 1-1000, --ready-after 0-1000, replicas 0-1000, --grace >= 0")
	}
	r, p := int32(*replicas), int32(*partition)
	g := int64(*grace / time.Second)
	set := &statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", Generation: 1},
		Spec: statefulset.Spec{Replicas: &r, ServiceName: "nginx", PodManagementPolicy: statefulset.PodManagementPolicy(*policy),
			Selector:       meta.SelectorFromSet(map[string]string{"app": "web"}),
			Template:       stsTemplate("v1", g),
			UpdateStrategy: statefulset.UpdateStrategy{Type: statefulset.UpdateStrategyType(*strategy)}},
	}
	if *start != 0 {
		set.Spec.Ordinals = &statefulset.OrdinalsSpec{Start: int32(*start)}
	}
	if set.Spec.UpdateStrategy.Type == statefulset.RollingUpdate {
		set.Spec.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{Partition: &p}
		if *maxUnavailable != "" {
			v, err := intstr.Parse(*maxUnavailable)
			if err != nil {
				return usagef("simulate statefulset: --max-unavailable: %v", err)
			}
			set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v
		}
	}
	if err := statefulset.Validate(set); err != nil {
		return usagef("simulate statefulset: %v", err)
	}
	key := cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "web"}
	ready := time.Duration(*readyAfter) * 10 * time.Second
	sc := cluster.Scenario{
		Start:   simStart,
		Objects: []any{readyNode("node-0", nil), readyNode("node-1", nil), readyNode("node-2", nil), set},
		Pods:    []cluster.PodBehavior{{ReadyDelay: &ready}},
	}
	if *neverReady >= 0 {
		sel := meta.SelectorFromSet(map[string]string{statefulset.LabelPodName: "web-" + strconv.Itoa(*neverReady), "version": "v2"})
		sc.Pods = append([]cluster.PodBehavior{{Selector: sel, NeverReady: true}}, sc.Pods...)
	}
	last := time.Duration(0)
	if *updateAt >= 0 {
		last = time.Duration(*updateAt) * 10 * time.Second
		// The world's image and template events do not take a
		// StatefulSet: the update replaces the whole object (as kubectl
		// apply would), with the replicas it has by then.
		c := *set
		c.Spec.Template = stsTemplate("v2", g)
		if *scaleAt >= 0 && *scaleAt <= *updateAt {
			n := int32(*scaleTo)
			c.Spec.Replicas = &n
		}
		sc.Events = append(sc.Events, cluster.Event{At: last, Kind: cluster.EventUpdate, Object: &c})
	}
	if *scaleAt >= 0 {
		n := int32(*scaleTo)
		d := time.Duration(*scaleAt) * 10 * time.Second
		last = max(last, d)
		sc.Events = append(sc.Events, cluster.Event{At: d, Kind: cluster.EventScale, Target: key, Replicas: &n})
	}
	opts := cluster.Options{StatefulSet: statefulset.Options{MaxUnavailableStatefulSet: *gate}}
	w, st, err := newSimWorld(sc, opts)
	if err != nil {
		return fmt.Errorf("simulate statefulset: %v", err)
	}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{
			{"ready web:v2", "#2b8a3e"}, {"ready web:v1", "#1c7ed6"}, {"not ready", "#f59f00"}, {"terminating", "#c92a2a"}}}
	}
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "StatefulSet web: replicas %d, start %d, %s, %s", *replicas, *start, *policy, *strategy)
	if set.Spec.UpdateStrategy.Type == statefulset.RollingUpdate {
		fmt.Fprintf(&hdr, ", partition %d", *partition)
		if *maxUnavailable != "" {
			fmt.Fprintf(&hdr, ", maxUnavailable %s (gate %v)", *maxUnavailable, *gate)
		}
	}
	fmt.Fprintf(&hdr, "; pods ready %v after they start, grace %v\n", ready, *grace)
	fmt.Fprintf(&hdr, "revisions: 1 = web:v1, 2 = web:v2 (the ControllerRevisions' numbers)\n")
	tl.header(stdout, "statefulset", hdr.String())
	fmt.Fprintf(stdout, "%6s  %s | %s\n", "time", "statefulset controller", "pods")
	end := simStart.Add(time.Duration(*steps) * 10 * time.Second)
	lastBusy := simStart
	var chart []map[int]byte
	for {
		i := len(w.Trace)
		ok, err := st.step(end)
		if err != nil {
			return fmt.Errorf("simulate statefulset: %v", err)
		}
		if !ok {
			break
		}
		es := entriesSince(w, i)
		if !busy(es) {
			if w.Now.Sub(simStart) >= last && w.Now.Sub(lastBusy) >= 30*time.Second {
				break
			}
			continue
		}
		lastBusy = w.Now
		revs := revisionNumbers(w)
		var writes []string
		for _, e := range es {
			if e.Controller != cluster.CtlStatefulSet || e.Write == nil || e.Write.Subresource != "" {
				continue
			}
			switch {
			case e.Write.Resource == "pods" && e.Write.Verb == plan.VerbCreate:
				if p, ok := e.Write.Object.(*podstatus.Pod); ok {
					writes = append(writes, fmt.Sprintf("create %s@%s", p.Name, revs[p.Labels[history.HashLabel]]))
				}
			case e.Write.Resource == "controllerrevisions":
				if r, ok := e.Write.Object.(*history.ControllerRevision); ok {
					writes = append(writes, fmt.Sprintf("%s revision %d", e.Write.Verb, r.Revision))
				} else {
					writes = append(writes, writeLine(e))
				}
			default:
				writes = append(writes, writeLine(e))
			}
		}
		line, col, stack := stsPods(w, revs)
		chart = append(chart, col)
		ws := strings.Join(writes, ", ")
		if ws == "" {
			ws = "-"
		}
		fmt.Fprintf(stdout, "%6s  %s | %s\n", since(w.Now), ws, line)
		tl.add(since(w.Now), ws, stack...)
	}
	if s, _ := w.State.Get(key).(*statefulset.StatefulSet); s != nil {
		revs := revisionNumbers(w)
		st := s.Status
		fmt.Fprintf(stdout, "status at %s: replicas %d, ready %d, current %d (revision %s), updated %d (revision %s)\n", since(w.Now), st.Replicas, st.ReadyReplicas,
			st.CurrentReplicas, revs[st.CurrentRevision], st.UpdatedReplicas, revs[st.UpdateRevision])
	}
	stsPrintChart(stdout, chart)
	return tl.writeFile(*svg)
}

// stsTemplate is the pods' template at image web:<version>, labelled with
// the version (so that a PodBehavior can pick one revision's pod).
func stsTemplate(version string, grace int64) podstatus.Template {
	return podstatus.Template{
		ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web", "version": version}},
		Spec: podstatus.Spec{TerminationGracePeriodSeconds: &grace,
			Containers: []podstatus.Container{{Name: "web", Image: "web:" + version}}},
	}
}

// revisionNumbers maps each ControllerRevision's name to its number.
func revisionNumbers(w *cluster.World) map[string]string {
	m := map[string]string{}
	for _, r := range w.State.ControllerRevisions() {
		m[r.Name] = strconv.FormatInt(r.Revision, 10)
	}
	return m
}

// stsPods lists the set's pods by ordinal with their revision number and
// state, the chart's column and the SVG's stack.
func stsPods(w *cluster.World, revs map[string]string) (string, map[int]byte, []int) {
	type row struct {
		ord  int
		text string
	}
	var rows []row
	col := map[int]byte{}
	stack := make([]int, 4)
	for _, p := range w.State.Pods() {
		ord, err := strconv.Atoi(strings.TrimPrefix(p.Name, "web-"))
		if err != nil {
			continue
		}
		rev := revs[p.Labels[history.HashLabel]]
		if rev == "" {
			rev = "?"
		}
		st := "N"
		c := byte('n')
		switch {
		case p.IsDeleting():
			st, c = "T", 't'
			stack[3]++
		case podReady(p):
			st, c = "R", rev[0]
			if p.Labels["version"] == "v2" {
				stack[0]++
			} else {
				stack[1]++
			}
		default:
			stack[2]++
		}
		col[ord] = c
		rows = append(rows, row{ord, fmt.Sprintf("%d:%s%s", ord, rev, st)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ord < rows[j].ord })
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r.text
	}
	if len(parts) == 0 {
		return "(none)", col, stack
	}
	return strings.Join(parts, " "), col, stack
}

// stsPrintChart prints one row per ordinal that ever had a pod, one column
// per printed instant ('.' no pod).
func stsPrintChart(w io.Writer, chart []map[int]byte) {
	seen := map[int]bool{}
	var ords []int
	for _, col := range chart {
		for o := range col {
			if !seen[o] {
				seen[o] = true
				ords = append(ords, o)
			}
		}
	}
	if len(ords) == 0 {
		return
	}
	sort.Ints(ords)
	fmt.Fprintf(w, "\nper ordinal, one column per printed instant (1/2 Ready at revision 1/2, n not ready, t terminating, . no pod):\n")
	for _, o := range ords {
		row := make([]byte, len(chart))
		for i, col := range chart {
			row[i] = '.'
			if c, ok := col[o]; ok {
				row[i] = c
			}
		}
		fmt.Fprintf(w, "web-%-4d %s\n", o, row)
	}
}
