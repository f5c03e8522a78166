package main

import (
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// index holds the dump's objects by namespace, by controller and by label,
// built once, so that explaining every workload takes time near-linear in
// the dump (a workload's pods are looked up, never searched for among all
// pods). Lists keep the dump's order.
type index struct {
	podsByNS     map[string][]*podstatus.Pod
	podsByOwner  map[string][]*podstatus.Pod
	rawByOwner   map[string][]json.RawMessage
	rssByOwner   map[string][]*replicaset.ReplicaSet
	jobsByOwner  map[string][]*job.Job
	revsByOwner  map[string][]*revisionObject
	claimsByNS   map[string][]*meta.ObjectMeta
	labels       map[string]map[labelPair][]*podstatus.Pod // namespace → label → pods
	controllers  map[string][]pdb.Controller               // namespace → the disruption controller's scalable controllers
	staleTargets map[string][]*podstatus.Pod               // namespace → pods whose DisruptionTarget condition is or becomes stale
}

type labelPair struct{ key, value string }

func (d *dump) buildIndex(now time.Time) *index {
	x := &index{
		podsByNS:     map[string][]*podstatus.Pod{},
		podsByOwner:  map[string][]*podstatus.Pod{},
		rawByOwner:   map[string][]json.RawMessage{},
		rssByOwner:   map[string][]*replicaset.ReplicaSet{},
		jobsByOwner:  map[string][]*job.Job{},
		revsByOwner:  map[string][]*revisionObject{},
		claimsByNS:   map[string][]*meta.ObjectMeta{},
		labels:       map[string]map[labelPair][]*podstatus.Pod{},
		controllers:  map[string][]pdb.Controller{},
		staleTargets: map[string][]*podstatus.Pod{},
	}
	for _, p := range d.pods {
		x.podsByNS[p.Namespace] = append(x.podsByNS[p.Namespace], p)
		if uid := controllerUID(&p.ObjectMeta); uid != "" {
			x.podsByOwner[uid] = append(x.podsByOwner[uid], p)
		}
		byLabel := x.labels[p.Namespace]
		if byLabel == nil {
			byLabel = map[labelPair][]*podstatus.Pod{}
			x.labels[p.Namespace] = byLabel
		}
		for k, v := range p.Labels {
			byLabel[labelPair{k, v}] = append(byLabel[labelPair{k, v}], p)
		}
		if stale, _ := pdb.StaleDisruptionTarget(p, now, pdb.Options{}); stale {
			x.staleTargets[p.Namespace] = append(x.staleTargets[p.Namespace], p)
		}
	}
	for _, p := range d.rawPods {
		if uid := controllerUID(&p.meta); uid != "" {
			x.rawByOwner[uid] = append(x.rawByOwner[uid], p.raw)
		}
	}
	for _, rs := range d.rss {
		if uid := controllerUID(&rs.ObjectMeta); uid != "" {
			x.rssByOwner[uid] = append(x.rssByOwner[uid], rs)
		}
	}
	for _, j := range d.jobs {
		if uid := controllerUID(&j.ObjectMeta); uid != "" {
			x.jobsByOwner[uid] = append(x.jobsByOwner[uid], j)
		}
	}
	for _, r := range d.revisions {
		if uid := controllerUID(&r.Metadata); uid != "" {
			x.revsByOwner[uid] = append(x.revsByOwner[uid], r)
		}
	}
	for _, c := range d.claims {
		x.claimsByNS[c.Namespace] = append(x.claimsByNS[c.Namespace], c)
	}
	return x
}

// controllerUID returns the UID of m's controller, or "".
func controllerUID(m *meta.ObjectMeta) string {
	if ref := m.ControllerRef(); ref != nil {
		return ref.UID
	}
	return ""
}

// selected returns the pods of namespace ns that may match sel: a superset
// of its matches (the rules match again), found through the label index
// when sel names a label value, else every pod of ns.
func (x *index) selected(ns string, sel *meta.LabelSelector) []*podstatus.Pod {
	if sel == nil {
		return nil
	}
	byLabel := x.labels[ns]
	var best []*podstatus.Pod
	found := false
	consider := func(pods []*podstatus.Pod) {
		if !found || len(pods) < len(best) {
			best, found = pods, true
		}
	}
	for k, v := range sel.MatchLabels {
		consider(byLabel[labelPair{k, v}])
	}
	for _, r := range sel.MatchExpressions {
		if r.Operator != meta.OpIn {
			continue
		}
		var union []*podstatus.Pod
		seen := map[*podstatus.Pod]bool{}
		for _, v := range r.Values {
			for _, p := range byLabel[labelPair{r.Key, v}] {
				if !seen[p] {
					seen[p] = true
					union = append(union, p)
				}
			}
		}
		consider(union)
	}
	if !found {
		return x.podsByNS[ns]
	}
	return best
}

// matching returns the pods of namespace ns that sel matches.
func (x *index) matching(ns string, sel *meta.LabelSelector) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, p := range x.selected(ns, sel) {
		if sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// replicaSetPods returns the pods a ReplicaSet's sync can act on: those it
// controls and the orphans of its namespace its selector matches (pods
// other controllers own are skipped by the claim), in the dump's order.
func (x *index) replicaSetPods(rs *replicaset.ReplicaSet) []*podstatus.Pod {
	owned := x.podsByOwner[rs.UID]
	if rs.UID == "" {
		owned = nil
	}
	sel := rs.PodSelector()
	var orphans []*podstatus.Pod
	for _, p := range x.selected(rs.Namespace, sel) {
		if p.ControllerRef() == nil && sel.Matches(p.Labels) {
			orphans = append(orphans, p)
		}
	}
	if len(orphans) == 0 {
		return owned
	}
	return append(owned[:len(owned):len(owned)], orphans...)
}

// budgetPods returns what the disruption controller's sync of b reads: the
// pods its selector matches, and the pods of its namespace whose
// DisruptionTarget condition is stale or becomes so (pdb.Step resets
// those whatever the selector).
func (x *index) budgetPods(b *pdb.PodDisruptionBudget) []*podstatus.Pod {
	matched := x.matching(b.Namespace, b.Spec.Selector)
	stale := x.staleTargets[b.Namespace]
	if len(stale) == 0 {
		return matched
	}
	seen := make(map[*podstatus.Pod]bool, len(matched))
	for _, p := range matched {
		seen[p] = true
	}
	for _, p := range stale {
		if !seen[p] {
			matched = append(matched, p)
		}
	}
	return matched
}

// relatedPods returns the pods the ReplicaSet controller ranks a
// ReplicaSet's scale-down against (getIndirectlyRelatedPods): the pods its
// selector, and that of each other ReplicaSet of its controller, matches;
// none for a ReplicaSet without a controller.
func (x *index) relatedPods(rs *replicaset.ReplicaSet) []*podstatus.Pod {
	uid := controllerUID(&rs.ObjectMeta)
	if uid == "" {
		return nil
	}
	var out []*podstatus.Pod
	seen := map[*podstatus.Pod]bool{}
	for _, sib := range x.rssByOwner[uid] {
		if sib.Namespace != rs.Namespace {
			continue
		}
		for _, p := range x.matching(sib.Namespace, sib.PodSelector()) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}
