package rollout_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func withTemplate(r *replicaset.ReplicaSet, image, hash string) *replicaset.ReplicaSet {
	r.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: hash}
	r.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: image}}
	return r
}

func TestFindNewReplicaSet(t *testing.T) {
	t.Parallel()
	d := deploy(1, "", "")
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: "v2"}}
	newer := withTemplate(rs("newer", 1, 0, 2), "v2", "h")
	older := withTemplate(rs("older", 0, 0, 1), "v2", "other")
	old := withTemplate(rs("old", 3, 3, 0), "v1", "o")
	name := func(r *replicaset.ReplicaSet) string {
		if r == nil {
			return "<nil>"
		}
		return r.Name
	}
	for _, c := range []struct {
		name string
		hash string
		rss  []*replicaset.ReplicaSet
		want string
	}{
		{"same template, other hash label", "", []*replicaset.ReplicaSet{newer, old}, "newer"},
		{"oldest of several", "", []*replicaset.ReplicaSet{newer, old, older}, "older"},
		{"none", "", []*replicaset.ReplicaSet{old}, "<nil>"},
		{"templateHash does not decide: templates do", "h", []*replicaset.ReplicaSet{newer, old, older}, "older"},
		{"templateHash matching nothing: templates still decide", "zzz", []*replicaset.ReplicaSet{newer, old}, "newer"},
	} {
		dc := *d
		dc.TemplateHash = c.hash
		if got := name(rollout.FindNewReplicaSet(&dc, c.rss)); got != c.want {
			t.Errorf("%s: FindNewReplicaSet = %s; want %s", c.name, got, c.want)
		}
	}
	active, all := rollout.FindOldReplicaSets(d, []*replicaset.ReplicaSet{newer, old, older})
	if len(active) != 2 || len(all) != 2 || all[0].Name != "old" || all[1].Name != "newer" {
		t.Errorf("FindOldReplicaSets = %d active, all %v; want 2 active, [old newer]", len(active), all)
	}
}

func TestReplicaSetName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ d, hash, want string }{
		{"my-deployment", "abcde12345", "my-deployment-abcde12345"},
		{strings.Repeat("a", 242), "abcde12345", strings.Repeat("a", 242) + "-abcde12345"},
		{strings.Repeat("b", 250), "abcde12345", strings.Repeat("b", 242) + "-abcde12345"},
		{strings.Repeat("d", 252), strings.Repeat("h", 252), strings.Repeat("d", 252) + "-" + strings.Repeat("h", 252)},
	} {
		if got := rollout.ReplicaSetName(c.d, c.hash); got != c.want {
			t.Errorf("ReplicaSetName(%d chars, %d chars) = %d chars; want %d", len(c.d), len(c.hash), len(got), len(c.want))
		}
	}
}

// TestFindNewReplicaSetWholeTemplate: templates decoded from JSON are
// compared whole, so a change kubesem does not model (an env var, a memory
// limit) makes a different template, and the same unmodelled fields make
// the same one.
func TestFindNewReplicaSetWholeTemplate(t *testing.T) {
	t.Parallel()
	tmpl := func(s string) podstatus.Template {
		var p podstatus.Template
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const withEnv = `{"metadata":{"labels":{"app":"foo"}},"spec":{"containers":[{"name":"app","image":"v1","env":[{"name":"MODE","value":"%s"}],"resources":{"limits":{"memory":"%s"}}}]}}`
	d := deploy(1, "", "")
	d.Spec.Template = tmpl(fmt.Sprintf(withEnv, "fast", "1Gi"))
	same := rs("same", 1, 1, 0)
	same.Spec.Template = tmpl(fmt.Sprintf(withEnv, "fast", "1Gi"))
	same.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "x"}
	otherEnv := rs("env", 1, 1, 1)
	otherEnv.Spec.Template = tmpl(fmt.Sprintf(withEnv, "slow", "1Gi"))
	otherMem := rs("mem", 1, 1, 2)
	otherMem.Spec.Template = tmpl(fmt.Sprintf(withEnv, "fast", "2Gi"))
	plain := rs("plain", 1, 1, 3)
	plain.Spec.Template = tmpl(`{"metadata":{"labels":{"app":"foo"}},"spec":{"containers":[{"name":"app","image":"v1"}]}}`)
	for _, c := range []struct {
		rss  []*replicaset.ReplicaSet
		want string
	}{
		{[]*replicaset.ReplicaSet{same, otherEnv, otherMem, plain}, "same"},
		{[]*replicaset.ReplicaSet{otherEnv, otherMem, plain}, ""},
	} {
		got := rollout.FindNewReplicaSet(d, c.rss)
		if (got == nil && c.want != "") || (got != nil && got.Name != c.want) {
			t.Errorf("FindNewReplicaSet = %v; want %q", got, c.want)
		}
	}
}
