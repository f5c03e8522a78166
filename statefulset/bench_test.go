package statefulset

import (
	"strconv"
	"testing"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// benchState is a set of n Running and Ready pods at web-v1 with the
// template at web-v2: the sync walks every pod and deletes the highest.
func benchState(n int) (StatefulSet, []*podstatus.Pod, []history.ControllerRevision) {
	set := gset(int32(n), template("web-v2"))
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		pods[i] = gpod(int32(i), running, "web-v1")
	}
	return set, pods, revs("web-v1", "web-v2")
}

func BenchmarkStep(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			set, pods, rv := benchState(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Step(&set, pods, rv, nil, genNow, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStepParallelCreate(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			set := gset(int32(n), parallel)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Step(&set, nil, revs("web-v1"), nil, genNow, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCountReplicas(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			_, pods, _ := benchState(n)
			st := Status{CurrentRevision: "web-v1", UpdateRevision: "web-v2"}
			b.ReportAllocs()
			for b.Loop() {
				CountReplicas(&st, pods, 0, genNow)
			}
		})
	}
}

func BenchmarkMaxUnavailable(b *testing.B) {
	v := intstr.Percent(25)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MaxUnavailable(&v, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClaimOwnerUpToDate(b *testing.B) {
	tr := true
	c := &Claim{ObjectMeta: meta.ObjectMeta{Name: "www-web-1", OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}}}}
	set := claimSet(RetentionPolicy{WhenDeleted: Delete, WhenScaled: Delete}, false)
	pod := Owner{Name: "web-1", UID: "uid-web-1"}
	b.ReportAllocs()
	for b.Loop() {
		ClaimOwnerUpToDate(c, set, pod)
	}
}

func BenchmarkRevisions(b *testing.B) {
	set := gset(3, template("web-v1"))
	rv := revs("web-v1", "web-v2", "web-v3")
	b.ReportAllocs()
	for b.Loop() {
		Revisions(&set, rv)
	}
}

func BenchmarkValidate(b *testing.B) {
	set := gset(3, maxUnavail(intstr.Percent(50)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(&set); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClaimPod(b *testing.B) {
	set := selected(3)
	p := gpod(1, running, "web-v1")
	b.ReportAllocs()
	for b.Loop() {
		ClaimPod(&set, p)
	}
}

func BenchmarkClaimRevision(b *testing.B) {
	set := selected(3)
	r := rev("web-v1", 1)
	r.Labels = map[string]string{"app": "web"}
	b.ReportAllocs()
	for b.Loop() {
		ClaimRevision(&set, &r)
	}
}
