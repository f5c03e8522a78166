package daemonset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// History is the DaemonSet's ControllerRevisions and the hash of its
// current template. Upstream computes Hash from the template with
// controller.ComputeHash; kubesem takes it as input (UPSTREAM §14.3).
type History struct {
	Hash      string                       `json:"hash"`
	Revisions []history.ControllerRevision `json:"revisions,omitempty"`
}

// RevisionHash returns the hash a DaemonSet's ControllerRevision stands
// for: its controller-revision-hash label, or its name when it has none
// (the controller then labels it with its name).
//
// Source: upstream pkg/controller/daemon constructHistory (v1.36.3).
func RevisionHash(r *history.ControllerRevision) string {
	if h, ok := r.Labels[history.HashLabel]; ok {
		return h
	}
	return r.Name
}

// revision is a ControllerRevision as the sync reads it.
type revision struct {
	name     string
	revision int64
	hash     string
	created  time.Time
}

// model is r as a history.ControllerRevision, for its order.
func (r revision) model() history.ControllerRevision {
	c := history.ControllerRevision{Revision: r.revision}
	c.Name, c.CreationTimestamp = r.name, r.created
	return c
}

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

// PodCreation is one daemon pod to create: its node and why. The pod is
// [NewPod] of the DaemonSet for that node and the current hash.
type PodCreation struct {
	Node   string `json:"node"`
	Reason Reason `json:"reason"`
}

// Plan is what one sync of a DaemonSet does.
type Plan struct {
	Outcome Reason `json:"outcome"`
	// Revisions lists the ControllerRevision writes in the controller's
	// order: the revision created for the current template when none has
	// its hash (verb create, the hash in Hash), or the current one
	// renumbered to the newest (update); then the old revisions the
	// history limit deletes, oldest first.
	Revisions    []history.Write            `json:"revisions"`
	Create       plan.Creation[PodCreation] `json:"create"`
	Delete       []plan.Deletion            `json:"delete"`
	Status       Status                     `json:"status"`
	UpdateStatus bool                       `json:"updateStatus"`
	Events       []plan.Event               `json:"events"`
	Requeue      []plan.Requeue             `json:"requeue"`
	// Memory is the failed-pod backoff after the sync.
	Memory Backoff `json:"memory"`
}

// MarshalJSON writes the Plan with plan.Encode.
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// nodeState is one node's view during a sync.
type nodeState struct {
	name  string
	node  *node.Node // nil for a node not in the node list
	elig  Eligibility
	pods  []*podstatus.Pod // claimed, not (terminal and deleting), in pod order
	entry bool             // present in upstream's nodeToDaemonPods
}

