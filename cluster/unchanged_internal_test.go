package cluster

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// TestUnchangedStatus: for a status update (old's shallow copy with the
// status and annotations of the written object), unchanged agrees with
// reflect.DeepEqual of the whole objects, for every kind with a status,
// whether status or annotations differ (nil against empty included).
func TestUnchangedStatus(t *testing.T) {
	one := int32(1)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	olds := []any{
		&podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Annotations: map[string]string{"a": "1"}},
			Status: podstatus.Status{Phase: podstatus.Running, Conditions: []podstatus.Condition{{Type: podstatus.Ready, Status: "True"}}}},
		&node.Node{ObjectMeta: meta.ObjectMeta{Name: "n"}, Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: node.ConditionTrue}}}},
		&rollout.Deployment{ObjectMeta: meta.ObjectMeta{Name: "d", Annotations: map[string]string{}}, Status: rollout.Status{Replicas: 1}},
		&replicaset.ReplicaSet{ObjectMeta: meta.ObjectMeta{Name: "rs"}, Status: replicaset.Status{Replicas: 1}},
		&statefulset.StatefulSet{ObjectMeta: meta.ObjectMeta{Name: "s"}, Status: statefulset.Status{Replicas: 1}},
		&daemonset.DaemonSet{ObjectMeta: meta.ObjectMeta{Name: "ds"}, Status: daemonset.Status{NumberReady: 1}},
		&job.Job{ObjectMeta: meta.ObjectMeta{Name: "j"}, Status: job.Status{Active: 1}},
		&cronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "c"}, Status: cronjob.Status{LastScheduleTime: &at}},
		&pdb.PodDisruptionBudget{ObjectMeta: meta.ObjectMeta{Name: "b"}, Status: pdb.Status{DisruptionsAllowed: one}},
	}
	for _, old := range olds {
		if statusOf(old) == nil {
			t.Fatalf("%T: statusOf is nil", old)
		}
		// variants of the written object: as stored, the zero status,
		// annotations nil, empty and changed
		writes := []any{shallow(old), shallow(old), shallow(old), shallow(old), shallow(old)}
		setStatus(writes[1], reflect.New(reflect.TypeOf(old).Elem()).Interface())
		metaOf(writes[2]).Annotations = nil
		metaOf(writes[3]).Annotations = map[string]string{}
		metaOf(writes[4]).Annotations = map[string]string{"a": "2"}
		for i, w := range writes {
			obj := shallow(old)
			setStatus(obj, w)
			metaOf(obj).Annotations = metaOf(w).Annotations
			if got, want := unchanged(true, obj, old), reflect.DeepEqual(obj, old); got != want {
				t.Errorf("%T, write %d: unchanged = %v; reflect.DeepEqual = %v", old, i, got, want)
			}
		}
	}
}
