package daemonset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/stable"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

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
	// order: the label updates of claimed revisions without the
	// controller-revision-hash label ([LabelRevisions]); the deletes of
	// the current revision's duplicates (ReasonDuplicateRevision, by
	// name); the revision created for the current template when none has
	// its hash (verb create, the hash in Hash), or the current one
	// renumbered to the newest (update); then the old revisions the
	// history limit deletes, oldest first.
	Revisions []history.Write            `json:"revisions"`
	Create    plan.Creation[PodCreation] `json:"create"`
	// AdoptRevisions and ReleaseRevisions are the ControllerRevisions
	// whose controller reference the sync sets or removes
	// ([ClaimRevision]), Adopt and Release the pods ([ClaimPod]), each by
	// name, then UID. The revisions are patched before any other write;
	// the pods at each of the sync's listings of its pods (see
	// [Plan.Writes]).
	AdoptRevisions   []ObjectRef `json:"adoptRevisions,omitempty"`
	ReleaseRevisions []ObjectRef `json:"releaseRevisions,omitempty"`
	Adopt            []ObjectRef `json:"adopt,omitempty"`
	Release          []ObjectRef `json:"release,omitempty"`
	// Relabel are the claimed pods whose controller-revision-hash label
	// the sync sets to the current hash, by name, then UID: only when
	// more than one revision holds the current template ([Relabel];
	// Revisions then deletes the duplicates, ReasonDuplicateRevision).
	// The sync itself still reads their old labels (its cache).
	Relabel      []ObjectRef     `json:"relabel,omitempty"`
	Delete       []plan.Deletion `json:"delete"`
	Status       Status          `json:"status"`
	UpdateStatus bool            `json:"updateStatus"`
	Events       []plan.Event    `json:"events"`
	Requeue      []plan.Requeue  `json:"requeue"`
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
// cleanup; and the status (these two leave out the orphans the sync
// adopts and deletes that the API server removes at once: upstream's
// later listings re-adopt them from its cache and find none). pods are
// the pods of the
// DaemonSet's namespace the controller lists (those it controls and the
// orphans it may adopt; others are ignored), hist.Revisions the
// ControllerRevisions it lists (likewise). Unless the DaemonSet is being
// deleted, the sync first claims revisions and pods ([ClaimRevision],
// [ClaimPod]: Plan.AdoptRevisions, ReleaseRevisions, Adopt, Release) and
// works with those it claims. Nodes are walked by name and pods by name then UID, those it
// controls before the orphans it adopts (upstream's pod index lists them
// in that order, each group in arbitrary order), where upstream walks its
// caches and a Go map in arbitrary order; the
// creations and deletions of each phase are capped at
// Options.BurstReplicas in that order.
//
// The phases, each in its file: the ControllerRevisions (revision.go),
// manage (manage.go, with the failed-pod backoff of backoff.go), the
// rolling update (rolling.go), the history cleanup (revision.go) and the
// status (status.go).
//
// Step validates ds first ([Validate]) and returns its *field.Error (the
// Plan is then zero): the API server rejects such a DaemonSet, so
// upstream never syncs one. An empty selector is among them, so
// upstream's SelectingAll branch, reachable only by objects stored before
// that validation, is never taken.
//
// Source: upstream pkg/controller/daemon syncDaemonSet, constructHistory
// (controlledHistories), getNodesToDaemonPods (getDaemonPods), manage,
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
	all := hist.Revisions
	c := claimAll(ds, pods, hist.Revisions)
	pods, hist.Revisions = c.pods, c.revisions
	p.AdoptRevisions, p.ReleaseRevisions, p.Adopt, p.Release = c.adoptRevisions, c.releaseRevisions, c.adopt, c.release
	states, index := groupNodes(ds, nodes, pods, opts)

	old, ws, relabel, hash, err := constructHistory(ds, hist, all, pods)
	if err != nil {
		return Plan{}, err
	}
	p.Revisions = append(p.Revisions, ws...)
	p.Relabel = relabel

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
	// The history cleanup and the status list the pods again from the
	// cache, which still shows the pods this sync adopted as orphans;
	// one that the sync's delete removed from the API leaves them.
	if gone := vanished(pods, p.Adopt, p.Delete, now); len(gone) > 0 {
		pods = slices.DeleteFunc(slices.Clone(pods), func(q *podstatus.Pod) bool { return gone[q] })
		states, _ = groupNodes(ds, nodes, pods, opts)
	}
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

// vanished returns the pods among pods that the sync both adopts and
// deletes and that the API server removes at once (no finalizers, and
// unscheduled or terminal: podstatus.GracefulDelete with the delete's
// empty options deletes them immediately). Upstream's later listings in
// the same sync (the history cleanup's and the status's) read its cache,
// where such a pod is still an orphan, so they adopt it again; the API
// server answers NotFound, and the claim leaves the pod out of the
// listing. A pod deleted gracefully, or one the sync did not adopt, stays
// in those listings as the cache shows it.
//
// Source: upstream pkg/controller/controller_ref_manager.go ClaimObject
// (a NotFound adoption is ignored, the object not claimed),
// pkg/controller/daemon cleanupHistory and updateDaemonSetStatus
// (getNodesToDaemonPods); pkg/registry/core/pod/strategy.go
// CheckGracefulDelete (v1.36.3).
func vanished(pods []*podstatus.Pod, adopt []ObjectRef, deletes []plan.Deletion, now time.Time) map[*podstatus.Pod]bool {
	if len(adopt) == 0 || len(deletes) == 0 {
		return nil
	}
	// (by name: a name is one pod of the namespace; the UIDs, when given,
	// must agree)
	deleted := make(map[string]string, len(deletes))
	for _, d := range deletes {
		deleted[d.Name] = d.UID
	}
	adopted := make(map[string]string, len(adopt))
	for _, a := range adopt {
		adopted[a.Name] = a.UID
	}
	same := func(m map[string]string, q *podstatus.Pod) bool {
		uid, ok := m[q.Name]
		return ok && (uid == "" || uid == q.UID)
	}
	var gone map[*podstatus.Pod]bool
	for _, q := range pods {
		if q == nil || len(q.Finalizers) > 0 || !same(deleted, q) || !same(adopted, q) ||
			podstatus.GracefulDelete(q, nil, now).Outcome != podstatus.DeleteImmediately {
			continue
		}
		if gone == nil {
			gone = map[*podstatus.Pod]bool{}
		}
		gone[q] = true
	}
	return gone
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
	stable.Sort(sorted, func(a, b *node.Node) int { return strings.Compare(a.Name, b.Name) })
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
	// (upstream's pod index lists the pods the DaemonSet controls, then
	// the orphans: where the order decides, as which failed pod of a
	// node manage deletes first, a controlled one comes before an
	// adopted one; the claimed pods without a controller are the adopted)
	stable.Sort(ps, func(a, b *podstatus.Pod) int {
		if oa, ob := a.ControllerRef() == nil, b.ControllerRef() == nil; oa != ob {
			if ob {
				return -1
			}
			return 1
		}
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
