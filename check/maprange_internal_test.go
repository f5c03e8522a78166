package check

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/podstatus"
)

// nest is a map type that holds itself (behind interfaces), tree one
// that holds itself in the struct of its values, before another field:
// mapRange meets a map of the type while it ranges over one, and then
// reads on in the outer entry.
type (
	nest map[string]any
	tree map[string]leaf
	leaf struct {
		Kids tree
		N    int
		At   time.Time
	}
)

// The memory hash is the same with mapRange's pool as without (each map
// read into fresh values), nested maps of one type included, and again
// when the pool is reused; a change of a nested entry changes it.
func TestMapRangePool(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v := map[string]nest{
		"a": {"b": 1, "c": nest{"d": 2, "e": at, "f": nest{"g": "x"}}},
		"h": {"i": 3},
		"j": {},
		"k": {"t": tree{"l": {Kids: tree{"m": {N: 1}, "n": {N: 2, At: at}}, N: 3}, "o": {N: 4}}},
	}
	r := &renamer{m: &renames{m: map[uint64]renamed{}}}
	fresh := &clock{now: at, cap: time.Hour}
	pooled := &clock{now: at, cap: time.Hour, pool: map[reflect.Type]*mapSlot{}}
	want := direct(reflect.ValueOf(v), r, fresh)
	for i := range 2 {
		if got := direct(reflect.ValueOf(v), r, pooled); got != want {
			t.Fatalf("pass %d: pooled %x, fresh %x", i, got, want)
		}
	}
	v["a"]["c"].(nest)["f"].(nest)["g"] = "y"
	if direct(reflect.ValueOf(v), r, pooled) == want {
		t.Fatal("a nested change did not change the hash")
	}
	for _, s := range pooled.pool {
		if s.busy || !s.key.IsZero() || !s.val.IsZero() {
			t.Fatalf("a slot was left busy or holding an entry: %v", s)
		}
	}
}

// directIn hashes a value read in place as direct hashes it copied, with
// old instants ranked by the clock, and leaves its box empty.
func TestDirectIn(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	old := now.Add(-2 * time.Hour)
	k := &clock{now: now, cap: time.Hour, old: []time.Time{old}}
	ren := renames{m: map[uint64]renamed{}}
	r := &renamer{m: &ren}
	ren.set("uid-2", hashOf("uid-2"), 9)
	code := int32(1)
	kp := cluster.KubeletPod{Backoff: map[string]podstatus.BackoffEntry{"c": {Delay: time.Second, LastUpdate: old}, "d": {LastUpdate: now}},
		RestartAt: now.Add(time.Minute), Fail: &code}
	var box cluster.KubeletPod
	if got, want := directIn(kp, &box, r, k), direct(reflect.ValueOf(kp), r, k); got != want {
		t.Errorf("kubelet pod: %x, want %x", got, want)
	}
	if !reflect.DeepEqual(box, cluster.KubeletPod{}) {
		t.Errorf("box not emptied: %+v", box)
	}
	tv := cluster.TaintView{Pods: map[string]cluster.PodTaints{"p": {UID: "uid-2"}, "q": {UID: "uid-3"}}}
	var tbox cluster.TaintView
	if got, want := directIn(tv, &tbox, r, k), direct(reflect.ValueOf(tv), r, k); got != want {
		t.Errorf("taint view: %x, want %x", got, want)
	}
	tv2 := cluster.TaintView{Pods: map[string]cluster.PodTaints{"p": {UID: "uid-3"}, "q": {UID: "uid-2"}}}
	if directIn(tv, &tbox, r, k) == directIn(tv2, &tbox, r, k) {
		t.Error("swapping the pods' UIDs did not change the hash")
	}
}
