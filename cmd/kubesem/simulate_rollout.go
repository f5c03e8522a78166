package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

const rolloutWorldSynopsis = `A scenario on the cluster world (package cluster): Deployment web on three
nodes, converged at image web:v1, gets image web:v2 at 0s; its pods become
ready --ready-after × --interval after they start (the world's kubelet
model). --scale-at/--update-at (in units of --interval) scale it or change
the image again (web:v3). Prints one row per instant at which something
other than a heartbeat was written: the old and new ReplicaSets' sizes, the
pods, status.availableReplicas, what the Deployment controller wrote and a
chart of the pods.

Examples:

  kubesem simulate rollout --replicas 10 --max-surge 25% --max-unavailable 25% --ready-after 2
  kubesem simulate rollout --replicas 10 --max-surge 3 --max-unavailable 2 \
    --ready-after 3 --scale-at 4 --scale-to 15                  # the documentation's proportional scaling
  kubesem simulate rollout --replicas 10 --max-surge 3 --max-unavailable 2 \
    --ready-after 3 --scale-at 4 --scale-to 15 --svg docs/rollout.svg`

// rolloutFlags are the knobs of `simulate rollout`.
type rolloutFlags struct {
	replicas        int
	maxSurge        string
	maxUnavailable  string
	strategy        string
	minReadySeconds int
	readyAfter      int
	interval        time.Duration
	steps           int
	scaleAt         int
	scaleTo         int
	updateAt        int
	svg             string
}

// simulateRollout builds the rollout scenario from the flags, runs it on
// the world and prints the timeline.
func simulateRollout(args []string, stdout io.Writer) error {
	var f rolloutFlags
	fs := flag.NewFlagSet("simulate rollout", flag.ContinueOnError)
	fs.IntVar(&f.replicas, "replicas", 10, "spec.replicas")
	fs.StringVar(&f.maxSurge, "max-surge", "25%", "spec.strategy.rollingUpdate.maxSurge (number or percent)")
	fs.StringVar(&f.maxUnavailable, "max-unavailable", "25%", "spec.strategy.rollingUpdate.maxUnavailable (number or percent)")
	fs.StringVar(&f.strategy, "strategy", "RollingUpdate", "RollingUpdate or Recreate")
	fs.IntVar(&f.minReadySeconds, "min-ready-seconds", 0, "spec.minReadySeconds")
	fs.IntVar(&f.readyAfter, "ready-after", 1, "a started pod becomes ready after this many --interval")
	fs.DurationVar(&f.interval, "interval", 10*time.Second, "the unit of --ready-after, --scale-at and --update-at")
	fs.IntVar(&f.steps, "steps", 100, "stop after --steps × --interval")
	fs.IntVar(&f.scaleAt, "scale-at", -1, "at this many --interval, scale the Deployment to --scale-to replicas")
	fs.IntVar(&f.scaleTo, "scale-to", 0, "replicas after the scale event")
	fs.IntVar(&f.updateAt, "update-at", -1, "at this many --interval, change the image a second time (web:v3)")
	fs.StringVar(&f.svg, "svg", "", "also write the timeline as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, rolloutWorldSynopsis); err != nil {
		return err
	}
	d, err := f.deployment()
	if err != nil {
		return err
	}
	ready := time.Duration(f.readyAfter) * f.interval
	sc := cluster.Scenario{
		Start:   simStart.Add(-simWarmup),
		Objects: []any{readyNode("node-0", nil), readyNode("node-1", nil), readyNode("node-2", nil), d},
		Pods:    []cluster.PodBehavior{{ReadyDelay: &ready}},
		Events:  []cluster.Event{{At: at(0), Kind: cluster.EventImage, Target: rolloutKey, Image: "web:v2"}},
	}
	if f.scaleAt >= 0 {
		n := int32(f.scaleTo)
		sc.Events = append(sc.Events, cluster.Event{At: at(time.Duration(f.scaleAt) * f.interval), Kind: cluster.EventScale, Target: rolloutKey, Replicas: &n})
	}
	if f.updateAt >= 0 {
		sc.Events = append(sc.Events, cluster.Event{At: at(time.Duration(f.updateAt) * f.interval), Kind: cluster.EventImage, Target: rolloutKey, Image: "web:v3"})
	}
	w, st, err := newSimWorld(sc, cluster.Options{})
	if err != nil {
		return fmt.Errorf("simulate rollout: %v", err)
	}
	var tl *timeline
	if f.svg != "" {
		tl = &timeline{series: []series{{"old ready", "#4a7fb5"}, {"old not ready", "#a9c4e0"}, {"new not ready", "#f2b880"}, {"new ready", "#e07b20"}, {"terminating", "#c0392b"}}}
	}
	var hdr strings.Builder
	f.header(&hdr, d)
	tl.header(stdout, "rollout", hdr.String())
	last := simStart.Add(time.Duration(max(f.scaleAt, f.updateAt, 0)) * f.interval)
	end := simStart.Add(time.Duration(f.steps) * f.interval)
	lastBusy := simStart
	for {
		i := len(w.Trace)
		ok, err := st.step(end)
		if err != nil {
			return fmt.Errorf("simulate rollout: %v", err)
		}
		if !ok {
			fmt.Fprintf(stdout, "\nstopped at %s: %s\n", since(end), rolloutStatus(w))
			break
		}
		es := entriesSince(w, i)
		if !busy(es) {
			if !w.Now.Before(last) && rolloutDone(w) {
				fmt.Fprintf(stdout, "\nrollout complete at %s: %s\n", since(lastBusy), rolloutStatus(w))
				break
			}
			continue
		}
		lastBusy = w.Now
		rolloutRow(stdout, w, es, tl)
	}
	return tl.writeFile(f.svg)
}

