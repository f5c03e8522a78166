package daemonset_test

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "unsafe"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname failedPodsBackoffKey k8s.io/kubernetes/pkg/controller/daemon.failedPodsBackoffKey
func failedPodsBackoffKey(ds *apps.DaemonSet, nodeName string) string

// sequence is the world one sequence of syncs evolves: the DaemonSet as the
// API server stores it, the nodes, the pods, the ControllerRevisions.
type sequence struct {
	ds    *apps.DaemonSet
	nodes []*v1.Node
	pods  []*v1.Pod
	revs  []*apps.ControllerRevision
	next  int

	// The kubesem view, converted once per object (pods are replaced,
	// never changed in place).
	knodes []*node.Node
	kpods  map[*v1.Pod]*podstatus.Pod
	k      kubesemView
}

// kubesemView is one sync's input as kubesem reads it.
type kubesemView struct {
	ds   *daemonset.DaemonSet
	pods []*podstatus.Pod
	hist daemonset.History
}

// view converts the world for kubesem.
func (s *sequence) view(t *rapid.T) kubesemView {
	if s.knodes == nil {
		s.knodes = difftest.MustList(k8s.FromNodes(s.nodes))
		s.kpods = map[*v1.Pod]*podstatus.Pod{}
	}
	v := kubesemView{ds: difftest.Must(k8s.FromDaemonSet(s.ds))}
	for _, p := range s.pods {
		kp, ok := s.kpods[p]
		if !ok {
			kp = difftest.Must(k8s.FromPod(p))
			s.kpods[p] = kp
		}
		v.pods = append(v.pods, kp)
	}
	var err error
	if v.hist, err = k8s.DaemonSetHistory(s.ds, s.revs); err != nil {
		t.Fatal(err)
	}
	s.k = v
	return v
}

// boundaries counts the syncs whose instant sat exactly on, or one
// nanosecond around, a time rule's edge, so that a draw that stopped
// reaching them fails the test.
type boundaries struct {
	expiry, expiryNear, gc, gcNear, avail int
}

// drawMemory draws failed-pod backoff memory for the DaemonSet: entries
// for some nodes (and for another generation), delays between upstream's
// initial delay and its cap, last updates at and around the instants
// where the entry stops holding (delay) and expires (twice the cap).
func drawMemory(t *rapid.T, ds *apps.DaemonSet, nodes []*v1.Node, bounds [2]time.Duration, now time.Time) daemonset.Backoff {
	mem := daemonset.Backoff{}
	base, capd := bounds[0], bounds[1]
	for i := range rapid.IntRange(0, 3).Draw(t, "nmem") {
		l := fmt.Sprintf("mem%d", i)
		n := rapid.SampledFrom(nodes).Draw(t, l+"node")
		key := failedPodsBackoffKey(ds, n.Name)
		if rapid.IntRange(0, 5).Draw(t, l+"otherGen") == 0 {
			o := ds.DeepCopy()
			o.Status.ObservedGeneration++
			key = failedPodsBackoffKey(o, n.Name)
		}
		delay := rapid.SampledFrom([]time.Duration{base, 2 * base, 4 * base, capd / 2, capd}).Draw(t, l+"delay")
		off := rapid.SampledFrom([]time.Duration{0, delay - 1, delay, delay + 1, 2*capd - 1, 2 * capd, 2*capd + 1, time.Hour}).Draw(t, l+"age")
		mem[key] = daemonset.BackoffEntry{Delay: delay, LastUpdate: now.Add(-off)}
	}
	return mem
}