// Step is one sync of the DaemonSet controller: manage (create a pod on
// every node that should run one and has none; delete failed pods, with
// the per-node backoff in memory; delete succeeded pods; keep the oldest
// running pod, or with surge the oldest new and oldest old; delete every
// pod on a node that should not keep one, and unscheduled pods for nodes
// that do not exist); when manage wrote nothing, the rolling update
// ([RollingUpdatePlan]); the ControllerRevision bookkeeping and history
// cleanup; and the status ([ComputeStatus]). pods are the DaemonSet's
// claimed pods. Nodes are walked by name and pods by name then UID, where
// upstream walks its caches and a Go map in arbitrary order; the
// creations and deletions of each phase are capped at
// Options.BurstReplicas in that order.
//
// Step validates ds first ([Validate]) and returns its *field.Error (the
// Plan is then zero): the API server rejects such a DaemonSet, so
// upstream never syncs one. An empty selector is among them, so
// upstream's SelectingAll branch, reachable only by objects stored before
// that validation, is never taken.
//
// Source: upstream pkg/controller/daemon syncDaemonSet, manage,
// podsShouldBeOnNode, syncNodes, rollingUpdate, cleanupHistory,
// updateDaemonSetStatus (v1.36.3).
func Step(ds *DaemonSet, nodes []*node.Node, pods []*podstatus.Pod, hist History, memory Backoff, now time.Time, opts Options) (Plan, error) {
	if err := Validate(ds, opts); err != nil {
		return Plan{}, err
	}
	p := Plan{Delete: []plan.Deletion{}, Revisions: []history.Write{}, Events: []plan.Event{}, Requeue: []plan.Requeue{}, Memory: copyBackoff(memory)}
	if hist.Hash == "" {
		// Without the template's hash every pod would look outdated or
		// current by accident: say so instead.
		return Plan{}, field.New("history.hash", "", fmt.Errorf("the controller-revision-hash of the current template is required: %w", field.ErrRequired))
	}
	p.Status = ds.Status
	if c := ds.Status.CollisionCount; c != nil {
		v := *c
		p.Status.CollisionCount = &v
	}
	if ds.DeletionTimestamp != nil {
		p.Outcome = ReasonBeingDeleted
		return p, nil
	}
	states, index := groupNodes(ds, nodes, pods, opts)

	old, w := constructHistory(ds, hist)
	if w != nil {
		p.Revisions = append(p.Revisions, *w)
	}

	hash := hist.Hash
	gen, hasGen := TemplateGeneration(ds)
	creates, deletes := manage(ds, states, hash, &p, now, opts)
	rollingOK := true
	if len(creates) == 0 && len(deletes) == 0 {
		switch ds.Spec.strategy().Type {
		case RollingUpdate:
			p.Outcome = ReasonRollingUpdate
			ru, err := rollingUpdate(ds, states, index, hash, gen, hasGen, now, opts)
			if err != nil {
				if _, ok := err.(*field.Error); ok {
					return Plan{}, err
				}
				p.Outcome = ReasonNodeNotFound
				p.Requeue = append(p.Requeue, plan.Requeue{Reason: ReasonNodeNotFound, RateLimited: true})
				rollingOK = false
			} else {
				creates, deletes = ru.creates, ru.deletes
			}
		case OnDelete:
			p.Outcome = ReasonOnDelete
		default:
			p.Outcome = ReasonSynced
		}
	} else {
		p.Outcome = ReasonSynced
	}
	burst := opts.burst()
	if len(creates) > burst {
		creates = creates[:burst]
	}
	if len(deletes) > burst {
		deletes = deletes[:burst]
	}
	if len(creates) > 0 {
		p.Create = plan.Creation[PodCreation]{Count: int32(len(creates)), Reason: creates[0].Reason, Objects: creates}
	}
	p.Delete = append(p.Delete, deletes...)
	if rollingOK {
		p.Revisions = append(p.Revisions, cleanupHistory(ds, old, pods)...)
	}

	st := statusOf(ds, states, hash, gen, hasGen, now)
	p.Status, p.UpdateStatus = writeStatus(ds, st)
	if ds.Spec.MinReadySeconds > 0 && st.NumberReady != st.NumberAvailable {
		p.Requeue = append(p.Requeue, plan.Requeue{After: time.Duration(ds.Spec.MinReadySeconds) * time.Second, Reason: ReasonMinReadySeconds})
	}
	return p, nil
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

// constructHistory returns the DaemonSet's old revisions (those of
// another hash) and the write that makes the current template's revision
// the newest: its creation, named "<ds>-<hash>" and numbered one past the
// old revisions, when no revision has its hash; its renumbering when an
// old revision is newer; none otherwise.
//
// Source: upstream pkg/controller/daemon update.go constructHistory,
// maxRevision (v1.36.3).
func constructHistory(ds *DaemonSet, hist History) (old []revision, w *history.Write) {
	old, cur := splitHistory(hist)
	next := int64(1)
	for _, r := range old {
		next = max(next, r.revision+1)
	}
	if cur == nil {
		w = &history.Write{Verb: plan.VerbCreate, Name: ds.Name + "-" + hist.Hash, Revision: next, Hash: hist.Hash, Reason: ReasonRevisionCreated}
	} else if cur.revision < next {
		w = &history.Write{Verb: plan.VerbUpdate, Name: cur.name, Revision: next, Hash: cur.hash, Reason: ReasonRollback}
	}
	return old, w
}

// splitHistory splits h into the old revisions and the current one (the
// newest of h.Hash's).
func splitHistory(h History) (old []revision, cur *revision) {
	for i := range h.Revisions {
		hr := &h.Revisions[i]
		r := revision{created: hr.CreationTimestamp, name: hr.Name, revision: hr.Revision, hash: RevisionHash(hr)}
		if r.hash == h.Hash && h.Hash != "" {
			if cur == nil || r.revision >= cur.revision {
				c := r
				cur = &c
			}
			continue
		}
		old = append(old, r)
	}
	// Duplicates of the current revision other than the kept one are
	// neither old nor current (upstream's dedup deletes them).
	return old, cur
}

// groupNodes returns the nodes by name (node list first, sorted; then the
// target nodes of pods that are not in the list, sorted), each with its
// eligibility and its pods, and the index of a node name.
func groupNodes(ds *DaemonSet, nodes []*node.Node, pods []*podstatus.Pod, opts Options) ([]nodeState, map[string]int) {
	sorted := make([]*node.Node, 0, len(nodes))
	for _, n := range nodes {
		if n != nil {
			sorted = append(sorted, n)
		}
	}
	slices.SortStableFunc(sorted, func(a, b *node.Node) int { return strings.Compare(a.Name, b.Name) })
	states := make([]nodeState, 0, len(sorted))
	index := make(map[string]int, len(sorted))
	for _, n := range sorted {
		if _, dup := index[n.Name]; dup {
			continue
		}
		index[n.Name] = len(states)
		states = append(states, nodeState{name: n.Name, node: n, elig: NodeShouldRunDaemonPod(n, ds, opts)})
	}
	listed := len(states)
	ps := make([]*podstatus.Pod, 0, len(pods))
	for _, pod := range pods {
		if pod != nil {
			ps = append(ps, pod)
		}
	}
	slices.SortStableFunc(ps, func(a, b *podstatus.Pod) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.UID, b.UID)
	})
	for _, pod := range ps {
		if podstatus.IsTerminal(pod) && pod.IsDeleting() {
			continue
		}
		name, err := TargetNodeName(&pod.Spec)
		if err != nil {
			continue
		}
		i, ok := index[name]
		if !ok {
			i = len(states)
			index[name] = i
			states = append(states, nodeState{name: name})
		}
		states[i].pods = append(states[i].pods, pod)
		states[i].entry = true
	}
	extra := states[listed:]
	slices.SortFunc(extra, func(a, b nodeState) int { return strings.Compare(a.name, b.name) })
	for i := listed; i < len(states); i++ {
		index[states[i].name] = i
	}
	return states, index
}

