package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

const daemonsetSynopsis = `Runs the DaemonSet controller (one Step per tick) and a kubelet that makes
each new pod ready --ready-after after its creation, over --nodes nodes
running revision v1, after the template changes to v2 at time 0; prints each
tick's creations and deletions per node, then a chart (one row per node, one
column per tick): o old ready, O old not ready, n new ready, + new not ready,
2 two pods, . no pod. --not-ready nodes go NotReady (not-ready NoExecute
taint, their pods not ready) at a time; --taint adds a taint at time 0;
--second-update changes the template again (v3) mid-way; --svg FILE draws
the pods per revision and readiness over time.`

// dsSimPod is a simulated daemon pod.
type dsSimPod struct {
	name, node, rev string
	created, ready  time.Duration // ready < 0: never
}

func simulateDaemonSet(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate daemonset", flag.ContinueOnError)
	nodes := fs.Int("nodes", 5, "number of nodes (1 to 500)")
	maxUnavailable := fs.String("max-unavailable", "1", "rollingUpdate.maxUnavailable (integer or percentage)")
	maxSurge := fs.String("max-surge", "0", "rollingUpdate.maxSurge (integer or percentage)")
	readyAfter := fs.Duration("ready-after", 10*time.Second, "how long a new pod takes to become ready")
	minReady := fs.Int("min-ready-seconds", 0, "spec.minReadySeconds")
	tick := fs.Duration("tick", 5*time.Second, "time between syncs")
	steps := fs.Int("steps", 60, "at most this many ticks")
	notReady := fs.String("not-ready", "", "comma-separated node@time: the node goes NotReady then, e.g. node-2@15s")
	taints := fs.String("taint", "", "comma-separated node=key:Effect taints added at time 0, e.g. node-1=gpu:NoSchedule")
	second := fs.Duration("second-update", -1, "time of a second template change (v3); negative: none")
	svg := fs.String("svg", "", "also write the pods per revision and readiness after each tick as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, daemonsetSynopsis); err != nil {
		return err
	}
	if *nodes < 1 || *nodes > 500 || *steps < 1 || *steps > 1000 || *tick <= 0 || *readyAfter < 0 || *minReady < 0 {
		return usagef("simulate daemonset: --nodes 1-500, --steps 1-1000, --tick > 0, --ready-after and --min-ready-seconds >= 0")
	}
	mu, err := intstr.Parse(*maxUnavailable)
	if err != nil {
		return usagef("simulate daemonset: --max-unavailable: %v", err)
	}
	ms, err := intstr.Parse(*maxSurge)
	if err != nil {
		return usagef("simulate daemonset: --max-surge: %v", err)
	}
	ds := &daemonset.DaemonSet{}
	ds.Name, ds.Namespace, ds.UID, ds.Generation = "agent", "default", "agent-uid", 2
	ds.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "agent"})
	ds.Spec.Template.Labels = map[string]string{"app": "agent"}
	ds.Spec.MinReadySeconds = int32(*minReady)
	ds.Spec.UpdateStrategy = daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &daemonset.RollingParams{MaxUnavailable: &mu, MaxSurge: &ms}}
	if _, err := daemonset.UnavailableNumbers(ds, int32(*nodes)); err != nil {
		return usagef("simulate daemonset: %v", err)
	}
	ns := make([]*node.Node, *nodes)
	index := map[string]*node.Node{}
	for i := range ns {
		n := &node.Node{}
		n.Name = fmt.Sprintf("node-%d", i)
		ns[i], index[n.Name] = n, n
	}
	for _, s := range splitList(*taints) {
		name, rest, ok1 := strings.Cut(s, "=")
		key, eff, ok2 := strings.Cut(rest, ":")
		n := index[name]
		if !ok1 || !ok2 || n == nil || (eff != "NoSchedule" && eff != "NoExecute" && eff != "PreferNoSchedule") {
			return usagef("simulate daemonset: --taint %q: want node-N=key:NoSchedule|PreferNoSchedule|NoExecute", s)
		}
		n.Spec.Taints = append(n.Spec.Taints, node.Taint{Key: key, Effect: node.TaintEffect(eff)})
	}
	downAt := map[string]time.Duration{}
	for _, s := range splitList(*notReady) {
		name, at, ok := strings.Cut(s, "@")
		d, err := time.ParseDuration(at)
		if !ok || err != nil || index[name] == nil || d < 0 {
			return usagef("simulate daemonset: --not-ready %q: want node-N@duration", s)
		}
		downAt[name] = d
	}

	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var pods []*dsSimPod
	for i, n := range ns {
		pods = append(pods, &dsSimPod{name: fmt.Sprintf("agent-v1-%d", i), node: n.Name, rev: "v1", created: -time.Hour, ready: -time.Hour})
	}
	rev, serial := "v2", 0
	var mem daemonset.Backoff
	chart := make([][]byte, len(ns))
	var tl *timeline
	if *svg != "" {
		tl = &timeline{title: "kubesem simulate daemonset", series: []series{
			{"new, ready", "#2b8a3e"}, {"old, ready", "#1c7ed6"}, {"new, not ready", "#f59f00"}, {"old, not ready", "#c92a2a"}}}
	}
	fmt.Fprintf(stdout, "DaemonSet agent: %d nodes, maxUnavailable %s, maxSurge %s, pods ready after %s, template v1 -> v2 at 0s\n", *nodes, mu, ms, *readyAfter)
	for step := 0; step < *steps; step++ {
		now := time.Duration(step) * *tick
		if *second >= 0 && now >= *second && rev == "v2" {
			rev = "v3"
			fmt.Fprintf(stdout, "%6s  template changes to v3\n", now)
		}
		for _, n := range ns {
			name := n.Name
			if at, ok := downAt[name]; ok && now >= at && !hasTaint(index[name], node.TaintNotReady) {
				index[name].Spec.Taints = append(index[name].Spec.Taints, node.Taint{Key: node.TaintNotReady, Effect: node.NoExecute})
				fmt.Fprintf(stdout, "%6s  %s goes NotReady\n", now, name)
			}
		}
		in := make([]*podstatus.Pod, 0, len(pods))
		for _, p := range pods {
			in = append(in, dsSimToPod(p, start, now, downAt))
		}
		plan, err := daemonset.Step(ds, ns, in, daemonset.History{Hash: rev}, mem, start.Add(now), daemonset.Options{})
		if err != nil {
			return err
		}
		mem = plan.Memory
		var lines []string
		gone := map[string]bool{}
		for _, d := range plan.Delete {
			gone[d.Name] = true
			lines = append(lines, fmt.Sprintf("delete %s (%s)", d.Name, d.Reason))
		}
		var next []*dsSimPod
		for _, p := range pods {
			if !gone[p.name] {
				next = append(next, p)
			}
		}
		for _, c := range plan.Create.Objects {
			serial++
			p := &dsSimPod{name: fmt.Sprintf("agent-%s-%d", rev, serial), node: c.Node, rev: rev, created: now, ready: now + *readyAfter}
			next = append(next, p)
			lines = append(lines, fmt.Sprintf("create %s on %s (%s)", p.name, c.Node, c.Reason))
		}
		pods = next
		for _, l := range lines {
			fmt.Fprintf(stdout, "%6s  %s\n", now, l)
		}
		for i, n := range ns {
			chart[i] = append(chart[i], dsSimCell(pods, n.Name, rev, now, downAt))
		}
		stack := make([]int, 4)
		for _, p := range pods {
			i := 0
			if p.rev != rev {
				i = 1
			}
			if !dsSimReady(p, now, downAt) {
				i += 2
			}
			stack[i]++
		}
		tl.add(now.String(), strings.Join(lines, "; "), stack...)
		st := plan.Status
		if len(lines) == 0 && st.UpdatedNumberScheduled == st.DesiredNumberScheduled && st.NumberAvailable == st.DesiredNumberScheduled && dsSimOnePerNode(pods) {
			fmt.Fprintf(stdout, "%6s  rollout complete: %d/%d updated and available\n", now, st.UpdatedNumberScheduled, st.DesiredNumberScheduled)
			break
		}
		if step == *steps-1 {
			fmt.Fprintf(stdout, "%6s  stopped after %d ticks: %d/%d updated, %d available\n", now, *steps, st.UpdatedNumberScheduled, st.DesiredNumberScheduled, st.NumberAvailable)
		}
	}
	fmt.Fprintf(stdout, "\nper node, one column per %s tick:\n", *tick)
	for i, n := range ns {
		fmt.Fprintf(stdout, "%-8s %s\n", n.Name, chart[i])
	}
	return tl.writeFile(*svg)
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func hasTaint(n *node.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

// dsSimReady reports whether p is ready at now: its ready time has come
// and its node has not gone NotReady.
func dsSimReady(p *dsSimPod, now time.Duration, downAt map[string]time.Duration) bool {
	if at, ok := downAt[p.node]; ok && now >= at {
		return false
	}
	return now >= p.ready
}

func dsSimToPod(p *dsSimPod, start time.Time, now time.Duration, downAt map[string]time.Duration) *podstatus.Pod {
	out := &podstatus.Pod{}
	out.Name, out.UID = p.name, p.name
	out.CreationTimestamp = start.Add(p.created)
	out.Labels = map[string]string{"app": "agent", history.HashLabel: p.rev}
	out.Spec.NodeName = p.node
	out.Status.Phase = podstatus.Running
	st := meta.ConditionFalse
	if dsSimReady(p, now, downAt) {
		st = meta.ConditionTrue
	}
	out.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: st, LastTransitionTime: start.Add(p.ready)}}
	return out
}

func dsSimCell(pods []*dsSimPod, nodeName, rev string, now time.Duration, downAt map[string]time.Duration) byte {
	var on []*dsSimPod
	for _, p := range pods {
		if p.node == nodeName {
			on = append(on, p)
		}
	}
	switch {
	case len(on) == 0:
		return '.'
	case len(on) > 1:
		return '2'
	}
	ready := dsSimReady(on[0], now, downAt)
	switch {
	case on[0].rev == rev && ready:
		return 'n'
	case on[0].rev == rev:
		return '+'
	case ready:
		return 'o'
	}
	return 'O'
}

func dsSimOnePerNode(pods []*dsSimPod) bool {
	seen := map[string]bool{}
	for _, p := range pods {
		if seen[p.node] {
			return false
		}
		seen[p.node] = true
	}
	return true
}