// drawNext draws the next sync's instant: often exactly on, or one
// nanosecond around, the end of a remembered delay (a failed pod is
// deleted at the end, not before), the expiry of an entry (strictly after
// twice upstream's cap), or a ready pod becoming available; otherwise a
// step from 0 to 31 minutes.
func drawNext(t *rapid.T, s *sequence, now time.Time, mem daemonset.Backoff, capd time.Duration) time.Time {
	type edge struct {
		at   time.Time
		kind string
	}
	var edges []edge
	prefix := string(s.ds.UID) + "/"
	for k, e := range mem {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		for _, d := range []time.Duration{-1, 0, 1} {
			edges = append(edges, edge{e.LastUpdate.Add(e.Delay + d), "expiry"}, edge{e.LastUpdate.Add(2*capd + d), "gc"})
		}
	}
	if mr := s.ds.Spec.MinReadySeconds; mr > 0 {
		for _, p := range s.pods {
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodReady && c.Status == v1.ConditionTrue {
					for _, d := range []time.Duration{-1, 0, 1} {
						edges = append(edges, edge{c.LastTransitionTime.Add(time.Duration(mr)*time.Second + d), "avail"})
					}
				}
			}
		}
	}
	edges = slices.DeleteFunc(edges, func(e edge) bool { return e.at.Before(now) })
	slices.SortFunc(edges, func(a, b edge) int { return a.at.Compare(b.at) })
	if len(edges) > 0 && rapid.IntRange(0, 3).Draw(t, "onEdge") > 0 {
		return edges[rapid.IntRange(0, len(edges)-1).Draw(t, "edge")].at
	}
	step := rapid.SampledFrom([]time.Duration{0, 1, time.Second / 2, time.Second, 2 * time.Second, 31 * time.Second, 5 * time.Minute, 16 * time.Minute, 31 * time.Minute}).Draw(t, "step")
	return now.Add(step)
}

// countEdges records which edges now sits on.
func countEdges(s *sequence, now time.Time, mem daemonset.Backoff, capd time.Duration, b *boundaries) {
	prefix := string(s.ds.UID) + "/"
	for k, e := range mem {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		switch now.Sub(e.LastUpdate) {
		case e.Delay:
			b.expiry++
		case e.Delay - 1, e.Delay + 1:
			b.expiryNear++
		case 2 * capd:
			b.gc++
		case 2*capd - 1, 2*capd + 1:
			b.gcNear++
		}
	}
	if mr := s.ds.Spec.MinReadySeconds; mr > 0 {
		for _, p := range s.pods {
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodReady && c.Status == v1.ConditionTrue && now.Sub(c.LastTransitionTime.Time) == time.Duration(mr)*time.Second {
					b.avail++
				}
			}
		}
	}
}

