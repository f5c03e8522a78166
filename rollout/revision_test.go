package rollout_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func stWithRevision(name, rev string) *replicaset.ReplicaSet {
	rs := stRS(name, 0, 0, 0)
	if rev != "" {
		rs.Annotations = map[string]string{rollout.RevisionAnnotation: rev}
	}
	return rs
}

func TestRevision(t *testing.T) {
	t.Parallel()
	if n, err := rollout.Revision(stWithRevision("a", "7")); n != 7 || err != nil {
		t.Errorf("Revision(7) = %d, %v; want 7, nil", n, err)
	}
	_, err := rollout.Revision(stWithRevision("a", "seven"))
	var fe *field.Error
	if !errors.As(err, &fe) || !errors.Is(err, field.ErrInvalid) || fe.Path != "metadata.annotations[deployment.kubernetes.io/revision]" {
		t.Errorf("Revision(seven) error = %v; want field.ErrInvalid at the annotation", err)
	}
}

func TestMaxAndLastRevision(t *testing.T) {
	t.Parallel()
	rss := []*replicaset.ReplicaSet{stWithRevision("a", "3"), stWithRevision("b", "bad"), nil, stWithRevision("c", "9"), stWithRevision("d", "5")}
	if got := rollout.MaxRevision(rss); got != 9 {
		t.Errorf("MaxRevision = %d; want 9", got)
	}
	if got := rollout.LastRevision(rss); got != 5 {
		t.Errorf("LastRevision = %d; want 5", got)
	}
}

func TestNewReplicaSetAnnotationsHistoryLimit(t *testing.T) {
	t.Parallel()
	var entries []string
	for i := 1000; i < 1400; i++ {
		entries = append(entries, strconv.Itoa(i))
	}
	rs := stWithRevision("r", "1400")
	rs.Annotations[rollout.RevisionHistoryAnnotation] = strings.Join(entries, ",")
	got, changed := rollout.NewReplicaSetAnnotations(&rollout.Deployment{}, rs, 1401, rollout.Existing)
	h := got[rollout.RevisionHistoryAnnotation]
	if !changed || len(h) > 2000 || !strings.HasPrefix(h, "1001,") || !strings.HasSuffix(h, ",1400") {
		t.Errorf("NewReplicaSetAnnotations history = %d chars %.10q...; want ≤ 2000, 1001..1400", len(h), h)
	}
	if rs.Annotations[rollout.RevisionAnnotation] != "1400" {
		t.Errorf("NewReplicaSetAnnotations modified its input")
	}
}

func TestReplicasAnnotation(t *testing.T) {
	t.Parallel()
	rs := stRS("r", 0, 0, 0)
	rs.Annotations = map[string]string{"k": "2147483648"}
	if _, ok, err := rollout.ReplicasAnnotation(rs, "k"); ok || !errors.Is(err, field.ErrOverflow) {
		t.Errorf("ReplicasAnnotation(2^31) = %v, %v; want not ok, ErrOverflow", ok, err)
	}
	rs.Annotations["k"] = "12"
	if n, ok, err := rollout.ReplicasAnnotation(rs, "k"); n != 12 || !ok || err != nil {
		t.Errorf("ReplicasAnnotation(12) = %d, %v, %v; want 12, true, nil", n, ok, err)
	}
}
