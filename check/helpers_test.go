package check_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/kubesem/kubesem/field"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// decoded round-trips x through JSON, as a scenario file gives it (a
// decoded template keeps its normalised form, which makes comparing
// templates cheap).
func decoded[T any](x T) T {
	b, err := json.Marshal(x)
	if err != nil {
		panic(err)
	}
	var y T
	if err := json.Unmarshal(b, &y); err != nil {
		panic(err)
	}
	return y
}

func readyNode(name string) *node.Node {
	return &node.Node{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: meta.ConditionTrue,
			LastHeartbeatTime: t0, LastTransitionTime: t0.Add(-time.Hour)}}},
	}
}

func nodes(n int) []any {
	var out []any
	for i := range n {
		out = append(out, readyNode(fmt.Sprintf("node-%d", i)))
	}
	return out
}

func template(labels map[string]string, image string) podstatus.Template {
	return podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels},
		Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: image}}}}
}

func i32(n int32) *int32 { return &n }

func deployment(name string, replicas int32, surge, unavailable int32) *rollout.Deployment {
	labels := map[string]string{"app": name}
	s, u := intstr.Int(surge), intstr.Int(unavailable)
	return decoded(&rollout.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: rollout.Spec{Replicas: &replicas, Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: template(labels, name+":1"),
			Strategy: rollout.Strategy{RollingUpdate: &rollout.RollingUpdate{MaxSurge: &s, MaxUnavailable: &u}}},
	})
}

func statefulSet(name string, replicas int32, policy statefulset.PodManagementPolicy) *statefulset.StatefulSet {
	labels := map[string]string{"app": name}
	zero := int32(0)
	return decoded(&statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: statefulset.Spec{Replicas: &replicas, ServiceName: name, PodManagementPolicy: policy,
			Selector: &meta.LabelSelector{MatchLabels: labels}, Template: template(labels, name+":1"),
			UpdateStrategy: statefulset.UpdateStrategy{Type: "RollingUpdate", RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: &zero}}},
	})
}

func daemonSet(name string, maxUnavailable int32) *daemonset.DaemonSet {
	labels := map[string]string{"app": name}
	u := intstr.Int(maxUnavailable)
	return decoded(&daemonset.DaemonSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: daemonset.Spec{Selector: &meta.LabelSelector{MatchLabels: labels}, Template: template(labels, name+":1"),
			UpdateStrategy: daemonset.UpdateStrategy{Type: "RollingUpdate", RollingUpdate: &daemonset.RollingParams{MaxUnavailable: &u}}},
	})
}

func budget(name, app string, maxUnavailable int32) *pdb.PodDisruptionBudget {
	u := intstr.Int(maxUnavailable)
	return &pdb.PodDisruptionBudget{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec:       pdb.Spec{MaxUnavailable: &u, Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": app}}},
	}
}

func batchJob(name string, parallelism int32, policy job.PodReplacementPolicy) *job.Job {
	labels := map[string]string{"app": name}
	t := template(labels, name+":1")
	t.Spec.RestartPolicy = "Never"
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: job.Spec{Parallelism: &parallelism, Completions: i32(2 * parallelism), Template: t}}
	if policy != "" {
		j.Spec.PodReplacementPolicy = &policy
	}
	return decoded(j)
}

func key(k cluster.Kind, name string) cluster.Key {
	ns := "default"
	if k == cluster.KindNode {
		ns = ""
	}
	return cluster.Key{Kind: k, Namespace: ns, Name: name}
}

func seconds(n int) *time.Duration {
	d := time.Duration(n) * time.Second
	return &d
}

// hasPath reports whether err is a *field.Error on path.
func hasPath(err error, path string) bool {
	var fe *field.Error
	return errors.As(err, &fe) && fe.Path == path
}

func jobPolicy(s string) job.PodReplacementPolicy { return job.PodReplacementPolicy(s) }
