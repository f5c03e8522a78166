package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
)

// controller is one controller of kube-controller-manager as the world
// runs it: the kinds it watches, the objects it syncs, and one sync of one
// object turned into API writes.
type controller struct {
	name string
	// reads are the kinds whose changes make the controller sync (its
	// informers).
	reads []Kind
	// periodic controllers requeue themselves forever (node monitor, pod
	// GC); their requeues do not keep the world from settling.
	periodic bool
	keys     func(w *World) []Key
	// wake, when set, narrows a sync woken by a change of the kinds it
	// reads to the objects whose informer events would enqueue them:
	// it returns a fingerprint of what the object's handlers watch,
	// and the object syncs only when that differs from the fingerprint
	// at its last sync (or its requeue is due). Unset, every object
	// syncs (a sync that changed nothing writes nothing). It appends the
	// fingerprint to buf and returns the result, empty only for an
	// object the State does not hold (which keys never lists).
	wake func(w *World, k Key, buf []byte) []byte
	step func(w *World, k Key, now time.Time) stepOut
}

// stepOut is one Step and the writes its Plan becomes.
type stepOut struct {
	plan    any
	writes  []plan.Write
	events  []plan.Event
	requeue []plan.Requeue
	err     error
	// after runs once the writes are applied (memory updates).
	after func()
	// resolve, when set, completes write i from the results of the writes
	// before it (a UID the API server assigned), as a controller uses the
	// object a create returns.
	resolve func(i int, results []Result, wr plan.Write) plan.Write
	// call is the Step's input for Options.OnStep (set only when it is).
	call *StepCall
}

// The controllers' names, in the order one Sync runs them.
const (
	CtlDeployment   = "deployment"
	CtlReplicaSet   = "replicaset"
	CtlRC           = "replicationcontroller"
	CtlStatefulSet  = "statefulset"
	CtlDaemonSet    = "daemonset"
	CtlJob          = "job"
	CtlCronJob      = "cronjob"
	CtlTTL          = "ttlafterfinished"
	CtlDisruption   = "disruption"
	CtlPodGC        = "podgc"
	CtlNode         = "node-lifecycle"
	CtlTaintEvictor = "taint-eviction"
)

// registry lists every controller, in Sync order.
func registry() []controller {
	return []controller{
		deploymentController(),
		replicaSetController(CtlReplicaSet, KindReplicaSet),
		replicaSetController(CtlRC, KindReplicationController),
		statefulSetController(),
		daemonSetController(),
		jobController(),
		cronJobController(),
		ttlController(),
		disruptionController(),
		podGCController(),
		nodeLifecycleController(),
		taintEvictionController(),
	}
}

// ControllerNames lists the controllers the world runs, in Sync order.
func ControllerNames() []string {
	var out []string
	for _, c := range registry() {
		out = append(out, c.name)
	}
	return out
}

// ordered returns ctls with the controllers named in first moved to the
// front, in that order; the rest keep their order. It never modifies ctls.
func ordered(ctls []controller, first []string) []controller {
	out := make([]controller, 0, len(ctls))
	for _, n := range first {
		for _, c := range ctls {
			if c.name == n {
				out = append(out, c)
			}
		}
	}
	for _, c := range ctls {
		if !slices.Contains(first, c.name) {
			out = append(out, c)
		}
	}
	return out
}

// validateOrder checks a controller order: known names, each once.
func validateOrder(order []string, path string) error {
	names := ControllerNames()
	for i, n := range order {
		if !slices.Contains(names, n) {
			return field.New(field.Index(path, i), n, field.ErrUnsupported)
		}
		if slices.Contains(order[:i], n) {
			return field.New(field.Index(path, i), n, field.ErrDuplicate)
		}
	}
	return nil
}

// Order lists the controllers the world runs, in the order they sync in
// a round now (Options.Order, then the last EventOrder).
func (w *World) Order() []string {
	out := make([]string, len(w.ctls))
	for i, c := range w.ctls {
		out[i] = c.name
	}
	return out
}

func controllersFor(names []string) []controller {
	all := registry()
	if names == nil {
		return all
	}
	var out []controller
	for _, c := range all {
		if slices.Contains(names, c.name) {
			out = append(out, c)
		}
	}
	return out
}

