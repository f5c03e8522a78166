package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

const podSynopsis = `Runs a pod's containers on a simulated kubelet, from event to event
(container exits, crash-loop backoff expiries, restarts), and prints a
timeline: each container's state and restart count, the pod phase, the
Initialized, ContainersReady and Ready conditions, and the backoff delay of
containers in CrashLoopBackOff. The rules are kubesem's podstatus ones
(KubeletPhase, Generate, ShouldRestart, RestartBackoff); the simulated
kubelet syncs exactly when something happens.

Without --pod it runs the seed's example (pod lifecycle, restart policy): a
container that crashes 5s after every start, restarted after 10s, 20s,
40s … capped at 5 minutes. --pod FILE reads a scenario:

  {"name": "job", "restartPolicy": "OnFailure",
   "start": "2026-01-01T08:00:00Z", "horizon": "15m",
   "initContainers": [{"name": "proxy", "restartPolicy": "Always",
                       "runs": [{"neverExits": true}]}],
   "containers": [{"name": "work",
                   "restartPolicy": "Never",
                   "restartPolicyRules": [{"action": "Restart",
                       "exitCodes": {"operator": "In", "values": [42]}}],
                   "runs": [{"exitCode": 42, "duration": "10s"},
                            {"exitCode": 0, "duration": "30s"}]}]}

Each container's runs are its successive starts; the last one repeats. An
init container with restartPolicy Always is a sidecar. Containers are ready
while they run (no probes), init containers once they exit 0.`

// podRun is one start of a container: it exits with ExitCode after
// Duration, or never.
type podRun struct {
	ExitCode   *int32 `json:"exitCode,omitempty"`
	Duration   string `json:"duration,omitempty"`
	NeverExits bool   `json:"neverExits,omitempty"`
}

// podSimContainer is a container spec with its scripted runs.
type podSimContainer struct {
	podstatus.Container
	Runs []podRun `json:"runs"`
}

// podScenario is the --pod file.
type podScenario struct {
	Name           string                  `json:"name"`
	RestartPolicy  podstatus.RestartPolicy `json:"restartPolicy"`
	Start          *time.Time              `json:"start"`
	Horizon        string                  `json:"horizon"`
	InitContainers []podSimContainer       `json:"initContainers"`
	Containers     []podSimContainer       `json:"containers"`
}

// defaultPodScenario is seed 000's restart-policy example: one container
// that keeps crashing under restartPolicy Always.
func defaultPodScenario() podScenario {
	one := int32(1)
	return podScenario{
		Name: "crashloop", RestartPolicy: podstatus.RestartAlways, Horizon: "20m",
		Containers: []podSimContainer{{Container: podstatus.Container{Name: "app", Image: "app:1"},
			Runs: []podRun{{ExitCode: &one, Duration: "5s"}}}},
	}
}

// loadPodScenario reads a scenario strictly.
func loadPodScenario(path string) (podScenario, error) {
	var s podScenario
	data, err := readInput(path, nil, maxRequestBytes)
	if err != nil {
		return s, usagef("simulate pod: --pod: %v", err)
	}
	if err := apijson.UnmarshalStrict(data, &s); err != nil {
		return s, usagef("simulate pod: --pod %s: %s", path, describe(err))
	}
	return s, nil
}

// simRun is a checked run.
type simRun struct {
	never bool
	code  int32
	dur   time.Duration
}

// ctrState is where a simulated container is.
type ctrState int

const (
	notStarted ctrState = iota
	running
	exited // just exited; the next sync decides
	backingOff
	done // terminated for good
)

type simContainer struct {
	spec     *podstatus.Container
	init     bool
	sidecar  bool
	runs     []simRun
	state    ctrState
	starts   int
	run      simRun // the current or last run
	startAt  time.Time
	until    time.Time // exit time while running, backoff end while backing off
	last     *podstatus.StateTerminated
	entry    *podstatus.BackoffEntry
	restarts int32
}

