package cronjob_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	ok := func() *cronjob.CronJob {
		cj := &cronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "hello", Namespace: "default"}}
		cj.Spec.Schedule = "*/5 * * * *"
		return cj
	}
	if err := cronjob.Validate(ok(), nil); err != nil {
		t.Fatalf("Validate(valid) = %v", err)
	}
	long := ok()
	long.Name = strings.Repeat("a", cronjob.MaxNameLength+1)
	noSchedule := ok()
	noSchedule.Spec.Schedule = ""
	badSchedule := ok()
	badSchedule.Spec.Schedule = "61 * * * *"
	for _, c := range []struct {
		name string
		cj   *cronjob.CronJob
		path string
		err  error
	}{
		{"a name beyond 52 characters", long, "metadata.name", field.ErrInvalid},
		{"no schedule", noSchedule, "spec.schedule", field.ErrRequired},
		{"minute 61", badSchedule, "spec.schedule", field.ErrInvalid},
	} {
		var fe *field.Error
		err := cronjob.Validate(c.cj, nil)
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Validate = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
	// A long name is checked on create only.
	if err := cronjob.Validate(long, long); err != nil {
		t.Errorf("Validate(update of a long name) = %v; want nil", err)
	}
}