// evolve moves the world past one upstream sync at now: deleted pods go
// (or linger, terminating), created pods appear (a third of them failing
// at once, as pods the kubelet rejects do), running pods may fail,
// pending ones start; the status upstream wrote is stored; sometimes the
// generation or the template changes.
func evolve(t *rapid.T, s *sequence, res *upResult, now time.Time) {
	// Object times are whole seconds, as the API server stores them
	// (metav1.Time drops the fraction); the controller's clock is not.
	stamp := metav1.NewTime(now.Truncate(time.Second))
	var pods []*v1.Pod
	for _, p := range s.pods {
		// Copy on write: an unchanged pod keeps its conversion.
		if slices.Contains(res.Deleted, p.Name) {
			if rapid.IntRange(0, 3).Draw(t, "gone") > 0 {
				continue
			}
			if p.DeletionTimestamp == nil {
				p = p.DeepCopy()
				d := stamp
				p.DeletionTimestamp = &d
			}
		} else if p.DeletionTimestamp != nil && rapid.Bool().Draw(t, "terminated") {
			continue
		}
		switch rapid.IntRange(0, 9).Draw(t, "transition") {
		case 0:
			if p.Status.Phase == v1.PodRunning {
				p = p.DeepCopy()
				p.Status.Phase = v1.PodFailed
				p.Status.Conditions = nil
			}
		case 1:
			if p.Status.Phase == v1.PodPending {
				p = p.DeepCopy()
				p.Status.Phase = v1.PodRunning
				p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: stamp}}
			}
		}
		pods = append(pods, p)
	}
	// the claim's patches: an orphan adopted, a pod the DaemonSet
	// controls released
	owner := ownerRef(s.ds)
	for i, p := range pods {
		if !slices.Contains(res.PodClaimed, p.Name) {
			continue
		}
		p = p.DeepCopy()
		if metav1.GetControllerOf(p) == nil {
			p.OwnerReferences = owner
		} else {
			p.OwnerReferences = nil
		}
		pods[i] = p
	}
	// the dedup's relabelling
	for i, p := range pods {
		if h, ok := res.PodRelabel[p.Name]; ok {
			p = p.DeepCopy()
			p.Labels[apps.DefaultDaemonSetUniqueLabelKey] = h
			pods[i] = p
		}
	}
	for i, r := range s.revs {
		if !slices.Contains(res.RevClaimed, r.Name) {
			continue
		}
		r = r.DeepCopy()
		if metav1.GetControllerOf(r) == nil {
			r.OwnerReferences = owner
		} else {
			r.OwnerReferences = nil
		}
		s.revs[i] = r
	}
	for _, c := range res.Created {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("q-%04d", s.next), Namespace: s.ds.Namespace, OwnerReferences: owner, CreationTimestamp: stamp}}
		s.next++
		p.UID = types.UID("uid-" + string(s.ds.UID) + "-" + p.Name)
		p.Labels = map[string]string{"app": "d", apps.DefaultDaemonSetUniqueLabelKey: c.Hash}
		if rapid.Bool().Draw(t, "newPinned") {
			p.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{c.Node}}}}}}}}
		} else {
			p.Spec.NodeName = c.Node
		}
		switch rapid.IntRange(0, 2).Draw(t, "newPhase") {
		case 0:
			p.Status.Phase = v1.PodFailed
		case 1:
			p.Status.Phase = v1.PodPending
		default:
			p.Status.Phase = v1.PodRunning
			p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: stamp}}
		}
		pods = append(pods, p)
	}
	s.pods = pods
	if res.Status != nil {
		s.ds.Status = *res.Status.DeepCopy()
	}
	for _, cr := range res.RevCreated {
		s.revs = append(s.revs, cr.DeepCopy())
	}
	for _, cr := range res.RevUpdated {
		for i, r := range s.revs {
			if r.Name == cr.Name {
				s.revs[i] = cr.DeepCopy()
			}
		}
	}
	s.revs = slices.DeleteFunc(s.revs, func(r *apps.ControllerRevision) bool { return slices.Contains(res.RevDeleted, r.Name) })
	switch rapid.IntRange(0, 7).Draw(t, "dsChange") {
	case 0:
		s.ds.Generation++
	case 1:
		// A new template: every pod is old now.
		s.ds.Generation++
		s.ds.Spec.Template.Spec.HostNetwork = !s.ds.Spec.Template.Spec.HostNetwork
	}
}

// live is the part of a backoff memory that concerns the DaemonSet and
// has not expired at now (strictly more than twice the cap ago): what an
// upstream GC may or may not have dropped yet, and kubesem keeps, is not
// compared; a live entry must be equal.
func live(m daemonset.Backoff, uid string, now time.Time, capd time.Duration) daemonset.Backoff {
	out := daemonset.Backoff{}
	for k, e := range m {
		if strings.HasPrefix(k, uid+"/") && now.Sub(e.LastUpdate) <= 2*capd {
			out[k] = e
		}
	}
	return out
}

// openBudget is ds with the rolling-update budget opened, so that Step
// names every candidate of a budgeted pick: the bound of the branch the
// update takes (maxSurge scaled against desired nodes non-zero: surge)
// becomes MaxInt32, an integer, which neither scales nor switches the
// branch. A budget of nothing (a percentage surge of no desired node) is
// left as it is: it picks nothing.
func openBudget(ds *daemonset.DaemonSet, desired int32) *daemonset.DaemonSet {
	if ds.Spec.UpdateStrategy.Type != daemonset.RollingUpdate || ds.Spec.UpdateStrategy.RollingUpdate == nil {
		return ds
	}
	b, err := daemonset.UnavailableNumbers(ds, desired)
	if err != nil {
		return ds
	}
	w := *ds
	ru := *ds.Spec.UpdateStrategy.RollingUpdate
	all, zero := intstr.Int(math.MaxInt32), intstr.Int(0)
	switch {
	case b.MaxSurge > 0:
		ru.MaxUnavailable, ru.MaxSurge = &zero, &all
	case ru.MaxSurge != nil && ru.MaxSurge.String() != "0":
		return ds
	default:
		ru.MaxUnavailable = &all
	}
	w.Spec.UpdateStrategy = daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &ru}
	return &w
}

