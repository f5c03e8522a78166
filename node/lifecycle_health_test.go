package node

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
)

func healthNode(created time.Time, conds ...Condition) *Node {
	n := &Node{}
	n.Name, n.CreationTimestamp = "n", created
	n.Status.Conditions = conds
	return n
}

func TestUpdateHealthGraceBoundary(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ready := Condition{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: t0, LastTransitionTime: t0.Add(-time.Hour)}
	n := healthNode(t0.Add(-time.Hour), ready)
	first := UpdateHealth(n, nil, nil, t0, Options{})
	if !first.Health.ProbeTime.Equal(t0) || first.Write || first.GracePeriod != DefaultNodeMonitorGracePeriod {
		t.Fatalf("first sight: %+v", first)
	}
	mem := first.Health
	// exactly at probe + grace: still Ready (strictly after is needed)
	at := UpdateHealth(n, nil, &mem, t0.Add(DefaultNodeMonitorGracePeriod), Options{})
	if at.Write || at.Current.Status != ConditionTrue {
		t.Fatalf("at the boundary: %+v", at)
	}
	// 1 ns after: Unknown, written, transition stamped now
	after := t0.Add(DefaultNodeMonitorGracePeriod + 1)
	u := UpdateHealth(n, nil, &mem, after, Options{})
	if !u.Write || u.Current.Status != ConditionUnknown || u.Current.Reason != ReasonNodeStatusUnknown || !u.Current.LastTransitionTime.Equal(after) {
		t.Fatalf("after the boundary: %+v", u)
	}
	// the missing pressure conditions are appended as never updated
	if len(u.Conditions) != 4 {
		t.Fatalf("conditions: %+v", u.Conditions)
	}
	for _, c := range u.Conditions[1:] {
		if c.Reason != ReasonNodeStatusNeverUpdated || !c.LastHeartbeatTime.Equal(n.CreationTimestamp) || c.Status != ConditionUnknown {
			t.Fatalf("never-updated condition: %+v", c)
		}
	}
	if u.Health.ProbeTime != mem.ProbeTime {
		t.Fatalf("probe time moved on write: %+v", u.Health)
	}
	// the input node is not modified
	if n.Status.Conditions[0].Status != ConditionTrue || len(n.Status.Conditions) != 1 {
		t.Fatalf("input modified: %+v", n.Status.Conditions)
	}
	// a custom grace period
	g := 40 * time.Second
	if u := UpdateHealth(n, nil, &mem, t0.Add(g+1), Options{NodeMonitorGracePeriod: g}); !u.Write {
		t.Fatalf("40s grace: %+v", u)
	}
}

func TestUpdateHealthProbeRefresh(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ready := Condition{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: t0}
	n := healthNode(t0.Add(-time.Hour), ready)
	mem := UpdateHealth(n, nil, nil, t0, Options{}).Health
	// a new heartbeat refreshes the probe time
	n2 := healthNode(n.CreationTimestamp, Condition{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: t0.Add(10 * time.Second)})
	h := UpdateHealth(n2, nil, &mem, t0.Add(30*time.Second), Options{}).Health
	if !h.ProbeTime.Equal(t0.Add(30*time.Second)) || !h.ReadyHeartbeat.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("heartbeat: %+v", h)
	}
	// the same heartbeat does not
	h = UpdateHealth(n, nil, &mem, t0.Add(30*time.Second), Options{}).Health
	if !h.ProbeTime.Equal(t0) {
		t.Fatalf("same heartbeat: %+v", h)
	}
	// a lease renewal refreshes it; the same renewal does not
	r1 := t0.Add(20 * time.Second)
	l := &Lease{ObjectMeta: meta.ObjectMeta{Name: "n"}, Spec: LeaseSpec{RenewTime: &r1}}
	h = UpdateHealth(n, l, &mem, t0.Add(30*time.Second), Options{}).Health
	if !h.ProbeTime.Equal(t0.Add(30*time.Second)) || h.Lease == nil {
		t.Fatalf("lease: %+v", h)
	}
	h2 := UpdateHealth(n, l, &h, t0.Add(40*time.Second), Options{}).Health
	if !h2.ProbeTime.Equal(t0.Add(30 * time.Second)) {
		t.Fatalf("same lease: %+v", h2)
	}
	// an older renewal does not
	r0 := t0.Add(10 * time.Second)
	h3 := UpdateHealth(n, &Lease{ObjectMeta: meta.ObjectMeta{Name: "n"}, Spec: LeaseSpec{RenewTime: &r0}}, &h, t0.Add(40*time.Second), Options{}).Health
	if !h3.ProbeTime.Equal(t0.Add(30*time.Second)) || !h3.Lease.HasRenewTime || !h3.Lease.RenewTime.Equal(r1) {
		t.Fatalf("older lease: %+v", h3)
	}
	// the memory passed in is not modified
	if !mem.ProbeTime.Equal(t0) || mem.Lease != nil {
		t.Fatalf("memory modified: %+v", mem)
	}
}

