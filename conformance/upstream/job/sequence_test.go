package job_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	jobutil "k8s.io/kubernetes/pkg/controller/job/util"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
)

// This file drives one Job through several syncs of one upstream v1.36.3
// controller, and of Step carrying its memory (Plan.Backoff) from each sync
// into the next, with the world changed between syncs as the API server,
// the kubelet and the clock would change it.

// seqDivisor: TestJobStepSequenceDifferential runs rapid.checks divided
// by this many sequences (each of up to nine syncs): 2,500 in the default
// run (-rapid.checks 10000, internal/difftest/main.go), about 8s on a loaded 2-core
// machine; a long run scales with the flag, -rapid.checks=400000 runs
// 100,000 sequences.
const seqDivisor = 4

// scaleChecks sets rapid.checks to its value divided by div for the rest
// of the test.
func scaleChecks(t *testing.T, div int) {
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	n, err := strconv.Atoi(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := flag.Set("rapid.checks", strconv.Itoa(max(1, n/div))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}

// seqStats counts what the sequences exercised.
type seqStats struct {
	sequences, syncs, carried, changed, restarts, finished, ttl atomic.Int64
	// boundary draws of now, by kind: exactly at the instant, 1ns before
	// or after it
	at, near map[string]*atomic.Int64
	// syncs whose Plan requeues, by reason
	requeues map[job.Reason]*atomic.Int64
}

func newSeqStats() *seqStats {
	s := &seqStats{at: map[string]*atomic.Int64{}, near: map[string]*atomic.Int64{}, requeues: map[job.Reason]*atomic.Int64{}}
	for _, r := range []job.Reason{job.ReasonActiveDeadline, job.ReasonPodFailureBackoff, job.ReasonIndexFailureBackoff} {
		s.requeues[r] = new(atomic.Int64)
	}
	for _, k := range []string{"deadline", "backoff", "requeue", "ttl"} {
		s.at[k], s.near[k] = new(atomic.Int64), new(atomic.Int64)
	}
	return s
}

func (s *seqStats) String() string {
	b := fmt.Sprintf("%d sequences, %d syncs compared; %d syncs given a backoff record with failures from the previous one, %d changed it; %d controller restarts; %d jobs finished, %d TTL instants",
		s.sequences.Load(), s.syncs.Load(), s.carried.Load(), s.changed.Load(), s.restarts.Load(), s.finished.Load(), s.ttl.Load())
	for _, k := range slices.Sorted(maps.Keys(s.at)) {
		b += fmt.Sprintf("; now at a %s instant %d, ±1ns %d", k, s.at[k].Load(), s.near[k].Load())
	}
	for _, r := range slices.Sorted(maps.Keys(s.requeues)) {
		b += fmt.Sprintf("; %s requeues %d", r, s.requeues[r].Load())
	}
	return b
}

// TestJobStepSequenceDifferential runs a job through 2-8 syncs (one more
// when it finishes) of the same upstream controller instance, and Step with
// the previous Plan's Backoff as its backoff record. The job starts fresh
// (no status, no pods) or mid-life as TestJobStepDifferential draws it,
// with a drawn backoff record given to both. Each sync compares every key
// of the Plan (compareSync). Between syncs the world changes:
//
//   - the API server applies the sync's writes: the status written (stored
//     at the API's precision, whole seconds), finalizers removed, pods
//     deleted (a deletion timestamp, or gone at once when nothing holds them
//     back), pods created from upstream's templates;
//   - the kubelet moves pods on, at whole seconds between the last sync (or
//     the pod's creation) and the new now: scheduled and running, ready,
//     succeeded or failed with a drawn exit code and conditions (the
//     DisruptionTarget condition the Ignore rule matches), terminating pods
//     killed, pods without finalizers removed;
//   - the user sometimes suspends or resumes the job, and the controller
//     sometimes restarts (upstream anew, Step from the zero record);
//   - the clock moves to a drawn instant, often exactly at, or 1ns either
//     side of, an instant a decision turns on: startTime +
//     activeDeadlineSeconds, a failed pod's finish time plus each backoff
//     delay upstream computes (DefaultJobPodFailureBackOff doubling up to
//     MaxJobPodFailureBackOff, upstream's own values), a requeue the sync
//     asked for; finish times are drawn equal to, or a second either side
//     of, other pods' (the backoff record's reset at a success).
//
// Upstream's informer sees every change through its own event handlers, so
// its expectations are met before each sync, as Step assumes; the test
// checks they are. A finished job gets the TTL-after-finished decision
// compared at its expiry and 1ns either side. A sequence ends when the job
// finishes, or when upstream writes a status the API server would refuse
// (a counter wrapped past int32, from a drawn state at the edge).
func TestJobStepSequenceDifferential(t *testing.T) {
	scaleChecks(t, seqDivisor)
	stats := newSeqStats()
	defer func() { t.Log(stats) }()
	rapid.Check(t, func(t *rapid.T) {
		s := newSeq(t, stats)
		defer func() { s.ctl.close() }() // the controller of the last restart
		stats.sequences.Add(1)
		for n := rapid.IntRange(2, 8).Draw(t, "syncs"); n > 0; n-- {
			if !s.step(t) {
				return
			}
		}
	})
}

// seq is one job's world across syncs: what the API server holds, the
// upstream controller and Step's memory.
type seq struct {
	ctl   *harnessCtl
	job   *batch.Job
	pods  map[string]*v1.Pod
	now   time.Time
	prev  job.BackoffRecord // Step's memory: the last Plan's Backoff
	made  int               // pods created
	born  time.Time         // the last creation timestamp given out
	stats *seqStats
}

// stored returns x as the API server stores it (a JSON round trip: times
// to the second).
func stored[T any](x *T) *T {
	b, err := json.Marshal(x)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}

// newSeq draws the starting world: a fresh job without pods, or a job
// mid-life (genStepState), and the controller's backoff record.
func newSeq(t *rapid.T, stats *seqStats) *seq {
	now := time.Date(2024, 1, 1, 0, 10, 0, 0, time.UTC).Add(rapid.SampledFrom([]time.Duration{0, 0, 1, 500 * time.Millisecond, time.Second - 1}).Draw(t, "nowFrac"))
	j, pods := genStepState(t, now)
	if rapid.Bool().Draw(t, "fresh") {
		j.Status, pods = job.Status{}, nil
		// Mostly a job that runs pods.
		if *j.Spec.Parallelism == 0 && rapid.IntRange(0, 3).Draw(t, "idle") > 0 {
			j.Spec.Parallelism = ptr(int32(rapid.IntRange(1, 4).Draw(t, "runParallelism")))
		}
		if c := j.Spec.Completions; c != nil && *c == 0 && rapid.IntRange(0, 3).Draw(t, "none") > 0 {
			j.Spec.Completions = ptr(int32(rapid.IntRange(1, 6).Draw(t, "runCompletions")))
		}
	}
	// More of the deadlines and per-index backoff the syncs turn on.
	if j.Spec.ActiveDeadlineSeconds == nil && rapid.IntRange(0, 2).Draw(t, "seqAds") == 0 {
		j.Spec.ActiveDeadlineSeconds = ptr(int64(rapid.IntRange(1, 120).Draw(t, "seqAdsS")))
	}
	if j.Spec.CompletionMode != nil && j.Spec.BackoffLimitPerIndex == nil && rapid.Bool().Draw(t, "seqPerIndex") {
		j.Spec.BackoffLimitPerIndex = ptr(int32(rapid.IntRange(1, 3).Draw(t, "seqBli")))
	}
	if rapid.IntRange(0, 2).Draw(t, "ttl") == 0 {
		j.Spec.TTLSecondsAfterFinished = ptr(int32(rapid.IntRange(0, 100).Draw(t, "ttlS")))
	}
	prev := genBackoff(t, now)
	if err := job.Validate(j, pods); err != nil {
		t.Skip("invalid", err)
	}
	uj := v1Job(j)
	uj.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job": j.Name}}
	uj.Spec.Template.Labels = map[string]string{"job": j.Name}
	for i := range rapid.IntRange(0, 2).Draw(t, "containers") {
		uj.Spec.Template.Spec.Containers = append(uj.Spec.Template.Spec.Containers, v1.Container{Name: "c" + strconv.Itoa(i), Image: "img"})
	}
	s := &seq{job: stored(uj), pods: map[string]*v1.Pod{}, now: now, prev: prev, stats: stats}
	s.ctl = newHarnessCtl(t, s.job, now)
	if prev.FailuresAfterLastSuccess > 0 || rapid.Bool().Draw(t, "storeZero") {
		s.ctl.setBackoff(t, &backoffRecord{failuresAfterLastSuccess: prev.FailuresAfterLastSuccess, lastFailureTime: prev.LastFailureTime})
	}
	for _, p := range pods {
		s.add(t, stored(v1StepPod(p, uj)))
	}
	return s
}

// add creates a pod in the world.
func (s *seq) add(t *rapid.T, p *v1.Pod) {
	s.pods[p.Name] = p
	s.ctl.podEvent(t, nil, p)
}

// change applies f to a copy of the named pod, stores it as the API server
// would and tells the informer.
func (s *seq) change(t *rapid.T, name string, f func(*v1.Pod)) {
	old := s.pods[name]
	cur := old.DeepCopy()
	f(cur)
	cur = stored(cur)
	s.pods[name] = cur
	s.ctl.podEvent(t, old, cur)
}

// remove deletes the named pod from the world.
func (s *seq) remove(t *rapid.T, name string) {
	old := s.pods[name]
	delete(s.pods, name)
	s.ctl.podEvent(t, old, nil)
}

func (s *seq) names() []string { return slices.Sorted(maps.Keys(s.pods)) }

// sync runs one upstream sync and one Step on the world at s.now and
// compares them; it returns upstream's sync and Step's plan, ok false when
// there is nothing more to compare (upstream panicked).
func (s *seq) sync(t *rapid.T) (syncResult, job.Plan, bool) {
	if !s.ctl.settled() {
		t.Fatalf("harness: upstream's expectations are not met before the sync")
	}
	var up []*v1.Pod
	for _, n := range s.names() {
		up = append(up, s.pods[n])
	}
	kj, err := k8s.FromJob(s.job)
	if err != nil {
		t.Fatal(err)
	}
	kp, err := k8s.FromPods(up)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := job.Step(kj, kp, s.prev, s.now, job.Options{})
	if s.prev.FailuresAfterLastSuccess > 0 {
		s.stats.carried.Add(1)
	}
	res, panicked := recoverSync(func() syncResult { return s.ctl.sync(t, s.job, s.now) })
	if !compareSync(t, s.job, up, kj, kp, plan, err, res, panicked) {
		return res, plan, false
	}
	s.stats.syncs.Add(1)
	for _, r := range plan.Requeue {
		if n := s.stats.requeues[r.Reason]; n != nil {
			n.Add(1)
		}
	}
	return res, plan, true
}

// step runs one sync and, when the job goes on, changes the world for the
// next one. It returns false when the sequence is over.
func (s *seq) step(t *rapid.T) bool {
	res, plan, ok := s.sync(t)
	if !ok || plan.Outcome != job.ReasonSynced {
		return false
	}
	if !sameRecord(s.prev, plan.Memory) {
		s.stats.changed.Add(1)
	}
	s.prev = plan.Memory
	if !s.apply(t, res) {
		return false
	}
	if jobutil.IsJobFinished(s.job) {
		s.finished(t)
		return false
	}
	s.user(t)
	from := s.now
	s.advance(t, res)
	s.kubelet(t, from)
	return true
}

func sameRecord(a, b job.BackoffRecord) bool {
	return a.FailuresAfterLastSuccess == b.FailuresAfterLastSuccess &&
		(a.LastFailureTime == nil) == (b.LastFailureTime == nil) && (a.LastFailureTime == nil || a.LastFailureTime.Equal(*b.LastFailureTime))
}

// apply makes the sync's writes as the API server does: the last status
// written, the finalizer patches, the deletions (terminal and unscheduled
// pods go at once, others get a grace period; a pod still holding a
// finalizer stays, marked for deletion) and the creations, each pod named
// from its generateName with a creation time of its own. It returns false
// when the API server would refuse the status (a counter wrapped past
// int32): the sequence ends there.
func (s *seq) apply(t *rapid.T, res syncResult) bool {
	if st := res.status; st.Failed < 0 || st.Succeeded < 0 || st.Active < 0 {
		return false
	}
	if res.updated {
		j := s.job.DeepCopy()
		j.Status = *res.status.DeepCopy()
		s.job = stored(j)
	}
	// Upstream issues its pod calls from goroutines, in no defined order;
	// take them by name, so that the resourceVersions given out (and a
	// sequence) replay from rapid's draws alone.
	patched := slices.SortedFunc(slices.Values(res.patched), func(a, b call) int { return strings.Compare(a.name, b.name) })
	for _, c := range patched {
		if s.pods[c.name] == nil {
			t.Fatalf("upstream patches %s, which is not there", c.name)
		}
		s.change(t, c.name, func(p *v1.Pod) {
			p.Finalizers = slices.DeleteFunc(p.Finalizers, func(f string) bool { return f == batch.JobTrackingFinalizer })
		})
	}
	// The deletions likewise (rapid draws along the way).
	deleted := slices.SortedFunc(slices.Values(res.deleted), func(a, b call) int { return strings.Compare(a.name, b.name) })
	for _, c := range deleted {
		p := s.pods[c.name]
		if p == nil {
			t.Fatalf("upstream deletes %s, which is not there", c.name)
		}
		if p.DeletionTimestamp != nil {
			continue
		}
		grace := int64(0)
		if p.Spec.NodeName != "" && p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed {
			grace = rapid.SampledFrom([]int64{30, 30, 1, 0}).Draw(t, "grace")
		}
		if grace == 0 && len(p.Finalizers) == 0 {
			s.remove(t, c.name)
			continue
		}
		s.change(t, c.name, func(p *v1.Pod) {
			ts := metav1.NewTime(s.now.Add(time.Duration(grace) * time.Second))
			p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &ts, &grace
		})
	}
	creations := slices.SortedStableFunc(slices.Values(res.creations), func(a, b *v1.PodTemplateSpec) int {
		return strings.Compare(a.Annotations[batch.JobCompletionIndexAnnotation], b.Annotations[batch.JobCompletionIndexAnnotation])
	})
	for _, tpl := range creations {
		s.made++
		name := tpl.GenerateName
		if name == "" {
			name = s.job.Name + "-"
		}
		p := &v1.Pod{ObjectMeta: *tpl.ObjectMeta.DeepCopy(), Spec: *tpl.Spec.DeepCopy()}
		p.Name, p.Namespace, p.UID = name+"x"+strconv.Itoa(s.made), s.job.Namespace, types.UID("x"+strconv.Itoa(s.made))
		p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(s.job, batch.SchemeGroupVersion.WithKind("Job"))}
		// Distinct creation times: upstream ranks equal pods in its
		// informer's order, which is not reproducible.
		s.born = s.born.Add(time.Second)
		if s.born.Before(s.now) {
			s.born = s.now.Truncate(time.Second)
		}
		p.CreationTimestamp = metav1.NewTime(s.born)
		p.Status.Phase = v1.PodPending
		s.add(t, stored(p))
	}
	return true
}

// finishTime draws when a pod finishes, between the last sync (or the
// pod's creation) and now: a drawn second, or equal to, or a second either
// side of, another pod's finish time.
func (s *seq) finishTime(t *rapid.T, p *v1.Pod, from time.Time) time.Time {
	lo := from.Truncate(time.Second)
	if c := p.CreationTimestamp.Time; c.After(lo) {
		lo = c
	}
	if lo.After(s.now) {
		return lo
	}
	var others []time.Time
	for _, n := range s.names() {
		if q := s.pods[n]; q.Status.Phase == v1.PodSucceeded || q.Status.Phase == v1.PodFailed {
			for _, off := range []time.Duration{-time.Second, 0, time.Second} {
				if at := finishedTime(q).Add(off); !at.Before(lo) && !at.After(s.now) {
					others = append(others, at)
				}
			}
		}
	}
	if len(others) > 0 && rapid.IntRange(0, 2).Draw(t, "finishNear") == 0 {
		return rapid.SampledFrom(others).Draw(t, "finishOther")
	}
	return lo.Add(time.Duration(rapid.Int64Range(0, int64(s.now.Sub(lo)/time.Second)).Draw(t, "finishIn")) * time.Second)
}

// finish makes the kubelet end a pod in phase with exit code; the
// containers' statuses (sometimes none: the pod failed before they ran),
// a Ready=False condition and, sometimes for a failure, DisruptionTarget.
func (s *seq) finish(t *rapid.T, name string, from time.Time, phase v1.PodPhase, exit int32) {
	at := metav1.NewTime(s.finishTime(t, s.pods[name], from))
	statuses := rapid.IntRange(0, 5).Draw(t, "statuses") > 0
	disrupted := phase == v1.PodFailed && rapid.IntRange(0, 3).Draw(t, "disrupted") == 0
	ready := rapid.IntRange(0, 3).Draw(t, "readyFalse") > 0
	s.change(t, name, func(p *v1.Pod) {
		p.Status.Phase = phase
		p.Status.ContainerStatuses = nil
		if statuses {
			names := []string{"main"}
			if len(p.Spec.Containers) > 0 {
				names = nil
				for _, c := range p.Spec.Containers {
					names = append(names, c.Name)
				}
			}
			for _, n := range names {
				p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, v1.ContainerStatus{Name: n,
					State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{ExitCode: exit, FinishedAt: at}}})
			}
		}
		p.Status.Conditions = slices.DeleteFunc(p.Status.Conditions, func(c v1.PodCondition) bool { return c.Type == v1.PodReady })
		if ready {
			p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionFalse, LastTransitionTime: at})
		}
		if disrupted {
			p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: v1.ConditionTrue, Reason: "DeletionByTaintManager", LastTransitionTime: at})
		}
	})
}

