package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

const statefulsetSynopsis = `Drives statefulset.Step sync by sync (one sync every 10s) from an empty
set: created pods are Pending, then Running and Ready after --ready-after
syncs; deleted pods terminate for one sync. --update-at changes the
template (revision web-v1 to web-v2), --scale-at/--scale-to change
replicas, --never-ready makes the pod of that ordinal at web-v2 never
Ready. Prints per sync the outcome, the writes and every ordinal with its
revision (1 = web-v1, 2 = web-v2) and state (R ready, P pending, N not
ready, T terminating), then a chart: one row per ordinal, one column per
sync; --svg FILE draws the pods per revision over time.`

type simPod struct {
	ord        int32
	rev        string
	createdAt  int
	terminated int // sync at which deletion began, -1 if none
}

// simulateStatefulSet prints a StatefulSet's syncs as a timeline.
func simulateStatefulSet(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate statefulset", flag.ContinueOnError)
	replicas := fs.Int("replicas", 3, "spec.replicas")
	start := fs.Int("start", 0, "spec.ordinals.start")
	policy := fs.String("policy", "OrderedReady", "spec.podManagementPolicy: OrderedReady or Parallel")
	strategy := fs.String("strategy", "RollingUpdate", "spec.updateStrategy.type: RollingUpdate or OnDelete")
	partition := fs.Int("partition", 0, "spec.updateStrategy.rollingUpdate.partition")
	maxUnavailable := fs.String("max-unavailable", "", "spec.updateStrategy.rollingUpdate.maxUnavailable (integer or percentage; empty: unset)")
	gate := fs.Bool("gate", false, "turn on the MaxUnavailableStatefulSet feature gate (off in v1.36.3)")
	readyAfter := fs.Int("ready-after", 1, "syncs a created pod stays Pending before it is Running and Ready")
	neverReady := fs.Int("never-ready", -1, "ordinal whose pod at web-v2 never becomes Ready (-1: none)")
	updateAt := fs.Int("update-at", 6, "sync at which the template changes to web-v2 (-1: never)")
	scaleAt := fs.Int("scale-at", -1, "sync at which replicas change to --scale-to (-1: never)")
	scaleTo := fs.Int("scale-to", 1, "replicas after --scale-at")
	steps := fs.Int("steps", 60, "syncs at most")
	svg := fs.String("svg", "", "also write the pods' states after each sync as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, statefulsetSynopsis); err != nil {
		return err
	}
	if *steps < 1 || *steps > 1000 || *readyAfter < 0 || *readyAfter > 1000 || *replicas > 1000 || *scaleTo > 1000 {
		return usagef("simulate statefulset: --steps 1-1000, --ready-after 0-1000, replicas at most 1000")
	}
	r, p := int32(*replicas), int32(*partition)
	set := statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: statefulset.Spec{Replicas: &r, ServiceName: "nginx", PodManagementPolicy: statefulset.PodManagementPolicy(*policy),
			UpdateStrategy:   statefulset.UpdateStrategy{Type: statefulset.UpdateStrategyType(*strategy)},
			TemplateRevision: "web-v1"},
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
	if err := statefulset.Validate(&set); err != nil {
		return usagef("simulate statefulset: %v", err)
	}
	opts := statefulset.Options{MaxUnavailableStatefulSet: *gate}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pods := map[int32]*simPod{}
	var revs []history.ControllerRevision
	var tl *timeline
	if *svg != "" {
		tl = &timeline{title: "kubesem simulate statefulset", series: []series{
			{"ready web-v2", "#2b8a3e"}, {"ready web-v1", "#1c7ed6"}, {"not ready", "#f59f00"}, {"terminating", "#c92a2a"}}}
	}
	fmt.Fprintf(stdout, "StatefulSet web: replicas %d, start %d, %s, %s", *replicas, *start, set.Policy(), set.Strategy())
	if set.Strategy() == statefulset.RollingUpdate {
		fmt.Fprintf(stdout, ", partition %d", *partition)
		if *maxUnavailable != "" {
			fmt.Fprintf(stdout, ", maxUnavailable %s (gate %v)", *maxUnavailable, *gate)
		}
	}
	fmt.Fprintf(stdout, "\nsync  time   outcome        writes | pods\n")
	quiet := 0
	var chart []map[int32]byte // per sync: ordinal → cell
	for step := 0; step < *steps; step++ {
		now := t0.Add(time.Duration(step) * 10 * time.Second)
		if step == *updateAt {
			set.Spec.TemplateRevision = "web-v2"
			set.Generation++
		}
		if step == *scaleAt {
			n := int32(*scaleTo)
			set.Spec.Replicas = &n
			set.Generation++
		}
		// pods as the controller sees them
		var in []*podstatus.Pod
		for _, sp := range pods {
			in = append(in, simPodView(sp, step, *readyAfter, *neverReady, now))
		}
		plan, err := statefulset.Step(&set, in, revs, nil, now, opts)
		if err != nil {
			return err
		}
		set.Status = plan.Status
		var writes []string
		for _, w := range plan.Revisions {
			revs = simApplyRevision(revs, w)
			writes = append(writes, string(w.Verb)+" "+w.Name)
		}
		for _, d := range plan.Delete {
			o := statefulset.ParseOrdinal(d.Name)
			if sp := pods[o]; sp != nil && sp.terminated < 0 {
				sp.terminated = step
			}
			writes = append(writes, "delete "+d.Name)
		}
		for _, c := range plan.Create.Objects {
			pods[c.Ordinal] = &simPod{ord: c.Ordinal, rev: c.Revision, createdAt: step, terminated: -1}
			writes = append(writes, "create "+c.Name+"@"+strings.TrimPrefix(c.Revision, "web-"))
		}
		// terminated pods vanish one sync after their deletion began
		for o, sp := range pods {
			if sp.terminated >= 0 && sp.terminated < step {
				delete(pods, o)
			}
		}
		line, stack := simPodsLine(pods, step, *readyAfter, *neverReady, now)
		chart = append(chart, simChartColumn(pods, step, *readyAfter, *neverReady))
		w := strings.Join(writes, ", ")
		if w == "" {
			w = "-"
		}
		fmt.Fprintf(stdout, "%4d  %5s  %-13s  %s | %s\n", step, fmt.Sprintf("%ds", step*10), plan.Outcome, w, line)
		tl.add(fmt.Sprintf("%ds", step*10), w, stack...)
		if len(writes) == 0 && step > *updateAt && step > *scaleAt {
			quiet++
			if quiet >= 2 {
				break
			}
		} else {
			quiet = 0
		}
	}
	fmt.Fprintf(stdout, "status: replicas %d, ready %d, current %d (%s), updated %d (%s)\n", set.Status.Replicas, set.Status.ReadyReplicas,
		set.Status.CurrentReplicas, set.Status.CurrentRevision, set.Status.UpdatedReplicas, set.Status.UpdateRevision)
	simPrintChart(stdout, chart)
	return tl.writeFile(*svg)
}