// checkPodScenario validates s and builds the pod and its containers; errors
// name the JSON field.
func checkPodScenario(s *podScenario, src string) (*podstatus.Pod, []*simContainer, time.Time, time.Duration, error) {
	bad := func(path, format string, args ...any) error {
		return usagef("simulate pod: %s: %s: %s", src, path, fmt.Sprintf(format, args...))
	}
	start := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	if s.Start != nil {
		start = *s.Start
	}
	horizon := 15 * time.Minute
	if s.Horizon != "" {
		h, err := time.ParseDuration(s.Horizon)
		if err != nil || h <= 0 || h > 7*24*time.Hour {
			return nil, nil, start, 0, bad("horizon", "%q: want a Go duration, positive and at most 168h", s.Horizon)
		}
		horizon = h
	}
	switch s.RestartPolicy {
	case "":
		s.RestartPolicy = podstatus.RestartAlways
	case podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever:
	default:
		return nil, nil, start, 0, bad("restartPolicy", "%q: want Always, OnFailure or Never", s.RestartPolicy)
	}
	if len(s.Containers) == 0 {
		return nil, nil, start, 0, bad("containers", "at least one container is required")
	}
	name := s.Name
	if name == "" {
		name = "pod"
	}
	p := &podstatus.Pod{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: name},
		Spec:       podstatus.Spec{NodeName: "node-1", RestartPolicy: s.RestartPolicy},
	}
	for _, c := range s.InitContainers {
		p.Spec.InitContainers = append(p.Spec.InitContainers, c.Container)
	}
	for _, c := range s.Containers {
		p.Spec.Containers = append(p.Spec.Containers, c.Container)
	}
	seen := map[string]bool{}
	var ctrs []*simContainer
	add := func(list string, sc []podSimContainer, specs []podstatus.Container, init bool) error {
		for i := range sc {
			path := fmt.Sprintf("%s[%d]", list, i)
			c := &specs[i]
			if c.Name == "" {
				return bad(path+".name", "required")
			}
			if seen[c.Name] {
				return bad(path+".name", "%q: duplicate container name", c.Name)
			}
			seen[c.Name] = true
			if rp := c.RestartPolicy; rp != nil {
				switch *rp {
				case podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever:
				default:
					return bad(path+".restartPolicy", "%q: want Always, OnFailure or Never", *rp)
				}
				if init && *rp != podstatus.RestartAlways {
					return bad(path+".restartPolicy", "%q: an init container may only have Always (a sidecar)", *rp)
				}
			}
			if len(c.RestartPolicyRules) > 0 && c.RestartPolicy == nil {
				return bad(path+".restartPolicyRules", "need the container's restartPolicy to be set")
			}
			for j, r := range c.RestartPolicyRules {
				rpath := fmt.Sprintf("%s.restartPolicyRules[%d]", path, j)
				switch r.Action {
				case podstatus.ActionRestart:
				case podstatus.ActionRestartAllContainers:
					return bad(rpath+".action", "RestartAllContainers is not simulated (only Restart)")
				default:
					return bad(rpath+".action", "%q: want Restart", r.Action)
				}
				if r.ExitCodes == nil {
					return bad(rpath+".exitCodes", "required")
				}
				if op := r.ExitCodes.Operator; op != podstatus.ExitCodesIn && op != podstatus.ExitCodesNotIn {
					return bad(rpath+".exitCodes.operator", "%q: want In or NotIn", op)
				}
			}
			if len(sc[i].Runs) == 0 {
				return bad(path+".runs", "at least one run is required ({\"exitCode\": 1, \"duration\": \"5s\"} or {\"neverExits\": true})")
			}
			sim := &simContainer{spec: c, init: init, sidecar: init && podstatus.IsRestartableInit(c)}
			for j, r := range sc[i].Runs {
				rpath := fmt.Sprintf("%s.runs[%d]", path, j)
				if r.NeverExits {
					if r.ExitCode != nil || r.Duration != "" {
						return bad(rpath, "neverExits excludes exitCode and duration")
					}
					if j != len(sc[i].Runs)-1 {
						return bad(rpath+".neverExits", "only the last run can never exit")
					}
					sim.runs = append(sim.runs, simRun{never: true})
					continue
				}
				if r.ExitCode == nil {
					return bad(rpath+".exitCode", "required (or \"neverExits\": true)")
				}
				if *r.ExitCode < 0 || *r.ExitCode > 255 {
					return bad(rpath+".exitCode", "%d: want 0 to 255", *r.ExitCode)
				}
				d, err := time.ParseDuration(r.Duration)
				if err != nil || d < 0 {
					return bad(rpath+".duration", "%q: want a non-negative Go duration such as \"5s\"", r.Duration)
				}
				sim.runs = append(sim.runs, simRun{code: *r.ExitCode, dur: d})
			}
			ctrs = append(ctrs, sim)
		}
		return nil
	}
	if err := add("initContainers", s.InitContainers, p.Spec.InitContainers, true); err != nil {
		return nil, nil, start, 0, err
	}
	if err := add("containers", s.Containers, p.Spec.Containers, false); err != nil {
		return nil, nil, start, 0, err
	}
	return p, ctrs, start, horizon, nil
}

