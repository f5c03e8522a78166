package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

const drainWorldSynopsis = `A scenario on the cluster world (package cluster), after the drain
walk-through of the Kubernetes disruptions page (seed 000): Deployment web
(--replicas pods, spread over --nodes nodes by the world's scheduler)
under budget web-pdb, and pod x, which no controller owns, on node-1. Each
--drain NODE@TIME cordons the node and evicts its pods through the
eviction subresource, retrying refused evictions every 5 s as kubectl
drain does; new pods become ready --ready-after after they start and
deleted ones terminate over 30 s (the world's kubelet model). Prints every
eviction and its answer, what the controllers and the kubelets did, the
budget's status as the disruption controller writes it, and the pods after
each instant. For a cluster of your own, use simulate cluster --scenario
with drain events.

Example, the documented kubectl drain, eviction by eviction:

  kubesem simulate drain --min-available 2`

// simulateDrain builds the drain scenario from the flags, runs it on the
// world and prints the timeline.
func simulateDrain(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate drain", flag.ContinueOnError)
	minAvailable := fs.String("min-available", "2", "spec.minAvailable (integer or percentage; empty: unset)")
	maxUnavailable := fs.String("max-unavailable", "", "spec.maxUnavailable (integer or percentage; empty: unset)")
	policy := fs.String("policy", "", "spec.unhealthyPodEvictionPolicy: IfHealthyBudget or AlwaysAllow (empty: unset)")
	replicas := fs.Int("replicas", 3, "the Deployment's spec.replicas (1 to 100)")
	nodes := fs.Int("nodes", 3, "nodes node-1 … node-N (1 to 100)")
	drains := fs.String("drain", "node-1@0s,node-2@10s", "comma-separated NODE@TIME: kubectl drain NODE at TIME")
	readyAfter := fs.Duration("ready-after", 30*time.Second, "how long a started pod takes to become ready")
	duration := fs.Duration("duration", 5*time.Minute, "simulate at most this long")
	svg := fs.String("svg", "", "also write the pods' states after each printed instant as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, drainWorldSynopsis); err != nil {
		return err
	}
	if *replicas < 1 || *replicas > 100 || *nodes < 1 || *nodes > 100 || *readyAfter < 0 || *duration <= 0 || *duration > 24*time.Hour {
		return usagef("simulate drain: --replicas and --nodes 1-100, --ready-after >= 0, --duration more than 0 and at most 24h")
	}
	b := &pdb.PodDisruptionBudget{}
	b.Name, b.Namespace, b.Generation = "web-pdb", "default", 1
	b.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
	for _, f := range []struct {
		name, s string
		dst     **intstr.Value
	}{{"--min-available", *minAvailable, &b.Spec.MinAvailable}, {"--max-unavailable", *maxUnavailable, &b.Spec.MaxUnavailable}} {
		if f.s == "" {
			continue
		}
		v, err := intstr.Parse(f.s)
		if err != nil {
			return usagef("simulate drain: %s: %q: want an integer or a percentage", f.name, f.s)
		}
		*f.dst = &v
	}
	if *policy != "" {
		p := pdb.EvictionPolicy(*policy)
		b.Spec.UnhealthyPodEvictionPolicy = &p
	}
	if err := pdb.Validate(b); err != nil {
		return usagef("simulate drain: %v", err)
	}
	r := int32(*replicas)
	grace := int64(30)
	d := &rollout.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", Generation: 1},
		Spec: rollout.Spec{Replicas: &r, Selector: meta.SelectorFromSet(map[string]string{"app": "web"}),
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: podstatus.Spec{TerminationGracePeriodSeconds: &grace, Containers: []podstatus.Container{{Name: "web", Image: "web:1"}}}}},
	}
	x := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "x", Namespace: "default", Labels: map[string]string{"app": "x"}},
		Spec: podstatus.Spec{NodeName: "node-1", TerminationGracePeriodSeconds: &grace, Containers: []podstatus.Container{{Name: "x", Image: "x:1"}}}}
	sc := cluster.Scenario{Start: simStart.Add(-simWarmup), Objects: []any{d, b, x}, Pods: []cluster.PodBehavior{{ReadyDelay: readyAfter}}}
	known := map[string]bool{}
	for i := 1; i <= *nodes; i++ {
		n := readyNode(fmt.Sprintf("node-%d", i), nil)
		known[n.Name] = true
		sc.Objects = append(sc.Objects, n)
	}
	last := time.Duration(0)
	for _, s := range splitList(*drains) {
		name, t, ok := strings.Cut(s, "@")
		at, err := time.ParseDuration(t)
		if !ok || err != nil || !known[name] || at < 0 {
			return usagef("simulate drain: --drain %q: want node-N@duration, N from 1 to --nodes", s)
		}
		last = max(last, at)
		sc.Events = append(sc.Events, cluster.Event{At: simWarmup + at, Kind: cluster.EventDrain, Target: cluster.Key{Kind: cluster.KindNode, Name: name}})
	}
	w, st, err := newSimWorld(sc, cluster.Options{})
	if err != nil {
		return fmt.Errorf("simulate drain: %v", err)
	}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{{"available", "#2e8b57"}, {"starting", "#9fd5b5"}, {"pending", "#f2b880"}, {"terminating", "#c0392b"}}}
	}
	var budget strings.Builder
	fmt.Fprintf(&budget, "budget web-pdb:")
	if *minAvailable != "" {
		fmt.Fprintf(&budget, " minAvailable %s", *minAvailable)
	}
	if *maxUnavailable != "" {
		fmt.Fprintf(&budget, " maxUnavailable %s", *maxUnavailable)
	}
	if *policy != "" {
		fmt.Fprintf(&budget, ", unhealthyPodEvictionPolicy %s", *policy)
	}
	fmt.Fprintf(&budget, "; drains: %s", *drains)
	deployment := fmt.Sprintf("Deployment web: %d replicas on %d nodes, pods ready %v after they start; pod x (no controller) on node-1", *replicas, *nodes, *readyAfter)
	fmt.Fprintf(stdout, "%s\n%s\n", deployment, budget.String())
	if tl != nil {
		tl.title, tl.subtitle = "simulate drain: "+budget.String(), deployment
	}
	fmt.Fprintf(stdout, "pods before: %s\n", drainPods(w))
	end := simStart.Add(*duration)
	lastBusy := simStart
	for {
		i := len(w.Trace)
		ok, err := st.step(end)
		if err != nil {
			return fmt.Errorf("simulate drain: %v", err)
		}
		if !ok {
			fmt.Fprintf(stdout, "\nstopped at %s\n", since(end))
			break
		}
		es := entriesSince(w, i)
		if !busy(es) {
			if w.Now.Sub(simStart) >= last && w.Now.Sub(lastBusy) >= time.Minute {
				fmt.Fprintf(stdout, "\nnothing but heartbeats since %s: every drain is done\n", since(lastBusy))
				break
			}
			continue
		}
		lastBusy = w.Now
		fmt.Fprintf(stdout, "%s\n", since(w.Now))
		for _, e := range es {
			if l := drainLine(e); l != "" {
				fmt.Fprintf(stdout, "   %s\n", l)
			}
		}
		pods := drainPods(w)
		fmt.Fprintf(stdout, "   pods: %s\n", pods)
		tl.add(since(w.Now), pods, strings.Count(pods, " available"), strings.Count(pods, " starting"), strings.Count(pods, " pending"), strings.Count(pods, " terminating"))
	}
	return tl.writeFile(*svg)
}

