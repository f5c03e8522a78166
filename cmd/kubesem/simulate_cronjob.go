package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

const cronjobWorldSynopsis = `A scenario on the cluster world (package cluster): CronJob report is created
at --from on one node; each of its Jobs runs one pod that succeeds after
--job-duration (the world's kubelet model), and the CronJob, Job and
TTL controllers do the rest. --outage-start/--outage-end suspend the
CronJob over that window: the world cannot stop a controller, and a
suspended CronJob is skipped by its controller exactly as a stopped one
misses its slots (both resume from status.lastScheduleTime). Prints every
Job the controller creates (its scheduled time, when it started), every
Job it deletes, and the events it records.

Example, the documented outage:

  kubesem simulate cronjob --schedule '* * * * *' --from 2026-01-01T08:25:00Z --window 2h \
    --outage-start 08:29 --outage-end 10:21 --starting-deadline-seconds 200`

// simulateCronJob builds the CronJob scenario from the flags, runs it on
// the world and prints what the CronJob controller did.
func simulateCronJob(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate cronjob", flag.ContinueOnError)
	schedule := fs.String("schedule", "*/15 * * * *", "spec.schedule (standard cron, 5 fields or a macro)")
	zone := fs.String("time-zone", "", "spec.timeZone (IANA name); empty means the controller's zone, UTC")
	fromFlag := fs.String("from", "2026-01-01T08:00:00Z", "start of the window (RFC 3339); the CronJob is created then")
	window := fs.Duration("window", 3*time.Hour, "length of the window")
	jobDuration := fs.Duration("job-duration", 20*time.Minute, "how long each Job's pod runs before it succeeds")
	policy := fs.String("concurrency", "Allow", "spec.concurrencyPolicy: Allow, Forbid or Replace")
	deadline := fs.Int64("starting-deadline-seconds", -1, "spec.startingDeadlineSeconds (-1: unset)")
	outageStart := fs.String("outage-start", "", "CronJob suspended from this time (RFC 3339 or HH:MM on the day of --from)")
	outageEnd := fs.String("outage-end", "", "CronJob resumed at this time (RFC 3339 or HH:MM)")
	refuse := fs.Bool("refuse-too-many-missed", false, "the documented behaviour: start nothing after more than 100 missed slots")
	svg := fs.String("svg", "", "also write the Jobs as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, cronjobWorldSynopsis); err != nil {
		return err
	}
	from, err := time.Parse(time.RFC3339, *fromFlag)
	if err != nil {
		return usagef("simulate cronjob: --from: %q: not an RFC 3339 time", *fromFlag)
	}
	switch {
	case *window <= 0 || *window > 31*24*time.Hour:
		return usagef("simulate cronjob: --window: %v: must be positive and at most 31 days", *window)
	case *jobDuration <= 0:
		return usagef("simulate cronjob: --job-duration: %v: must be positive", *jobDuration)
	case *deadline < -1:
		return usagef("simulate cronjob: --starting-deadline-seconds: %d: must be -1 (unset) or non-negative", *deadline)
	}
	cp := cronjob.ConcurrencyPolicy(*policy)
	if cp != cronjob.Allow && cp != cronjob.Forbid && cp != cronjob.Replace {
		return usagef("simulate cronjob: --concurrency: %q: want Allow, Forbid or Replace", *policy)
	}
	zero := int32(0)
	cj := &cronjob.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: "report", Namespace: "default", CreationTimestamp: from, Generation: 1},
		Spec: cronjob.Spec{Schedule: *schedule, ConcurrencyPolicy: cp, JobTemplate: cronjob.JobTemplate{Spec: job.Spec{
			BackoffLimit: &zero,
			Template: podstatus.Template{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "report"}},
				Spec: podstatus.Spec{RestartPolicy: podstatus.RestartNever,
					Containers: []podstatus.Container{{Name: "report", Image: "report:1"}}}},
		}}},
	}
	if *zone != "" {
		cj.Spec.TimeZone = zone
	}
	if *deadline >= 0 {
		cj.Spec.StartingDeadlineSeconds = deadline
	}
	if err := cronjob.Validate(cj, nil); err != nil {
		return usagef("simulate cronjob: %v", err)
	}
	key := cluster.Key{Kind: cluster.KindCronJob, Namespace: "default", Name: "report"}
	n := readyNode("node-1", nil)
	n.Status.Conditions[0].LastHeartbeatTime = from
	run := *jobDuration
	sc := cluster.Scenario{Start: from, Objects: []any{n, cj}, Pods: []cluster.PodBehavior{{RunFor: &run}}}
	var outage [2]time.Time
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
		if start.Before(from) {
			return usagef("simulate cronjob: --outage-start: %q: must not be before --from", *outageStart)
		}
		outage = [2]time.Time{start, end}
		sc.Events = append(sc.Events, cluster.Event{At: start.Sub(from), Kind: cluster.EventPause, Target: key},
			cluster.Event{At: end.Sub(from), Kind: cluster.EventResume, Target: key})
	}
	w, err := newWorld(sc, cluster.Options{CronJob: cronjob.Options{RefuseTooManyMissed: *refuse}})
	if err != nil {
		return fmt.Errorf("simulate cronjob: %v", err)
	}
	loc := time.UTC
	zoneName := "the controller's zone (UTC)"
	if cj.Spec.TimeZone != nil {
		zoneName = *cj.Spec.TimeZone
		if l, err := time.LoadLocation(*cj.Spec.TimeZone); err == nil {
			loc = l
		}
	}
	to := from.Add(*window)
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{{"started", "#2e8b57"}, {"replaced", "#e07b20"}, {"events", "#b0b0b0"}}}
	}
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "CronJob report: schedule %q in %s, concurrencyPolicy %s", cj.Spec.Schedule, zoneName, cp)
	if d := cj.Spec.StartingDeadlineSeconds; d != nil {
		fmt.Fprintf(&hdr, ", startingDeadlineSeconds %d", *d)
	}
	fmt.Fprintf(&hdr, "\nwindow %s – %s, every Job's pod runs %v", from.Format(time.RFC3339), to.Format(time.RFC3339), *jobDuration)
	if !outage[0].IsZero() {
		fmt.Fprintf(&hdr, ", CronJob suspended %s – %s", outage[0].Format(time.RFC3339), outage[1].Format(time.RFC3339))
	}
	fmt.Fprintf(&hdr, "\nchart: S a Job started, R a Job started after deleting running ones (Replace)\n\n")
	tl.header(stdout, "cronjob", hdr.String())
	// Every line of the CronJob controller, collapsing runs of three or
	// more identical event lines into one.
	type line struct {
		at   time.Time
		text string
	}
	var lines []line
	var chart strings.Builder
	started, replaced, jobs := 0, 0, 0
	pendingReplace := false
	// The controller wakes a little after each slot (its requeue adds a
	// delta): a second past the window's end lets a slot at the end start.
	st := &stepper{w: w}
	for {
		ok, err := st.step(to.Add(time.Second))
		if err != nil {
			return fmt.Errorf("simulate cronjob: %v", err)
		}
		if !ok {
			break
		}
		if jobs >= maxCronJobs {
			break
		}
		for _, e := range w.Trace[len(w.Trace)-countAt(w.Trace, w.Now):] {
			if e.Controller != cluster.CtlCronJob {
				continue
			}
			switch {
			case e.Event != nil:
				if e.Event.Reason == cronjob.ReasonSuccessfulCreate || e.Event.Reason == cronjob.ReasonSuccessfulDelete || e.Event.Reason == cronjob.ReasonSawCompletedJob {
					continue
				}
				text := strings.TrimSpace(fmt.Sprintf("%-11s %s", e.Event.Reason, e.Event.Message))
				lines = append(lines, line{e.Time, text})
				tl.add(e.Time.In(loc).Format("15:04"), text, 0, 0, 1)
			case isWrite(e, plan.VerbDelete, "jobs", "") && e.Write.Reason == cronjob.ReasonReplace:
				pendingReplace = true
				lines = append(lines, line{e.Time, fmt.Sprintf("%-11s %s", "Deleted", e.Write.Name+" (Replace)")})
			case isWrite(e, plan.VerbCreate, "jobs", ""):
				jobs++
				j, _ := e.Write.Object.(*job.Job)
				name, sched := e.Object.Name, ""
				if j != nil {
					if name == "" {
						name = j.Name
					}
					sched = j.Annotations[cronjob.ScheduledTimestampAnnotation]
				}
				text := fmt.Sprintf("%-11s %s", "Started", name)
				if t, err := time.Parse(time.RFC3339, sched); err == nil {
					text += fmt.Sprintf(" for %s", t.In(loc).Format("15:04"))
					if late := e.Time.Sub(t); late > time.Second {
						text += fmt.Sprintf(" (%v late)", late)
					}
				}
				c := byte('S')
				if pendingReplace {
					c, pendingReplace = 'R', false
					replaced++
					tl.add(e.Time.In(loc).Format("15:04"), text, 0, 1)
				} else {
					started++
					tl.add(e.Time.In(loc).Format("15:04"), text, 1)
				}
				chart.WriteByte(c)
				lines = append(lines, line{e.Time, text})
			}
		}
	}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].text == lines[i].text {
			j++
		}
		l := lines[i]
		if j-i >= 3 {
			fmt.Fprintf(stdout, "  %s  %s ×%d (until %s)\n", l.at.In(loc).Format(time.RFC3339), l.text, j-i, lines[j-1].at.In(loc).Format(time.RFC3339))
			i = j
			continue
		}
		fmt.Fprintf(stdout, "  %s  %s\n", l.at.In(loc).Format(time.RFC3339), l.text)
		i++
	}
	if jobs >= maxCronJobs {
		fmt.Fprintf(stdout, "  … stopped after %d Jobs (at %s); shorten --window to see the rest\n", maxCronJobs, w.Now.In(loc).Format(time.RFC3339))
	}
	fmt.Fprintf(stdout, "\n%s\n%d Jobs: %d started, %d replacing running ones\n", chartLine(chart.String()), started+replaced, started, replaced)
	return tl.writeFile(*svg)
}

// maxCronJobs bounds the Jobs a simulation creates.
const maxCronJobs = 2000

// countAt is the number of trace entries at the end of es stamped now.
func countAt(es []cluster.Entry, now time.Time) int {
	n := 0
	for i := len(es) - 1; i >= 0 && es[i].Time.Equal(now); i-- {
		n++
	}
	return n
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

// chartLine returns the one-character-per-Job chart, or, beyond 240 Jobs,
// its run-length form ("S×3 R×5"), cut after 40 runs.
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
