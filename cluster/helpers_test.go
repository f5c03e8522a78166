package cluster_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func readyNode(name string) *node.Node {
	return &node.Node{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: meta.ConditionTrue,
			LastHeartbeatTime: t0, LastTransitionTime: t0.Add(-time.Hour)}}},
	}
}

func deployment(name string, replicas int32, image string) *rollout.Deployment {
	labels := map[string]string{"app": name}
	return &rollout.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: rollout.Spec{
			Replicas: &replicas,
			Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: podstatus.Template{
				ObjectMeta: meta.ObjectMeta{Labels: labels},
				Spec:       podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: image}}},
			},
		},
	}
}

func budget(name, app string, minAvailable int) *pdb.PodDisruptionBudget {
	v := intstr.Int(int32(minAvailable))
	return &pdb.PodDisruptionBudget{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec:       pdb.Spec{MinAvailable: &v, Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": app}}},
	}
}

// rollingScenario: a Deployment of 6 on 3 nodes; at 1m its image changes,
// at 1m05s node-c stops heartbeating.
func rollingScenario() cluster.Scenario {
	ready := 10 * time.Second
	return cluster.Scenario{
		Start:   t0,
		Objects: []any{readyNode("node-a"), readyNode("node-b"), readyNode("node-c"), deployment("web", 6, "web:1")},
		Pods:    []cluster.PodBehavior{{ReadyDelay: &ready}},
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, Image: "web:2"},
			{At: 65 * time.Second, Kind: cluster.EventStopNode, Target: cluster.Key{Kind: cluster.KindNode, Name: "node-c"}},
		},
	}
}

// summary prints the trace without heartbeats, one line per entry.
func summary(tr []cluster.Entry) string {
	var b strings.Builder
	for _, e := range tr {
		if e.Reason == cluster.ReasonHeartbeat {
			continue
		}
		what := ""
		if e.Write != nil {
			what = string(e.Write.Verb) + " " + e.Write.Resource
			if e.Write.Subresource != "" {
				what += "/" + e.Write.Subresource
			}
		}
		if e.Event != nil {
			what = "event " + string(e.Event.Type)
		}
		fmt.Fprintf(&b, "%s %-16s %-40s %-22s %s %s\n", e.Time.Sub(t0), e.Controller, e.Object, what, e.Reason, e.Err)
	}
	return b.String()
}

func cronJob(name, schedule string) *cronjob.CronJob {
	two := int32(2)
	return &cronjob.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1, CreationTimestamp: t0},
		Spec: cronjob.Spec{Schedule: schedule, JobTemplate: cronjob.JobTemplate{Spec: job.Spec{
			Completions: &two,
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"task": name}},
				Spec: podstatus.Spec{RestartPolicy: "Never", Containers: []podstatus.Container{{Name: "task", Image: "task:1"}}}},
		}}},
	}
}

func daemonSet(name string) *daemonset.DaemonSet {
	labels := map[string]string{"ds": name}
	return &daemonset.DaemonSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "kube-system", Generation: 1},
		Spec: daemonset.Spec{Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels},
				Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "agent", Image: "agent:1"}}}}},
	}
}

func labelSel(k, v string) *meta.LabelSelector {
	return &meta.LabelSelector{MatchLabels: map[string]string{k: v}}
}

func statefulSet(name string, replicas int32) *statefulset.StatefulSet {
	labels := map[string]string{"sts": name}
	return &statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: statefulset.Spec{Replicas: &replicas, ServiceName: name,
			Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels},
				Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "db", Image: "db:1"}}}},
			VolumeClaimTemplates: []statefulset.Claim{{ObjectMeta: meta.ObjectMeta{Name: "data"}}}},
	}
}

func replicaSet(name string, replicas int32) *replicaset.ReplicaSet {
	labels := map[string]string{"app": name}
	return &replicaset.ReplicaSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: replicaset.Spec{Replicas: &replicas, Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels},
				Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: name + ":1"}}}}},
	}
}
