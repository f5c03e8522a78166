package daemonset

import (
	"strconv"
	"time"
)

// BackoffEntry is the failed-pod backoff of one node: the current delay
// and when it was last advanced.
type BackoffEntry struct {
	Delay      time.Duration `json:"delay"`
	LastUpdate time.Time     `json:"lastUpdate"`
}

// Backoff is the controller's failed-pod backoff memory, keyed by
// [BackoffKey]. A Step reads it and returns the updated copy.
type Backoff map[string]BackoffEntry

// BackoffKey is the memory key of a node's failed-pod backoff: the
// DaemonSet UID, its status.observedGeneration and the node name, joined
// by '/' (so a new generation starts afresh).
//
// Source: upstream pkg/controller/daemon failedPodsBackoffKey (v1.36.3).
func BackoffKey(ds *DaemonSet, nodeName string) string {
	return ds.UID + "/" + strconv.FormatInt(ds.Status.ObservedGeneration, 10) + "/" + nodeName
}

// allow reports whether a failed pod on the node of key may be deleted at
// now. While the node is in backoff (its delay has not passed since its
// last update) it may not, and wait is that delay, the requeue. Otherwise
// the node's entry advances to now: the delay starts at the base
// (Options.BackoffBase) for a node without an entry or whose entry was
// last updated more than twice the cap ago, and doubles up to the cap
// (Options.BackoffCap) otherwise.
//
// Source: upstream pkg/controller/daemon daemon_controller.go
// podsShouldBeOnNode (failedPodsBackoff IsInBackOffSinceUpdate, Get,
// Next) (v1.36.3); client-go v0.36.3 util/flowcontrol/backoff.go
// Backoff.Next, hasExpired.
func (b Backoff) allow(key string, now time.Time, opts Options) (wait time.Duration, ok bool) {
	e, found := b[key]
	expired := found && now.Sub(e.LastUpdate) > 2*opts.backoffCap()
	if found && !expired && now.Sub(e.LastUpdate) < e.Delay {
		return e.Delay, false
	}
	if !found || expired {
		e = BackoffEntry{Delay: opts.backoffBase()}
	} else {
		e.Delay = min(2*e.Delay, opts.backoffCap())
	}
	e.LastUpdate = now
	b[key] = e
	return 0, true
}

func copyBackoff(m Backoff) Backoff {
	out := make(Backoff, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
