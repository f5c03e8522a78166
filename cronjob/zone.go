package cronjob

import (
	"time"
	// The IANA database is compiled in so that a zone name means the same
	// thing on every machine; package time still prefers the system's copy
	// (ZONEINFO, /usr/share/zoneinfo) when one is installed.
	_ "time/tzdata"

	"github.com/kubesem/kubesem/field"
)

// loadZone returns the time zone called name, the way kube-controller-manager
// resolves it: "" and "UTC" are UTC, and "Local" is the controller manager's
// own zone, which kubesem takes from Options.LocalTimeZone (UTC when empty)
// instead of the machine it runs on. It is kubesem's only call to
// time.LoadLocation.
func loadZone(name string, opts Options) (*time.Location, error) {
	if name == "Local" {
		name = opts.LocalTimeZone
		if name == "Local" {
			return nil, field.New("options.localTimeZone", name, field.ErrInvalid)
		}
	}
	switch name {
	case "", "UTC":
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, field.New("", name, field.ErrInvalid)
	}
	return loc, nil
}

// localZone returns the zone a schedule without spec.timeZone runs in.
func localZone(opts Options) (*time.Location, error) {
	loc, err := loadZone(opts.LocalTimeZone, Options{})
	if err != nil {
		return nil, field.At(err, "options.localTimeZone")
	}
	return loc, nil
}

// zoneOf returns the zone a CronJob's scheduled-timestamp annotation is
// written in: spec.timeZone, or UTC when it is unset. (Upstream formats the
// annotation with time.LoadLocation(timeZone ?? ""), which is UTC, whatever
// zone the controller manager runs in.)
func zoneOf(cj *CronJob, opts Options) (*time.Location, error) {
	if cj.Spec.TimeZone == nil {
		return time.UTC, nil
	}
	loc, err := loadZone(*cj.Spec.TimeZone, opts)
	if err != nil {
		return nil, field.At(err, "spec.timeZone")
	}
	return loc, nil
}