// Sync is one pass of the control plane at now: each controller in order
// (deployment, replicaset, replicationcontroller, statefulset, daemonset,
// job, cronjob, ttlafterfinished, disruption, podgc, node-lifecycle,
// taint-eviction) syncs
// each object it owns, by namespace and name, when a kind it watches
// changed since its last pass or one of its requeues is due (as informer
// events and its work queue would wake it). Each Step sees the State as
// the writes before it left it, and its writes are applied at once, in
// order; the first write the API server refuses ends that Plan's writes
// (as a controller returns the error) and requeues the object with the
// rate limiter, unless the write is marked plan.Write.IgnoreRefusal (the
// controller drops that error). It returns the decisions made.
func (w *World) Sync(now time.Time) []Decision {
	return w.sync(now, true)
}

// sync is Sync, collecting the decisions only when asked.
func (w *World) sync(now time.Time, collect bool) []Decision {
	w.keepPlans = collect || w.Opts.OnStep != nil
	var out []Decision
	var buf []byte // (the fingerprints are built here, made strings only to be kept)
	// The requeues are read in one pass: a controller's sync changes only
	// its own, so each controller's are, when its turn comes, as read.
	reqs := w.reqBuf[:0]
	for ck, r := range w.requeue {
		reqs = append(reqs, reqAt{ck, !r.at.After(now)})
	}
	for _, c := range w.ctls {
		changed := w.changedFor(c)
		due := w.dueBuf[:0]
		for _, q := range reqs {
			if q.due && q.ck.ctl == c.name {
				due = append(due, q.ck.obj)
			}
		}
		w.dueBuf = due[:0]
		if !changed && len(due) == 0 {
			continue
		}
		var keys []Key
		// fps are the fingerprints of keys computed to choose them (nil:
		// not computed), valid while the State is at version fpAt.
		var fps []string
		fpAt := w.State.changes()
		switch {
		case changed && c.wake != nil:
			for _, k := range c.keys(w) {
				ck := ctlKey{c.name, k}
				last, ok := w.woken[ck]
				if !ok || slices.Contains(due, k) {
					// (never synced, or due: it syncs whatever it watches)
					keys, fps = append(keys, k), append(fps, "")
					delete(w.requeue, ck)
					continue
				}
				buf = c.wake(w, k, buf[:0])
				if string(buf) != last {
					keys, fps = append(keys, k), append(fps, string(buf))
					delete(w.requeue, ck)
				}
			}
		case changed:
			keys = c.keys(w)
			for _, q := range reqs {
				if q.ck.ctl == c.name {
					delete(w.requeue, q.ck)
				}
			}
		default:
			slices.SortFunc(due, compareKeys)
			keys = due
			for _, k := range due {
				delete(w.requeue, ctlKey{c.name, k})
			}
		}
		// The kinds are seen as they are before the controller writes:
		// its own writes reach its informers too and wake it again.
		if changed {
			var vs kindVersions
			for i, k := range c.reads {
				vs[i] = w.State.version(k)
			}
			w.seen[c.name] = vs
		}
		for i, k := range keys {
			if c.wake != nil {
				// The fingerprint as the object syncs: the one computed
				// above while no write has changed the State since.
				if fps != nil && fps[i] != "" && w.State.changes() == fpAt {
					w.woken[ctlKey{c.name, k}] = fps[i]
				} else {
					buf = c.wake(w, k, buf[:0])
					w.woken[ctlKey{c.name, k}] = string(buf)
				}
			}
			d := w.syncOne(c, k, now)
			if collect {
				out = append(out, d)
			}
		}
	}
	clear(reqs)
	w.reqBuf = reqs[:0]
	w.keepPlans = false
	return out
}

// reqAt is a requeue as sync reads it: its controller and object, and
// whether it is due.
type reqAt struct {
	ck  ctlKey
	due bool
}

// maxReads bounds the kinds a controller reads (the disruption
// controller's six).
const maxReads = 6

// kindVersions is the State's versions of the kinds a controller reads,
// in the order of its reads.
type kindVersions [maxReads]uint64

// keySet is a set of keys: a list while it is short (a Plan writes a few
// objects), a map past keySetScan keys. Its zero value is empty.
type keySet struct {
	list []Key
	m    map[Key]bool
}

const keySetScan = 16

func (s *keySet) has(k Key) bool {
	if s.m != nil {
		return s.m[k]
	}
	return slices.Contains(s.list, k)
}

func (s *keySet) add(k Key) {
	switch {
	case s.m != nil:
		s.m[k] = true
	case slices.Contains(s.list, k):
	case len(s.list) < keySetScan:
		s.list = append(s.list, k)
	default:
		s.m = make(map[Key]bool, 2*keySetScan)
		for _, x := range s.list {
			s.m[x] = true
		}
		s.m[k] = true
	}
}