// simChartColumn is one sync's column of the chart: per ordinal, the
// revision digit of a Ready pod, p pending, n running but not Ready,
// t terminating.
func simChartColumn(pods map[int32]*simPod, step, readyAfter, neverReady int) map[int32]byte {
	col := make(map[int32]byte, len(pods))
	for o, sp := range pods {
		c := byte('p')
		switch {
		case sp.terminated >= 0:
			c = 't'
		case simReady(sp, step+1, readyAfter, neverReady):
			c = strings.TrimPrefix(sp.rev, "web-v")[0]
		case step+1-sp.createdAt > readyAfter:
			c = 'n'
		}
		col[o] = c
	}
	return col
}

// simPrintChart prints one row per ordinal that ever had a pod, one column
// per sync ('.' no pod).
func simPrintChart(w io.Writer, chart []map[int32]byte) {
	seen := map[int32]bool{}
	var ords []int
	for _, col := range chart {
		for o := range col {
			if !seen[o] {
				seen[o] = true
				ords = append(ords, int(o))
			}
		}
	}
	if len(ords) == 0 {
		return
	}
	sort.Ints(ords)
	fmt.Fprintf(w, "\nper ordinal, one column per sync (1/2 Ready at web-v1/web-v2, p pending, n not ready, t terminating, . no pod):\n")
	for _, o := range ords {
		row := make([]byte, len(chart))
		for i, col := range chart {
			row[i] = '.'
			if c, ok := col[int32(o)]; ok {
				row[i] = c
			}
		}
		fmt.Fprintf(w, "web-%-4d %s\n", o, row)
	}
}

func simReady(sp *simPod, step, readyAfter, neverReady int) bool {
	if int(sp.ord) == neverReady && sp.rev == "web-v2" {
		return false
	}
	return step-sp.createdAt > readyAfter
}

func simPodView(sp *simPod, step, readyAfter, neverReady int, now time.Time) *podstatus.Pod {
	name := statefulset.PodName("web", sp.ord)
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: name + "-" + strconv.Itoa(sp.createdAt),
		Labels: map[string]string{statefulset.LabelPodName: name, history.HashLabel: sp.rev}}}
	switch {
	case simReady(sp, step, readyAfter, neverReady):
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now.Add(-time.Second)}}
	case step-sp.createdAt > readyAfter:
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionFalse, LastTransitionTime: now}}
	default:
		p.Status.Phase = podstatus.Pending
	}
	if sp.terminated >= 0 {
		d := now
		p.DeletionTimestamp = &d
	}
	return p
}

func simPodsLine(pods map[int32]*simPod, step, readyAfter, neverReady int, now time.Time) (string, []int) {
	ords := make([]int, 0, len(pods))
	for o := range pods {
		ords = append(ords, int(o))
	}
	sort.Ints(ords)
	stack := make([]int, 4)
	var parts []string
	for _, o := range ords {
		sp := pods[int32(o)]
		st := "P"
		switch {
		case sp.terminated >= 0:
			st = "T"
			stack[3]++
		case simReady(sp, step+1, readyAfter, neverReady):
			st = "R"
			if sp.rev == "web-v2" {
				stack[0]++
			} else {
				stack[1]++
			}
		case step+1-sp.createdAt > readyAfter:
			st = "N"
			stack[2]++
		default:
			stack[2]++
		}
		parts = append(parts, fmt.Sprintf("%d:%s%s", o, strings.TrimPrefix(sp.rev, "web-v"), st))
	}
	_ = now
	if len(parts) == 0 {
		return "(none)", stack
	}
	return strings.Join(parts, " "), stack
}

func simApplyRevision(revs []history.ControllerRevision, w history.Write) []history.ControllerRevision {
	switch w.Verb {
	case plan.VerbCreate:
		return append(revs, history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: w.Name}, Revision: w.Revision})
	case plan.VerbUpdate:
		for i := range revs {
			if revs[i].Name == w.Name {
				revs[i].Revision = w.Revision
			}
		}
	case plan.VerbDelete:
		for i := range revs {
			if revs[i].Name == w.Name {
				return append(revs[:i], revs[i+1:]...)
			}
		}
	}
	return revs
}