func TestUpdateHealthStartupGrace(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := healthNode(created)
	at := UpdateHealth(n, nil, nil, created.Add(DefaultNodeStartupGracePeriod), Options{})
	if at.Current != nil || at.Write || at.GracePeriod != DefaultNodeStartupGracePeriod || at.Observed.Status != ConditionUnknown || !at.Observed.LastHeartbeatTime.Equal(created) {
		t.Fatalf("at startup grace: %+v", at)
	}
	u := UpdateHealth(n, nil, nil, created.Add(DefaultNodeStartupGracePeriod+1), Options{})
	if !u.Write || u.Current == nil || u.Current.Reason != ReasonNodeStatusNeverUpdated || len(u.Conditions) != 4 {
		t.Fatalf("after startup grace: %+v", u)
	}
	if u := UpdateHealth(n, nil, nil, created.Add(31*time.Second), Options{NodeStartupGracePeriod: 30 * time.Second}); !u.Write {
		t.Fatalf("custom startup grace: %+v", u)
	}
	// NetworkUnavailable is never set to Unknown
	n.Status.Conditions = []Condition{{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: created}, {Type: NetworkUnavailable, Status: ConditionFalse}}
	mem := Health{ProbeTime: created, ReadyHeartbeat: &n.Status.Conditions[0].LastHeartbeatTime}
	u = UpdateHealth(n, nil, &mem, created.Add(time.Hour), Options{})
	if u.Conditions[1].Type != NetworkUnavailable || u.Conditions[1].Status != ConditionFalse {
		t.Fatalf("NetworkUnavailable touched: %+v", u.Conditions)
	}
	// a Ready condition already Unknown is not written again
	n.Status.Conditions = []Condition{{Type: Ready, Status: ConditionUnknown, LastHeartbeatTime: created}, {Type: MemoryPressure, Status: ConditionUnknown},
		{Type: DiskPressure, Status: ConditionUnknown}, {Type: PIDPressure, Status: ConditionUnknown}}
	if u := UpdateHealth(n, nil, &mem, created.Add(time.Hour), Options{}); u.Write {
		t.Fatalf("unknown again: %+v", u)
	}
}