// kubelet moves each pod on, or leaves it, between from and now.
func (s *seq) kubelet(t *rapid.T, from time.Time) {
	exit := func() int32 { return int32(rapid.SampledFrom([]int{1, 1, 2, 3, 137}).Draw(t, "exit")) }
	for _, n := range s.names() {
		p := s.pods[n]
		terminal := p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed
		switch {
		case terminal:
			if len(p.Finalizers) == 0 && (p.DeletionTimestamp != nil || rapid.IntRange(0, 3).Draw(t, "podGC") == 0) {
				s.remove(t, n)
			}
		case p.DeletionTimestamp != nil:
			switch rapid.IntRange(0, 3).Draw(t, "kill") {
			case 0:
				continue
			case 3:
				s.finish(t, n, from, v1.PodSucceeded, 0)
			default:
				s.finish(t, n, from, v1.PodFailed, int32(rapid.SampledFrom([]int{137, 143}).Draw(t, "killExit")))
			}
			if len(s.pods[n].Finalizers) == 0 && rapid.Bool().Draw(t, "gone") {
				s.remove(t, n)
			}
		default:
			switch rapid.IntRange(0, 7).Draw(t, "move") {
			case 0, 1:
			case 2:
				ready := rapid.Bool().Draw(t, "ready")
				at := metav1.NewTime(s.finishTime(t, p, from))
				s.change(t, n, func(p *v1.Pod) {
					p.Spec.NodeName = "n0"
					p.Status.Phase = v1.PodRunning
					p.Status.Conditions = slices.DeleteFunc(p.Status.Conditions, func(c v1.PodCondition) bool { return c.Type == v1.PodReady })
					st := v1.ConditionFalse
					if ready {
						st = v1.ConditionTrue
					}
					p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: st, LastTransitionTime: at})
				})
			case 3, 4:
				s.finish(t, n, from, v1.PodSucceeded, 0)
			default:
				s.finish(t, n, from, v1.PodFailed, exit())
			}
		}
	}
}

