package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

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

// simulateRollout runs the Deployment controller, the ReplicaSet controller
// and a kubelet that makes each new pod ready readyAfter syncs after its
// creation, one sync of each per step, and prints the timeline.
func simulateRollout(args []string, stdout io.Writer) error {
	var f rolloutFlags
	fs := flag.NewFlagSet("simulate rollout", flag.ContinueOnError)
	fs.IntVar(&f.replicas, "replicas", 10, "spec.replicas")
	fs.StringVar(&f.maxSurge, "max-surge", "25%", "spec.strategy.rollingUpdate.maxSurge (number or percent)")
	fs.StringVar(&f.maxUnavailable, "max-unavailable", "25%", "spec.strategy.rollingUpdate.maxUnavailable (number or percent)")
	fs.StringVar(&f.strategy, "strategy", "RollingUpdate", "RollingUpdate or Recreate")
	fs.IntVar(&f.minReadySeconds, "min-ready-seconds", 0, "spec.minReadySeconds")
	fs.IntVar(&f.readyAfter, "ready-after", 1, "how many syncs a new pod takes to become ready")
	fs.DurationVar(&f.interval, "interval", 10*time.Second, "time between syncs")
	fs.IntVar(&f.steps, "steps", 100, "stop after this many syncs")
	fs.IntVar(&f.scaleAt, "scale-at", -1, "at this step, scale the Deployment to --scale-to replicas")
	fs.IntVar(&f.scaleTo, "scale-to", 0, "replicas after the scale event")
	fs.IntVar(&f.updateAt, "update-at", -1, "at this step, update the template a second time (v3)")
	fs.StringVar(&f.svg, "svg", "", "also write the timeline as a standalone SVG chart to this file")
	if err := parseFlags(fs, args, stdout, rolloutSynopsis); err != nil {
		return err
	}
	d, err := f.deployment()
	if err != nil {
		return err
	}
	w := newRolloutWorld(d, f)
	if f.svg != "" {
		w.tl = &timeline{title: fmt.Sprintf("Deployment rollout: %d replicas, %s", d.Replicas(), d.Spec.Strategy.Type),
			series: []series{{"old available", "#4a7fb5"}, {"old not available", "#a9c4e0"}, {"new not available", "#f2b880"}, {"new available", "#e07b20"}}}
	}
	if err := w.run(stdout); err != nil {
		return err
	}
	return w.tl.writeFile(f.svg)
}

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
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "web", Generation: 1},
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

// rolloutWorld is the cluster the simulation drives: one Deployment, its
// ReplicaSets and their pods.
type rolloutWorld struct {
	f       rolloutFlags
	d       *rollout.Deployment
	rss     []*replicaset.ReplicaSet
	pods    []*podstatus.Pod
	readyAt map[string]int // pod name → step at which the kubelet marks it ready
	now     time.Time
	step    int
	made    int
	prev    []*replicaset.ReplicaSet // the ReplicaSets before the last rollout sync's writes
	tl      *timeline                // the SVG chart, when --svg is given
}

func newRolloutWorld(d *rollout.Deployment, f rolloutFlags) *rolloutWorld {
	w := &rolloutWorld{f: f, d: d, readyAt: map[string]int{}, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d.TemplateHash = "v1"
	// Start from a converged v1: every pod ready long ago.
	for i := 0; i < 3; i++ {
		w.sync(true)
	}
	w.d.Generation++
	w.setVersion("v2")
	return w
}

func (w *rolloutWorld) setVersion(v string) {
	w.d.TemplateHash = v
	w.d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:" + v}}
}

// sync runs the kubelet, the ReplicaSet controller and the Deployment
// controller once each, then advances the clock.
func (w *rolloutWorld) sync(instant bool) (rollout.Plan, error) {
	for _, p := range w.pods {
		if !podstatus.IsReady(p) && (instant || w.step >= w.readyAt[p.Name]) {
			p.Status.Phase = podstatus.Running
			p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: w.now}}
			if instant {
				p.Status.Conditions[0].LastTransitionTime = w.now.Add(-time.Hour)
			}
		}
	}
	for i, rs := range w.rss {
		plan, err := replicaset.Step(rs, w.pods, w.pods, w.now, replicaset.Options{})
		if err != nil {
			return rollout.Plan{}, err
		}
		w.applyReplicaSet(rs, plan)
		c := *rs
		c.Status = plan.Status
		w.rss[i] = &c
	}
	plan, err := rollout.Step(w.d, w.rss, w.pods, w.now, rollout.Options{})
	if err != nil {
		return plan, err
	}
	w.prev = w.rss
	w.rss = plan.Apply(w.rss, w.now)
	w.d.Status = plan.Status
	if plan.Annotations != nil {
		w.d.Annotations = plan.Annotations
	}
	w.now = w.now.Add(w.f.interval)
	return plan, nil
}

// applyReplicaSet carries out a ReplicaSet plan: deleted pods vanish at once
// and created pods start Pending, to become ready readyAfter steps later.
func (w *rolloutWorld) applyReplicaSet(rs *replicaset.ReplicaSet, plan replicaset.Plan) {
	gone := map[string]bool{}
	for _, p := range plan.Delete {
		gone[p.Name] = true
	}
	kept := w.pods[:0:0]
	for _, p := range w.pods {
		if !gone[p.Name] {
			kept = append(kept, p)
		}
	}
	controller := true
	for i := int32(0); i < plan.Create.Count; i++ {
		w.made++
		name := fmt.Sprintf("%s-%d", rs.Name, w.made)
		kept = append(kept, &podstatus.Pod{
			ObjectMeta: meta.ObjectMeta{
				Name: name, Namespace: rs.Namespace, UID: name, CreationTimestamp: w.now,
				Labels:          rs.Spec.Template.Labels,
				OwnerReferences: []meta.OwnerReference{{Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &controller}},
			},
			Spec:   podstatus.Spec{NodeName: fmt.Sprintf("node-%d", w.made%3)},
			Status: podstatus.Status{Phase: podstatus.Pending},
		})
		w.readyAt[name] = w.step + w.f.readyAfter
	}
	w.pods = kept
}

