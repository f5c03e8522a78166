package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

const nodeOutageWorldSynopsis = `A scenario on the cluster world (package cluster), after seed 001 ("Node
controller"): nodes whose kubelets stop heartbeating. The node lifecycle
controller marks them Unknown after the grace period, taints them and
computes zone states and eviction rates; the taint-eviction controller
deletes their pods when their tolerations run out. Every node runs three
pods: "web" with the default 300 s tolerations, "bare" without tolerations
(created before the admission plugin, kubernetes/kubernetes#124243) and
"agent" tolerating forever (as DaemonSet pods do). Prints every write of
the control plane (not the heartbeats, not the kubelets'), and the events
the controllers record.`

// outageEvent is a node stopping (or recovering) at a time.
type outageEvent struct {
	node string
	at   time.Duration
}

func parseOutageEvents(flagName, s string, known map[string]bool) ([]outageEvent, error) {
	var out []outageEvent
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, at, ok := strings.Cut(strings.TrimSpace(part), "@")
		d := time.Duration(0)
		if ok {
			var err error
			if d, err = time.ParseDuration(at); err != nil || d < 0 {
				return nil, usagef("simulate node-outage: %s: %q: want NODE@DURATION", flagName, part)
			}
		}
		var names []string
		if known[name] {
			names = []string{name}
		} else {
			for k := range known {
				if strings.HasPrefix(k, name+"-") {
					names = append(names, k)
				}
			}
			if len(names) == 0 {
				return nil, usagef("simulate node-outage: %s: %q: no such node or zone", flagName, name)
			}
			slices.Sort(names)
		}
		for _, n := range names {
			out = append(out, outageEvent{n, d})
		}
	}
	return out, nil
}

func simulateNodeOutage(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate node-outage", flag.ContinueOnError)
	zonesFlag := fs.String("zones", "zone-a=3,zone-b=3", "zones and their node counts (nodes are named ZONE-1, ZONE-2, ...)")
	stopFlag := fs.String("stop", "zone-a-1@0s", "nodes (or whole zones) that stop heartbeating, and when: NODE@DURATION,...")
	recoverFlag := fs.String("recover", "", "nodes (or zones) that come back, and when: NODE@DURATION,...")
	duration := fs.Duration("duration", 7*time.Minute, "how long to simulate")
	grace := fs.Duration("grace", 0, "node-monitor-grace-period (0: the v1.36.3 default 50s; the seed says 40s)")
	tolSeconds := fs.Int64("toleration-seconds", 300, "the not-ready/unreachable tolerationSeconds the web pods get (the admission plugin's default is 300)")
	rate := fs.Float64("eviction-rate", float64(node.DefaultEvictionRate), "--node-eviction-rate")
	secondary := fs.Float64("secondary-eviction-rate", float64(node.DefaultSecondaryEvictionRate), "--secondary-node-eviction-rate")
	large := fs.Int("large-cluster-size", int(node.DefaultLargeClusterThreshold), "--large-cluster-size-threshold")
	svg := fs.String("svg", "", "also write the nodes' and pods' states per printed instant as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, nodeOutageWorldSynopsis); err != nil {
		return err
	}
	if *duration <= 0 || *duration > 24*time.Hour {
		return usagef("simulate node-outage: --duration: %v: want more than 0 and at most 24h", *duration)
	}
	if *grace < 0 || *tolSeconds < 0 || *rate < 0 || *secondary < 0 || *large < 0 {
		return usagef("simulate node-outage: negative flag value")
	}
	opts := cluster.Options{Node: node.Options{NodeMonitorGracePeriod: *grace}}
	r, s, l := float32(*rate), float32(*secondary), int32(*large)
	opts.Node.EvictionRate, opts.Node.SecondaryEvictionRate, opts.Node.LargeClusterThreshold = &r, &s, &l

	sc := cluster.Scenario{Start: simStart.Add(-simWarmup)}
	var nodes []string
	known := map[string]bool{}
	for _, part := range strings.Split(*zonesFlag, ",") {
		zone, count, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(count)
		if !ok || zone == "" || err != nil || n < 1 {
			return usagef("simulate node-outage: --zones: %q: want ZONE=COUNT", part)
		}
		if len(nodes)+n > 1000 {
			return usagef("simulate node-outage: --zones: at most 1000 nodes")
		}
		for i := 1; i <= n; i++ {
			name := fmt.Sprintf("%s-%d", zone, i)
			if known[name] {
				return usagef("simulate node-outage: --zones: node %s twice", name)
			}
			known[name] = true
			nodes = append(nodes, name)
			sc.Objects = append(sc.Objects, readyNode(name, map[string]string{"topology.kubernetes.io/zone": zone}))
		}
	}
	stops, err := parseOutageEvents("--stop", *stopFlag, known)
	if err != nil {
		return err
	}
	recovers, err := parseOutageEvents("--recover", *recoverFlag, known)
	if err != nil {
		return err
	}
	for _, e := range stops {
		sc.Events = append(sc.Events, cluster.Event{At: at(e.at), Kind: cluster.EventStopNode, Target: cluster.Key{Kind: cluster.KindNode, Name: e.node}})
	}
	for _, e := range recovers {
		sc.Events = append(sc.Events, cluster.Event{At: at(e.at), Kind: cluster.EventStartNode, Target: cluster.Key{Kind: cluster.KindNode, Name: e.node}})
	}
	secs := *tolSeconds
	forever := []node.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute"},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute"}}
	limited := []node.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs}}
	grace30 := int64(30) // the API server's default, as in a real cluster's pods
	for _, n := range nodes {
		for _, kind := range []string{"web", "bare", "agent"} {
			p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: kind + "-" + n, Namespace: "default", Labels: map[string]string{"app": kind}}}
			p.Spec.NodeName = n
			p.Spec.TerminationGracePeriodSeconds = &grace30
			p.Spec.Containers = []podstatus.Container{{Name: kind, Image: kind + ":1"}}
			switch kind {
			case "web":
				p.Spec.Tolerations = limited
			case "agent":
				p.Spec.Tolerations = forever
			}
			sc.Objects = append(sc.Objects, p)
		}
	}
	w, st, err := newSimWorld(sc, opts)
	if err != nil {
		return fmt.Errorf("simulate node-outage: %v", err)
	}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{{"nodes Ready", "#4caf50"}, {"nodes not Ready", "#f44336"}, {"pods running", "#2196f3"}, {"pods deleted", "#9e9e9e"}}}
	}
	tl.header(stdout, "node-outage", fmt.Sprintf("%d nodes in %s; grace %v; eviction rate %g/s (secondary %g/s above %d nodes); web pods tolerate %ds\n",
		len(nodes), *zonesFlag, cmpDuration(*grace, node.DefaultNodeMonitorGracePeriod), r, s, l, secs))
	end := simStart.Add(*duration)
	deleted := map[string]time.Duration{}
	var order []string
	if err := st.run(end); err != nil {
		return fmt.Errorf("simulate node-outage: %v", err)
	}
	// The whole trace since simStart, in order.
	var lines []string
	lastAt := ""
	flush := func(t string) {
		if len(lines) == 0 {
			return
		}
		ready := 0
		for _, n := range w.State.Nodes() {
			if n.IsReady() {
				ready++
			}
		}
		tl.add(t, strings.Join(lines, "; "), ready, len(nodes)-ready, len(w.State.Pods())-len(deleted), len(deleted))
		lines = nil
	}
	for _, e := range w.Trace {
		if e.Time.Before(simStart) || e.Reason == cluster.ReasonHeartbeat || strings.HasPrefix(e.Controller, cluster.CtlKubelet) || e.Controller == cluster.CtlScheduler {
			continue
		}
		t := since(e.Time)
		if t != lastAt {
			flush(lastAt)
			lastAt = t
		}
		line := outageLine(e)
		if line == "" {
			continue
		}
		if e.Write != nil && e.Write.Verb == plan.VerbDelete && e.Write.Resource == "pods" && e.Err == "" {
			if _, ok := deleted[e.Write.Name]; !ok {
				deleted[e.Write.Name] = e.Time.Sub(simStart)
				order = append(order, e.Write.Name)
			}
		}
		lines = append(lines, line)
		fmt.Fprintf(stdout, "%8s  %s\n", t, line)
	}
	flush(lastAt)
	fmt.Fprintf(stdout, "after %v:\n", *duration)
	for _, n := range nodes {
		for _, kind := range []string{"web", "bare", "agent"} {
			name := kind + "-" + n
			if d, ok := deleted[name]; ok {
				state := "gone"
				if p := w.State.Pod("default", name); p != nil {
					state = "still Terminating (its kubelet is down)"
				}
				fmt.Fprintf(stdout, "  %-24s deleted at %v, %s\n", name, d, state)
			}
		}
	}
	if len(deleted) == 0 {
		fmt.Fprintln(stdout, "  no pod deleted")
	}
	return tl.writeFile(*svg)
}

