package main

import (
	"flag"
	"fmt"
	"github.com/kubesem/kubesem/cluster"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

const podSynopsis = `A scenario on the cluster world (package cluster): one pod bound to node-1,
run by the world's kubelet model, which decides with podstatus's rules
(ShouldRestart, RestartBackoff, Generate). Prints, for every status the
kubelet writes, each container's state and restart count, the pod phase,
its Initialized, ContainersReady and Ready conditions, and for a container
in CrashLoopBackOff when the kubelet restarted it.

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
                   "runs": [{"exitCode": 42, "duration": "10s"}]}]}

The world's kubelet runs every regular container alike: one run, repeated
at every start (exit with exitCode after duration, or never exit); a
sidecar (an init container with restartPolicy Always) never exits, and a
regular init container completes at once with exit code 0. A scenario
asking for more (successive runs, containers that differ, an init
container that runs or fails) is refused, naming the field.`

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

// simContainer is a checked container of the scenario.
type simContainer struct {
	spec    *podstatus.Container
	init    bool
	sidecar bool
	runs    []simRun
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

// worldRun is the one run the world's kubelet gives every regular
// container of the pod (cluster.PodBehavior's RunFor and ExitCode): the
// scenario's containers must all have the same single run, sidecars must
// never exit, and regular init containers must exit 0 at once.
func worldRun(ctrs []*simContainer, src string) (simRun, error) {
	bad := func(path, format string, args ...any) error {
		return usagef("simulate pod: %s: %s: %s (the world's kubelet model: see simulate pod -h)", src, path, fmt.Sprintf(format, args...))
	}
	var run *simRun
	ii, ci := 0, 0
	for _, c := range ctrs {
		var path string
		if c.init {
			path = fmt.Sprintf("initContainers[%d].runs", ii)
			ii++
		} else {
			path = fmt.Sprintf("containers[%d].runs", ci)
			ci++
		}
		switch {
		case c.sidecar:
			if len(c.runs) != 1 || !c.runs[0].never {
				return simRun{}, bad(path, "a sidecar never exits: want [{\"neverExits\": true}]")
			}
		case c.init:
			if len(c.runs) != 1 || c.runs[0].never || c.runs[0].code != 0 || c.runs[0].dur != 0 {
				return simRun{}, bad(path, "a regular init container completes at once: want [{\"exitCode\": 0, \"duration\": \"0s\"}]")
			}
		case len(c.runs) != 1:
			return simRun{}, bad(path, "one run, repeated at every start: successive runs are not modelled")
		case run != nil && *run != c.runs[0]:
			return simRun{}, bad(path, "every regular container runs alike: want the same run as the first")
		default:
			r := c.runs[0]
			run = &r
		}
	}
	return *run, nil
}

// simulatePod builds the pod scenario, runs it on the world and prints
// the kubelet's status writes.
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
	run, err := worldRun(ctrs, src)
	if err != nil {
		return err
	}
	if *horizonFlag > 0 {
		horizon = *horizonFlag
	}
	n := readyNode("node-1", nil)
	grace := int64(30)
	p.Spec.TerminationGracePeriodSeconds = &grace
	p.UID = ""
	b := cluster.PodBehavior{}
	if !run.never {
		d := run.dur
		b.RunFor, b.ExitCode = &d, run.code
	}
	sc := cluster.Scenario{Start: start, Objects: []any{n, p}, Pods: []cluster.PodBehavior{b}}
	opts := cluster.Options{Controllers: []string{}, Kubelet: cluster.KubeletOptions{Backoff: podstatus.BackoffOptions{MaxContainerRestartPeriod: *maxPeriod}}}
	w, err := newWorld(sc, opts)
	if err != nil {
		return fmt.Errorf("simulate pod: %v", err)
	}
	var tl *timeline
	if *svg != "" {
		tl = &timeline{series: []series{{"running", "#2e8b57"}, {"CrashLoopBackOff", "#c0392b"}, {"terminated", "#b0b0b0"}, {"not started", "#e0c060"}}}
	}
	tl.header(stdout, "pod", fmt.Sprintf("pod %s: restartPolicy %s, start %s, horizon %v, on node-1\n", p.Name, p.Spec.RestartPolicy, start.Format(time.RFC3339), horizon))
	for _, c := range ctrs {
		fmt.Fprintf(stdout, "  %s\n", describeContainer(c))
	}
	mp := "5m0s (the default)"
	if *maxPeriod > 0 {
		mp = maxPeriod.String()
	}
	fmt.Fprintf(stdout, "kubelet: crashLoopBackOff.maxContainerRestartPeriod %s\n\n", mp)

	// Run to the horizon (or until the pod is terminal), then print the
	// kubelet's status writes; a CrashLoopBackOff row names the instant
	// of the restart that ended it, read further down the trace.
	end := start.Add(horizon)
	st := &stepper{w: w}
	for {
		ok, err := st.step(end)
		if err != nil {
			return fmt.Errorf("simulate pod: %v", err)
		}
		if !ok {
			break
		}
		if q := w.State.Pod(p.Namespace, p.Name); q == nil || q.Status.Phase == podstatus.Succeeded || q.Status.Phase == podstatus.Failed {
			break
		}
	}
	type row struct {
		at     time.Time
		reason string
		pod    *podstatus.Pod
	}
	var rows []row
	for _, e := range w.Trace {
		if e.Write == nil || !strings.HasPrefix(e.Controller, cluster.CtlKubelet) || e.Write.Subresource != "status" {
			continue
		}
		q, ok := e.Write.Object.(*podstatus.Pod)
		if !ok {
			continue
		}
		rows = append(rows, row{e.Time, string(e.Reason), q})
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	head := []string{"TIME", "KUBELET"}
	for _, c := range ctrs {
		head = append(head, strings.ToUpper(c.spec.Name))
	}
	head = append(head, "PHASE", "INITIALIZED", "CONTAINERSREADY", "READY", "BACKOFF")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for i, r := range rows {
		line := []string{offset(r.at.Sub(start)), r.reason}
		stack := make([]int, 4)
		var backoff []string
		for _, c := range ctrs {
			st, k := containerCell(r.pod, c)
			stack[k]++
			line = append(line, st)
			if k == 1 {
				until := "beyond the horizon"
				for _, later := range rows[i+1:] {
					if later.reason == string(cluster.ReasonRestarted) {
						until = "restarted at " + offset(later.at.Sub(start))
						break
					}
				}
				backoff = append(backoff, c.spec.Name+" "+until)
			}
		}
		line = append(line, string(r.pod.Status.Phase))
		for _, t := range []podstatus.ConditionType{podstatus.Initialized, podstatus.ContainersReady, podstatus.Ready} {
			v := "?"
			if c := r.pod.Condition(t); c != nil {
				v = string(c.Status)
				if c.Status != meta.ConditionTrue && c.Reason != "" {
					v += " " + c.Reason
				}
			}
			line = append(line, v)
		}
		if len(backoff) == 0 {
			backoff = []string{"-"}
		}
		line = append(line, strings.Join(backoff, ", "))
		fmt.Fprintln(tw, strings.Join(line, "\t"))
		tl.add(offset(r.at.Sub(start)), r.reason+" → "+string(r.pod.Status.Phase), stack...)
	}
	tw.Flush()
	final := w.State.Pod(p.Namespace, p.Name)
	if final == nil {
		fmt.Fprintf(stdout, "\nthe pod is gone.\n")
		return tl.writeFile(*svg)
	}
	var restarts []string
	for _, c := range ctrs {
		restarts = append(restarts, fmt.Sprintf("%s %d", c.spec.Name, restartCount(final, c)))
	}
	why := fmt.Sprintf("at the horizon (%s)", offset(horizon))
	if final.Status.Phase == podstatus.Succeeded || final.Status.Phase == podstatus.Failed {
		why = fmt.Sprintf("the pod is %s at %s: nothing restarts", final.Status.Phase, offset(w.Now.Sub(start)))
	}
	fmt.Fprintf(stdout, "\n%s.\nfinal: phase %s, restarts: %s\n", why, final.Status.Phase, strings.Join(restarts, ", "))
	return tl.writeFile(*svg)
}

// containerStatus returns the status the kubelet wrote for container c.
func containerStatus(p *podstatus.Pod, c *simContainer) *podstatus.ContainerStatus {
	list := p.Status.ContainerStatuses
	if c.init {
		list = p.Status.InitContainerStatuses
	}
	for i := range list {
		if list[i].Name == c.spec.Name {
			return &list[i]
		}
	}
	return nil
}

// containerCell prints container c's state and restart count as the
// kubelet wrote them, with its series in the chart (0 running,
// 1 CrashLoopBackOff, 2 terminated, 3 not started).
func containerCell(p *podstatus.Pod, c *simContainer) (string, int) {
	cs := containerStatus(p, c)
	switch {
	case cs == nil:
		return "Waiting r=0", 3
	case cs.State.Running != nil:
		return fmt.Sprintf("Running r=%d", cs.RestartCount), 0
	case cs.State.Terminated != nil:
		return fmt.Sprintf("Terminated(%d) r=%d", cs.State.Terminated.ExitCode, cs.RestartCount), 2
	case cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff":
		return fmt.Sprintf("CrashLoopBackOff r=%d", cs.RestartCount), 1
	case cs.State.Waiting != nil:
		return fmt.Sprintf("Waiting(%s) r=%d", cs.State.Waiting.Reason, cs.RestartCount), 3
	}
	return fmt.Sprintf("? r=%d", cs.RestartCount), 3
}

func restartCount(p *podstatus.Pod, c *simContainer) int32 {
	if cs := containerStatus(p, c); cs != nil {
		return cs.RestartCount
	}
	return 0
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
	if !c.runs[len(c.runs)-1].never && !c.init {
		b.WriteString(" (at every start)")
	}
	return b.String()
}

// offset prints a time since the pod's start: +0s, +1m35s.
func offset(d time.Duration) string {
	return "+" + d.String()
}
