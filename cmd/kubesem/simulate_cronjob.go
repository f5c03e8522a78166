package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/meta"
)

// simulateCronJob replays the CronJob controller over a window and prints,
// for every schedule slot, whether a Job started, replaced running ones, was
// skipped (Forbid) or was not started (outage, deadline, or a later slot won).
func simulateCronJob(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate cronjob", flag.ContinueOnError)
	schedule := fs.String("schedule", "*/15 * * * *", "spec.schedule (standard cron, 5 fields or a macro)")
	zone := fs.String("time-zone", "", "spec.timeZone (IANA name); empty means the controller's zone, UTC")
	fromFlag := fs.String("from", "2026-01-01T08:00:00Z", "start of the window (RFC 3339); the CronJob is created then")
	window := fs.Duration("window", 3*time.Hour, "length of the window")
	jobDuration := fs.Duration("job-duration", 20*time.Minute, "how long each Job runs before it succeeds")
	policy := fs.String("concurrency", "Allow", "spec.concurrencyPolicy: Allow, Forbid or Replace")
	deadline := fs.Int64("starting-deadline-seconds", -1, "spec.startingDeadlineSeconds (-1: unset)")
	outageStart := fs.String("outage-start", "", "controller down from this time (RFC 3339 or HH:MM on the day of --from)")
	outageEnd := fs.String("outage-end", "", "controller back at this time (RFC 3339 or HH:MM)")
	refuse := fs.Bool("refuse-too-many-missed", false, "the documented behaviour: start nothing after more than 100 missed slots")
	svg := fs.String("svg", "", "also write the slots as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, cronjobSynopsis); err != nil {
		return err
	}
	from, err := time.Parse(time.RFC3339, *fromFlag)
	if err != nil {
		return usagef("simulate cronjob: --from: %q: not an RFC 3339 time", *fromFlag)
	}
	switch {
	case *window <= 0 || *window > 24*366*time.Hour:
		return usagef("simulate cronjob: --window: %v: must be positive and at most a year", *window)
	case *jobDuration <= 0:
		return usagef("simulate cronjob: --job-duration: %v: must be positive", *jobDuration)
	case *deadline < -1:
		return usagef("simulate cronjob: --starting-deadline-seconds: %d: must be -1 (unset) or non-negative", *deadline)
	}
	cp := cronjob.ConcurrencyPolicy(*policy)
	if cp != cronjob.Allow && cp != cronjob.Forbid && cp != cronjob.Replace {
		return usagef("simulate cronjob: --concurrency: %q: want Allow, Forbid or Replace", *policy)
	}
	cj := &cronjob.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "report", Namespace: "default", UID: "report", CreationTimestamp: from},
		Spec:       cronjob.Spec{Schedule: *schedule, ConcurrencyPolicy: cp},
	}
	if *zone != "" {
		cj.Spec.TimeZone = zone
	}
	if *deadline >= 0 {
		cj.Spec.StartingDeadlineSeconds = deadline
	}
	opts := cronjob.Options{RefuseTooManyMissed: *refuse}
	if err := cronjob.Validate(cj, nil); err != nil {
		return usagef("simulate cronjob: %v", err)
	}
	var outage *cronjob.Window
	if *outageStart != "" || *outageEnd != "" {
		start, err := clockTime(*outageStart, from)
		if err != nil {
			return usagef("simulate cronjob: --outage-start: %q: %v", *outageStart, err)
		}
		end, err := clockTime(*outageEnd, from)
		if err != nil {
			return usagef("simulate cronjob: --outage-end: %q: %v", *outageEnd, err)
		}
		if !end.After(start) {
			return usagef("simulate cronjob: --outage-end: %q: must be after --outage-start", *outageEnd)
		}
		outage = &cronjob.Window{Start: start, End: end}
	}
	to := from.Add(*window)
	slots, err := cronjob.Replay(cj, from, to, *jobDuration, outage, opts)
	if err != nil {
		return usagef("simulate cronjob: %v", err)
	}
	printSlots(stdout, cj, from, to, *jobDuration, outage, slots)
	if *svg == "" {
		return nil
	}
	tl := &timeline{title: fmt.Sprintf("CronJob %q, %s", cj.Spec.Schedule, cj.Spec.ConcurrencyPolicy),
		series: []series{{"started", "#2e8b57"}, {"replaced", "#e07b20"}, {"skipped (Forbid)", "#b0b0b0"}, {"not started", "#c0392b"}}}
	for _, s := range slots {
		stack := make([]int, 4)
		stack[map[cronjob.Outcome]int{cronjob.Started: 0, cronjob.Replaced: 1, cronjob.Skipped: 2, cronjob.NotStarted: 3}[s.Outcome]] = 1
		tl.add(s.Time.UTC().Format("15:04"), string(s.Outcome)+" "+s.Job, stack...)
	}
	return tl.writeFile(*svg)
}

