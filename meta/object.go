package meta

import (
	"slices"
	"time"
)

// ObjectMeta is the subset of Kubernetes object metadata that workload
// controllers read.
type ObjectMeta struct {
	Name string `json:"name,omitempty"`
	// GenerateName is the prefix the API server completes into Name on a
	// create that gives no name (five random characters appended).
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          time.Time         `json:"creationTimestamp,omitzero"`
	DeletionTimestamp          *time.Time        `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// OwnerReference points from a dependent object to its owner.
type OwnerReference struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name,omitempty"`
	UID        string `json:"uid,omitempty"`
	Controller *bool  `json:"controller,omitempty"`
	// BlockOwnerDeletion keeps the owner from being deleted in the
	// foreground before this dependent is; controllers set it on the
	// objects they create.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitempty"`
}

// NewControllerRef returns the owner reference a controller puts on the
// objects it creates: controller and blockOwnerDeletion true.
//
// Source: apimachinery metav1.NewControllerRef (v0.36.3).
func NewControllerRef(apiVersion, kind, name, uid string) OwnerReference {
	yes, block := true, true
	return OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &yes, BlockOwnerDeletion: &block}
}

// IsController reports whether the reference is marked controller: true.
func (r OwnerReference) IsController() bool { return r.Controller != nil && *r.Controller }

// ControllerRef returns the first owner reference marked controller: true,
// or nil when there is none.
//
// Source: apimachinery metav1.GetControllerOf (v0.36.3).
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].IsController() {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// IsControlledBy reports whether the object's controller reference has the
// given UID.
//
// Source: apimachinery metav1.IsControlledBy (v0.36.3).
func (m *ObjectMeta) IsControlledBy(uid string) bool {
	ref := m.ControllerRef()
	return ref != nil && ref.UID == uid
}

// IsDeleting reports whether the object has a deletion timestamp.
func (m *ObjectMeta) IsDeleting() bool { return m.DeletionTimestamp != nil }

// ConditionStatus is the status of a condition: True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// MergeOwnerRef returns refs with ref merged in by UID (it replaces the
// reference holding ref's UID, or is appended), as a controller's adoption
// patch of ownerReferences leaves them (a strategic merge whose merge key
// is uid). refs may be modified in place.
//
// Source: upstream pkg/controller/controller_ref_manager.go
// ownerRefControllerPatch (v1.36.3); ownerReferences' patchMergeKey uid
// in k8s.io/apimachinery ObjectMeta (v0.36.3).
func MergeOwnerRef(refs []OwnerReference, ref OwnerReference) []OwnerReference {
	for i := range refs {
		if refs[i].UID == ref.UID {
			refs[i] = ref
			return refs
		}
	}
	return append(refs, ref)
}

// RemoveOwnerRef returns refs without the references to uid, as a
// controller's release patch ($patch: delete by uid) and the garbage
// collector's orphaning patch leave them. refs may be modified in place.
//
// Source: upstream pkg/controller/controller_ref_manager.go
// GenerateDeleteOwnerRefStrategicMergeBytes; garbagecollector
// orphanDependents (v1.36.3).
func RemoveOwnerRef(refs []OwnerReference, uid string) []OwnerReference {
	return slices.DeleteFunc(refs, func(r OwnerReference) bool { return r.UID == uid })
}
