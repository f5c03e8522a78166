package replicaset

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Reasons of the ReplicaFailure condition.
const (
	ReasonFailedCreate = "FailedCreate"
	ReasonFailedDelete = "FailedDelete"
)

// ComputeStatus returns the status the controller writes for rs after one
// sync over its claimed active pods and its terminating pods:
//
//   - replicas is len(active); fullyLabeledReplicas counts the active pods
//     carrying every template label; readyReplicas the ready ones;
//     availableReplicas those available for minReadySeconds at now
//     (inclusive).
//   - terminatingReplicas is len(terminating) for a ReplicaSet, and unset for
//     a ReplicationController or with opts.DisableTerminatingReplicas.
//   - observedGeneration is rs's generation.
//   - When manageErr is not nil and rs has no ReplicaFailure condition, one
//     is appended: status True, reason FailedCreate when there are fewer
//     active pods than replicas, FailedDelete when more, "" when as many,
//     message manageErr's text, transition time now. An existing one is kept
//     as is. When manageErr is nil, every ReplicaFailure condition is
//     removed.
//
// Other conditions are kept. Nil pods are skipped; rs is not modified.
//
// Source: upstream pkg/controller/replicaset/replica_set_utils.go
// calculateStatus, SetCondition, RemoveCondition, updateReplicaSetStatus;
// pkg/controller/replication/replication_controller.go (v1.36.3).
func ComputeStatus(rs *ReplicaSet, active, terminating []*podstatus.Pod, manageErr error, now time.Time, opts Options) Status {
	st := rs.Status
	st.Conditions = slices.Clone(rs.Status.Conditions)
	var full, ready, available int32
	want := pairs(rs.Spec.Template.Labels)
	for _, p := range active {
		if p == nil {
			continue
		}
		if hasAll(p.Labels, want) {
			full++
		}
		if podstatus.IsReady(p) {
			ready++
			if podstatus.IsAvailable(p, rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}
	st.Replicas = int32(min(len(active), 1<<31-1))
	st.FullyLabeledReplicas, st.ReadyReplicas, st.AvailableReplicas = full, ready, available
	st.TerminatingReplicas = nil
	if !rs.IsReplicationController() && !opts.DisableTerminatingReplicas {
		n := int32(min(len(terminating), 1<<31-1))
		st.TerminatingReplicas = &n
	}
	st.ObservedGeneration = rs.Generation
	has := slices.ContainsFunc(st.Conditions, func(c Condition) bool { return c.Type == ReplicaFailure })
	switch {
	case manageErr != nil && !has:
		reason := ""
		if d := int64(len(active)) - int64(rs.Replicas()); d < 0 {
			reason = ReasonFailedCreate
		} else if d > 0 {
			reason = ReasonFailedDelete
		}
		st.Conditions = append(st.Conditions, Condition{
			Type: ReplicaFailure, Status: meta.ConditionTrue, LastTransitionTime: now,
			Reason: reason, Message: manageErr.Error(),
		})
	case manageErr == nil && has:
		st.Conditions = slices.DeleteFunc(st.Conditions, func(c Condition) bool { return c.Type == ReplicaFailure })
	}
	if len(st.Conditions) == 0 {
		st.Conditions = nil
	}
	return st
}

// label is one label's key and value.
type label struct{ k, v string }

// pairs lists the labels of m, in no particular order (listed once, not
// ranged over for each pod).
func pairs(m map[string]string) []label {
	out := make([]label, 0, len(m))
	for k, v := range m {
		out = append(out, label{k, v})
	}
	return out
}

// hasAll reports whether labels holds every pair of want.
func hasAll(labels map[string]string, want []label) bool {
	for _, l := range want {
		if got, ok := labels[l.k]; !ok || got != l.v {
			return false
		}
	}
	return true
}

// statusEqual reports whether writing b over a would change nothing, the
// test the controller makes before it updates the status.
func statusEqual(a, b Status) bool {
	if a.Replicas != b.Replicas || a.FullyLabeledReplicas != b.FullyLabeledReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas ||
		a.ObservedGeneration != b.ObservedGeneration {
		return false
	}
	if (a.TerminatingReplicas == nil) != (b.TerminatingReplicas == nil) ||
		(a.TerminatingReplicas != nil && *a.TerminatingReplicas != *b.TerminatingReplicas) {
		return false
	}
	return slices.EqualFunc(a.Conditions, b.Conditions, func(x, y Condition) bool {
		return x.Type == y.Type && x.Status == y.Status && x.LastTransitionTime.Equal(y.LastTransitionTime) &&
			x.Reason == y.Reason && x.Message == y.Message
	})
}