// TestDaemonSetDiffSync compares Step with v1.36.3's syncDaemonSet on
// sequences of one to four syncs per drawn cluster (1-200 nodes, pods in
// every state), the world evolving between syncs as upstream's writes
// and the kubelet move it, and time advancing. Upstream keeps its own
// controller (its failed-pod backoff, configured as kube-controller-manager
// configures it) across the syncs; kubesem gets back the memory its
// previous Step returned. Both start from the same drawn memory. The
// instants sit exactly on, and one nanosecond around, the end of a
// failed-pod delay, the expiry of an entry (strictly after twice the cap
// upstream was configured with) and a pod's availability; upstream's
// backoff GC runs at random points, as its one-minute ticker does.
//
// Every key of the Plan is compared (the mapping of
// vectors_test.go): status, updateStatus, revisions, events,
// requeues, live backoff memory and outcome exactly; creations and
// deletions exactly, except where upstream walks a Go map or its node
// lister (rolling-update picks, the burst cap, which of two failed pods on
// a node goes): there the counts must agree, kubesem's forced actions must
// be upstream's, and each upstream pick must be one kubesem names when the
// budget is opened.
func TestDaemonSetDiffSync(t *testing.T) {
	// A property is a sequence of 2.5 syncs on average: run
	// rapid.checks/2.5 sequences, so that about rapid.checks syncs are
	// compared (10,000 by default).
	defer scaleChecks(t, 2, 5)()
	r := newRig(t)
	bounds := backoffBounds(r.backoff) // upstream's own configuration
	capd := bounds[1]
	burst := int(fieldOf(r.dsc, "burstReplicas").Int()) // upstream's BurstReplicas
	serial, syncs, ties, conflicts := 0, 0, 0, 0
	labelled, dedups, relabelled, rechosen, unchosen := 0, 0, 0, 0, 0
	var b boundaries
	rapid.Check(t, func(t *rapid.T) {
		serial++
		uds, unodes, upods := drawSync(t, serial)
		s := &sequence{ds: uds, nodes: unodes, pods: upods, revs: drawRevisions(t, uds)}
		now := t0
		mem := drawMemory(t, uds, unodes, bounds, now)
		writeBackoff(r.backoff, mem)
		n := rapid.IntRange(1, 4).Draw(t, "syncs")
		for i := range n {
			if i > 0 {
				now = drawNext(t, s, now, mem, capd)
				if rapid.IntRange(0, 3).Draw(t, "gcTick") == 0 {
					r.clock.SetTime(now)
					r.backoff.GC()
				}
			}
			countEdges(s, now, mem, capd, &b)
			before := readBackoff(r.backoff)
			res := r.sync(t, s.ds, s.nodes, s.pods, s.revs, now)
			p, wide := stepSeq(t, s, mem, now)
			// Which failed pod of a node manage deletes, and which
			// nodes the rolling update takes, follow upstream's lister
			// and Go map order: any is its answer. When the sync adopts
			// a pod and the API server removes it at once, the later
			// listings no longer find it, so the status depends on the
			// choice: upstream runs again, from the same backoff, until
			// it makes kubesem's (each run a fresh map order); if it
			// never does, the status is not compared when a pod deleted
			// by one side only is such a pod.
			for try := 0; try < 64 && !sameDeleted(res, p); try++ {
				writeBackoff(r.backoff, before)
				res = r.sync(t, s.ds, s.nodes, s.pods, s.revs, now)
				rechosen++
			}
			skipStatus := !sameDeleted(res, p) && choiceVanishes(s.pods, res, p)
			if skipStatus {
				unchosen++
			}
			if res.Conflict {
				// upstream renumbered a revision it adopted in the same
				// sync from its stale cached copy: refused, the sync ends
				// there; kubesem's Writes send that renumbering FromCache
				checkStaleRenumber(t, s, res, p)
				conflicts++
				break
			}
			if compareSync(t, s, res, p, wide, now, capd, burst, i, skipStatus) {
				ties++
			}
			syncs++
			for _, w := range p.Revisions {
				switch w.Reason {
				case daemonset.ReasonRevisionLabelled:
					labelled++
				case daemonset.ReasonDuplicateRevision:
					dedups++
				}
			}
			relabelled += len(p.Relabel)
			mem = p.Memory
			if i < n-1 {
				evolve(t, s, res, now)
			}
		}
	})
	t.Logf("%d syncs compared (%d tie-aware; %d sequences ended at a refused stale renumbering; %d revisions labelled, %d duplicates deleted, %d pods relabelled; %d upstream reruns for kubesem's choice of pods to delete, %d statuses not compared as upstream never chose them); on the edge: %d delay ends (%d ±1ns), %d expiries at twice the cap (%d ±1ns), %d availabilities",
		syncs, ties, conflicts, labelled, dedups, relabelled, rechosen, unchosen, b.expiry, b.expiryNear, b.gc, b.gcNear, b.avail)
	if labelled < 20 || dedups < 20 || relabelled < 20 {
		t.Errorf("too few syncs label revisions (%d), delete duplicates (%d) or relabel pods (%d)", labelled, dedups, relabelled)
	}
	if b.expiry < 100 || b.expiryNear < 100 || b.gc < 50 || b.gcNear < 50 {
		t.Errorf("too few syncs on the backoff edges: %+v", b)
	}
}

