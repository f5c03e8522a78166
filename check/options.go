package check

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/field"
)

// Alphabet is what the environment and the users may do, with bounds: the
// events the checker places at every point of every path (see [Explore]).
// The zero Alphabet lets nothing happen but the world itself.
type Alphabet struct {
	// Events are the users' events (scale, image, template, pause,
	// resume, create, update, delete, cordon, uncordon, drain, evict …):
	// each happens at most once, at any point, in any order with the
	// others. Their At is ignored.
	Events []cluster.Event `json:"events,omitempty"`
	// PodFailures bounds how many times a running pod's containers exit
	// with code 1 (cluster.EventFailPod): the kubelet restarts them
	// (a container restart) or the pod fails, as its restartPolicy says.
	PodFailures int `json:"podFailures,omitempty"`
	// NodeOutages bounds how many times a running node stops
	// heartbeating (cluster.EventStopNode); with NodeReturns, a stopped
	// node may start again (cluster.EventStartNode) at any later point.
	NodeOutages int  `json:"nodeOutages,omitempty"`
	NodeReturns bool `json:"nodeReturns,omitempty"`
	// Evictions bounds how many times a running pod is evicted through
	// pods/eviction (the budgets decide).
	Evictions int `json:"evictions,omitempty"`
	// Drains bounds how many nodes are drained (cluster.EventDrain).
	Drains int `json:"drains,omitempty"`
	// Orders bounds how many times on a path the controllers' sync order
	// changes (cluster.EventOrder): one of the controllers with objects to
	// sync moves to the front of every round from then on.
	// kube-controller-manager runs its controllers concurrently, so each
	// such order is one Kubernetes may take; 0 keeps Sync's fixed order.
	Orders int `json:"orders,omitempty"`
}

// Options bound and shape the exploration; the zero value explores with
// the defaults below.
type Options struct {
	// World configures the world explored.
	World cluster.Options `json:"world"`
	// MaxDepth bounds the transitions on a path; 0 means 60.
	MaxDepth int `json:"maxDepth,omitempty"`
	// Horizon bounds the time from the exploration's first state within
	// which events happen; 0 means 30 minutes.
	Horizon time.Duration `json:"horizon,omitempty"`
	// MaxStates bounds the states explored; 0 means 2,000,000. A search
	// that reaches it is incomplete (Report.Complete false).
	MaxStates int `json:"maxStates,omitempty"`
	// Quiet is the longest a tick waits for something to happen before it
	// ends (a transition of a world where nothing but periodic work
	// happens); 0 means 1 minute.
	Quiet time.Duration `json:"quiet,omitempty"`
	// Window bounds liveness: from a state, the world must settle in a
	// good state within this long without further events; 0 means 45
	// minutes.
	Window time.Duration `json:"window,omitempty"`
	// TimeCap is how far back instants are read exactly by the canonical
	// form (older ones keep only their order); 0 means the longest
	// duration a rule of the scenario reads, plus a minute, at least 11
	// minutes (see timeCap).
	TimeCap time.Duration `json:"timeCap,omitempty"`
	// NoSymmetry turns symmetry reduction off: nodes that differ only by
	// name (with the pods on them) are then distinct states. Pods whose
	// names the API server generated are told apart by content either way
	// (their names are its random choice, not their identity).
	NoSymmetry bool `json:"noSymmetry,omitempty"`
	// FromStart explores from the scenario's start; by default the world
	// first runs, with no event, until it settles (at most Horizon), and
	// the exploration starts there.
	FromStart bool `json:"fromStart,omitempty"`
	// Shard splits the search (see [Shard]); the zero value is one shard.
	Shard Shard `json:"shard,omitzero"`
}

// Shard is one of Count independent parts of a search: every part
// explores the states up to the split depth, the first at which at least
// Width states are new (0 means 16×Count), and from there only the
// states whose canonical hash is Index modulo Count, and all that follows
// them. The parts share nothing (a state reachable from two parts is
// explored by both); the union of their reports is the whole search (see
// [Merge]).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
	Width int `json:"width,omitempty"`
}

func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return 60
	}
	return o.MaxDepth
}

func (o Options) horizon() time.Duration {
	if o.Horizon <= 0 {
		return 30 * time.Minute
	}
	return o.Horizon
}

func (o Options) maxStates() int {
	if o.MaxStates <= 0 {
		return 2_000_000
	}
	return o.MaxStates
}

func (o Options) quiet() time.Duration {
	if o.Quiet <= 0 {
		return time.Minute
	}
	return o.Quiet
}

func (o Options) window() time.Duration {
	if o.Window <= 0 {
		return 45 * time.Minute
	}
	return o.Window
}

// validate checks the options and the alphabet; errors are *field.Error.
func validate(a Alphabet, o Options) error {
	for _, c := range []struct {
		path string
		n    int
	}{{"podFailures", a.PodFailures}, {"nodeOutages", a.NodeOutages}, {"evictions", a.Evictions}, {"drains", a.Drains}, {"orders", a.Orders}} {
		if c.n < 0 {
			return field.Int("alphabet."+c.path, int64(c.n), field.ErrNegative)
		}
		if c.n > 255 {
			return field.Int("alphabet."+c.path, int64(c.n), field.ErrOverflow)
		}
	}
	if len(a.Events) > 32 {
		return field.Int("alphabet.events", int64(len(a.Events)), field.ErrOverflow)
	}
	for i, e := range a.Events {
		if e.Kind == cluster.EventFailPod || e.Kind == cluster.EventStopNode || e.Kind == cluster.EventStartNode {
			continue
		}
		sc := cluster.Scenario{Events: []cluster.Event{{Kind: e.Kind, Target: e.Target, Replicas: e.Replicas,
			Image: e.Image, Template: e.Template, Object: e.Object, ExitCode: e.ExitCode, Order: e.Order}}}
		if err := sc.Validate(); err != nil {
			if fe, ok := err.(*field.Error); ok {
				return field.Under(field.Index("alphabet.events", i), fieldTail(fe))
			}
			return fmt.Errorf("alphabet.events[%d]: %w", i, err)
		}
	}
	if o.Shard.Count < 0 || o.Shard.Index < 0 || (o.Shard.Count > 0 && o.Shard.Index >= o.Shard.Count) {
		return field.Int("shard.index", int64(o.Shard.Index), field.ErrInvalid)
	}
	for _, c := range []struct {
		path string
		d    time.Duration
	}{{"horizon", o.Horizon}, {"quiet", o.Quiet}, {"window", o.Window}, {"timeCap", o.TimeCap}} {
		if c.d < 0 {
			return field.New(c.path, c.d.String(), field.ErrNegative)
		}
	}
	if o.MaxDepth < 0 || o.MaxStates < 0 {
		return field.Int("maxDepth", int64(min(o.MaxDepth, o.MaxStates)), field.ErrNegative)
	}
	return nil
}

// fieldTail drops the "events[0]." prefix of a scenario's error.
func fieldTail(fe *field.Error) error {
	c := *fe
	const p = "events[0]."
	if len(c.Path) > len(p) && c.Path[:len(p)] == p {
		c.Path = c.Path[len(p):]
	}
	return &c
}
