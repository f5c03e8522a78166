package plan

// Verb is the API verb of a [Write].
type Verb string

// The verbs controllers use.
const (
	VerbCreate Verb = "create"
	VerbUpdate Verb = "update"
	VerbPatch  Verb = "patch"
	VerbDelete Verb = "delete"
)

// Write is one request a controller sends to the API server. A Plan's
// Writes method lists them in the order the controller sends them; the
// cluster package applies them as the API server would, and the
// whole-cluster differential compares them with the actions v1.36.3's
// controllers send to a fake clientset.
//
// Resource and Subresource are the API's (pods, replicasets,
// controllerrevisions, persistentvolumeclaims, jobs, nodes …; status,
// eviction). Object is the whole object as the request leaves it — the
// object sent by a create or an update, the object after the patch for a
// patch — as a pointer to the kind's kubesem model (*podstatus.Pod,
// *replicaset.ReplicaSet, *history.ControllerRevision …); it is nil for a
// delete. A create carries the name in Object, or only generateName when
// the API server names the object. Name and UID identify the object of an
// update, patch or delete (UID is a delete's precondition when set).
type Write struct {
	Verb        Verb   `json:"verb"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	UID         string `json:"uid,omitempty"`
	// GracePeriodSeconds is a delete's grace period; nil: the object's
	// own (a pod's terminationGracePeriodSeconds).
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds,omitempty"`
	// PropagationPolicy is a delete's propagationPolicy (Background,
	// Foreground, Orphan); "" leaves it to the server's default for the
	// resource.
	PropagationPolicy string `json:"propagationPolicy,omitempty"`
	// Object is the object as the write leaves it; nil for a delete.
	Object any `json:"object,omitempty"`
	// FromCache marks an update sent from the copy of the object the
	// controller read from its informer cache at the start of the sync,
	// with that copy's resourceVersion, rather than from the object an
	// earlier write of the same sync returned: the API server refuses it
	// with Conflict when an earlier write of the sync changed the object
	// (the Deployment controller's writes of its Deployment, which never
	// use the object an update returns, are such writes).
	FromCache bool `json:"fromCache,omitempty"`
	// IgnoreRefusal marks a write whose refusal the controller drops: it
	// goes on with its next writes (the Deployment controller's
	// scale-downs of old ReplicaSets in a rolling update). Any other
	// refused write ends the sync with an error.
	IgnoreRefusal bool   `json:"ignoreRefusal,omitempty"`
	Reason        Reason `json:"reason"`
}
