package replicaset

import "github.com/kubesem/kubesem/meta"

// Kinds of workload this package decides for.
const (
	KindReplicaSet            = "ReplicaSet"
	KindReplicationController = "ReplicationController"
)

// IsReplicationController reports whether rs stands for a v1
// ReplicationController rather than an apps/v1 ReplicaSet.
func (rs *ReplicaSet) IsReplicationController() bool {
	return rs.Kind == KindReplicationController
}

// KindName returns rs.Kind, or "ReplicaSet" when it is empty: the kind its
// pods' controller references name.
func (rs *ReplicaSet) KindName() string {
	if rs.Kind == "" {
		return KindReplicaSet
	}
	return rs.Kind
}

// PodSelector returns the selector rs claims pods with. A
// ReplicationController without a selector selects its template's labels,
// as API defaulting does; a ReplicaSet's selector is returned as is.
//
// Source: upstream pkg/apis/core/v1/defaults.go SetDefaults_ReplicationController
// (v1.36.3); seed 000 ReplicationController pod selector (000:L3612).
func (rs *ReplicaSet) PodSelector() *meta.LabelSelector {
	if rs.IsReplicationController() && (rs.Spec.Selector == nil || rs.Spec.Selector.IsEmpty()) {
		return meta.SelectorFromSet(rs.Spec.Template.Labels)
	}
	return rs.Spec.Selector
}