// outageLine describes one trace entry of the control plane or the user.
func outageLine(e cluster.Entry) string {
	who := e.Controller
	if e.Event != nil {
		s := fmt.Sprintf("%s: event %s", who, e.Event.Reason)
		for _, n := range []string{e.Object.Name, e.Event.Object} {
			if n != "" {
				s += " " + n
			}
		}
		if e.Event.Message != "" {
			s += ": " + e.Event.Message
		}
		return s
	}
	if e.Write == nil {
		return fmt.Sprintf("%s: %s %s", who, e.Reason, e.Object.Name)
	}
	switch o := e.Write.Object.(type) {
	case *node.Node:
		var taints []string
		for _, t := range o.Spec.Taints {
			taints = append(taints, strings.TrimPrefix(t.Key, "node.kubernetes.io/")+":"+string(t.Effect))
		}
		ready := "?"
		for _, c := range o.Status.Conditions {
			if c.Type == node.Ready {
				ready = string(c.Status)
				if c.Reason != "" {
					ready += " (" + c.Reason + ")"
				}
			}
		}
		if e.Write.Subresource == "status" {
			return fmt.Sprintf("%s: %s Ready %s [%s]", who, o.Name, ready, e.Write.Reason)
		}
		return fmt.Sprintf("%s: %s taints {%s} [%s]", who, o.Name, strings.Join(taints, " "), e.Write.Reason)
	case *podstatus.Pod:
		if e.Write.Subresource == "status" {
			ready := "?"
			if c := o.Condition(podstatus.Ready); c != nil {
				ready = string(c.Status)
			}
			return fmt.Sprintf("%s: pod %s Ready %s [%s]", who, o.Name, ready, e.Write.Reason)
		}
	}
	return fmt.Sprintf("%s: %s [%s]", who, writeLine(e), e.Write.Reason)
}

func cmpDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