// clockTime reads an RFC 3339 time, or HH:MM on the day (and in the zone) of day.
func clockTime(s string, day time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, fmt.Errorf("both --outage-start and --outage-end are needed")
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	hm, err := time.Parse("15:04", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not an RFC 3339 time or HH:MM")
	}
	y, m, d := day.Date()
	return time.Date(y, m, d, hm.Hour(), hm.Minute(), 0, 0, day.Location()), nil
}

func printSlots(out io.Writer, cj *cronjob.CronJob, from, to time.Time, jobDuration time.Duration, outage *cronjob.Window, slots []cronjob.Slot) {
	zone := "the controller's zone (UTC)"
	if cj.Spec.TimeZone != nil {
		zone = *cj.Spec.TimeZone
	}
	fmt.Fprintf(out, "CronJob %s: schedule %q in %s, concurrencyPolicy %s", cj.Name, cj.Spec.Schedule, zone, cj.Spec.ConcurrencyPolicy)
	if d := cj.Spec.StartingDeadlineSeconds; d != nil {
		fmt.Fprintf(out, ", startingDeadlineSeconds %d", *d)
	}
	fmt.Fprintf(out, "\nwindow %s – %s, every Job runs %v", from.Format(time.RFC3339), to.Format(time.RFC3339), jobDuration)
	if outage != nil {
		fmt.Fprintf(out, ", controller down %s – %s", outage.Start.Format(time.RFC3339), outage.End.Format(time.RFC3339))
	}
	fmt.Fprintf(out, "\nchart: S started, R replaced running Jobs, - skipped (Forbid), x not started\n\n")
	loc := time.UTC
	if cj.Spec.TimeZone != nil {
		if l, err := time.LoadLocation(*cj.Spec.TimeZone); err == nil {
			loc = l
		}
	}
	counts := map[cronjob.Outcome]int{}
	var chart strings.Builder
	type line struct {
		at      time.Time
		outcome cronjob.Outcome
		note    string
	}
	var lines []line
	for _, s := range slots {
		counts[s.Outcome]++
		note := s.Job
		if !s.StartedAt.IsZero() && s.StartedAt.Sub(s.Time) > cronjob.RequeueDelta {
			// Later than the controller's usual wake-up: delayed by an
			// outage or held back by Forbid until the running Job ended.
			note += fmt.Sprintf(" (started %s, %v late)", s.StartedAt.In(loc).Format("15:04:05"), s.StartedAt.Sub(s.Time))
		}
		if s.Outcome == cronjob.NotStarted && outage != nil && !s.Time.Before(outage.Start) && s.Time.Before(outage.End) {
			note = "(controller down)"
		}
		lines = append(lines, line{s.Time, s.Outcome, note})
		chart.WriteByte(map[cronjob.Outcome]byte{cronjob.Started: 'S', cronjob.Replaced: 'R', cronjob.Skipped: '-', cronjob.NotStarted: 'x'}[s.Outcome])
	}
	// Runs of three or more identical lines without a Job (skipped, not
	// started) are shown as one line: first … last, and how many.
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].outcome == lines[i].outcome && lines[j].note == lines[i].note && !strings.HasPrefix(lines[i].note, cj.Name+"-") {
			j++
		}
		l := lines[i]
		if j-i >= 3 {
			fmt.Fprintf(out, "  %s  %-10s  %s ×%d (until %s)\n", l.at.In(loc).Format(time.RFC3339), l.outcome, l.note, j-i, lines[j-1].at.In(loc).Format(time.RFC3339))
			i = j
			continue
		}
		fmt.Fprintf(out, "  %s  %-10s  %s\n", l.at.In(loc).Format(time.RFC3339), l.outcome, l.note)
		i++
	}
	if len(slots) == cronjob.MaxReplaySlots {
		fmt.Fprintf(out, "  … the window holds more start times: only the first %d are simulated (until %s); shorten --window to see the rest\n",
			cronjob.MaxReplaySlots, slots[len(slots)-1].Time.In(loc).Format(time.RFC3339))
	}
	fmt.Fprintf(out, "\n%s\n%d slots: %d started, %d replaced, %d skipped, %d not started\n", chartLine(chart.String()), len(slots),
		counts[cronjob.Started], counts[cronjob.Replaced], counts[cronjob.Skipped], counts[cronjob.NotStarted])
}

// chartLine returns the one-character-per-slot chart, or, beyond 240 slots,
// its run-length form ("S×3 x×112 S×5"), cut after 40 runs.
func chartLine(c string) string {
	if len(c) <= 240 {
		return c
	}
	var runs []string
	for i := 0; i < len(c); {
		j := i
		for j < len(c) && c[j] == c[i] {
			j++
		}
		if len(runs) == 40 {
			runs = append(runs, "…")
			break
		}
		runs = append(runs, fmt.Sprintf("%c×%d", c[i], j-i))
		i = j
	}
	return strings.Join(runs, " ")
}