func isAvailable(p *podstatus.Pod, minReady int32, now time.Time) bool {
	return podstatus.IsAvailable(p, minReady, now)
}

func del(p *podstatus.Pod, r Reason) plan.Deletion {
	return plan.Deletion{Name: p.Name, UID: p.UID, Reason: r}
}

// manage is upstream manage over states: podsShouldBeOnNode per listed
// node, then unscheduled pods of nodes that do not exist.
func manage(ds *DaemonSet, states []nodeState, hash string, p *Plan, now time.Time, opts Options) ([]PodCreation, []plan.Deletion) {
	var creates []PodCreation
	var deletes []plan.Deletion
	surge := AllowsSurge(ds)
	for i := range states {
		s := &states[i]
		if s.node == nil {
			for _, pod := range s.pods {
				if pod.Spec.NodeName == "" {
					deletes = append(deletes, del(pod, ReasonNodeGone))
				}
			}
			continue
		}
		switch {
		case s.elig.ShouldRun && !s.entry:
			creates = append(creates, PodCreation{Node: s.name, Reason: ReasonNoDaemonPod})
		case s.elig.ShouldContinueRunning:
			var running []*podstatus.Pod
			for _, pod := range s.pods {
				if pod.DeletionTimestamp != nil {
					continue
				}
				switch pod.Status.Phase {
				case podstatus.Failed:
					if wait, ok := p.Memory.allow(BackoffKey(ds, s.name), now, opts); !ok {
						p.Requeue = append(p.Requeue, plan.Requeue{After: wait, Reason: ReasonFailedPodBackoff})
						continue
					}
					p.Events = append(p.Events, plan.Event{Type: plan.Warning, Reason: ReasonFailedPod, Object: pod.Name})
					deletes = append(deletes, del(pod, ReasonFailedPod))
				case podstatus.Succeeded:
					p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonSucceededPod, Object: pod.Name})
					deletes = append(deletes, del(pod, ReasonSucceededPod))
				default:
					running = append(running, pod)
				}
			}
			if !surge {
				if len(running) <= 1 {
					break
				}
				slices.SortStableFunc(running, cmpOlder)
				for _, pod := range running[1:] {
					deletes = append(deletes, del(pod, ReasonExcessPod))
				}
				break
			}
			if len(running) <= 1 {
				if len(running) == 0 && s.elig.ShouldRun {
					creates = append(creates, PodCreation{Node: s.name, Reason: ReasonSurgeNoPod})
				}
				break
			}
			slices.SortStableFunc(running, cmpOlder)
			var oldestNew, oldestOld *podstatus.Pod
			for _, pod := range running {
				if pod.Labels[history.HashLabel] == hash {
					if oldestNew == nil {
						oldestNew = pod
						continue
					}
				} else if oldestOld == nil {
					oldestOld = pod
					continue
				}
				deletes = append(deletes, del(pod, ReasonExcessPod))
			}
			if oldestNew != nil && oldestOld != nil {
				switch {
				case !isReady(oldestOld):
					deletes = append(deletes, del(oldestOld, ReasonOldPodNotReady))
				case isAvailable(oldestNew, ds.Spec.MinReadySeconds, now):
					deletes = append(deletes, del(oldestOld, ReasonNewPodAvailable))
				}
			}
		case s.entry:
			for _, pod := range s.pods {
				if pod.DeletionTimestamp == nil {
					deletes = append(deletes, del(pod, ReasonShouldNotRun))
				}
			}
		}
	}
	return creates, deletes
}

