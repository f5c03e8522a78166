package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

const daemonsetWorldSynopsis = `A scenario on the cluster world (package cluster): DaemonSet agent runs
image agent:v1 on --nodes nodes; at 0s its image changes to agent:v2. Pods
become ready --ready-after after they start (the world's kubelet model).
--not-ready NODE@TIME stops a node's kubelet then (the node lifecycle
controller marks it Unknown and taints it after its grace period); --taint
adds a taint at 0s; --second-update changes the image again (agent:v3).
Prints every pod the DaemonSet controller creates or deletes, then a chart
sampled every --tick (one row per node): o old ready, O old not ready,
n new ready, + new not ready, x terminating, 2 two pods, . no pod; --svg FILE draws the
pods per revision and readiness over time.

Example, a surge rollout per node with one node going NotReady:

  kubesem simulate daemonset --nodes 5 --max-surge 1 --max-unavailable 0 --not-ready node-2@15s`

func simulateDaemonSet(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate daemonset", flag.ContinueOnError)
	nodes := fs.Int("nodes", 5, "number of nodes (1 to 500)")
	maxUnavailable := fs.String("max-unavailable", "1", "rollingUpdate.maxUnavailable (integer or percentage)")
	maxSurge := fs.String("max-surge", "0", "rollingUpdate.maxSurge (integer or percentage)")
	readyAfter := fs.Duration("ready-after", 10*time.Second, "how long a started pod takes to become ready")
	minReady := fs.Int("min-ready-seconds", 0, "spec.minReadySeconds")
	tick := fs.Duration("tick", 5*time.Second, "the chart's sampling period")
	steps := fs.Int("steps", 60, "simulate at most this many ticks")
	notReady := fs.String("not-ready", "", "comma-separated node@time: the node's kubelet stops then, e.g. node-2@15s")
	taints := fs.String("taint", "", "comma-separated node=key:Effect taints added at time 0, e.g. node-1=gpu:NoSchedule")
	second := fs.Duration("second-update", -1, "time of a second image change (agent:v3); negative: none")
	svg := fs.String("svg", "", "also write the pods per revision and readiness after each tick as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, daemonsetWorldSynopsis); err != nil {
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
	ds.Name, ds.Namespace, ds.Generation = "agent", "default", 1
	ds.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "agent"})
	ds.Spec.Template.Labels = map[string]string{"app": "agent"}
	ds.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "agent", Image: "agent:v1"}}
	ds.Spec.MinReadySeconds = int32(*minReady)
	ds.Spec.UpdateStrategy = daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &daemonset.RollingParams{MaxUnavailable: &mu, MaxSurge: &ms}}
	if err := daemonset.Validate(ds, daemonset.Options{}); err != nil {
		return usagef("simulate daemonset: %v", err)
	}
	key := cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "default", Name: "agent"}
	sc := cluster.Scenario{Start: simStart.Add(-simWarmup), Objects: []any{ds}, Pods: []cluster.PodBehavior{{ReadyDelay: readyAfter}}}
	index := map[string]*node.Node{}
	var names []string
	for i := 0; i < *nodes; i++ {
		n := readyNode(fmt.Sprintf("node-%d", i), nil)
		index[n.Name] = n
		names = append(names, n.Name)
		sc.Objects = append(sc.Objects, n)
	}
	tainted := map[string]*node.Node{}
	for _, s := range splitList(*taints) {
		name, rest, ok1 := strings.Cut(s, "=")
		k, eff, ok2 := strings.Cut(rest, ":")
		n := index[name]
		if !ok1 || !ok2 || n == nil || (eff != "NoSchedule" && eff != "NoExecute" && eff != "PreferNoSchedule") {
			return usagef("simulate daemonset: --taint %q: want node-N=key:NoSchedule|PreferNoSchedule|NoExecute", s)
		}
		c := tainted[name]
		if c == nil {
			cp := *n
			c = &cp
			tainted[name] = c
		}
		c.Spec.Taints = append(c.Spec.Taints, node.Taint{Key: k, Effect: node.TaintEffect(eff)})
	}
	for _, name := range names {
		if c := tainted[name]; c != nil {
			sc.Events = append(sc.Events, cluster.Event{At: at(0), Kind: cluster.EventUpdate, Object: c})
		}
	}
	sc.Events = append(sc.Events, cluster.Event{At: at(0), Kind: cluster.EventImage, Target: key, Image: "agent:v2"})
	last := time.Duration(0)
	for _, s := range splitList(*notReady) {
		name, t, ok := strings.Cut(s, "@")
		d, err := time.ParseDuration(t)
		if !ok || err != nil || index[name] == nil || d < 0 {
			return usagef("simulate daemonset: --not-ready %q: want node-N@duration", s)
		}
		last = max(last, d)
		sc.Events = append(sc.Events, cluster.Event{At: at(d), Kind: cluster.EventStopNode, Target: cluster.Key{Kind: cluster.KindNode, Name: name}})
	}
	if *second >= 0 {
		last = max(last, *second)
		sc.Events = append(sc.Events, cluster.Event{At: at(*second), Kind: cluster.EventImage, Target: key, Image: "agent:v3"})
	}
	w, st, err := newSimWorld(sc, cluster.Options{})
	if err != nil {
		return fmt.Errorf("simulate daemonset: %v", err)
	}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{
			{"new, ready", "#2b8a3e"}, {"old, ready", "#1c7ed6"}, {"new, not ready", "#f59f00"}, {"old, not ready", "#c92a2a"}}}
	}
	tl.header(stdout, "daemonset", fmt.Sprintf("DaemonSet agent: %d nodes, maxUnavailable %s, maxSurge %s, minReadySeconds %d, pods ready %s after they start; image agent:v1 → agent:v2 at 0s\n",
		*nodes, mu, ms, *minReady, *readyAfter))
	chart := make([][]byte, len(names))
	for step := 0; step < *steps; step++ {
		now := simStart.Add(time.Duration(step) * *tick)
		i := len(w.Trace)
		if err := st.run(now); err != nil {
			return fmt.Errorf("simulate daemonset: %v", err)
		}
		for _, e := range entriesSince(w, i) {
			switch {
			case e.Controller == cluster.CtlUser && e.Write == nil:
				fmt.Fprintf(stdout, "%6s  user: %s %s\n", since(e.Time), e.Reason, e.Object.Name)
			case e.Controller == cluster.CtlUser && e.Write != nil && e.Write.Resource == "nodes":
				fmt.Fprintf(stdout, "%6s  user: %s %s\n", since(e.Time), e.Write.Verb, e.Object.Name)
			case e.Controller == cluster.CtlUser && e.Write != nil && e.Write.Resource == "daemonsets":
				if d, ok := e.Write.Object.(*daemonset.DaemonSet); ok {
					fmt.Fprintf(stdout, "%6s  user: image %s\n", since(e.Time), d.Spec.Template.Spec.Containers[0].Image)
				}
			case e.Controller == cluster.CtlNode && e.Write != nil && e.Write.Resource == "nodes":
				fmt.Fprintf(stdout, "%6s  node-lifecycle: %s %s (%s)\n", since(e.Time), e.Write.Verb, e.Object.Name, e.Write.Reason)
			case e.Controller == cluster.CtlDaemonSet && isWrite(e, plan.VerbCreate, "pods", ""):
				p, _ := e.Write.Object.(*podstatus.Pod)
				fmt.Fprintf(stdout, "%6s  create %s (%s) on %s (%s)\n", since(e.Time), e.Object.Name, imageTag(p.Spec), dsNodeOf(p), e.Write.Reason)
			case e.Controller == cluster.CtlDaemonSet && isWrite(e, plan.VerbDelete, "pods", ""):
				fmt.Fprintf(stdout, "%6s  delete %s (%s)\n", since(e.Time), e.Write.Name, e.Write.Reason)
			}
		}
		cur := ""
		if d, ok := w.State.Get(key).(*daemonset.DaemonSet); ok {
			cur = imageTag(d.Spec.Template.Spec)
		}
		stack := make([]int, 4)
		onePerNode := true
		for i, n := range names {
			var on []*podstatus.Pod
			for _, p := range w.State.PodsOnNode(n) {
				on = append(on, p)
			}
			if len(on) > 1 {
				onePerNode = false
			}
			for _, p := range on {
				j := 0
				if imageTag(p.Spec) != cur {
					j = 1
				}
				if !podReady(p) {
					j += 2
				}
				stack[j]++
			}
			chart[i] = append(chart[i], dsCell(on, cur))
		}
		tl.add(since(now), "", stack...)
		d, _ := w.State.Get(key).(*daemonset.DaemonSet)
		if d == nil {
			break
		}
		st := d.Status
		if now.Sub(simStart) >= last && st.ObservedGeneration == d.Generation && st.UpdatedNumberScheduled == st.DesiredNumberScheduled &&
			st.NumberAvailable == st.DesiredNumberScheduled && onePerNode {
			fmt.Fprintf(stdout, "%6s  rollout complete: %d/%d updated and available\n", since(now), st.UpdatedNumberScheduled, st.DesiredNumberScheduled)
			break
		}
		if step == *steps-1 {
			fmt.Fprintf(stdout, "%6s  stopped after %d ticks: %d/%d updated, %d available\n", since(now), *steps, st.UpdatedNumberScheduled, st.DesiredNumberScheduled, st.NumberAvailable)
		}
	}
	fmt.Fprintf(stdout, "\nper node, one column per %s tick:\n", *tick)
	for i, n := range names {
		fmt.Fprintf(stdout, "%-8s %s\n", n, chart[i])
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

// dsNodeOf is the node a created daemon pod is for: its spec.nodeName, or
// the node its required node affinity names (how the controller pins it).
func dsNodeOf(p *podstatus.Pod) string {
	if p == nil {
		return "?"
	}
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, f := range t.MatchFields {
				if len(f.Values) == 1 {
					return f.Values[0]
				}
			}
		}
	}
	return "?"
}

// dsCell is a node's cell of the chart: the pods on it, by image and
// readiness.
func dsCell(on []*podstatus.Pod, cur string) byte {
	switch {
	case len(on) == 0:
		return '.'
	case len(on) > 1:
		return '2'
	}
	p := on[0]
	ready := podReady(p)
	switch {
	case p.IsDeleting():
		return 'x'
	case imageTag(p.Spec) == cur && ready:
		return 'n'
	case imageTag(p.Spec) == cur:
		return '+'
	case ready:
		return 'o'
	}
	return 'O'
}
