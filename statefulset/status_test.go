package statefulset

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	ready := gpod(0, running, "web-v1") // Ready 60s ago
	if IsUnavailable(ready, 0, genNow) || IsUnavailable(ready, 60, genNow) {
		t.Error("a pod Ready for 60s is available with minReadySeconds 0 and 60")
	}
	if !IsUnavailable(ready, 61, genNow) {
		t.Error("a pod Ready for 60s is not available with minReadySeconds 61")
	}
	if !IsUnavailable(gpod(0, terminated, "web-v1"), 0, genNow) {
		t.Error("a terminating Ready pod is unavailable")
	}
	if !IsUnavailable(gpod(0, notReady, "web-v1"), 0, genNow) || !IsUnavailable(gpod(0, pending, "web-v1"), 0, genNow) {
		t.Error("not ready and pending pods are unavailable")
	}
}

func TestCountReplicas(t *testing.T) {
	t.Parallel()
	noPhase := gpod(5, running, "web-v1")
	noPhase.Status = podstatus.Status{}
	pods := []*podstatus.Pod{
		gpod(0, running, "web-v1"),
		gpod(1, running, "web-v2"),
		gpod(2, readyJust, "web-v2"),  // ready, not available with minReadySeconds 10
		gpod(3, terminated, "web-v1"), // ready, counted, not current
		gpod(4, pending, "web-v1"),
		noPhase, // not created: not counted at all
		gpod(6, notReady, "web-x"),
	}
	st := Status{CurrentRevision: "web-v1", UpdateRevision: "web-v2", Replicas: 99, CurrentReplicas: 99}
	CountReplicas(&st, pods, 10, genNow)
	want := Status{CurrentRevision: "web-v1", UpdateRevision: "web-v2", Replicas: 6, ReadyReplicas: 4, AvailableReplicas: 3, CurrentReplicas: 2, UpdatedReplicas: 2}
	if st != want {
		t.Errorf("CountReplicas = %+v; want %+v", st, want)
	}
	// A pod both current and updated (the same revision) counts for both.
	st = Status{CurrentRevision: "web-v1", UpdateRevision: "web-v1"}
	CountReplicas(&st, pods[:1], 0, genNow)
	if st.CurrentReplicas != 1 || st.UpdatedReplicas != 1 || st.AvailableReplicas != 1 {
		t.Errorf("same revision: %+v", st)
	}
	// minReadySeconds exactly elapsed: available.
	st = Status{}
	CountReplicas(&st, []*podstatus.Pod{gpod(0, readyJust, "")}, 3, genNow)
	if st.AvailableReplicas != 1 {
		t.Errorf("ready for exactly minReadySeconds: %+v", st)
	}
}

func TestCompleteRollingUpdate(t *testing.T) {
	t.Parallel()
	full := Status{Replicas: 3, ReadyReplicas: 3, UpdatedReplicas: 3, CurrentReplicas: 1, CurrentRevision: "web-v1", UpdateRevision: "web-v2"}
	s := gset(3)
	st := full
	CompleteRollingUpdate(&s, &st)
	if st.CurrentRevision != "web-v2" || st.CurrentReplicas != 3 {
		t.Errorf("complete: %+v", st)
	}
	for name, mod := range map[string]func(*Status){
		"one not updated": func(st *Status) { st.UpdatedReplicas = 2 },
		"one not ready":   func(st *Status) { st.ReadyReplicas = 2 },
		"one missing":     func(st *Status) { st.Replicas = 2 },
		"one too many":    func(st *Status) { st.Replicas, st.ReadyReplicas, st.UpdatedReplicas = 4, 4, 4 },
	} {
		st := full
		mod(&st)
		before := st
		CompleteRollingUpdate(&s, &st)
		if st != before {
			t.Errorf("%s: completed: %+v", name, st)
		}
	}
	od := gset(3, onDelete)
	st = full
	CompleteRollingUpdate(&od, &st)
	if st != full {
		t.Errorf("OnDelete completed: %+v", st)
	}
	absent := gset(3, func(s *StatefulSet) { s.Spec.UpdateStrategy = UpdateStrategy{} })
	st = full
	CompleteRollingUpdate(&absent, &st)
	if st.CurrentRevision != "web-v2" {
		t.Errorf("no updateStrategy (RollingUpdate after defaulting) not completed: %+v", st)
	}
}

func TestStatusChanged(t *testing.T) {
	t.Parallel()
	base := Status{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3,
		CurrentRevision: "a", UpdateRevision: "a", CollisionCount: i32(0)}
	same := base
	same.CollisionCount = i32(5)
	if StatusChanged(&base, &same) {
		t.Error("collisionCount alone changes the status")
	}
	older := base
	older.ObservedGeneration = 1
	if StatusChanged(&base, &older) {
		t.Error("an older observedGeneration changes the status")
	}
	for name, mod := range map[string]func(*Status){
		"observedGeneration": func(s *Status) { s.ObservedGeneration++ },
		"replicas":           func(s *Status) { s.Replicas-- },
		"readyReplicas":      func(s *Status) { s.ReadyReplicas-- },
		"currentReplicas":    func(s *Status) { s.CurrentReplicas-- },
		"updatedReplicas":    func(s *Status) { s.UpdatedReplicas-- },
		"availableReplicas":  func(s *Status) { s.AvailableReplicas-- },
		"currentRevision":    func(s *Status) { s.CurrentRevision = "b" },
		"updateRevision":     func(s *Status) { s.UpdateRevision = "b" },
	} {
		st := base
		mod(&st)
		if !StatusChanged(&base, &st) {
			t.Errorf("%s does not change the status", name)
		}
	}
}