var rolloutKey = cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}

func (f rolloutFlags) deployment() (*rollout.Deployment, error) {
	switch {
	case f.replicas < 0 || f.replicas > 10000:
		return nil, usagef("simulate rollout: --replicas: %d: must be between 0 and 10000", f.replicas)
	case f.readyAfter < 0:
		return nil, usagef("simulate rollout: --ready-after: %d: must be non-negative", f.readyAfter)
	case f.minReadySeconds < 0:
		return nil, usagef("simulate rollout: --min-ready-seconds: %d: must be non-negative", f.minReadySeconds)
	case f.interval <= 0:
		return nil, usagef("simulate rollout: --interval: %v: must be positive", f.interval)
	case f.steps <= 0 || f.steps > 100000:
		return nil, usagef("simulate rollout: --steps: %d: must be between 1 and 100000", f.steps)
	case f.scaleAt >= 0 && (f.scaleTo < 0 || f.scaleTo > 10000):
		return nil, usagef("simulate rollout: --scale-to: %d: must be between 0 and 10000", f.scaleTo)
	case f.strategy != string(rollout.RollingUpdateStrategy) && f.strategy != string(rollout.RecreateStrategy):
		return nil, usagef("simulate rollout: --strategy: %q: want RollingUpdate or Recreate", f.strategy)
	}
	surge, err := intstr.Parse(f.maxSurge)
	if err != nil {
		return nil, usagef("simulate rollout: --max-surge: %q: not a number or percentage", f.maxSurge)
	}
	unavailable, err := intstr.Parse(f.maxUnavailable)
	if err != nil {
		return nil, usagef("simulate rollout: --max-unavailable: %q: not a number or percentage", f.maxUnavailable)
	}
	replicas := int32(f.replicas)
	d := &rollout.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", Generation: 1},
		Spec: rollout.Spec{
			Replicas: &replicas,
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: podstatus.Template{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       podstatus.Spec{Containers: []podstatus.Container{{Name: "web", Image: "web:v1"}}},
			},
			Strategy:        rollout.Strategy{Type: rollout.StrategyType(f.strategy)},
			MinReadySeconds: int32(f.minReadySeconds),
		},
	}
	if d.Spec.Strategy.Type == rollout.RollingUpdateStrategy {
		d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}
	}
	if err := rollout.Validate(d, nil, nil); err != nil {
		return nil, usagef("simulate rollout: %v", err)
	}
	return d, nil
}