// drainLine describes one trace entry for the drain timeline ("" to leave
// it out: heartbeats and the controllers' own status writes).
func drainLine(e cluster.Entry) string {
	if e.Event != nil || e.Reason == cluster.ReasonHeartbeat {
		return ""
	}
	if e.Write == nil {
		return fmt.Sprintf("%s: %s %s", e.Controller, e.Reason, e.Object.Name)
	}
	switch {
	case isWrite(e, plan.VerbCreate, "pods", "eviction"):
		if e.Err != "" {
			return fmt.Sprintf("evict %s -> refused: %s", e.Write.Name, e.Err)
		}
		return fmt.Sprintf("evict %s -> allowed", e.Write.Name)
	case e.Write.Resource == "poddisruptionbudgets" && e.Write.Subresource == "status":
		if b, ok := e.Write.Object.(*pdb.PodDisruptionBudget); ok {
			s := b.Status
			return fmt.Sprintf("%s: budget %s: allowed %d, healthy %d, desired %d, expected %d", e.Controller, b.Name, s.DisruptionsAllowed, s.CurrentHealthy, s.DesiredHealthy, s.ExpectedPods)
		}
	case e.Write.Subresource == "status" && e.Controller != cluster.CtlUser && !strings.HasPrefix(e.Controller, cluster.CtlKubelet):
		return ""
	case e.Write.Resource == "pods" && e.Write.Subresource == "status":
		return fmt.Sprintf("%s: %s %s", e.Controller, e.Reason, e.Object.Name)
	case isWrite(e, plan.VerbCreate, "pods", "binding"):
		if b, ok := e.Write.Object.(*podstatus.Pod); ok && b.Spec.NodeName != "" {
			return fmt.Sprintf("%s: %s to %s", e.Controller, e.Object.Name, b.Spec.NodeName)
		}
		return fmt.Sprintf("%s: bind %s", e.Controller, e.Object.Name)
	case e.Write.Resource == "nodes":
		return fmt.Sprintf("%s: %s %s (%s)", e.Controller, e.Write.Verb, e.Object.Name, e.Reason)
	case e.Write.Resource == "replicasets" && e.Write.Subresource == "":
		return ""
	}
	name := e.Object.Name
	if name == "" {
		name = e.Write.Name
	}
	return fmt.Sprintf("%s: %s %s %s", e.Controller, e.Write.Verb, e.Write.Resource, name)
}

// drainPods lists the pods with their node and state as the world holds
// them: available (Ready), starting (bound, not Ready), pending (not
// bound), terminating.
func drainPods(w *cluster.World) string {
	var ps []string
	for _, p := range w.State.Pods() {
		n := p.Spec.NodeName
		state := "starting"
		switch {
		case p.IsDeleting():
			state = "terminating"
		case n == "":
			n, state = "-", "pending"
		case podReady(p):
			state = "available"
		}
		ps = append(ps, fmt.Sprintf("%s@%s %s", p.Name, n, state))
	}
	return strings.Join(ps, "; ")
}
