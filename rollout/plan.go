package rollout

import (
	"maps"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// ActionType is what an Action does to a ReplicaSet.
type ActionType string

// Action types.
const (
	// Create creates Action.Object.
	Create ActionType = "Create"
	// Update rewrites the ReplicaSet's annotations and minReadySeconds.
	Update ActionType = "Update"
	// ScaleTo sets the ReplicaSet's spec.replicas and its desired- and
	// max-replicas annotations.
	ScaleTo ActionType = "Scale"
	// Delete deletes the ReplicaSet.
	Delete ActionType = "Delete"
)

// Action is one write to a ReplicaSet, in the order the controller makes it.
type Action struct {
	Type   ActionType `json:"type"`
	Reason Reason     `json:"reason"`
	// Name names the ReplicaSet (in the Deployment's namespace).
	Name string `json:"name"`
	// From and Replicas are spec.replicas before and after (Create: 0 and
	// the created size; Update, Delete: the current size).
	From     int32 `json:"from"`
	Replicas int32 `json:"replicas"`
	// Annotations are the ReplicaSet's complete annotations after the
	// action (Create, Update, Scale); nil for Delete.
	Annotations map[string]string `json:"annotations,omitempty"`
	// MinReadySeconds is the ReplicaSet's spec.minReadySeconds after an
	// Update or Create.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Object is the ReplicaSet to create (Create only). Its UID is empty and
	// its creationTimestamp is the Step's now.
	Object *replicaset.ReplicaSet `json:"object,omitempty"`
}

// Plan is what the controller does in one sync of a Deployment.
type Plan struct {
	// Path is the branch of the sync taken (PathRollingUpdate, PathPaused, ...).
	Path Reason `json:"path"`
	// Actions are the ReplicaSet writes, in order.
	Actions []Action `json:"actions"`
	// Status is the Deployment's status after the sync (equal to the input
	// status when the controller writes none).
	Status Status `json:"status"`
	// Annotations are the Deployment's annotations after the sync (the
	// revision annotation, or a rollback's); nil when unchanged.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Template is the pod template a rollback restores; nil otherwise.
	Template *podstatus.Template `json:"template,omitempty"`
	// Requeue says the controller looks at the Deployment again after
	// RequeueAfter (0: at once, rate-limited) even if nothing changes.
	Requeue      bool          `json:"requeue"`
	RequeueAfter time.Duration `json:"requeueAfter"`
	// Event is the reason of an event without a ReplicaSet write (a
	// rollback's), empty otherwise.
	Event string `json:"event,omitempty"`
}

// Apply returns the ReplicaSets after p's actions: created ones appended
// (with UID set to their name when empty), scaled and updated ones replaced
// by copies with the new spec.replicas, annotations and minReadySeconds,
// deleted ones dropped. Status fields are left for the ReplicaSet
// controller (the caller) to update; a created ReplicaSet starts with an
// empty status and creationTimestamp now. replicaSets is not modified;
// actions naming no ReplicaSet are skipped.
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
	for _, a := range p.Actions {
		i := find(a.Name)
		switch a.Type {
		case Create:
			if i >= 0 || a.Object == nil {
				continue
			}
			c := copyReplicaSet(a.Object)
			if c.UID == "" {
				c.UID = c.Name
			}
			if c.CreationTimestamp.IsZero() {
				c.CreationTimestamp = now
			}
			out = append(out, c)
		case ScaleTo, Update:
			if i < 0 {
				continue
			}
			c := copyReplicaSet(out[i])
			if a.Type == ScaleTo {
				n := a.Replicas
				c.Spec.Replicas = &n
			} else {
				c.Spec.MinReadySeconds = a.MinReadySeconds
			}
			if a.Annotations != nil {
				c.Annotations = maps.Clone(a.Annotations)
			}
			out[i] = c
		case Delete:
			if i >= 0 {
				out = append(out[:i], out[i+1:]...)
			}
		}
	}
	return out
}

// copyReplicaSet copies rs deeply enough that setting its replicas,
// annotations or labels leaves rs alone.
func copyReplicaSet(rs *replicaset.ReplicaSet) *replicaset.ReplicaSet {
	c := *rs
	if rs.Spec.Replicas != nil {
		n := *rs.Spec.Replicas
		c.Spec.Replicas = &n
	}
	c.Annotations = maps.Clone(rs.Annotations)
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
	a[MaxReplicasAnnotation] = strconv.FormatInt(int64(replicas+MaxSurge(d)), 10)
	return a
}
