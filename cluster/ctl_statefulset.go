package cluster

import (
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
// ControllerRevisionName). statefulset.Plan.Writes makes the
// writes. Adoption of orphan pods and revisions is not modelled.
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
			if rev := revisionName(set.Name, w.Opts.Namer.RevisionHash(&set.Spec.Template, &count)); rev != set.Spec.TemplateRevision {
				c := *set
				c.Spec.TemplateRevision = rev
				set = &c
			}
			pods := controlled[*podstatus.Pod](w.State, KindPod, set.UID)
			var revs []history.ControllerRevision
			for _, r := range controlled[*history.ControllerRevision](w.State, KindControllerRevision, set.UID) {
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
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := p.Writes(set, pods, revs, claims)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue}
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
