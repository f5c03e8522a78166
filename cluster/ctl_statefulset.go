package cluster

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// statefulSetController runs statefulset.Step on each StatefulSet with the
// pods and ControllerRevisions it controls and the claims of its
// namespace named after one of its volumeClaimTemplates
// ("<template>-<set>-…"); spec.templateRevision is "<set>-<hash>" with
// the namer's RevisionHash of spec.template and status.collisionCount (0
// when unset, as getStatefulSetRevisions passes it; upstream
// ControllerRevisionName), unless one of its revisions already holds
// spec.template (equalRevision: upstream's FindEqualRevisions keeps it,
// whatever its name). The set is given the pods and revisions it controls
// and the namespace's orphans it would adopt (statefulset.ClaimPod,
// ClaimRevision; upstream lists every pod and revision of the namespace
// but claims no other, so leaving those out changes no Plan), and its
// template revision is looked up among the revisions it claims.
// statefulset.Plan.Writes makes the writes.
func statefulSetController() controller {
	return controller{
		name:  CtlStatefulSet,
		reads: []Kind{KindStatefulSet, KindPod, KindControllerRevision, KindPersistentVolumeClaim},
		keys:  func(w *World) []Key { return w.State.Keys(KindStatefulSet) },
		step: func(w *World, k Key, now time.Time) stepOut {
			set, _ := w.State.Get(k).(*statefulset.StatefulSet)
			if set == nil {
				return stepOut{}
			}
			// Upstream hashes with the collision count, 0 when unset.
			count := int32(0)
			if set.Status.CollisionCount != nil {
				count = *set.Status.CollisionCount
			}
			owned := inNamespace(controlled[*history.ControllerRevision](w.State, KindControllerRevision, set.UID), set.Namespace)
			for _, r := range orphans[*history.ControllerRevision](w.State, KindControllerRevision, set.Namespace) {
				if statefulset.ClaimRevision(set, r) == statefulset.Adopt {
					owned = append(owned, r)
				}
			}
			owned = slices.DeleteFunc(owned, func(r *history.ControllerRevision) bool {
				return statefulset.ClaimRevision(set, r) == statefulset.Ignore
			})
			var rev string
			if eq := equalRevision(w.State, owned, set, &set.Spec.Template); eq != nil {
				rev = eq.Name
			} else {
				rev = revisionName(set.Name, w.Opts.Namer.RevisionHash(&set.Spec.Template, &count))
			}
			if rev != set.Spec.TemplateRevision {
				c := *set
				c.Spec.TemplateRevision = rev
				set = &c
			}
			pods := inNamespace(controlled[*podstatus.Pod](w.State, KindPod, set.UID), set.Namespace) // (statefulset.ClaimPod ignores a reference under another kind or name)
			var adopt []*podstatus.Pod
			for _, p := range w.State.orphanPods(set.Namespace) {
				if statefulset.ClaimPod(set, p) == statefulset.Adopt {
					adopt = append(adopt, p)
				}
			}
			pods = mergePods(pods, adopt)
			var revs []history.ControllerRevision
			for _, r := range owned {
				revs = append(revs, *r)
			}
			var claims []*statefulset.Claim
			if len(set.Spec.VolumeClaimTemplates) > 0 {
				for _, c := range w.State.Claims() {
					if c.Namespace != set.Namespace {
						continue
					}
					for _, t := range set.Spec.VolumeClaimTemplates {
						if strings.HasPrefix(c.Name, t.Name+"-"+set.Name+"-") {
							claims = append(claims, c)
							break
						}
					}
				}
			}
			p, err := statefulset.Step(set, pods, revs, claims, now, w.Opts.StatefulSet)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "statefulset.Step", Options: w.Opts.StatefulSet,
					Input: map[string]any{"set": set, "pods": pods, "revisions": revs, "claims": claims, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(set, pods, revs, claims)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call}
		},
	}
}

// revisionName is upstream's ControllerRevisionName: the owner's name, cut
// to 223 characters, a dash and the hash.
func revisionName(prefix, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return prefix + "-" + hash
}

// equalRevision returns the newest of revs (by history.Compare) whose data
// holds template t, or nil: upstream's history.FindEqualRevisions, which
// compares the stored data with the revision the controller would build,
// as getStatefulSetRevisions and the DaemonSet controller's
// constructHistory/dedupCurHistories use it. Templates are compared by
// their JSON encoding (templateKey: every field the template was given),
// where upstream compares the stored bytes. t is the template of owner, a
// stored object; revs are stored revisions (their encodings, as owner's,
// are kept in s while they are stored: State.templateKey).
func equalRevision(s *State, revs []*history.ControllerRevision, owner any, t *podstatus.Template) *history.ControllerRevision {
	var want []byte
	var best *history.ControllerRevision
	for _, r := range revs {
		if r.Data == nil {
			continue
		}
		if want == nil {
			want = s.templateKey(owner, t)
			if want == nil {
				return nil
			}
		}
		if b := s.templateKey(r, &r.Data.Template); b != nil && bytes.Equal(b, want) && (best == nil || history.Compare(*best, *r) < 0) {
			best = r
		}
	}
	return best
}

// templateKey returns templateKey(t) for t, the template of obj: kept
// while obj is the object stored under its name (stored objects are never
// modified), computed otherwise.
func (s *State) templateKey(obj any, t *podstatus.Template) []byte {
	if b, ok := s.tkeys[obj]; ok {
		return b
	}
	b := templateKey(t)
	if k, ok := KindOf(obj); ok {
		m := metaOf(obj)
		if s.objs[k][name{m.Namespace, m.Name}].obj == obj {
			cowMap(s, &s.tkeys, ownTkeys)[obj] = b
		}
	}
	return b
}

// templateKey is t's JSON encoding with keys sorted (a template with
// unmodelled fields encodes its keys sorted, one without in struct order)
// and without the "$patch" marker a revision's decoded template keeps among
// its unmodelled fields; nil when t does not encode.
func templateKey(t *podstatus.Template) []byte {
	b, err := json.Marshal(t)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	delete(m, "$patch")
	if b, err = json.Marshal(m); err != nil {
		return nil
	}
	return b
}
