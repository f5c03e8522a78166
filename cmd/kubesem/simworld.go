package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The `simulate <kind>` subcommands build a cluster.Scenario from their
// flags, run it on a cluster.World and print from the world's trace and
// state. This file holds what they share: the scenario's start instant,
// ready nodes, the warm-up that lets a workload converge before the
// scenario's own events, and readers of the trace. None of it decides what
// a controller, the API server or the kubelet does — the world does.

// simStart is the instant every simulation's timeline counts from.
var simStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// simWarmup is how long before simStart a scenario's objects exist, so that
// the workload the flags describe has converged (its pods running and
// ready) when the timeline starts; the scenario's events come after it.
const simWarmup = 10 * time.Minute

// simNode is a node named name whose kubelet runs and reports Ready, with
// the given labels.
func readyNode(name string, labels map[string]string) *node.Node {
	l := map[string]string{"kubernetes.io/hostname": name}
	for k, v := range labels {
		l[k] = v
	}
	return &node.Node{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: l, CreationTimestamp: simStart.Add(-time.Hour)},
		Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: meta.ConditionTrue, Reason: "KubeletReady",
			LastHeartbeatTime: simStart.Add(-simWarmup), LastTransitionTime: simStart.Add(-time.Hour)}}},
	}
}

// newSimWorld builds the world of sc (whose Start and event offsets the
// caller set) and advances it to just before simStart, so that what
// happened during the warm-up is not printed.
func newSimWorld(sc cluster.Scenario, opts cluster.Options) (*cluster.World, *stepper, error) {
	w, err := newWorld(sc, opts)
	if err != nil {
		return nil, nil, err
	}
	s := &stepper{w: w}
	if err := s.run(simStart.Add(-time.Nanosecond)); err != nil {
		return nil, nil, err
	}
	return w, s, nil
}

// at is a scenario event offset for an instant d after simStart, given a
// scenario that starts simWarmup earlier.
func at(d time.Duration) time.Duration { return simWarmup + d }

// entriesSince returns the trace entries from index i on.
func entriesSince(w *cluster.World, i int) []cluster.Entry {
	if i >= len(w.Trace) {
		return nil
	}
	return w.Trace[i:]
}

// busy reports whether entries hold a write other than heartbeats and
// status reports the kubelets make of pods (something a reader of the
// timeline would call a change).
func busy(es []cluster.Entry) bool {
	for _, e := range es {
		if e.Write != nil && e.Reason != cluster.ReasonHeartbeat {
			return true
		}
	}
	return false
}

// podReady reports whether the pod's Ready condition, as the kubelet wrote
// it, is True.
func podReady(p *podstatus.Pod) bool {
	c := p.Condition(podstatus.Ready)
	return c != nil && c.Status == meta.ConditionTrue
}

// imageTag is the tag of the first container's image ("web:v2" → "v2").
func imageTag(s podstatus.Spec) string {
	if len(s.Containers) == 0 {
		return ""
	}
	img := s.Containers[0].Image
	if i := strings.LastIndexByte(img, ':'); i >= 0 {
		return img[i+1:]
	}
	return img
}

// since prints t as an offset from simStart.
func since(t time.Time) string { return t.Sub(simStart).String() }

// writeLine describes a write of the trace in a few words: verb, resource
// (with subresource) and name.
func writeLine(e cluster.Entry) string {
	w := e.Write
	res := w.Resource
	if w.Subresource != "" {
		res += "/" + w.Subresource
	}
	name := w.Name
	if name == "" {
		name = e.Object.Name
	}
	s := fmt.Sprintf("%s %s %s", w.Verb, res, name)
	if e.Err != "" {
		s += " (refused: " + e.Err + ")"
	}
	return s
}

// isWrite reports whether e is a write of verb on resource (and
// subresource).
func isWrite(e cluster.Entry, verb plan.Verb, resource, sub string) bool {
	return e.Write != nil && e.Write.Verb == verb && e.Write.Resource == resource && e.Write.Subresource == sub
}

// stepper advances a world instant by instant and reports a world that
// stopped because it was stuck (cluster.World.Err: something stayed due at
// one instant; the world runs an instant a bounded number of times).
type stepper struct {
	w *cluster.World
}

// step runs the world's next due instant up to until (see
// cluster.World.Step); it returns false when nothing is due by then, and an
// error when the world stopped stuck.
func (s *stepper) step(until time.Time) (bool, error) {
	if s.w.Step(until) {
		return true, nil
	}
	if s.w.Err != nil {
		return false, fmt.Errorf("%w (see the last trace entries: %s)", s.w.Err, lastEntries(s.w, 3))
	}
	return false, nil
}

// run steps until nothing is due by until.
func (s *stepper) run(until time.Time) error {
	for {
		ok, err := s.step(until)
		if err != nil || !ok {
			return err
		}
	}
}

func lastEntries(w *cluster.World, n int) string {
	var out []string
	for _, e := range w.Trace[max(0, len(w.Trace)-n):] {
		s := e.Controller + " " + string(e.Reason)
		if e.Write != nil {
			s += " " + writeLine(e)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
