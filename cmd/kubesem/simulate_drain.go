package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// drainFile is the JSON a user gives with --cluster: the nodes, pods (with
// their controller references), controllers and budgets, the script of
// drains and lifecycle steps (default: drain every node in order, with a
// controller sync before each), and the start time (default 2026-01-01).
type drainFile struct {
	Cluster pdb.Cluster  `json:"cluster"`
	Script  []pdb.Action `json:"script"`
	Start   *time.Time   `json:"start"`
}

// loadDrainFile reads a drainFile strictly.
func loadDrainFile(path string) (drainFile, error) {
	var f drainFile
	data, err := readInput(path, nil, maxRequestBytes)
	if err != nil {
		return f, usagef("simulate drain: --cluster: %v", err)
	}
	if err := apijson.UnmarshalStrict(data, &f); err != nil {
		return f, usagef("simulate drain: --cluster %s: %s", path, describe(err))
	}
	if len(f.Script) == 0 {
		for _, n := range f.Cluster.Nodes {
			f.Script = append(f.Script, pdb.Action{Kind: pdb.ActionSync}, pdb.Action{Kind: pdb.ActionDrain, Node: n.Name})
		}
	}
	return f, nil
}

// simulateDrain replays the drain walk-through of the Kubernetes
// disruptions page (seed 000): three nodes, a Deployment's pods a, b, c
// under a budget, an unrelated pod x, and kubectl drain of node-1 then
// node-2, printing every eviction attempt, its answer and the budget after
// each step. With --cluster it replays the user's own cluster and script.
func simulateDrain(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate drain", flag.ContinueOnError)
	clusterFile := fs.String("cluster", "", "a JSON file {cluster: {nodes, pods, controllers, budgets}, script?: [actions], start?: time} to replay instead of the documented walk-through")
	minAvailable := fs.String("min-available", "2", "spec.minAvailable (integer or percentage; empty: unset)")
	maxUnavailable := fs.String("max-unavailable", "", "spec.maxUnavailable (integer or percentage; empty: unset)")
	policy := fs.String("policy", "", "spec.unhealthyPodEvictionPolicy: IfHealthyBudget or AlwaysAllow (empty: unset)")
	capacity := fs.Int("node3-capacity", 2, "pods node-3 can run (0: no limit)")
	svg := fs.String("svg", "", "also write the pods' states after each step as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, drainSynopsis); err != nil {
		return err
	}
	if *capacity < 0 || *capacity > 1000 {
		return usagef("simulate drain: --node3-capacity: %d: want 0 to 1000", *capacity)
	}
	b := pdb.PodDisruptionBudget{}
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
	if err := pdb.Validate(&b); err != nil {
		return usagef("simulate drain: %v", err)
	}
	yes := true
	pod := func(name, node string, owned bool) podstatus.Pod {
		var p podstatus.Pod
		p.Name, p.Namespace, p.UID, p.Spec.NodeName = name, "default", name, node
		p.Labels = map[string]string{"app": "x"}
		if owned {
			p.Labels = map[string]string{"app": "web"}
			p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-rs", UID: "web-rs", Controller: &yes}}
		}
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue}}
		return p
	}
	three := int32(3)
	c := pdb.Cluster{
		Nodes: []node.Node{simNode("node-1", 0), simNode("node-2", 0), simNode("node-3", *capacity)},
		Controllers: []pdb.Controller{
			{APIVersion: "apps/v1", Kind: "Deployment", ObjectMeta: meta.ObjectMeta{Name: "web", UID: "web"}, Spec: pdb.ControllerSpec{Replicas: &three}},
			{APIVersion: "apps/v1", Kind: "ReplicaSet", ObjectMeta: meta.ObjectMeta{Name: "web-rs", UID: "web-rs",
				OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "web", Controller: &yes}}},
				Spec: pdb.ControllerSpec{Replicas: &three}},
		},
		Budgets: []pdb.PodDisruptionBudget{b},
	}
	c.Pods = append(c.Pods, pod("pod-a", "node-1", true), pod("pod-x", "node-1", false), pod("pod-b", "node-2", true), pod("pod-c", "node-3", true))
	script := []pdb.Action{
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-1"},
		{Kind: pdb.ActionRecreate, Pods: []string{"pod-d"}},
		{Kind: pdb.ActionCreate, Node: "node-3", Pods: []string{"pod-y"}},
		{Kind: pdb.ActionAdvance, After: 30 * time.Second},
		{Kind: pdb.ActionTerminate},
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-2", DryRun: true},
		{Kind: pdb.ActionDrain, Node: "node-3", DryRun: true},
		{Kind: pdb.ActionAdvance, After: 30 * time.Second},
		{Kind: pdb.ActionReady, Pods: []string{"pod-d"}},
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionDrain, Node: "node-2"},
		{Kind: pdb.ActionRecreate, Pods: []string{"pod-e", "pod-f", "pod-g"}},
		{Kind: pdb.ActionSync},
		{Kind: pdb.ActionAdvance, After: 5 * time.Second},
		{Kind: pdb.ActionDrain, Node: "node-2"},
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if *clusterFile != "" {
		f, err := loadDrainFile(*clusterFile)
		if err != nil {
			return err
		}
		c, script = f.Cluster, f.Script
		if f.Start != nil {
			start = *f.Start
		}
	}
	steps, err := pdb.Drain(c, script, start, pdb.Options{})
	if err != nil {
		return err
	}
	tl := &timeline{title: "kubectl drain against a PodDisruptionBudget: pods after each step",
		series: []series{{"available", "#2e8b57"}, {"starting", "#9fd5b5"}, {"pending", "#f2b880"}, {"terminating", "#c0392b"}}}
	for i, s := range steps {
		a := s.Action
		label := string(a.Kind)
		switch {
		case a.Node != "" && a.DryRun:
			label += " " + a.Node + " (dry run)"
		case a.Node != "":
			label += " " + a.Node
		case a.After > 0:
			label += " " + a.After.String()
		case a.Kind == pdb.ActionReady:
			label += " " + strings.Join(a.Pods, ", ")
		}
		fmt.Fprintf(stdout, "%2d %s\n", i+1, label)
		for _, at := range s.Attempts {
			d := at.Decision
			answer := fmt.Sprintf("%d %s", d.Code, d.Reason)
			if d.Message != "" {
				answer += ": " + d.Message
			}
			fmt.Fprintf(stdout, "   evict %-6s -> %s\n", at.Pod, answer)
		}
		if len(s.Created) > 0 {
			fmt.Fprintf(stdout, "   created %s\n", strings.Join(s.Created, ", "))
		}
		if len(s.Removed) > 0 {
			fmt.Fprintf(stdout, "   removed %s\n", strings.Join(s.Removed, ", "))
		}
		for _, bs := range s.Budgets {
			fmt.Fprintf(stdout, "   budget %s: allowed %d, healthy %d, desired %d, expected %d\n",
				bs.Name, bs.DisruptionsAllowed, bs.CurrentHealthy, bs.DesiredHealthy, bs.ExpectedPods)
		}
		var ps []string
		for _, p := range s.Pods {
			node := p.Node
			if node == "" {
				node = "-"
			}
			ps = append(ps, fmt.Sprintf("%s@%s %s", p.Name, node, p.State))
		}
		fmt.Fprintf(stdout, "   pods: %s\n", strings.Join(ps, "; "))
		stack := make([]int, 4)
		for _, p := range s.Pods {
			switch p.State {
			case "available":
				stack[0]++
			case "starting":
				stack[1]++
			case "pending":
				stack[2]++
			case "terminating":
				stack[3]++
			}
		}
		tl.add(strconv.Itoa(i+1)+" "+label, strings.Join(ps, "; "), stack...)
	}
	if *svg == "" {
		return nil
	}
	return tl.writeFile(*svg)
}

// simNode is a node named name that runs at most capacity pods (0: no
// limit), its status.allocatable.pods.
func simNode(name string, capacity int) node.Node {
	var n node.Node
	n.Name = name
	if capacity > 0 {
		n.Status.Allocatable = map[string]string{"pods": strconv.Itoa(capacity)}
	}
	return n
}
