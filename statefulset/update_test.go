package statefulset

import (
	"slices"
	"testing"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/podstatus"
)

func TestRollingUpdateSteps(t *testing.T) {
	t.Parallel()
	v12 := revs("web-v1", "web-v2")
	for _, c := range []struct {
		name string
		set  StatefulSet
		pods []*podstatus.Pod
		opts Options
		want []string
	}{
		{"the highest outdated first", gset(3, template("web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, Options{},
			[]string{"web-2:Outdated"}},
		{"an updated unavailable pod above blocks", gset(3, template("web-v2"), current("web-v1", "web-v2"), parallel), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, notReady, "web-v2")}, Options{},
			nil},
		{"partition 2: only web-2", gset(3, template("web-v2"), partition(2), current("web-v1", "web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, Options{},
			nil},
		{"partition 1: web-1", gset(3, template("web-v2"), partition(1), current("web-v1", "web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, Options{},
			[]string{"web-1:Outdated"}},
		{"gate on, maxUnavailable 2: two from the top", gset(4, template("web-v2"), maxUnavail(intstr.Int(2))), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated", "web-2:Outdated"}},
		{"gate on, maxUnavailable 2, one unavailable: one", gset(4, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), []*podstatus.Pod{gpod(0, notReady, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated"}},
		{"gate on, two unavailable of 2: none", gset(4, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), []*podstatus.Pod{gpod(0, notReady, "web-v1"), gpod(1, notReady, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			nil},
		{"gate on skips terminating and updated pods", gset(4, template("web-v2"), maxUnavail(intstr.Int(3)), parallel), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated", "web-1:Outdated", "web-0:Outdated"}},
		{"OnDelete: none", gset(3, template("web-v2"), onDelete), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, Options{},
			nil},
	} {
		p := mustStep(t, c.set, c.pods, v12, nil, c.opts)
		if got := deleted(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}