func (f rolloutFlags) header(out io.Writer, d *rollout.Deployment) {
	fmt.Fprintf(out, "Deployment web: %d replicas, strategy %s", f.replicas, f.strategy)
	if d.Spec.Strategy.Type == rollout.RollingUpdateStrategy {
		fmt.Fprintf(out, ", maxSurge %s, maxUnavailable %s", f.maxSurge, f.maxUnavailable)
	}
	fmt.Fprintf(out, ", minReadySeconds %d; pods ready %v after they start; nodes node-0..2\n", f.minReadySeconds, time.Duration(f.readyAfter)*f.interval)
	fmt.Fprintf(out, "image web:v1 → web:v2 at 0s")
	if f.scaleAt >= 0 {
		fmt.Fprintf(out, "; scale to %d at %v", f.scaleTo, time.Duration(f.scaleAt)*f.interval)
	}
	if f.updateAt >= 0 {
		fmt.Fprintf(out, "; image → web:v3 at %v", time.Duration(f.updateAt)*f.interval)
	}
	fmt.Fprintf(out, "\nold/new: the ReplicaSets' spec.replicas (new: the Deployment's current image); avail: status.availableReplicas\n")
	fmt.Fprintf(out, "chart: N new ready, n new not ready, O old ready, o old not ready, x terminating\n\n")
	fmt.Fprintf(out, "%7s %5s %5s %5s %6s  %-30s %s\n", "time", "old", "new", "pods", "avail", "deployment controller", "chart")
}

// rolloutRow prints the state after one instant and what the Deployment
// controller wrote at it.
func rolloutRow(out io.Writer, w *cluster.World, es []cluster.Entry, tl *timeline) {
	d, _ := w.State.Get(rolloutKey).(*rollout.Deployment)
	if d == nil {
		return
	}
	cur := imageTag(d.Spec.Template.Spec)
	var oldSize, newSize int32
	for _, rs := range w.State.ReplicaSets() {
		if imageTag(rs.Spec.Template.Spec) == cur {
			newSize += rs.Replicas()
		} else {
			oldSize += rs.Replicas()
		}
	}
	var cells []byte
	for _, p := range w.State.Pods() {
		c := byte('o')
		switch {
		case p.IsDeleting():
			c = 'x'
		case imageTag(p.Spec) == cur && podReady(p):
			c = 'N'
		case imageTag(p.Spec) == cur:
			c = 'n'
		case podReady(p):
			c = 'O'
		}
		cells = append(cells, c)
	}
	slices.SortStableFunc(cells, func(a, b byte) int { return strings.IndexByte("OoxnN", a) - strings.IndexByte("OoxnN", b) })
	var acts []string
	for _, e := range es {
		if e.Controller != cluster.CtlDeployment || e.Write == nil || e.Write.Resource != "replicasets" || e.Write.Subresource != "" {
			continue
		}
		rs, _ := e.Write.Object.(*replicaset.ReplicaSet)
		switch {
		case e.Write.Verb == plan.VerbCreate && rs != nil:
			acts = append(acts, fmt.Sprintf("create %s→%d", imageTag(rs.Spec.Template.Spec), rs.Replicas()))
		case e.Write.Verb == plan.VerbDelete:
			acts = append(acts, "delete "+e.Write.Name)
		case rs != nil && e.Write.Verb != plan.VerbDelete:
			acts = append(acts, fmt.Sprintf("scale %s→%d", imageTag(rs.Spec.Template.Spec), rs.Replicas()))
		}
	}
	fmt.Fprintf(out, "%7s %5d %5d %5d %6d  %-30s %s\n", since(w.Now), oldSize, newSize, len(cells), d.Status.AvailableReplicas, strings.Join(acts, ", "), cells)
	c := string(cells)
	tl.add(since(w.Now), strings.Join(acts, ", "), strings.Count(c, "O"), strings.Count(c, "o"), strings.Count(c, "n"), strings.Count(c, "N"), strings.Count(c, "x"))
}

// rolloutDone reads the Deployment's status as its controller last wrote
// it: observed the current generation, every replica updated and
// available, and no other pod left.
func rolloutDone(w *cluster.World) bool {
	d, _ := w.State.Get(rolloutKey).(*rollout.Deployment)
	if d == nil || d.Spec.Replicas == nil {
		return false
	}
	r, st := *d.Spec.Replicas, d.Status
	return st.ObservedGeneration == d.Generation && st.UpdatedReplicas == r && st.Replicas == r && st.AvailableReplicas == r && int32(len(w.State.Pods())) == r
}

func rolloutStatus(w *cluster.World) string {
	d, _ := w.State.Get(rolloutKey).(*rollout.Deployment)
	if d == nil {
		return "the Deployment is gone"
	}
	st := d.Status
	msg := fmt.Sprintf("replicas %d, updated %d, ready %d, available %d", st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas)
	for _, c := range st.Conditions {
		msg += fmt.Sprintf("; %s=%s (%s)", c.Type, c.Status, c.Reason)
	}
	return msg
}
