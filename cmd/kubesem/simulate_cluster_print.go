package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// replicasOf is spec.replicas of a Deployment, ReplicaSet or StatefulSet
// (nil for other objects, or when unset).
func replicasOf(o any) *int32 {
	switch x := o.(type) {
	case *rollout.Deployment:
		return x.Spec.Replicas
	case *replicaset.ReplicaSet:
		return x.Spec.Replicas
	case *statefulset.StatefulSet:
		return x.Spec.Replicas
	}
	return nil
}

// printFinal prints the state the run ends in: each workload's status as
// its controller last wrote it, each node, and the pods by state.
func printFinal(out io.Writer, w *cluster.World) {
	s := w.State
	fmt.Fprintf(out, "\nat %s:\n", atOffset(w.Now.Sub(w.Start)))
	for _, n := range s.Nodes() {
		var parts []string
		ready := "no Ready condition"
		for _, c := range n.Status.Conditions {
			if c.Type == node.Ready {
				ready = "Ready=" + string(c.Status)
			}
		}
		parts = append(parts, ready)
		if n.Spec.Unschedulable {
			parts = append(parts, "unschedulable")
		}
		for _, t := range n.Spec.Taints {
			parts = append(parts, "taint "+t.Key+":"+string(t.Effect))
		}
		var states [6]int
		for _, p := range s.PodsOnNode(n.Name) {
			states[podState(p)]++
		}
		parts = append(parts, "pods: "+podCounts(states))
		fmt.Fprintf(out, "  Node %s: %s\n", n.Name, strings.Join(parts, ", "))
	}
	for _, d := range s.Deployments() {
		st := d.Status
		fmt.Fprintf(out, "  Deployment %s/%s: %d replica(s), %d updated, %d ready, %d available%s\n", d.Namespace, d.Name,
			st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, conds(st.Conditions))
	}
	for _, rs := range s.ReplicaSets() {
		fmt.Fprintf(out, "  ReplicaSet %s/%s: spec %d, %d replica(s), %d ready, %d available\n", rs.Namespace, rs.Name,
			rs.Replicas(), rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas)
	}
	for _, rc := range s.ReplicationControllers() {
		fmt.Fprintf(out, "  ReplicationController %s/%s: spec %d, %d replica(s), %d ready, %d available\n", rc.Namespace, rc.Name,
			rc.Replicas(), rc.Status.Replicas, rc.Status.ReadyReplicas, rc.Status.AvailableReplicas)
	}
	for _, set := range s.StatefulSets() {
		st := set.Status
		fmt.Fprintf(out, "  StatefulSet %s/%s: %d replica(s), %d ready, %d available; %d at current revision %s, %d at update revision %s\n",
			set.Namespace, set.Name, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.CurrentRevision, st.UpdatedReplicas, st.UpdateRevision)
	}
	for _, ds := range s.DaemonSets() {
		st := ds.Status
		fmt.Fprintf(out, "  DaemonSet %s/%s: %d node(s) should run a pod, %d do, %d updated, %d ready, %d available\n",
			ds.Namespace, ds.Name, st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.UpdatedNumberScheduled, st.NumberReady, st.NumberAvailable)
	}
	for _, cj := range s.CronJobs() {
		last := "never scheduled"
		if t := cj.Status.LastScheduleTime; t != nil {
			last = "last scheduled at " + atOffset(t.Sub(w.Start))
		}
		fmt.Fprintf(out, "  CronJob %s/%s: %d active Job(s), %s\n", cj.Namespace, cj.Name, len(cj.Status.Active), last)
	}
	for _, j := range s.Jobs() {
		st := j.Status
		fmt.Fprintf(out, "  Job %s/%s: %d active, %d succeeded, %d failed%s\n", j.Namespace, j.Name, st.Active, st.Succeeded, st.Failed, jobConds(st.Conditions))
	}
	for _, b := range s.PDBs() {
		st := b.Status
		fmt.Fprintf(out, "  PodDisruptionBudget %s/%s: %d disruption(s) allowed, %d healthy of %d desired\n", b.Namespace, b.Name,
			st.DisruptionsAllowed, st.CurrentHealthy, st.DesiredHealthy)
	}
	var states [6]int
	for _, p := range s.Pods() {
		states[podState(p)]++
	}
	fmt.Fprintf(out, "  pods: %s\n", podCounts(states))
}

var stateNames = [6]string{"ready", "running not ready", "pending", "succeeded", "failed", "terminating"}

func podCounts(states [6]int) string {
	var parts []string
	for i, n := range states {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, stateNames[i]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func conds(cs meta.Conditions) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

func jobConds(cs []job.Condition) string {
	var parts []string
	for _, c := range cs {
		if c.Status == meta.ConditionTrue {
			s := string(c.Type)
			if c.Reason != "" {
				s += " (" + c.Reason + ")"
			}
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}