// simulatePod runs the pod scenario and prints its timeline.
func simulatePod(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate pod", flag.ContinueOnError)
	file := fs.String("pod", "", "read the scenario (containers, runs, restart policies, start, horizon) from this JSON file")
	maxPeriod := fs.Duration("max-container-restart-period", 0, "kubelet crashLoopBackOff.maxContainerRestartPeriod (0: the default, 5m)")
	horizonFlag := fs.Duration("horizon", 0, "how long to simulate (0: the scenario's horizon, 15m when it has none; built-in: 20m)")
	svg := fs.String("svg", "", "also write the timeline as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, podSynopsis); err != nil {
		return err
	}
	if *horizonFlag < 0 || *horizonFlag > 7*24*time.Hour {
		return usagef("simulate pod: --horizon: %v: must be positive and at most 168h", *horizonFlag)
	}
	if *maxPeriod < 0 {
		return usagef("simulate pod: --max-container-restart-period: %v: must not be negative", *maxPeriod)
	}
	s, src := defaultPodScenario(), "built-in scenario"
	if *file != "" {
		var err error
		if s, err = loadPodScenario(*file); err != nil {
			return err
		}
		src = "--pod " + *file
	}
	p, ctrs, start, horizon, err := checkPodScenario(&s, src)
	if err != nil {
		return err
	}
	if *horizonFlag > 0 {
		horizon = *horizonFlag
	}
	sim := &podSim{pod: p, ctrs: ctrs, opts: podstatus.BackoffOptions{MaxContainerRestartPeriod: *maxPeriod}, start: start}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{title: fmt.Sprintf("pod %s, restartPolicy %s", p.Name, p.Spec.RestartPolicy),
			series: []series{{"running", "#2e8b57"}, {"CrashLoopBackOff", "#c0392b"}, {"terminated", "#b0b0b0"}, {"not started", "#e0c060"}}}
	}
	sim.run(stdout, horizon, tl)
	return tl.writeFile(*svg)
}

// podSim is the simulated kubelet's memory of one pod.
type podSim struct {
	pod      *podstatus.Pod
	ctrs     []*simContainer
	opts     podstatus.BackoffOptions
	start    time.Time
	terminal bool
	events   []string
}

// maxPodEvents bounds the timeline.
const maxPodEvents = 2000

func (s *podSim) logf(format string, args ...any) {
	s.events = append(s.events, fmt.Sprintf(format, args...))
}

// startContainer starts c's next run at now.
func (s *podSim) startContainer(c *simContainer, now time.Time) {
	c.run = c.runs[min(c.starts, len(c.runs)-1)]
	if c.starts > 0 {
		c.restarts++
	}
	c.starts++
	c.state, c.startAt = running, now
	c.until = now.Add(c.run.dur)
}

// sync is one kubelet sync at now: decide on exited containers (restart,
// backoff or done), walk the init containers, start the regular ones, and
// stop the sidecars once every regular container is done.
func (s *podSim) sync(now time.Time) {
	p := s.pod
	for _, c := range s.ctrs {
		switch c.state {
		case exited:
			restart := false
			if c.sidecar {
				restart = true
			} else if !(c.init && c.last.ExitCode == 0) {
				restart = podstatus.ShouldRestart(c.spec, p.Spec.RestartPolicy, c.last.ExitCode)
			}
			if !restart {
				c.state = done
				continue
			}
			fallthrough
		case backingOff:
			d := podstatus.RestartBackoff(c.entry, c.last.FinishedAt, now, s.opts)
			if d.InBackoff {
				if c.state != backingOff {
					s.logf("%s in CrashLoopBackOff %v", c.spec.Name, d.Entry.Delay)
				}
				c.state, c.until = backingOff, d.Until
				continue
			}
			e := d.Entry
			c.entry = &e
			s.startContainer(c, now)
			s.logf("%s restarted", c.spec.Name)
		}
	}
	// Init containers in order: a sidecar counts once running, a regular
	// one once it exited 0; a regular one that failed for good fails the pod.
	initialized, failed := true, false
	for _, c := range s.ctrs {
		if !c.init {
			continue
		}
		if c.state == notStarted {
			s.startContainer(c, now)
			s.logf("%s started", c.spec.Name)
		}
		if c.sidecar && c.state == running {
			continue
		}
		if !c.sidecar && c.state == done {
			if c.last.ExitCode == 0 {
				continue
			}
			failed = true
		}
		if c.sidecar && c.starts > 0 && anyRegularStarted(s.ctrs) {
			// A sidecar restarting after initialization does not hold
			// the regular containers back.
			continue
		}
		initialized = false
		break
	}
	if initialized && !failed {
		for _, c := range s.ctrs {
			if !c.init && c.state == notStarted {
				s.startContainer(c, now)
				s.logf("%s started", c.spec.Name)
			}
		}
	}
	allDone := !failed
	for _, c := range s.ctrs {
		if !c.init && c.state != done {
			allDone = false
		}
	}
	if (failed || allDone) && !s.terminal {
		s.terminal = true
		for _, c := range s.ctrs {
			if c.state == running || c.state == backingOff {
				// Stopped by the kubelet with the pod: exits 0 on SIGTERM.
				c.last = &podstatus.StateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: c.startAt, FinishedAt: now}
				c.state = done
				s.logf("%s stopped by the kubelet", c.spec.Name)
			}
		}
	}
}

