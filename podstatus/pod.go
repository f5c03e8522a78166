package podstatus

import (
	"time"

	"github.com/kubesem/kubesem/meta"
)

// Pod is the subset of a Kubernetes Pod that workload controllers and the
// kubelet's status logic read. JSON tags follow the API.
type Pod struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is the subset of a PodSpec kubesem reads: what any controller, the
// kubelet rules or the scheduler predicates look at.
type Spec struct {
	// Volumes are spec.volumes; the StatefulSet controller reads their
	// persistentVolumeClaim sources.
	Volumes  []Volume `json:"volumes,omitempty"`
	NodeName string   `json:"nodeName,omitempty"`
	// Hostname is spec.hostname (the Job controller sets it on an Indexed
	// job's pods).
	Hostname                      string            `json:"hostname,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty"`
	RestartPolicy                 RestartPolicy     `json:"restartPolicy,omitempty"`
	Priority                      *int32            `json:"priority,omitempty"`
	InitContainers                []Container       `json:"initContainers,omitempty"`
	Containers                    []Container       `json:"containers,omitempty"`
	ReadinessGates                []ReadinessGate   `json:"readinessGates,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64            `json:"activeDeadlineSeconds,omitempty"`
	HostNetwork                   bool              `json:"hostNetwork,omitempty"`
	// Affinity is spec.affinity; only its node affinity is modelled (the
	// DaemonSet controller and the scheduler predicates read it).
	Affinity    *Affinity    `json:"affinity,omitempty"`
	Tolerations []Toleration `json:"tolerations,omitempty"`
	// Subdomain is spec.subdomain (the StatefulSet controller sets it,
	// with spec.hostname, to its pods' identity).
	Subdomain string `json:"subdomain,omitempty"`
}

// Volume is one of spec.volumes; of its sources only a
// persistentVolumeClaim is modelled.
type Volume struct {
	Name                  string                             `json:"name"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
}

// PersistentVolumeClaimVolumeSource is a volume's persistentVolumeClaim
// source: the claim it mounts.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
}

// ClaimName returns the name of the claim the volume mounts, "" for a
// volume that is not a persistentVolumeClaim.
func (v *Volume) ClaimName() string {
	if v == nil || v.PersistentVolumeClaim == nil {
		return ""
	}
	return v.PersistentVolumeClaim.ClaimName
}

// Affinity is the node part of spec.affinity; pod (anti-)affinity is not
// modelled.
type Affinity struct {
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty"`
}

// NodeAffinity holds a pod's required node affinity; the preferred terms
// only score nodes and are not read.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is a list of terms, OR-ed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm is a list of label expressions and field expressions,
// AND-ed. A term with neither matches no node.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorRequirement is one expression: a key, an operator and values.
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// NodeSelectorOperator is a node selector expression's operator.
type NodeSelectorOperator string

// Node selector operators. Field expressions accept only In and NotIn.
const (
	SelectorIn           NodeSelectorOperator = "In"
	SelectorNotIn        NodeSelectorOperator = "NotIn"
	SelectorExists       NodeSelectorOperator = "Exists"
	SelectorDoesNotExist NodeSelectorOperator = "DoesNotExist"
	SelectorGt           NodeSelectorOperator = "Gt"
	SelectorLt           NodeSelectorOperator = "Lt"
)

// Required returns the affinity's required node selector, nil when there
// is none.
func (a *Affinity) Required() *NodeSelector {
	if a == nil || a.NodeAffinity == nil {
		return nil
	}
	return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
}

// RestartPolicy is a pod's or container's restart policy.
type RestartPolicy string

// Restart policies.
const (
	RestartAlways    RestartPolicy = "Always"
	RestartOnFailure RestartPolicy = "OnFailure"
	RestartNever     RestartPolicy = "Never"
)