// user sometimes suspends or resumes the job, and sometimes the controller
// restarts: a new upstream controller whose informer lists every pod, and
// Step from the zero record.
func (s *seq) user(t *rapid.T) {
	if rapid.IntRange(0, 9).Draw(t, "toggleSuspend") == 0 {
		j := s.job.DeepCopy()
		j.Spec.Suspend = ptr(j.Spec.Suspend == nil || !*j.Spec.Suspend)
		s.job = j
	}
	if rapid.IntRange(0, 49).Draw(t, "restart") == 0 {
		s.ctl.close()
		s.ctl = newHarnessCtl(t, s.job, s.now)
		for _, n := range s.names() {
			s.ctl.podEvent(t, nil, s.pods[n])
		}
		s.prev = job.BackoffRecord{}
		s.stats.restarts.Add(1)
	}
}

// advance moves the clock on: to a drawn instant, or to one at which a
// decision turns (see TestJobStepSequenceDifferential), or 1ns either side
// of it; never back.
func (s *seq) advance(t *rapid.T, res syncResult) {
	type instant struct {
		at   time.Time
		kind string
	}
	var cands []instant
	for _, q := range res.queued {
		cands = append(cands, instant{s.now.Add(q.after), "requeue"})
	}
	if ads, st := s.job.Spec.ActiveDeadlineSeconds, s.job.Status.StartTime; ads != nil && st != nil && *ads < 1e6 {
		cands = append(cands, instant{st.Add(time.Duration(*ads) * time.Second), "deadline"})
	}
	var failed []time.Time
	for _, n := range s.names() {
		if p := s.pods[n]; p.Status.Phase == v1.PodFailed || p.DeletionTimestamp != nil {
			failed = append(failed, finishedTime(p))
		}
	}
	if b := res.backoff; b != nil && b.lastFailureTime != nil {
		failed = append(failed, *b.lastFailureTime)
	}
	for _, f := range failed {
		for n := int32(1); n <= 8; n++ {
			d := remaining(clocktesting.NewFakeClock(f), jobcontroller.DefaultJobPodFailureBackOff, jobcontroller.MaxJobPodFailureBackOff, n, &f)
			cands = append(cands, instant{f.Add(d), "backoff"})
		}
	}
	// Not back, and not centuries on (a pod finished in 2400): the fake
	// clock steps its tickers through every interval up to the new time.
	// Not back, and not centuries on (a pod finished in 2400): the fake
	// clock steps its tickers through every interval up to the new time.
	cands = slices.DeleteFunc(cands, func(c instant) bool { return c.at.Before(s.now) || c.at.After(s.now.Add(24*time.Hour)) })
	kinds := map[string][]time.Time{}
	for _, c := range cands {
		kinds[c.kind] = append(kinds[c.kind], c.at)
	}
	if len(kinds) > 0 && rapid.IntRange(0, 3).Draw(t, "boundary") > 0 {
		kind := rapid.SampledFrom(slices.Sorted(maps.Keys(kinds))).Draw(t, "instantKind")
		c := rapid.SampledFrom(kinds[kind]).Draw(t, "instant")
		off := time.Duration(rapid.IntRange(-1, 1).Draw(t, "instantOff"))
		if at := c.Add(off); !at.Before(s.now) {
			s.now = at
			if off == 0 {
				s.stats.at[kind].Add(1)
			} else {
				s.stats.near[kind].Add(1)
			}
			return
		}
	}
	s.now = s.now.Add(time.Duration(rapid.IntRange(0, 700).Draw(t, "advance"))*time.Second +
		rapid.SampledFrom([]time.Duration{0, 1, 500 * time.Millisecond, time.Second - 1}).Draw(t, "advanceFrac"))
}