func cmpOlder(a, b *podstatus.Pod) int {
	switch {
	case olderPod(a, b):
		return -1
	case olderPod(b, a):
		return 1
	}
	return 0
}

// cleanupHistory deletes the oldest old revisions beyond
// revisionHistoryLimit (nil means the API default 10), skipping those
// whose hash a claimed pod carries (terminal deleting pods included).
// Upstream sorts by revision number alone, leaving ties in its lister's
// order; the revisions are taken in [history.Sort] order.
func cleanupHistory(ds *DaemonSet, old []revision, pods []*podstatus.Pod) []history.Write {
	keep := int32(10)
	if ds.Spec.RevisionHistoryLimit != nil {
		keep = *ds.Spec.RevisionHistoryLimit
	}
	toKill := len(old) - int(keep)
	if toKill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		if _, err := TargetNodeName(&pod.Spec); err != nil {
			continue
		}
		if h := pod.Labels[history.HashLabel]; h != "" {
			live[h] = true
		}
	}
	sorted := slices.Clone(old)
	slices.SortStableFunc(sorted, func(a, b revision) int { return history.Compare(a.model(), b.model()) })
	var out []history.Write
	for _, r := range sorted {
		if toKill <= 0 {
			break
		}
		if live[r.hash] {
			continue
		}
		out = append(out, history.Write{Verb: plan.VerbDelete, Name: r.name, Revision: r.revision, Hash: r.hash, Reason: ReasonHistoryLimit})
		toKill--
	}
	return out
}
