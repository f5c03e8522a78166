package node

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

func prioPod(name string, prio int32, tgps *int64) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = name
	p.Spec.Priority = &prio
	p.Spec.TerminationGracePeriodSeconds = tgps
	return p
}

func TestMigrateShutdownConfig(t *testing.T) {
	t.Parallel()
	got := MigrateShutdownConfig(30*time.Second, 10*time.Second)
	if len(got) != 2 || got[0] != (ShutdownPeriod{0, 20}) || got[1] != (ShutdownPeriod{SystemCriticalPriority, 10}) {
		t.Fatalf("%+v", got)
	}
	if MigrateShutdownConfig(0, 0) != nil || MigrateShutdownConfig(10*time.Second, 20*time.Second) != nil {
		t.Fatal("nil cases")
	}
}

func TestShutdownSeedTable(t *testing.T) {
	t.Parallel()
	periods := ShutdownPeriods([]ShutdownPeriod{{100000, 10}, {10000, 180}, {1000, 120}, {0, 60}}, 0, 0)
	pods := []*podstatus.Pod{prioPod("a", 100000, nil), prioPod("b", 50000, nil), prioPod("c", 1000, i64(30)), prioPod("d", 999, nil), prioPod("e", -5, nil)}
	groups, err := Shutdown(periods, pods)
	if err != nil {
		t.Fatal(err)
	}
	names := func(g ShutdownGroup) (s []string) {
		for _, p := range g.Pods {
			s = append(s, p.Name)
		}
		return
	}
	if len(groups) != 4 || len(groups[0].Pods) != 2 || groups[1].Pods[0].Name != "c" || groups[1].Pods[0].GracePeriodSeconds != 30 || names(groups[2])[0] != "b" || names(groups[3])[0] != "a" {
		t.Fatalf("%+v", groups)
	}
	if groups[3].End != 370*time.Second {
		t.Fatalf("end %v", groups[3].End)
	}
	// no pod in 10000 group: it takes no time.
	groups, _ = Shutdown(periods, []*podstatus.Pod{prioPod("a", 0, nil), prioPod("b", 100000, nil)})
	if groups[3].End != 70*time.Second || groups[1].Start != groups[1].End {
		t.Fatalf("%+v", groups)
	}
}