func (w *rolloutWorld) run(out io.Writer) error {
	fmt.Fprintf(out, "Deployment web: %d replicas, strategy %s", w.d.Replicas(), w.d.Spec.Strategy.Type)
	if ru := w.d.Spec.Strategy.RollingUpdate; ru != nil {
		surge := w.d.MaxSurge()
		fmt.Fprintf(out, ", maxSurge %s (%d), maxUnavailable %s (%d)", ru.MaxSurge, surge, ru.MaxUnavailable, w.d.MaxUnavailable())
	}
	fmt.Fprintf(out, ", minReadySeconds %d, pods ready %d sync(s) after creation, a sync every %v\n", w.d.Spec.MinReadySeconds, w.f.readyAfter, w.f.interval)
	fmt.Fprintf(out, "update v1 → v2 at step 0")
	if w.f.scaleAt >= 0 {
		fmt.Fprintf(out, "; scale to %d at step %d", w.f.scaleTo, w.f.scaleAt)
	}
	if w.f.updateAt >= 0 {
		fmt.Fprintf(out, "; update v2 → v3 at step %d", w.f.updateAt)
	}
	fmt.Fprintf(out, "\nchart: N new available, n new not available, O old available, o old not available\n\n")
	fmt.Fprintf(out, "%5s %7s %5s %5s %6s %6s  %-28s %s\n", "step", "time", "old", "new", "pods", "avail", "actions", "chart")
	quiet := 0
	for w.step = 0; w.step < w.f.steps; w.step++ {
		if w.step == w.f.scaleAt {
			n := int32(w.f.scaleTo)
			w.d.Spec.Replicas = &n
			w.d.Generation++
		}
		if w.step == w.f.updateAt {
			w.setVersion("v3")
			w.d.Generation++
		}
		elapsed := time.Duration(w.step) * w.f.interval
		plan, err := w.sync(false)
		if err != nil {
			return fmt.Errorf("simulate rollout: step %d: %v", w.step, err)
		}
		w.printRow(out, elapsed, plan)
		if len(plan.Update)+int(plan.Create.Count)+len(plan.Scale)+len(plan.Delete) == 0 && w.converged() {
			quiet++
			if quiet == 2 {
				fmt.Fprintf(out, "\nrollout complete after %d steps (%v): %s\n", w.step+1, elapsed, w.statusLine())
				return nil
			}
		} else {
			quiet = 0
		}
	}
	fmt.Fprintf(out, "\nstopped after %d steps: %s\n", w.f.steps, w.statusLine())
	return nil
}

func (w *rolloutWorld) converged() bool {
	st := w.d.Status
	r := w.d.Replicas()
	return st.UpdatedReplicas == r && st.Replicas == r && st.AvailableReplicas == r
}

func (w *rolloutWorld) statusLine() string {
	st := w.d.Status
	msg := fmt.Sprintf("replicas %d, updated %d, ready %d, available %d", st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas)
	for _, c := range st.Conditions {
		msg += fmt.Sprintf("; %s=%s (%s)", c.Type, c.Status, c.Reason)
	}
	return msg
}

func (w *rolloutWorld) printRow(out io.Writer, elapsed time.Duration, plan rollout.Plan) {
	newName := rollout.ReplicaSetName(w.d.Name, w.d.TemplateHash)
	var oldSize, newSize int32
	for _, rs := range w.rss {
		if rs.Name == newName {
			newSize += rs.Replicas()
		} else {
			oldSize += rs.Replicas()
		}
	}
	var chart strings.Builder
	avail := 0
	for _, isNew := range []bool{false, true} {
		for _, p := range w.pods {
			if strings.HasPrefix(p.Name, newName+"-") != isNew {
				continue
			}
			ok := podstatus.IsAvailable(p, w.d.Spec.MinReadySeconds, w.now.Add(-w.f.interval))
			if ok {
				avail++
			}
			chart.WriteByte("oOnN"[btoi(isNew)*2+btoi(ok)])
		}
	}
	var acts []string
	act := func(verb, name string, n int32) {
		acts = append(acts, fmt.Sprintf("%s %s→%d", verb, strings.TrimPrefix(name, w.d.Name+"-"), n))
	}
	for _, u := range plan.Update {
		act("Update", u.Name, u.Replicas)
	}
	for _, rs := range plan.Create.Objects {
		act("Create", rs.Name, rs.Replicas())
	}
	for _, r := range plan.Scale {
		act("Scale", r.Name, r.Replicas)
	}
	for _, d := range plan.Delete {
		act("Delete", d.Name, w.sizeBefore(d.Name))
	}
	fmt.Fprintf(out, "%5d %7v %5d %5d %6d %6d  %-28s %s\n", w.step, elapsed, oldSize, newSize, len(w.pods), avail, strings.Join(acts, ", "), chart.String())
	c := chart.String()
	w.tl.add(elapsed.String(), strings.Join(acts, ", "), strings.Count(c, "O"), strings.Count(c, "o"), strings.Count(c, "n"), strings.Count(c, "N"))
}

// sizeBefore returns the size of the ReplicaSet named name before the
// step's writes were applied (deletions remove only empty ReplicaSets).
func (w *rolloutWorld) sizeBefore(name string) int32 {
	for _, rs := range w.prev {
		if rs.Name == name {
			return rs.Replicas()
		}
	}
	return 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
