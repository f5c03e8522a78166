package rollout

import (
	"maps"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// Resize is a write of a ReplicaSet's spec.replicas, with its desired- and
// max-replicas annotations.
type Resize struct {
	// Name names the ReplicaSet (in the Deployment's namespace).
	Name   string `json:"name"`
	Reason Reason `json:"reason"`
	// From and Replicas are spec.replicas before and after.
	From     int32 `json:"from"`
	Replicas int32 `json:"replicas"`
	// Annotations are the ReplicaSet's complete annotations after the write.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Stale marks the resize of a ReplicaSet the sync adopted or released:
	// it is sent from the cached copy the claim's patch changed, and the
	// API server refuses it (Conflict). Plan.Apply leaves it out.
	Stale bool `json:"stale,omitempty"`
}

// Update is a write of the new ReplicaSet's annotations (revision, copied
// Deployment annotations) and minReadySeconds, without a resize.
type Update struct {
	Name     string `json:"name"`
	Reason   Reason `json:"reason"`
	Replicas int32  `json:"replicas"`
	// Annotations are the ReplicaSet's complete annotations after the write.
	Annotations     map[string]string `json:"annotations"`
	MinReadySeconds int32             `json:"minReadySeconds"`
}

// Plan is what the controller does in one sync of a Deployment, in the house
// vocabulary (VOCABULARY.md). The controller makes its ReplicaSet writes in
// this order: Adopt and Release (merged by name), Update or Create (never
// both: they concern the new ReplicaSet, which exists or not), then Scale in
// order, then Delete.
type Plan struct {
	// Outcome is the branch of the sync taken (ReasonRollingUpdate,
	// ReasonPaused, ReasonHashCollision, ...).
	Outcome Reason `json:"outcome"`
	// Create holds the new ReplicaSet when the sync creates it (Count 1,
	// Objects[0]); its UID is empty and its creationTimestamp is now.
	Create plan.Creation[replicaset.ReplicaSet] `json:"create"`
	// Adopt and Release are the ReplicaSets whose controller reference the
	// sync sets or removes ([ClaimReplicaSet]), by name, then UID; the
	// controller patches them before any other write.
	Adopt   []ReplicaSetRef `json:"adopt,omitempty"`
	Release []ReplicaSetRef `json:"release,omitempty"`
	// Update is the new ReplicaSet's revision sync, when needed.
	Update []Update `json:"update"`
	// Scale lists the resizes, in order.
	Scale []Resize `json:"scale"`
	// Delete lists the old ReplicaSets revisionHistoryLimit removes.
	Delete []plan.Deletion `json:"delete"`
	// Status is the Deployment's status after the sync (equal to the input
	// status when the controller writes none); UpdateStatus reports
	// whether it differs from the input status, that is, whether the
	// controller writes it.
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// Annotations are the Deployment's annotations after the sync (the
	// revision annotation, or a rollback's); nil when unchanged.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Template is the pod template a rollback restores; nil otherwise.
	Template *podstatus.Template `json:"template,omitempty"`
	// Events are every event the sync records, in order: Normal
	// ScalingReplicaSet ("Scaled up replica set <rs> from 0 to <n>") when it
	// creates the new ReplicaSet with n > 0 pods, Normal ScalingReplicaSet
	// ("Scaled up|down replica set <rs> from <a> to <b>") for each resize
	// that changes spec.replicas, and a rollback's DeploymentRollback (Normal)
	// or DeploymentRollbackRevisionNotFound / DeploymentRollbackTemplateUnchanged
	// (Warning), with upstream's messages. Events about failed writes
	// (FailedCreate) are not modelled: the Step assumes every write succeeds;
	// SelectingAll is not either, since validation rejects an empty selector.
	Events []plan.Event `json:"events"`
	// Requeue holds when the controller looks at the Deployment again even
	// if nothing changes: after a stuck rollout's deadline
	// (ReasonProgressDeadline), or at once, rate-limited, after a hash
	// collision.
	Requeue []plan.Requeue `json:"requeue"`
}

// MarshalJSON encodes p with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// Apply returns the ReplicaSets after p's writes: updated and scaled ones
// replaced by copies with the new annotations, minReadySeconds and
// spec.replicas, the created one appended (with UID set to its name when
// empty, and creationTimestamp now when zero), deleted ones dropped. Status
// fields are left for the ReplicaSet controller (the caller) to update, and
// owner references to the caller too (Adopt and Release are not applied:
// the Deployment is not an argument).
// replicaSets is not modified; writes naming no ReplicaSet are skipped.
func (p Plan) Apply(replicaSets []*replicaset.ReplicaSet, now time.Time) []*replicaset.ReplicaSet {
	out := make([]*replicaset.ReplicaSet, 0, len(replicaSets)+1)
	for _, rs := range replicaSets {
		if rs != nil {
			out = append(out, rs)
		}
	}
	find := func(name string) int {
		for i, rs := range out {
			if rs.Name == name {
				return i
			}
		}
		return -1
	}
	for _, u := range p.Update {
		if i := find(u.Name); i >= 0 {
			ann := out[i].Annotations
			if u.Annotations != nil {
				ann = u.Annotations
			}
			c := copyReplicaSetAnnotated(out[i], maps.Clone(ann))
			c.Spec.MinReadySeconds = u.MinReadySeconds
			out[i] = c
		}
	}
	for i := range p.Create.Objects {
		obj := &p.Create.Objects[i]
		if find(obj.Name) >= 0 {
			continue
		}
		c := copyReplicaSet(obj)
		if c.UID == "" {
			c.UID = c.Name
		}
		if c.CreationTimestamp.IsZero() {
			c.CreationTimestamp = now
		}
		out = append(out, c)
	}
	for _, r := range p.Scale {
		if i := find(r.Name); i >= 0 && !r.Stale {
			ann := out[i].Annotations
			if r.Annotations != nil {
				ann = r.Annotations
			}
			c := copyReplicaSetAnnotated(out[i], maps.Clone(ann))
			n := r.Replicas
			c.Spec.Replicas = &n
			out[i] = c
		}
	}
	for _, d := range p.Delete {
		if i := find(d.Name); i >= 0 {
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out
}

// copyReplicaSet copies rs deeply enough that setting its replicas,
// annotations or labels leaves rs alone.
func copyReplicaSet(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet {
	return copyReplicaSetAnnotated(rs, maps.Clone(rs.Annotations))
}

// copyReplicaSetAnnotated is copyReplicaSet with the copy's annotations
// the map given (owned by the caller) instead of a clone of rs's.
func copyReplicaSetAnnotated(rs *replicaset.ReplicaSet, annotations map[string]string) *replicaset.ReplicaSet {
	c := *rs
	if rs.Spec.Replicas != nil {
		n := *rs.Spec.Replicas
		c.Spec.Replicas = &n
	}
	c.Annotations = annotations
	c.Labels = maps.Clone(rs.Labels)
	return &c
}

// replicaAnnotations returns rs's annotations with the desired- and
// max-replicas annotations d's current size gives.
func replicaAnnotations(d *Deployment, rs *replicaset.ReplicaSet) map[string]string {
	a := make(map[string]string, len(rs.Annotations)+2)
	maps.Copy(a, rs.Annotations)
	replicas := d.Replicas()
	a[DesiredReplicasAnnotation] = strconv.FormatInt(int64(replicas), 10)
	a[MaxReplicasAnnotation] = strconv.FormatInt(int64(replicas+d.MaxSurge()), 10)
	return a
}