func anyRegularStarted(ctrs []*simContainer) bool {
	for _, c := range ctrs {
		if !c.init && c.starts > 0 {
			return true
		}
	}
	return false
}

// status writes the container statuses the kubelet would report.
func (s *podSim) status() {
	p := s.pod
	p.Status.InitContainerStatuses, p.Status.ContainerStatuses = []podstatus.ContainerStatus{}, nil
	for _, c := range s.ctrs {
		cs := podstatus.ContainerStatus{Name: c.spec.Name, Image: c.spec.Image, RestartCount: c.restarts}
		f := false
		cs.Started = &f
		switch c.state {
		case notStarted:
			cs.State.Waiting = &podstatus.StateWaiting{Reason: "PodInitializing"}
		case running:
			t := true
			// Regular init containers are ready only once they exit 0.
			cs.Started, cs.Ready = &t, !c.init || c.sidecar
			cs.State.Running = &podstatus.StateRunning{StartedAt: c.startAt}
		case backingOff:
			cs.State.Waiting = &podstatus.StateWaiting{Reason: podstatus.ReasonCrashLoopBackOff}
		case done:
			cs.State.Terminated = c.last
			cs.Ready = c.init && !c.sidecar && c.last.ExitCode == 0
		}
		if c.state != done && c.last != nil {
			cs.LastTerminationState.Terminated = c.last
		}
		if c.init {
			p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, cs)
		} else {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
		}
	}
}

// next is the time of the next event, if any: an exit or a backoff expiry.
func (s *podSim) next() (time.Time, bool) {
	var t time.Time
	ok := false
	for _, c := range s.ctrs {
		if (c.state == running && !c.run.never) || c.state == backingOff {
			if !ok || c.until.Before(t) {
				t, ok = c.until, true
			}
		}
	}
	return t, ok
}

