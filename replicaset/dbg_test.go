package replicaset

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/podstatus"
)

func TestDbg(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := fastNow
		n := rapid.IntRange(2, 30).Draw(t, "n")
		pods := make([]*podstatus.Pod, n)
		for i := range pods {
			if i > 0 && rapid.IntRange(0, 5).Draw(t, "copy") == 0 {
				pods[i] = pods[rapid.IntRange(0, i-1).Draw(t, "of")]
				continue
			}
			pods[i] = drawFastPod(t, now)
		}
		got := RankForDeletion(pods, nil, now, Options{})
		want := refRankForDeletion(pods, nil, now, Options{})
		if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
			for _, i := range got.Order {
				p := pods[i]
				if p == nil {
					t.Logf("%d nil", i)
					continue
				}
				k := refMakeKey(p, i, 0, now, Options{})
				t.Logf("%d %q %q head=%x ready=%+v created=%+v restarts=%d", i, p.Name, p.UID, k.head, k.ready, k.created, k.restarts)
			}
			t.Fatalf("RankForDeletion = %v %v; want %v %v", got.Order, got.start, want.Order, want.start)
		}
	})
	_ = time.Now
}