// finished compares the TTL-after-finished decision for the finished job at
// its expiry and 1ns either side, then runs one more sync later on, where
// both must find the job already finished (and upstream drop its backoff
// record).
func (s *seq) finished(t *rapid.T) {
	s.stats.finished.Add(1)
	if s.job.Spec.TTLSecondsAfterFinished != nil {
		_, expire, err := timeLeft(logr.Discard(), s.job, &s.now)
		if err != nil {
			t.Fatalf("upstream timeLeft: %v", err)
		}
		kj, err := k8s.FromJob(s.job)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []time.Duration{-1, 0, 1} {
			at := expire.Add(off)
			got, err := job.TimeLeft(kj, at)
			left, exp, uerr := timeLeft(logr.Discard(), s.job, &at)
			if err != nil || uerr != nil {
				t.Fatalf("TimeLeft at %v: %v; upstream %v", at, err, uerr)
			}
			if got.Remaining != *left || !got.ExpireAt.Equal(*exp) || got.Expired != (*left <= 0) {
				t.Fatalf("TimeLeft at %v = %+v; upstream %v %v", at, got, *left, *exp)
			}
			s.stats.ttl.Add(1)
			if off == 0 {
				s.stats.at["ttl"].Add(1)
			} else {
				s.stats.near["ttl"].Add(1)
			}
		}
	}
	s.now = s.now.Add(time.Duration(rapid.IntRange(0, 100).Draw(t, "afterFinish")) * time.Second)
	if _, plan, ok := s.sync(t); ok && plan.Outcome != job.ReasonAlreadyFinished {
		t.Fatalf("finished job synced again: %s", plan.Outcome)
	}
}