func (s *podSim) run(out io.Writer, horizon time.Duration, tl *timeline) {
	p := s.pod
	fmt.Fprintf(out, "pod %s: restartPolicy %s, start %s, horizon %v\n", p.Name, p.Spec.RestartPolicy, s.start.Format(time.RFC3339), horizon)
	for _, c := range s.ctrs {
		fmt.Fprintf(out, "  %s\n", describeContainer(c))
	}
	initial, max := podstatus.CrashLoopBounds(s.opts)
	delays, _ := podstatus.CrashLoopDelays(7, s.opts) // 7 is below MaxCrashLoopDelays: no error
	fmt.Fprintf(out, "crash-loop backoff: %v doubling to %v, delays %s; the first exit restarts at once (no backoff entry yet)\n\n",
		initial, max, joinDurations(delays))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := []string{"TIME", "EVENT"}
	for _, c := range s.ctrs {
		head = append(head, strings.ToUpper(c.spec.Name))
	}
	head = append(head, "PHASE", "INITIALIZED", "CONTAINERSREADY", "READY", "BACKOFF")
	fmt.Fprintln(w, strings.Join(head, "\t"))
	now, end := s.start, s.start.Add(horizon)
	s.logf("pod started on node-1")
	n, why := 0, ""
	for {
		s.sync(now)
		s.status()
		g := podstatus.Generate(p, podstatus.Observed{Terminal: s.terminal}, now, podstatus.Options{})
		p.Status.Phase, p.Status.Reason, p.Status.Message, p.Status.Conditions = g.Phase, g.Reason, g.Message, g.Conditions
		s.printRow(w, now, g, tl)
		n++
		if podstatus.IsTerminal(p) {
			why = fmt.Sprintf("the pod is %s: nothing restarts", g.Phase)
			break
		}
		t, ok := s.next()
		if !ok {
			why = "no container will exit and none is backing off: the pod stays like this"
			break
		}
		if t.After(end) {
			why = fmt.Sprintf("next event at %s is beyond the horizon", offset(t.Sub(s.start)))
			break
		}
		if n >= maxPodEvents {
			why = fmt.Sprintf("stopped after %d events", maxPodEvents)
			break
		}
		now = t
		for _, c := range s.ctrs {
			if c.state == running && !c.run.never && !c.until.After(now) {
				reason := "Completed"
				if c.run.code != 0 {
					reason = "Error"
				}
				c.last = &podstatus.StateTerminated{ExitCode: c.run.code, Reason: reason, StartedAt: c.startAt, FinishedAt: now}
				c.state = exited
				s.logf("%s exited %d", c.spec.Name, c.run.code)
			}
		}
	}
	w.Flush()
	var restarts []string
	for _, c := range s.ctrs {
		restarts = append(restarts, fmt.Sprintf("%s %d", c.spec.Name, c.restarts))
	}
	fmt.Fprintf(out, "\n%s.\nfinal: phase %s, restarts: %s\n", why, p.Status.Phase, strings.Join(restarts, ", "))
}

func (s *podSim) printRow(w io.Writer, now time.Time, g podstatus.Generated, tl *timeline) {
	row := []string{offset(now.Sub(s.start)), strings.Join(s.events, "; ")}
	s.events = s.events[:0]
	var backoff []string
	stack := make([]int, 4)
	for _, c := range s.ctrs {
		var st string
		switch c.state {
		case notStarted:
			st, stack[3] = "Waiting", stack[3]+1
		case running:
			st, stack[0] = "Running", stack[0]+1
		case backingOff:
			st, stack[1] = "CrashLoopBackOff", stack[1]+1
			backoff = append(backoff, fmt.Sprintf("%s %v until %s", c.spec.Name, c.entry.Delay, offset(c.until.Sub(s.start))))
		case done:
			st, stack[2] = fmt.Sprintf("Terminated(%d)", c.last.ExitCode), stack[2]+1
		}
		row = append(row, fmt.Sprintf("%s r=%d", st, c.restarts))
	}
	row = append(row, string(g.Phase))
	for _, t := range []podstatus.ConditionType{podstatus.Initialized, podstatus.ContainersReady, podstatus.Ready} {
		v := "?"
		for _, c := range g.Conditions {
			if c.Type == t {
				v = string(c.Status)
				if c.Status != meta.ConditionTrue && c.Reason != "" {
					v += " " + c.Reason
				}
			}
		}
		row = append(row, v)
	}
	if len(backoff) == 0 {
		backoff = []string{"-"}
	}
	row = append(row, strings.Join(backoff, ", "))
	fmt.Fprintln(w, strings.Join(row, "\t"))
	tl.add(offset(now.Sub(s.start)), row[1]+" → "+string(g.Phase), stack...)
}

func describeContainer(c *simContainer) string {
	kind := "container"
	switch {
	case c.sidecar:
		kind = "sidecar (init, restartPolicy Always)"
	case c.init:
		kind = "init container"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", c.spec.Name, kind)
	if rp := c.spec.RestartPolicy; rp != nil && !c.sidecar {
		fmt.Fprintf(&b, ", restartPolicy %s", *rp)
	}
	for _, r := range c.spec.RestartPolicyRules {
		fmt.Fprintf(&b, ", rule %s if exit code %s %v", r.Action, r.ExitCodes.Operator, r.ExitCodes.Values)
	}
	var runs []string
	for _, r := range c.runs {
		if r.never {
			runs = append(runs, "never exits")
		} else {
			runs = append(runs, fmt.Sprintf("exits %d after %v", r.code, r.dur))
		}
	}
	fmt.Fprintf(&b, "; runs: %s", strings.Join(runs, ", "))
	if !c.runs[len(c.runs)-1].never {
		b.WriteString(" (the last repeats)")
	}
	return b.String()
}

// offset prints a time since the pod's start: +0s, +1m35s.
func offset(d time.Duration) string {
	return "+" + d.String()
}

func joinDurations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ") + " …"
}