// sameDeleted reports whether upstream's sync deleted the pods kubesem's
// Plan p deletes.
func sameDeleted(res *upResult, p daemonset.Plan) bool {
	var k []string
	for _, d := range p.Delete {
		k = append(k, d.Name)
	}
	up := slices.Clone(res.Deleted)
	slices.Sort(up)
	slices.Sort(k)
	return slices.Equal(up, k)
}

// choiceVanishes reports whether a pod only one side deleted is an orphan
// the sync adopts and the API server removes at once.
func choiceVanishes(pods []*v1.Pod, res *upResult, p daemonset.Plan) bool {
	k := map[string]bool{}
	for _, d := range p.Delete {
		k[d.Name] = true
	}
	only := map[string]bool{}
	for _, n := range res.Deleted {
		if !k[n] {
			only[n] = true
		}
		delete(k, n)
	}
	for n := range k {
		only[n] = true
	}
	for _, q := range pods {
		if only[q.Name] && metav1.GetControllerOf(q) == nil && removedAtOnce(q, metav1.DeleteOptions{}) {
			return true
		}
	}
	return false
}

// stepSeq runs Step on the sequence's world with the carried memory,
// and Step with the budget and the burst opened.
func stepSeq(t *rapid.T, s *sequence, mem daemonset.Backoff, now time.Time) (daemonset.Plan, daemonset.Plan) {
	v := s.view(t)
	ds, nodes, pods, hist := v.ds, s.knodes, v.pods, v.hist
	p, err := daemonset.Step(ds, nodes, pods, hist, mem, now, daemonset.Options{})
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	w, err := daemonset.Step(openBudget(ds, p.Status.DesiredNumberScheduled), nodes, pods, hist, mem, now, daemonset.Options{BurstReplicas: 1 << 30})
	if err != nil {
		t.Fatalf("Step (wide): %v", err)
	}
	return p, w
}

