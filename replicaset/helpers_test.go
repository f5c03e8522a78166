package replicaset_test

import (
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

var now = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) time.Time { return now.Add(-d) }

// pod returns a pod; readySince zero means not ready.
func pod(name, node string, phase podstatus.Phase, readySince, created time.Time) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.UID, p.Namespace = name, "uid-"+name, "default"
	p.Labels = map[string]string{"tier": "frontend"}
	p.Spec.NodeName = node
	p.Status.Phase = phase
	p.CreationTimestamp = created
	if !readySince.IsZero() {
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: readySince}}
	}
	return p
}

func owned(p *podstatus.Pod, rs *replicaset.ReplicaSet) *podstatus.Pod {
	t := true
	p.OwnerReferences = []meta.OwnerReference{{Kind: rs.KindName(), Name: rs.Name, UID: rs.UID, Controller: &t}}
	return p
}

func frontend(replicas int32) *replicaset.ReplicaSet {
	rs := &replicaset.ReplicaSet{}
	rs.Name, rs.Namespace, rs.UID = "frontend", "default", "rs-uid"
	rs.Spec.Replicas = &replicas
	rs.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"tier": "frontend"}}
	rs.Spec.Template.Labels = map[string]string{"tier": "frontend"}
	return rs
}

func ownerRef(uid string, controller *bool) meta.OwnerReference {
	return meta.OwnerReference{Kind: "Deployment", Name: uid, UID: uid, Controller: controller}
}