// A saved lease without a renew time is never replaced by a renewal; one
// whose renew time is set, even to the zero time, is replaced by a later
// renewal (upstream compares the pointers with MicroTime.Before).
func TestUpdateHealthSavedRenewTime(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ready := Condition{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: t0, LastTransitionTime: t0}
	n := healthNode(t0.Add(-time.Hour), ready)
	r := t0.Add(time.Second)
	seen := &Lease{ObjectMeta: meta.ObjectMeta{Name: "n"}, Spec: LeaseSpec{RenewTime: &r}}
	for _, c := range []struct {
		name    string
		saved   SavedLease
		refresh bool
	}{
		{"no renew time: kept", SavedLease{Name: "n"}, false},
		{"zero renew time set: replaced", SavedLease{Name: "n", HasRenewTime: true}, true},
		{"earlier renew time: replaced", SavedLease{Name: "n", RenewTime: t0, HasRenewTime: true}, true},
		{"same renew time: kept", SavedLease{Name: "n", RenewTime: r, HasRenewTime: true}, false},
	} {
		saved := c.saved
		mem := Health{ProbeTime: t0, ReadyHeartbeat: &ready.LastHeartbeatTime, Lease: &saved}
		h := UpdateHealth(n, seen, &mem, t0.Add(10*time.Second), Options{}).Health
		if got := h.ProbeTime.Equal(t0.Add(10 * time.Second)); got != c.refresh {
			t.Errorf("%s: probe time %v, refreshed %v; want %v", c.name, h.ProbeTime, got, c.refresh)
		}
		want := c.saved
		if c.refresh {
			want = SavedLease{Name: "n", RenewTime: r, HasRenewTime: true}
		}
		if h.Lease == nil || *h.Lease != want || h.Lease == &saved {
			t.Errorf("%s: lease %+v; want a copy of %+v", c.name, h.Lease, want)
		}
	}
}

// A saved lease reads and writes the API's form of a Lease, renewTime
// present exactly when HasRenewTime; other Lease fields are dropped.
func TestSavedLeaseJSON(t *testing.T) {
	t.Parallel()
	rt := time.Date(2026, 1, 1, 0, 0, 55, 123000000, time.UTC)
	for _, c := range []struct {
		name, in, out string
		want          SavedLease
	}{
		{"renewed", `{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:55.123Z"}}`,
			`{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:55.123Z"}}`, SavedLease{Name: "n", RenewTime: rt, HasRenewTime: true}},
		{"no renew time", `{"metadata":{"name":"n"},"spec":{}}`, `{"metadata":{"name":"n"},"spec":{}}`, SavedLease{Name: "n"}},
		{"null renew time", `{"metadata":{"name":"n"},"spec":{"renewTime":null}}`, `{"metadata":{"name":"n"},"spec":{}}`, SavedLease{Name: "n"}},
		{"zero renew time set", `{"metadata":{"name":"n"},"spec":{"renewTime":"0001-01-01T00:00:00Z"}}`,
			`{"metadata":{"name":"n"},"spec":{"renewTime":"0001-01-01T00:00:00Z"}}`, SavedLease{Name: "n", HasRenewTime: true}},
		{"more of the lease", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"n","namespace":"kube-node-lease","uid":"u"},"spec":{"holderIdentity":"n","leaseDurationSeconds":40,"renewTime":"2026-01-01T00:00:55.123Z"}}`,
			`{"metadata":{"name":"n"},"spec":{"renewTime":"2026-01-01T00:00:55.123Z"}}`, SavedLease{Name: "n", RenewTime: rt, HasRenewTime: true}},
		{"empty", `{}`, `{"metadata":{},"spec":{}}`, SavedLease{}},
	} {
		var got SavedLease
		if err := json.Unmarshal([]byte(c.in), &got); err != nil {
			t.Errorf("%s: Unmarshal(%s): %v", c.name, c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: Unmarshal(%s) = %+v; want %+v", c.name, c.in, got, c.want)
		}
		b, err := json.Marshal(got)
		if err != nil || string(b) != c.out {
			t.Errorf("%s: Marshal(%+v) = %s, %v; want %s", c.name, got, b, err, c.out)
		}
	}
	var h Health
	if err := json.Unmarshal([]byte(`{"probeTime":"2026-01-01T00:00:00Z","lease":null}`), &h); err != nil || h.Lease != nil {
		t.Errorf("a null lease: %+v, %v; want none", h.Lease, err)
	}
	var l SavedLease
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"a","name":"b"}}`), &l); err == nil {
		t.Errorf("a repeated key: no error")
	}
}
