package meta_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// TestClaimObject: each branch of upstream's ClaimObject.
func TestClaimObject(t *testing.T) {
	yes := true
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	owner := meta.ObjectMeta{Name: "o", Namespace: "ns", UID: "u"}
	deleting := owner
	deleting.DeletionTimestamp = &now
	mine := meta.ObjectMeta{Namespace: "ns", OwnerReferences: []meta.OwnerReference{{UID: "u", Controller: &yes}}}
	theirs := meta.ObjectMeta{Namespace: "ns", OwnerReferences: []meta.OwnerReference{{UID: "x", Controller: &yes}}}
	orphan := meta.ObjectMeta{Namespace: "ns"}
	gone := orphan
	gone.DeletionTimestamp = &now
	elsewhere := meta.ObjectMeta{Namespace: "other"}
	for _, c := range []struct {
		name       string
		owner, obj meta.ObjectMeta
		claims     bool
		want       meta.Ownership
	}{
		{"mine, claimed", owner, mine, true, meta.Owned},
		{"mine, not claimed", owner, mine, false, meta.Release},
		{"mine, not claimed, owner deleting", deleting, mine, false, meta.Ignore},
		{"mine, claimed, owner deleting", deleting, mine, true, meta.Owned},
		{"another controller's", owner, theirs, true, meta.Ignore},
		{"orphan claimed", owner, orphan, true, meta.Adopt},
		{"orphan not claimed", owner, orphan, false, meta.Ignore},
		{"orphan, owner deleting", deleting, orphan, true, meta.Ignore},
		{"orphan being deleted", owner, gone, true, meta.Ignore},
		{"orphan in another namespace", owner, elsewhere, true, meta.Ignore},
		{"orphan, owner without namespace", meta.ObjectMeta{UID: "u"}, elsewhere, true, meta.Adopt},
	} {
		if got := meta.ClaimObject(&c.owner, &c.obj, c.claims); got != c.want {
			t.Errorf("%s: ClaimObject = %s, want %s", c.name, got, c.want)
		}
	}
}
