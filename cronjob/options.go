package cronjob

// Options changes what the rules decide. The zero value is Kubernetes
// v1.36.3 with its default feature gates (CronJob has no gates).
type Options struct {
	// RefuseTooManyMissed reproduces the behaviour the CronJob
	// documentation describes (seed 000:L3470): when more than 100 start
	// times were missed, no Job is started. v1.36.3 starts the most recent
	// one anyway and only warns (TooManyMissedTimes).
	RefuseTooManyMissed bool `json:"refuseTooManyMissed,omitempty"`

	// LocalTimeZone is the IANA zone kube-controller-manager runs in, used
	// for schedules without spec.timeZone and for "TZ=Local". Empty means
	// UTC (the usual container setting).
	LocalTimeZone string `json:"localTimeZone,omitempty"`

	// WallClockNext computes start times from the wall clock in the
	// schedule's zone: each matching wall reading fires once per offset
	// it occurs in (none in a spring-forward gap, twice in a fall-back
	// overlap), without robfig/cron v3.0.1's stepping quirks after offset
	// changes that are not a whole hour or fall at midnight (v1.36.3 in
	// Australia/Lord_Howe: "0 3 * * *" after 2026-04-04T15:00:00Z fires
	// at 2026-04-05T16:30:00Z, skipping a day; in Pacific/Chatham it can
	// answer a time before its argument). Off by default: v1.36.3 steps
	// exactly as robfig/cron does.
	WallClockNext bool `json:"wallClockNext,omitempty"`
}
