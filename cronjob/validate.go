package cronjob

import (
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
)

// isZoneNamePart reports whether p is 1–14 characters of A–Z, a–z, 0–9,
// ".", "-", "_" and "+", as API validation requires of each "/"-separated
// part of spec.timeZone.
func isZoneNamePart(p string) bool {
	if len(p) == 0 || len(p) > 14 {
		return false
	}
	for _, c := range []byte(p) {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(".-_+", c) >= 0) {
			return false
		}
	}
	return true
}

// Validate checks the CronJob fields the controller's decisions depend on,
// as API validation does on create (old == nil) or update:
//
//   - metadata.name at most 52 characters ([MaxNameLength]), on create only;
//   - spec.schedule required and parseable; it may not contain "TZ" (so no
//     "TZ=" or "CRON_TZ=" prefix) on create, nor on an update whose old
//     schedule had none; an update of a schedule that already had one keeps
//     it unless spec.timeZone is also set;
//   - spec.startingDeadlineSeconds and the history limits non-negative;
//   - spec.timeZone, when set or changed, non-empty, made of IANA-style
//     parts, not "Local" (any case), and a known zone;
//   - spec.concurrencyPolicy Allow, Forbid or Replace (empty is defaulted
//     to Allow before validation).
//
// It returns the first failure as a *field.Error: ErrInvalid, ErrRequired,
// ErrNegative or ErrUnsupported.
//
// Source: upstream pkg/apis/batch/validation/validation.go
// ValidateCronJobCreate, ValidateCronJobUpdate, validateCronJobSpec,
// validateScheduleFormat, validateTimeZone (v1.36.3); seed 000:L3396.
func Validate(cj, old *CronJob) error {
	if cj == nil {
		return field.New("", "", field.ErrRequired)
	}
	if old == nil && len(cj.Name) > MaxNameLength {
		return field.New("metadata.name", cj.Name, field.ErrInvalid)
	}
	spec := &cj.Spec
	if spec.Schedule == "" {
		return field.New("spec.schedule", "", field.ErrRequired)
	}
	if _, err := parseSpec(spec.Schedule, time.UTC, nil, Options{}); err != nil {
		return field.New("spec.schedule", spec.Schedule, field.ErrInvalid)
	}
	allowTZ := old != nil && strings.Contains(old.Spec.Schedule, "TZ")
	hasTZ := strings.Contains(spec.Schedule, "TZ")
	if hasTZ && (!allowTZ || spec.TimeZone != nil) {
		return field.New("spec.schedule", spec.Schedule, field.ErrInvalid)
	}
	if d := spec.StartingDeadlineSeconds; d != nil && *d < 0 {
		return field.Int("spec.startingDeadlineSeconds", *d, field.ErrNegative)
	}
	if old == nil || !equalPtr(old.Spec.TimeZone, spec.TimeZone) {
		if err := validateZoneName(spec.TimeZone); err != nil {
			return err
		}
	}
	switch spec.ConcurrencyPolicy {
	case Allow, Forbid, Replace, "":
	default:
		return field.New("spec.concurrencyPolicy", string(spec.ConcurrencyPolicy), field.ErrUnsupported)
	}
	if l := spec.SuccessfulJobsHistoryLimit; l != nil && *l < 0 {
		return field.Int("spec.successfulJobsHistoryLimit", int64(*l), field.ErrNegative)
	}
	if l := spec.FailedJobsHistoryLimit; l != nil && *l < 0 {
		return field.Int("spec.failedJobsHistoryLimit", int64(*l), field.ErrNegative)
	}
	return nil
}

func validateZoneName(tz *string) error {
	if tz == nil {
		return nil
	}
	bad := field.New("spec.timeZone", *tz, field.ErrInvalid)
	if *tz == "" || strings.EqualFold(*tz, "Local") {
		return bad
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !isZoneNamePart(part) {
			return bad
		}
	}
	if _, err := loadZone(*tz, Options{}); err != nil {
		return bad
	}
	return nil
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
