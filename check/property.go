package check

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/podstatus"
)

// Property is a named property of every path the checker explores. It is
// one of three forms; set exactly one of Holds, Allows and Wants.
//
//   - Holds, a safety property of states: it is checked on every state and
//     returns "" when the property holds, else what is wrong.
//   - Allows, a safety property of writes: it is checked on every write of
//     every transition (each controller's, the environment's, the users')
//     against the State just before that write, and returns "" or what is
//     wrong. Writes happen inside an instant, several per transition, so
//     this is how a property sees the order of writes.
//   - Wants, a liveness property: applies says whether the state obliges
//     the world (a drain started, a rollout whose pods can become ready);
//     good says whether it is in the goal. From every state where it
//     applies, the world left to itself (no further event: the
//     environment stops failing) must reach, within Options.Window, a
//     settled state — one that repeats, time read relative to now — whose
//     every repetition is good. A world that settles elsewhere violates it
//     for ever; one that has not settled within the window violates it
//     within the bound.
//
// Sees, optional with Allows, filters the writes Allows is called on (it
// costs the checker a replay of the transition's writes to give Allows
// the State before each one).
type Property struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`

	Holds  func(s Snapshot) string                       `json:"-"`
	Sees   func(e cluster.Entry) bool                    `json:"-"`
	Allows func(before Snapshot, e cluster.Entry) string `json:"-"`
	Wants  func(s Snapshot) (applies, good bool)         `json:"-"`
	// Unmet, optional with Wants, says what is not good in a state; a
	// liveness counterexample's message ends with it, read where the
	// world settles.
	Unmet func(s Snapshot) string `json:"-"`
	// Applies reports whether the property concerns the scenario: an
	// object of the first state, or one the alphabet creates; nil: always.
	// Explore leaves out the properties that do not apply.
	Applies func(s Snapshot, a Alphabet) bool `json:"-"`
}

// IsLiveness reports whether p is a liveness property (Wants is set).
func (p Property) IsLiveness() bool { return p.Wants != nil }

// Snapshot is what a property reads of one state: the objects, the instant,
// and what the environment is doing.
type Snapshot struct {
	State *cluster.State
	Now   time.Time
	// Failed is whether an environment failure (a pod failure, a node
	// outage, an eviction or a drain of the alphabet) happened on the path
	// to this state.
	Failed bool
	// Draining lists the nodes being drained; Stopped the nodes whose
	// kubelet does not run.
	Draining []string
	Stopped  []string
	// Pods are the scenario's pod behaviours: a template whose pods a
	// neverReady behaviour (or a failing runFor) matches is broken.
	Pods []cluster.PodBehavior
}

// Broken reports whether pods made from template t in namespace ns never
// become ready, by the scenario's pod behaviours: the first behaviour
// matching t's labels says neverReady, or that the containers exit with a
// non-zero code. Labels the controllers add to the pods they create
// (pod-template-hash, controller-revision-hash …) are not among t's.
func (s Snapshot) Broken(ns string, t *podstatus.Template) bool {
	for _, b := range s.Pods {
		if b.Namespace != "" && b.Namespace != ns {
			continue
		}
		if b.Selector == nil || b.Selector.Matches(t.Labels) {
			return b.NeverReady || (b.RunFor != nil && b.ExitCode != 0)
		}
	}
	return false
}

// IsStopped reports whether node n's kubelet does not run.
func (s Snapshot) IsStopped(n string) bool { return slices.Contains(s.Stopped, n) }

func snapshot(w *cluster.World, failed bool, pods []cluster.PodBehavior) Snapshot {
	return snapshotOf(w, w.Memory(), failed, pods)
}

// snapshotOf is snapshot given w's memory.
func snapshotOf(w *cluster.World, m cluster.Memory, failed bool, pods []cluster.PodBehavior) Snapshot {
	s := Snapshot{State: w.State, Now: w.Now, Failed: failed, Pods: pods}
	for n := range m.Drains {
		s.Draining = append(s.Draining, n)
	}
	for n, t := range m.Nodes {
		if t.Stopped {
			s.Stopped = append(s.Stopped, n)
		}
	}
	slices.Sort(s.Draining)
	slices.Sort(s.Stopped)
	return s
}

// Builtins returns the named properties the checker knows, safety first.
// Each states precisely what it counts; see their Doc.
func Builtins() []Property {
	return []Property{
		maxSurge(), availability(), orderedReady(), pdbEviction(), jobParallelism(), jobExclusive(), cronJobForbid(),
		deploymentCompletes(), statefulSetCompletes(), daemonSetCompletes(), drainCompletes(),
	}
}

// Builtin returns the builtin property named name.
func Builtin(name string) (Property, bool) {
	for _, p := range Builtins() {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}
