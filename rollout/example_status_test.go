package rollout_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
)

// A rollout that made no progress for progressDeadlineSeconds is reported
// stuck; until then the controller asks to look again when the deadline
// passes (plus one second).
func ExampleSyncProgress() {
	pds := int32(600)
	three := int32(3)
	start := time.Date(2016, 10, 4, 12, 25, 39, 0, time.UTC)
	d := &rollout.Deployment{}
	d.Spec.Replicas, d.Spec.ProgressDeadlineSeconds = &three, &pds
	d.Status = rollout.Status{Replicas: 2, UpdatedReplicas: 2, AvailableReplicas: 2,
		Conditions: []rollout.Condition{{Type: rollout.Progressing, Status: meta.ConditionTrue, Reason: rollout.ReasonReplicaSetUpdated, LastUpdateTime: start}}}
	after, _ := rollout.RequeueStuck(d, d.Status, start.Add(4*time.Minute))
	fmt.Println("look again in", after)
	s := rollout.SyncProgress(d, d.Status, nil, nil, start.Add(10*time.Minute+time.Second))
	c, _ := s.Conditions.Find(rollout.Progressing)
	fmt.Println(c.Status, c.Reason)
	// Output:
	// look again in 6m1s
	// False ProgressDeadlineExceeded
}
