package plan

import "time"

// Reason names why a controller did something: the outcome of a sync, the
// cause of an action, an event's reason or a requeue's cause. Each package
// declares its reasons as typed constants of this type.
type Reason string

// EventType is the type of a Kubernetes event.
type EventType string

// Event types.
const (
	Normal  EventType = "Normal"
	Warning EventType = "Warning"
)

// Event is an event a controller records.
type Event struct {
	Type   EventType `json:"type"`
	Reason Reason    `json:"reason"`
	// Object names the object the event is about when it is not the
	// workload itself (a Job a CronJob created, a pod), else "".
	Object string `json:"object,omitempty"`
	// Message is the event's message where kubesem reproduces it; "" when
	// only the reason is modelled.
	Message string `json:"message,omitempty"`
}

// Requeue is a request to look at the object again. With RateLimited the
// controller re-adds the key through its rate limiter (After is then 0);
// otherwise it looks again After from the sync's now (0: at once).
type Requeue struct {
	After       time.Duration `json:"after"`
	Reason      Reason        `json:"reason"`
	RateLimited bool          `json:"rateLimited,omitempty"`
}

// Creation is what a sync creates: Count objects for Reason. Objects
// describes each one, in creation order, when they differ from one another
// (a Job's indexed pods, a StatefulSet's ordinals, the ReplicaSet a
// Deployment creates); it is nil when the objects are identical copies of a
// template. A zero Creation creates nothing.
type Creation[T any] struct {
	Count   int32  `json:"count"`
	Reason  Reason `json:"reason,omitempty"`
	Objects []T    `json:"objects,omitempty"`
}

// Deletion is an object a sync deletes. Namespace is set only by Steps
// whose inputs span namespaces (podgc, which collects every namespace's
// pods); a workload's own dependents share its namespace and leave it "".
type Deletion struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	UID       string `json:"uid,omitempty"`
	Reason    Reason `json:"reason"`
}

// First returns the requeue that comes first: the smallest After, a
// rate-limited one counting as 0; ok is false when rs is empty. Ties keep the
// earlier element.
func First(rs []Requeue) (r Requeue, ok bool) {
	for i, x := range rs {
		if i == 0 || x.After < r.After {
			r = x
		}
	}
	return r, len(rs) > 0
}