// Container is the subset of a container spec kubesem reads.
type Container struct {
	Name  string `json:"name"`
	Image string `json:"image,omitempty"`
	// RestartPolicy is only valid on init containers, where Always makes the
	// container a sidecar, and (gate ContainerRestartRules) on regular ones.
	RestartPolicy      *RestartPolicy `json:"restartPolicy,omitempty"`
	RestartPolicyRules []RestartRule  `json:"restartPolicyRules,omitempty"`
}

// RestartRule is a container restart rule: Action applies when the exit
// code matches.
type RestartRule struct {
	Action    string            `json:"action"`
	ExitCodes *ExitCodesMatcher `json:"exitCodes,omitempty"`
}

// ExitCodesMatcher matches exit codes with In or NotIn.
type ExitCodesMatcher struct {
	Operator string  `json:"operator"`
	Values   []int32 `json:"values,omitempty"`
}

// ReadinessGate names an extra condition the pod needs to be Ready.
type ReadinessGate struct {
	ConditionType ConditionType `json:"conditionType"`
}

// Toleration lets a pod tolerate a node taint.
type Toleration struct {
	Key               string `json:"key,omitempty"`
	Operator          string `json:"operator,omitempty"`
	Value             string `json:"value,omitempty"`
	Effect            string `json:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// Status is the subset of a PodStatus kubesem reads.
type Status struct {
	// ObservedGeneration is the pod generation the status was written for
	// (set by the kubelet and pod GC; gate PodObservedGenerationTracking,
	// locked on in v1.36.3).
	ObservedGeneration    int64             `json:"observedGeneration,omitempty"`
	Phase                 Phase             `json:"phase,omitempty"`
	Conditions            []Condition       `json:"conditions,omitempty"`
	Reason                string            `json:"reason,omitempty"`
	Message               string            `json:"message,omitempty"`
	StartTime             *time.Time        `json:"startTime,omitempty"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty"`
}

// Phase is a pod phase.
type Phase string

// Pod phases.
const (
	Pending   Phase = "Pending"
	Running   Phase = "Running"
	Succeeded Phase = "Succeeded"
	Failed    Phase = "Failed"
	Unknown   Phase = "Unknown"
)

// ConditionType names a pod condition.
type ConditionType = meta.ConditionType

// Pod condition types.
const (
	PodScheduled              ConditionType = "PodScheduled"
	PodReadyToStartContainers ConditionType = "PodReadyToStartContainers"
	Initialized               ConditionType = "Initialized"
	ContainersReady           ConditionType = "ContainersReady"
	Ready                     ConditionType = "Ready"
	DisruptionTarget          ConditionType = "DisruptionTarget"
)

// Condition is a pod condition: the shared meta.Condition, with the time
// fields this kind uses.
type Condition = meta.Condition

// ContainerStatus is the subset of a container status kubesem reads.
type ContainerStatus struct {
	Name                 string         `json:"name"`
	State                ContainerState `json:"state,omitzero"`
	LastTerminationState ContainerState `json:"lastState,omitzero"`
	Ready                bool           `json:"ready"`
	RestartCount         int32          `json:"restartCount"`
	Started              *bool          `json:"started,omitempty"`
	Image                string         `json:"image,omitempty"`
}

// ContainerState holds at most one of Waiting, Running and Terminated.
type ContainerState struct {
	Waiting    *StateWaiting    `json:"waiting,omitempty"`
	Running    *StateRunning    `json:"running,omitempty"`
	Terminated *StateTerminated `json:"terminated,omitempty"`
}

// StateWaiting is a waiting container's state.
type StateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// StateRunning is a running container's state.
type StateRunning struct {
	StartedAt time.Time `json:"startedAt,omitzero"`
}

// StateTerminated is a terminated container's state.
type StateTerminated struct {
	ExitCode   int32     `json:"exitCode"`
	Signal     int32     `json:"signal,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Message    string    `json:"message,omitempty"`
	StartedAt  time.Time `json:"startedAt,omitzero"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// Condition returns the pod's first condition of type t, or nil. A nil pod
// has no conditions.
func (p *Pod) Condition(t ConditionType) *Condition {
	if p == nil {
		return nil
	}
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}