// keepPlan returns p for stepOut.plan when the sync reads it (it collects
// the decisions, or Options.OnStep is set), else nil: a Plan made an any
// is a heap copy of the whole Plan at every step.
func keepPlan[P any](w *World, p P) any {
	if w.keepPlans {
		return p
	}
	return nil
}

func (w *World) syncOne(c controller, k Key, now time.Time) Decision {
	o := c.step(w, k, now)
	if o.call != nil {
		o.call.Time, o.call.Controller, o.call.Object, o.call.Plan = now, c.name, k, o.plan
		o.call.Writes, o.call.Err = o.writes, o.err
		emptySlices(o.call.Input)
		w.Opts.OnStep(*o.call)
	}
	if w.Opts.Rewrite != nil && o.err == nil {
		o.writes = w.Opts.Rewrite(c.name, k, o.writes)
	}
	d := Decision{Controller: c.name, Object: k, Plan: o.plan, Writes: o.writes, Err: o.err}
	if o.err == nil {
		var results []Result // (kept only for resolve)
		var written keySet   // objects the writes so far changed
		for i, wr := range o.writes {
			if o.resolve != nil {
				wr = o.resolve(i, results, wr)
				o.writes[i] = wr
			}
			var r Result
			var err error
			if kind, _ := KindOfResource(wr.Resource); wr.FromCache && written.has(Key{kind, wr.Namespace, wr.Name}) {
				r, err = w.refuse(c.name, wr, now, Key{kind, wr.Namespace, wr.Name}, conflict(wr))
			} else if w.keepPlans || w.Opts.Rewrite != nil {
				r, err = w.apply(c.name, wr, now)
			} else {
				// The trace keeps the write in place: the writes are the
				// step's own (Writes makes them afresh) and no caller sees
				// them (the sync does not collect its decisions).
				r, err = w.applyKept(c.name, &o.writes[i], now)
			}
			if err == nil && r.Key != (Key{}) {
				written.add(r.Key)
			}
			if err != nil && !wr.IgnoreRefusal {
				d.Refused = field.Under(field.Index("writes", i), err)
				break
			}
			if o.resolve != nil {
				results = append(results, r)
			}
		}
		if o.after != nil {
			o.after()
		}
	} else {
		w.Trace = append(w.Trace, Entry{Time: now, Controller: c.name, Object: k, Err: o.err.Error()})
	}
	for _, ev := range o.events {
		w.event(c.name, k, ev, now)
	}
	ck := ctlKey{c.name, k}
	r, ok := plan.First(o.requeue)
	switch {
	case d.Err != nil || d.Refused != nil || (ok && r.RateLimited):
		w.fails[ck]++
		w.requeue[ck] = requeue{at: now.Add(rateLimit(w.fails[ck]) + r.After)}
	case ok:
		delete(w.fails, ck)
		w.requeue[ck] = requeue{at: now.Add(r.After), periodic: c.periodic}
	default:
		delete(w.fails, ck)
	}
	return d
}

// rateLimit is client-go's default per-item controller rate limiter:
// 5 ms doubled per consecutive failure, at most 1000 s.
func rateLimit(failures int) time.Duration {
	d := 5 * time.Millisecond
	for i := 1; i < failures; i++ {
		d *= 2
		if d >= 1000*time.Second {
			return 1000 * time.Second
		}
	}
	return d
}

// ForceSync is a Sync in which every controller syncs every object it
// owns, whether or not anything changed (a controller manager that just
// started with full caches).
func (w *World) ForceSync(now time.Time) []Decision {
	w.seen = map[string]kindVersions{}
	w.woken = map[ctlKey]string{}
	return w.Sync(now)
}

// changedFor reports whether a kind controller c watches changed since
// its last pass (or it has not had one).
func (w *World) changedFor(c controller) bool {
	seen, ok := w.seen[c.name]
	if !ok {
		return true
	}
	for i, k := range c.reads {
		if seen[i] != w.State.version(k) {
			return true
		}
	}
	return false
}

// conflict is the API server's refusal of a FromCache write whose object
// an earlier write of the same sync changed (its resourceVersion moved).
func conflict(wr plan.Write) error {
	return field.New("metadata.resourceVersion", "as read", fmt.Errorf("%w: %s %s/%s was changed by an earlier write of this sync", ErrConflict, wr.Resource, wr.Namespace, wr.Name))
}
