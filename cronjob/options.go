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
}