// compareSync compares one sync; it reports whether the comparison was
// tie-aware.
func compareSync(t *rapid.T, s *sequence, res *upResult, p, wide daemonset.Plan, now time.Time, capd time.Duration, burst, i int, skipStatus bool) bool {
	up := planFromUpstream(&upstreamCase{ds: s.ds, pods: s.pods, revs: s.revs, back: map[string]string{}}, res)
	uid := string(s.ds.UID)
	up.Memory = live(up.Memory, uid, now, capd)
	k := p
	k.Memory = live(p.Memory, uid, now, capd)
	// Which of several failed pods on a node goes first is upstream's
	// pod-lister order: name a failed pod's deletion and event by its
	// node.
	failed := map[string]string{}
	for _, pod := range s.pods {
		if pod.Status.Phase == v1.PodFailed && pod.DeletionTimestamp == nil {
			n := pod.Spec.NodeName
			if n == "" {
				n = pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values[0]
			}
			failed[pod.Name] = "failed@" + n
		}
	}
	byNode := func(pl daemonset.Plan) daemonset.Plan {
		q := pl
		q.Delete = nil
		for _, d := range pl.Delete {
			if f, ok := failed[d.Name]; ok {
				d.Name = f
			}
			q.Delete = append(q.Delete, d)
		}
		q.Events = nil
		for _, e := range pl.Events {
			if f, ok := failed[e.Object]; ok {
				e.Object = f
			}
			q.Events = append(q.Events, e)
		}
		return q
	}
	up, k, wide = byNode(up), byNode(k), byNode(wide)
	uc, kc := comparablePlan(t, up), comparablePlan(t, k)
	tied := k.Outcome == daemonset.ReasonRollingUpdate || int(k.Create.Count) == burst || len(k.Delete) == burst
	var keys []string
	for key := range uc {
		if (!tied || key != "create" && key != "delete") && (!skipStatus || key != "status" && key != "updateStatus") {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	if d := diffKeys(uc, kc, keys); len(d) > 0 {
		t.Fatalf("sync %d at %s (outcome %s): kubesem differs from v1.36.3:\n%s", i, now.Format(time.RFC3339Nano), k.Outcome, strings.Join(d, "\n"))
	}
	if !tied {
		return false
	}
	if up.Create.Count != k.Create.Count || len(up.Delete) != len(k.Delete) {
		t.Fatalf("sync %d (outcome %s): upstream creates %d deletes %d; kubesem %d, %d", i, k.Outcome, up.Create.Count, len(up.Delete), k.Create.Count, len(k.Delete))
	}
	if d := notWithin(up, wide, func(name string) bool { return surplusCandidate(s, k, now, name) }); d != "" {
		t.Fatalf("sync %d (outcome %s): upstream's picks are not kubesem's candidates: %s\nupstream %+v %+v\nkubesem %+v %+v\nopened %+v %+v", i, k.Outcome, d, up.Create, up.Delete, k.Create, k.Delete, wide.Create, wide.Delete)
	}
	capped := int(k.Create.Count) == burst || len(k.Delete) == burst
	if !capped {
		var unodes, unames []string
		for _, o := range up.Create.Objects {
			unodes = append(unodes, o.Node)
		}
		for _, d := range up.Delete {
			unames = append(unames, d.Name)
		}
		for _, o := range k.Create.Objects {
			if o.Reason != daemonset.ReasonSurgeOldPod && !slices.Contains(unodes, o.Node) {
				t.Fatalf("sync %d: forced creation on %s (%s) not upstream's %v", i, o.Node, o.Reason, unodes)
			}
		}
		for _, d := range k.Delete {
			if d.Reason != daemonset.ReasonUpdateOldPod && !slices.Contains(unames, d.Name) && !(d.Reason == daemonset.ReasonShouldNotRun && surplusCandidate(s, k, now, d.Name)) {
				t.Fatalf("sync %d: forced deletion %s (%s) not upstream's %v", i, d.Name, d.Reason, unames)
			}
		}
	}
	return true
}

// surplusCandidate reports whether a deletion of the surge update's
// surplus (numAvailable above desired, taken from pods on nodes that
// should not run one, in upstream's map order) could be the named pod: an
// old, available pod on a listed node that should not run a daemon pod.
func surplusCandidate(s *sequence, k daemonset.Plan, now time.Time, name string) bool {
	if k.Outcome != daemonset.ReasonRollingUpdate {
		return false
	}
	ds, nodes, pods, hist := s.k.ds, s.knodes, s.k.pods, s.k.hist
	if !daemonset.AllowsSurge(ds) {
		return false
	}
	for _, p := range pods {
		if p.Name != name || p.DeletionTimestamp != nil || daemonset.IsPodUpdated(p, hist.Hash, ds) {
			continue
		}
		if !podstatus.IsAvailable(p, ds.Spec.MinReadySeconds, now) {
			return false
		}
		target, err := daemonset.TargetNodeName(&p.Spec)
		if err != nil {
			return false
		}
		for _, n := range nodes {
			if n.Name == target {
				return !daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{}).ShouldRun
			}
		}
	}
	return false
}

// scaleChecks sets rapid.checks to num/den of its value for one test
// and returns the function that restores it.
func scaleChecks(t *testing.T, num, den int) func() {
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	n, err := strconv.Atoi(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Value.Set(strconv.Itoa(max(1, n*num/den))); err != nil {
		t.Fatal(err)
	}
	return func() { _ = f.Value.Set(old) }
}

// drawRevisions draws the ControllerRevisions a sequence starts with: none
// mostly; else some of the DaemonSet's current template and of an older
// one, each controlled by it, an orphan (adopted), another controller's
// (ignored), or no longer selected (released), some without the
// controller-revision-hash label.
func drawRevisions(t *rapid.T, ds *apps.DaemonSet) []*apps.ControllerRevision {
	if rapid.IntRange(0, 2).Draw(t, "revisions") > 0 {
		return nil
	}
	var out []*apps.ControllerRevision
	for i, image := range []string{"", "old"} {
		if !rapid.Bool().Draw(t, fmt.Sprintf("rev%d", i)) {
			continue
		}
		c := ds.DeepCopy()
		if image != "" {
			c.Spec.Template.Spec.Containers[0].Image = image
		}
		r, err := k8s.NewDaemonSetRevision(c, int64(rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("revNumber%d", i))))
		if err != nil {
			t.Fatal(err)
		}
		r.TypeMeta = metav1.TypeMeta{}
		r.UID = types.UID("uid-" + r.Name)
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("revOwner%d", i)) {
		case 0:
			r.OwnerReferences = nil
		case 1:
			r.OwnerReferences[0].UID = "uid-other"
		case 2:
			r.Labels["app"] = "e"
		}
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("revUnlabelled%d", i)) == 0 {
			// stored without the controller-revision-hash label:
			// upstream labels it with its name first
			delete(r.Labels, apps.DefaultDaemonSetUniqueLabelKey)
		}
		out = append(out, r)
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("revDuplicate%d", i)) == 0 {
			// a second revision of the same template and hash label
			// (another name): if it is the current template's,
			// upstream keeps the newest, relabels the pods and deletes
			// the other
			d := r.DeepCopy()
			d.Name, d.UID = r.Name+"-dup", r.UID+"-dup"
			// (another number: of two of one number upstream keeps the
			// one its lister lists last, which is arbitrary)
			d.Revision = int64(rapid.SampledFrom(slices.DeleteFunc([]int{1, 2, 3, 4}, func(n int) bool { return int64(n) == r.Revision })).Draw(t, fmt.Sprintf("revDupNumber%d", i)))
			if _, ok := d.Labels[apps.DefaultDaemonSetUniqueLabelKey]; !ok {
				d.Labels[apps.DefaultDaemonSetUniqueLabelKey] = r.Name
			}
			if rapid.Bool().Draw(t, fmt.Sprintf("revDupLabel%d", i)) {
				// the same data under another hash label: upstream
				// still finds it current (Match compares data)
				d.Labels[apps.DefaultDaemonSetUniqueLabelKey] = "other-" + d.Labels[apps.DefaultDaemonSetUniqueLabelKey]
			}
			out = append(out, d)
		}
	}
	return out
}

// checkStaleRenumber checks a sync upstream ended at the refused
// renumbering of a revision it adopted: kubesem adopts the same revisions
// and its Writes send that renumbering from the cache after the patches.
func checkStaleRenumber(t *rapid.T, s *sequence, res *upResult, p daemonset.Plan) {
	up := planFromUpstream(&upstreamCase{ds: s.ds, pods: s.pods, revs: s.revs, back: map[string]string{}}, res)
	if fmt.Sprint(up.AdoptRevisions, up.ReleaseRevisions) != fmt.Sprint(p.AdoptRevisions, p.ReleaseRevisions) {
		t.Fatalf("revision claims: upstream %v %v; kubesem %v %v", up.AdoptRevisions, up.ReleaseRevisions, p.AdoptRevisions, p.ReleaseRevisions)
	}
	v := s.k
	ws, err := p.Writes(v.ds, v.pods, v.hist)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ws, func(w plan.Write) bool { return w.FromCache })
	if i < 0 || ws[i].Resource != "controllerrevisions" || ws[i].Verb != plan.VerbUpdate || !slices.Contains(res.RevClaimed, ws[i].Name) {
		t.Fatalf("upstream's renumbering of an adopted revision was refused; kubesem's writes %v", ws)
	}
}
