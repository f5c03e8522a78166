package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

const nodeOutageSynopsis = `Simulates nodes that stop heartbeating (seed 001, "Node controller"): the
node lifecycle controller marks them Unknown after the grace period, taints
them, computes zone states and eviction rates, and the taint-eviction
controller deletes their pods when their tolerations run out. Every node runs
three pods: "web" with the default 300 s tolerations, "bare" without
tolerations (created before the admission plugin, kubernetes/kubernetes#124243)
and "agent" tolerating forever (as DaemonSet pods do).`

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
	tolSeconds := fs.Int64("toleration-seconds", node.DefaultTolerationSeconds, "the default not-ready/unreachable tolerationSeconds the web pods get")
	rate := fs.Float64("eviction-rate", float64(node.DefaultEvictionRate), "--node-eviction-rate")
	secondary := fs.Float64("secondary-eviction-rate", float64(node.DefaultSecondaryEvictionRate), "--secondary-node-eviction-rate")
	large := fs.Int("large-cluster-size", int(node.DefaultLargeClusterThreshold), "--large-cluster-size-threshold")
	svg := fs.String("svg", "", "also write the nodes' and pods' states per step as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, nodeOutageSynopsis); err != nil {
		return err
	}
	if *duration <= 0 || *duration > 24*time.Hour {
		return usagef("simulate node-outage: --duration: %v: want more than 0 and at most 24h", *duration)
	}
	if *grace < 0 || *tolSeconds < 0 || *rate < 0 || *secondary < 0 || *large < 0 {
		return usagef("simulate node-outage: negative flag value")
	}
	opts := node.Options{NodeMonitorGracePeriod: *grace}
	r, s, l := float32(*rate), float32(*secondary), int32(*large)
	opts.EvictionRate, opts.SecondaryEvictionRate, opts.LargeClusterThreshold = &r, &s, &l

	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var nodes []*node.Node
	known := map[string]bool{}
	total := 0
	for _, part := range strings.Split(*zonesFlag, ",") {
		zone, count, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(count)
		if !ok || zone == "" || err != nil || n < 1 {
			return usagef("simulate node-outage: --zones: %q: want ZONE=COUNT", part)
		}
		total += n
		if total > 1000 {
			return usagef("simulate node-outage: --zones: at most 1000 nodes")
		}
		for i := 1; i <= n; i++ {
			nd := &node.Node{}
			nd.Name = fmt.Sprintf("%s-%d", zone, i)
			if known[nd.Name] {
				return usagef("simulate node-outage: --zones: node %s twice", nd.Name)
			}
			known[nd.Name] = true
			nd.CreationTimestamp = t0.Add(-time.Hour)
			nd.Labels = map[string]string{node.LabelTopologyZone: zone}
			nd.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: t0, LastTransitionTime: t0.Add(-time.Hour)}}
			nodes = append(nodes, nd)
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
	secs := *tolSeconds
	var pods []*podstatus.Pod
	for _, nd := range nodes {
		for _, kind := range []string{"web", "bare", "agent"} {
			p := &podstatus.Pod{}
			p.Name, p.Namespace, p.Spec.NodeName = kind+"-"+nd.Name, "default", nd.Name
			switch kind {
			case "web":
				p.Spec.Tolerations = node.DefaultTolerations(nil, secs)
			case "agent":
				p.Spec.Tolerations = []node.Toleration{{Key: node.TaintNotReady, Operator: node.OpExists, Effect: string(node.NoExecute)},
					{Key: node.TaintUnreachable, Operator: node.OpExists, Effect: string(node.NoExecute)}}
			}
			pods = append(pods, p)
		}
	}

	fmt.Fprintf(stdout, "%d nodes in %s; grace %v; eviction rate %g/s (secondary %g/s above %d nodes); web pods tolerate %ds\n",
		len(nodes), *zonesFlag, cmpDuration(*grace, node.DefaultNodeMonitorGracePeriod), r, s, l, secs)
	tl := &timeline{title: "kubesem simulate node-outage", series: []series{{"nodes Ready", "#4caf50"}, {"nodes not Ready", "#f44336"}, {"pods running", "#2196f3"}, {"pods evicted", "#9e9e9e"}}}
	if *svg == "" {
		tl = nil
	}
	down := map[string]bool{}
	lastRenew := map[string]time.Time{}
	var mem node.Memory
	scheduled := map[string][]node.ScheduledEviction{}
	evicted := map[string]time.Duration{}
	zoneState := map[string]string{}
	period := node.DefaultNodeMonitorPeriod
	renew := node.LeaseRenewInterval(0)
	for at := time.Duration(0); at <= *duration; at += period {
		now := t0.Add(at)
		var lines []string
		for _, e := range stops {
			if e.at <= at && e.at > at-period && !down[e.node] {
				down[e.node] = true
				lines = append(lines, fmt.Sprintf("%s stops heartbeating", e.node))
			}
		}
		for _, e := range recovers {
			if e.at <= at && e.at > at-period && down[e.node] {
				down[e.node] = false
				nd := findNode(nodes, e.node)
				nd.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: now, LastTransitionTime: now}}
				lines = append(lines, fmt.Sprintf("%s is back: Ready", e.node))
			}
		}
		var leases []node.Lease
		for _, nd := range nodes {
			if !down[nd.Name] {
				last := now.Add(-time.Duration(int64(at) % int64(renew)))
				lastRenew[nd.Name] = last
			}
			if rt, ok := lastRenew[nd.Name]; ok {
				rt := rt
				leases = append(leases, node.Lease{ObjectMeta: meta.ObjectMeta{Name: nd.Name}, Spec: node.LeaseSpec{RenewTime: &rt}})
			}
		}
		p, err := node.Step(nodes, leases, nil, mem, now, opts)
		if err != nil {
			return err
		}
		mem = p.Memory
		for _, w := range p.Conditions {
			nd := findNode(nodes, w.Node)
			nd.Status.Conditions = w.Conditions
			i := slices.IndexFunc(w.Conditions, func(c node.Condition) bool { return c.Type == node.Ready })
			lines = append(lines, fmt.Sprintf("%s Ready → %s (%s)", w.Node, w.Conditions[i].Status, w.Conditions[i].Reason))
		}
		for _, n := range p.MarkPodsNotReady {
			lines = append(lines, fmt.Sprintf("%s: its pods are marked NotReady", n))
		}
		for _, w := range p.Taints {
			nd := findNode(nodes, w.Node)
			applyTaints(nd, w)
			var parts []string
			for _, t := range w.Add {
				parts = append(parts, "+"+shortTaint(t))
			}
			for _, t := range w.Remove {
				parts = append(parts, "-"+shortTaint(t))
			}
			lines = append(lines, fmt.Sprintf("%s taints %s (%s)", w.Node, strings.Join(parts, " "), w.Reason))
		}
		for _, z := range p.Zones {
			name := strings.TrimPrefix(z.Zone, ":\x00:")
			desc := fmt.Sprintf("%s (%d/%d not ready), eviction rate %g/s", z.State, z.NotReady, z.Size, z.Rate)
			if zoneState[name] != desc {
				zoneState[name] = desc
				lines = append(lines, fmt.Sprintf("zone %s: %s", name, desc))
			}
		}
		if p.Disrupted && at == 0 {
			lines = append(lines, "every zone fully disrupted: no eviction")
		}
		for _, nd := range nodes {
			ep, err := node.EvictionStep(nd, pods, scheduled[nd.Name], now, opts)
			if err != nil {
				return err
			}
			prev := map[string]node.ScheduledEviction{}
			for _, s := range scheduled[nd.Name] {
				prev[s.Pod] = s
			}
			for _, s := range ep.Memory {
				if old, ok := prev[s.Pod]; !ok || !old.FireAt.Equal(s.FireAt) {
					lines = append(lines, fmt.Sprintf("pod %s: eviction scheduled at %v", s.Pod, s.FireAt.Sub(t0)))
				}
			}
			for _, d := range ep.Decisions {
				if _, ok := prev[d.Pod]; ok && d.Kind == node.NotEvicted {
					lines = append(lines, fmt.Sprintf("pod %s: eviction cancelled", d.Pod))
				}
			}
			scheduled[nd.Name] = ep.Memory
			for _, del := range ep.Delete {
				evicted[del.Name] = at
				lines = append(lines, fmt.Sprintf("pod %s deleted (%s)", del.Name, del.Reason))
				pods = slices.DeleteFunc(pods, func(p *podstatus.Pod) bool { return p.Name == del.Name })
			}
		}
		for _, l := range lines {
			fmt.Fprintf(stdout, "%8v  %s\n", at, l)
		}
		ready := 0
		for _, nd := range nodes {
			if nd.IsReady() {
				ready++
			}
		}
		tl.add(at.String(), strings.Join(lines, "; "), ready, len(nodes)-ready, len(pods), len(evicted))
	}
	fmt.Fprintf(stdout, "after %v:\n", *duration)
	var names []string
	for _, nd := range nodes {
		for _, kind := range []string{"web", "bare", "agent"} {
			names = append(names, kind+"-"+nd.Name)
		}
	}
	for _, n := range names {
		at, ok := evicted[n]
		if !ok {
			continue
		}
		fmt.Fprintf(stdout, "  %-24s evicted at %v\n", n, at)
	}
	if len(evicted) == 0 {
		fmt.Fprintln(stdout, "  no pod evicted")
	}
	return tl.writeFile(*svg)
}

func cmpDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

func findNode(nodes []*node.Node, name string) *node.Node {
	for _, n := range nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

func shortTaint(t node.Taint) string {
	return strings.TrimPrefix(t.Key, "node.kubernetes.io/") + ":" + string(t.Effect)
}

// applyTaints writes a taint write to the node, as the API server would.
func applyTaints(n *node.Node, w node.TaintWrite) {
	for _, t := range w.Add {
		i := slices.IndexFunc(n.Spec.Taints, func(x node.Taint) bool { return x.MatchTaint(t) })
		if i >= 0 {
			n.Spec.Taints[i] = t
		} else {
			n.Spec.Taints = append(n.Spec.Taints, t)
		}
	}
	for _, t := range w.Remove {
		n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, func(x node.Taint) bool { return x.MatchTaint(t) })
	}
}
