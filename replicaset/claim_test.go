package replicaset_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func TestClaimPod(t *testing.T) {
	t.Parallel()
	rs := frontend(1)
	orphan := pod("o", "", "", time.Time{}, now)
	mine := owned(pod("m", "", "", time.Time{}, now), rs)
	moved := owned(pod("x", "", "", time.Time{}, now), rs)
	moved.Labels = map[string]string{"tier": "debug"}
	theirs := pod("t", "", "", time.Time{}, now)
	theirs.OwnerReferences = []meta.OwnerReference{{UID: "other", Controller: mine.OwnerReferences[0].Controller}}
	tests := []struct {
		p    *podstatus.Pod
		want replicaset.Ownership
	}{
		{orphan, replicaset.Adopt}, {mine, replicaset.Owned}, {moved, replicaset.Release}, {theirs, replicaset.Ignore}, {nil, replicaset.Ignore},
	}
	for _, tt := range tests {
		if got := replicaset.ClaimPod(rs, tt.p); got != tt.want {
			t.Errorf("ClaimPod(%v) = %s; want %s", tt.p, got, tt.want)
		}
	}
}
