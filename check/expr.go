package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Expression parses a property written as an expression over the cluster
// state:
//
//	available(deploy/web) >= 2
//	pods(deploy/web) <= replicas(deploy/web) + 1
//	terminating(job/batch) == 0 || pods(job/batch) < 2
//	eventually updated(sts/db) == 3 && ready(sts/db) == 3
//
// A plain expression is a safety property: it must hold in every state.
// "eventually EXPR" is a liveness property: from every state, once the
// environment stops failing, the world must settle where EXPR holds (see
// [Property]).
//
// The grammar: integers; || && ! (boolean); == != < <= > >= (integers);
// + - (integers); parentheses; and these functions of one object, written
// kind/name (namespace "default") or kind/namespace/name, kind one of
// deploy (deployment), rs (replicaset), sts (statefulset), ds (daemonset),
// job, cronjob (cj), pdb:
//
//	replicas(w)     spec.replicas (a Job's parallelism, a DaemonSet's desiredNumberScheduled)
//	pods(w)         its pods neither finished nor being deleted
//	terminating(w)  its pods being deleted, not finished
//	ready(w)        its pods neither finished nor being deleted, and Ready
//	available(w)    those Ready for the workload's minReadySeconds
//	updated(w)      its pods neither finished nor being deleted of the current template
//	succeeded(w), failed(w)   its pods in phase Succeeded, Failed
//	running(cronjob/x)        its Jobs without a Complete or Failed condition
//	healthy(pdb/x), desired(pdb/x), allowed(pdb/x)   a budget's healthy pods,
//	                status.desiredHealthy, status.disruptionsAllowed
//	nodes()         the nodes whose Ready condition is True
//	draining()      the nodes being drained
//
// A workload's pods are those it controls (a Deployment's, through its
// ReplicaSets); an object that does not exist counts 0. The property is
// named by its text. Errors are *field.Error on path "property" wrapping
// field.ErrInvalid.
func Expression(src string) (Property, error) {
	text := strings.TrimSpace(src)
	live := false
	if rest, ok := strings.CutPrefix(text, "eventually "); ok {
		live, text = true, strings.TrimSpace(rest)
	}
	p := &parser{src: text}
	p.next()
	n, err := p.expr()
	if err == nil && p.tok.kind != tEOF {
		err = p.errorf("unexpected %q", p.tok.text)
	}
	if err == nil && !n.boolean() {
		err = p.errorf("not a condition: compare it (for example %s >= 1)", text)
	}
	if err != nil {
		return Property{}, field.New("property", src, err)
	}
	name := strings.TrimSpace(src)
	if live {
		return Property{Name: name, Doc: "user property: once the environment stops failing, the world settles where " + text,
			Wants: func(s Snapshot) (bool, bool) { return true, n.eval(s) != 0 },
			Unmet: func(s Snapshot) string {
				var vals []string
				n.values(s, &vals)
				return strings.Join(vals, ", ")
			}}, nil
	}
	return Property{Name: name, Doc: "user property: " + text + " in every state",
		Holds: func(s Snapshot) string {
			if n.eval(s) != 0 {
				return ""
			}
			var vals []string
			n.values(s, &vals)
			return text + " is false: " + strings.Join(vals, ", ")
		}}, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tInt
	tIdent
	tOp
)

type token struct {
	kind tokKind
	text string
	pos  int
}

type parser struct {
	src string
	pos int
	tok token
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: at %d: %s", field.ErrInvalid, p.tok.pos, fmt.Sprintf(format, args...))
}

func (p *parser) next() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{tEOF, "", start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		p.tok = token{tInt, p.src[start:p.pos], start}
	case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		for p.pos < len(p.src) && (isIdent(p.src[p.pos]) || p.src[p.pos] == '/' || p.src[p.pos] == '.' || (p.src[p.pos] >= '0' && p.src[p.pos] <= '9')) {
			p.pos++
		}
		p.tok = token{tIdent, p.src[start:p.pos], start}
	default:
		for _, op := range []string{"==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "(", ")"} {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = token{tOp, op, start}
				return
			}
		}
		p.pos++
		p.tok = token{tOp, string(c), start}
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// expr is an expression: eval gives an integer (booleans are 0 and 1).
type expr interface {
	eval(s Snapshot) int64
	boolean() bool
	values(s Snapshot, out *[]string)
}

type num int64

func (n num) eval(Snapshot) int64        { return int64(n) }
func (n num) boolean() bool              { return false }
func (n num) values(Snapshot, *[]string) {}

type binary struct {
	op   string
	l, r expr
}

func (b *binary) boolean() bool { return b.op != "+" && b.op != "-" }

func (b *binary) eval(s Snapshot) int64 {
	switch b.op {
	case "||":
		if b.l.eval(s) != 0 {
			return 1
		}
		return b2i(b.r.eval(s) != 0)
	case "&&":
		if b.l.eval(s) == 0 {
			return 0
		}
		return b2i(b.r.eval(s) != 0)
	}
	x, y := b.l.eval(s), b.r.eval(s)
	switch b.op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "==":
		return b2i(x == y)
	case "!=":
		return b2i(x != y)
	case "<":
		return b2i(x < y)
	case "<=":
		return b2i(x <= y)
	case ">":
		return b2i(x > y)
	}
	return b2i(x >= y)
}

func (b *binary) values(s Snapshot, out *[]string) { b.l.values(s, out); b.r.values(s, out) }

type not struct{ x expr }

func (n *not) eval(s Snapshot) int64            { return b2i(n.x.eval(s) == 0) }
func (n *not) boolean() bool                    { return true }
func (n *not) values(s Snapshot, out *[]string) { n.x.values(s, out) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (p *parser) expr() (expr, error) { return p.binaryLevel(0) }

// levels of binary operators, loosest first.
var levels = [][]string{{"||"}, {"&&"}, {"==", "!=", "<=", ">=", "<", ">"}, {"+", "-"}}

func (p *parser) binaryLevel(l int) (expr, error) {
	if l == len(levels) {
		return p.unary()
	}
	x, err := p.binaryLevel(l + 1)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tOp && slices.Contains(levels[l], p.tok.text) {
		op := p.tok.text
		p.next()
		y, err := p.binaryLevel(l + 1)
		if err != nil {
			return nil, err
		}
		switch {
		case l <= 1 && (!x.boolean() || !y.boolean()):
			return nil, p.errorf("%s joins conditions, not numbers", op)
		case l >= 2 && (x.boolean() || y.boolean()):
			return nil, p.errorf("%s takes numbers, not conditions", op)
		}
		x = &binary{op, x, y}
		if l == 2 && p.tok.kind == tOp && slices.Contains(levels[2], p.tok.text) {
			return nil, p.errorf("chained comparison: join comparisons with &&")
		}
	}
	return x, nil
}

func (p *parser) unary() (expr, error) {
	switch {
	case p.tok.kind == tOp && p.tok.text == "!":
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if !x.boolean() {
			return nil, p.errorf("! takes a condition")
		}
		return &not{x}, nil
	case p.tok.kind == tOp && p.tok.text == "(":
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.tok.text != ")" {
			return nil, p.errorf("want )")
		}
		p.next()
		return x, nil
	case p.tok.kind == tInt:
		v, err := strconv.ParseInt(p.tok.text, 10, 32)
		if err != nil {
			return nil, p.errorf("%s: not a 32-bit integer", p.tok.text)
		}
		p.next()
		return num(v), nil
	case p.tok.kind == tIdent:
		return p.call()
	case p.tok.kind == tEOF:
		return nil, p.errorf("unexpected end")
	}
	return nil, p.errorf("unexpected %q", p.tok.text)
}

func (p *parser) call() (expr, error) {
	name := p.tok.text
	fn, ok := functions[name]
	if !ok {
		return nil, p.errorf("unknown function %q (want one of %s)", name, strings.Join(functionNames(), ", "))
	}
	p.next()
	if p.tok.text != "(" {
		return nil, p.errorf("want ( after %s", name)
	}
	p.next()
	c := &call{name: name, fn: fn}
	if fn.kinds != nil {
		if p.tok.kind != tIdent {
			return nil, p.errorf("%s wants an object, kind/name", name)
		}
		ref, err := parseRef(p.tok.text)
		if err != nil {
			return nil, p.errorf("%v", err)
		}
		if !slices.Contains(fn.kinds, ref.Kind) {
			return nil, p.errorf("%s does not take a %s", name, ref.Kind)
		}
		c.ref, c.refText = ref, p.tok.text
		p.next()
	}
	if p.tok.text != ")" {
		return nil, p.errorf("want ) after %s(", name)
	}
	p.next()
	return c, nil
}

var kindNames = map[string]cluster.Kind{
	"deploy": cluster.KindDeployment, "deployment": cluster.KindDeployment,
	"rs": cluster.KindReplicaSet, "replicaset": cluster.KindReplicaSet,
	"sts": cluster.KindStatefulSet, "statefulset": cluster.KindStatefulSet,
	"ds": cluster.KindDaemonSet, "daemonset": cluster.KindDaemonSet,
	"job": cluster.KindJob, "cronjob": cluster.KindCronJob, "cj": cluster.KindCronJob,
	"pdb": cluster.KindPodDisruptionBudget,
}

func parseRef(s string) (cluster.Key, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return cluster.Key{}, fmt.Errorf("%q: want kind/name or kind/namespace/name", s)
	}
	k, ok := kindNames[strings.ToLower(parts[0])]
	if !ok {
		return cluster.Key{}, fmt.Errorf("%q: unknown kind %q", s, parts[0])
	}
	ns, name := "default", parts[len(parts)-1]
	if len(parts) == 3 {
		ns = parts[1]
	}
	if name == "" || ns == "" {
		return cluster.Key{}, fmt.Errorf("%q: empty name", s)
	}
	return cluster.Key{Kind: k, Namespace: ns, Name: name}, nil
}

type call struct {
	name    string
	fn      function
	ref     cluster.Key
	refText string
}

func (c *call) boolean() bool         { return false }
func (c *call) eval(s Snapshot) int64 { return c.fn.eval(s, c.ref) }
func (c *call) values(s Snapshot, out *[]string) {
	*out = append(*out, fmt.Sprintf("%s(%s) = %d", c.name, c.refText, c.eval(s)))
}

type function struct {
	kinds []cluster.Kind // nil: no argument
	eval  func(s Snapshot, k cluster.Key) int64
}

var workloads = []cluster.Kind{cluster.KindDeployment, cluster.KindReplicaSet, cluster.KindStatefulSet, cluster.KindDaemonSet, cluster.KindJob}

var functions = map[string]function{
	"replicas":    {workloads, replicasOf},
	"pods":        {workloads, func(s Snapshot, k cluster.Key) int64 { return int64(podCounts(s, k).active) }},
	"terminating": {workloads, func(s Snapshot, k cluster.Key) int64 { return int64(podCounts(s, k).terminating) }},
	"ready":       {workloads, func(s Snapshot, k cluster.Key) int64 { return int64(podCounts(s, k).ready) }},
	"available":   {workloads, func(s Snapshot, k cluster.Key) int64 { return int64(podCounts(s, k).available) }},
	"updated":     {workloads, updatedOf},
	"succeeded":   {workloads, func(s Snapshot, k cluster.Key) int64 { return phaseCount(s, k, podstatus.Succeeded) }},
	"failed":      {workloads, func(s Snapshot, k cluster.Key) int64 { return phaseCount(s, k, podstatus.Failed) }},
	"running": {[]cluster.Kind{cluster.KindCronJob}, func(s Snapshot, k cluster.Key) int64 {
		cj := s.State.Get(k)
		if cj == nil {
			return 0
		}
		n := int64(0)
		for _, j := range controlledJobs(s.State, metaOf(cj).UID) {
			if !j.IsDeleting() && !isCondition(j.Status.Conditions, "Complete") && !isCondition(j.Status.Conditions, "Failed") {
				n++
			}
		}
		return n
	}},
	"healthy": {[]cluster.Kind{cluster.KindPodDisruptionBudget}, func(s Snapshot, k cluster.Key) int64 {
		b, _ := s.State.Get(k).(*pdb.PodDisruptionBudget)
		if b == nil || b.Spec.Selector == nil {
			return 0
		}
		n := int64(0)
		for _, p := range s.State.Pods() {
			if p.Namespace == b.Namespace && b.Spec.Selector.Matches(p.Labels) && pdb.IsHealthy(p, b.Status.DisruptedPods, s.Now, pdb.Options{}) {
				n++
			}
		}
		return n
	}},
	"desired": {[]cluster.Kind{cluster.KindPodDisruptionBudget}, func(s Snapshot, k cluster.Key) int64 {
		if b, _ := s.State.Get(k).(*pdb.PodDisruptionBudget); b != nil {
			return int64(b.Status.DesiredHealthy)
		}
		return 0
	}},
	"allowed": {[]cluster.Kind{cluster.KindPodDisruptionBudget}, func(s Snapshot, k cluster.Key) int64 {
		if b, _ := s.State.Get(k).(*pdb.PodDisruptionBudget); b != nil {
			return int64(b.Status.DisruptionsAllowed)
		}
		return 0
	}},
	"nodes": {nil, func(s Snapshot, _ cluster.Key) int64 {
		n := int64(0)
		for _, x := range s.State.Nodes() {
			if x.IsReady() {
				n++
			}
		}
		return n
	}},
	"draining": {nil, func(s Snapshot, _ cluster.Key) int64 { return int64(len(s.Draining)) }},
}

func functionNames() []string {
	var out []string
	for n := range functions {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// workloadPods returns the pods of workload k and its minReadySeconds.
func workloadPods(s Snapshot, k cluster.Key) ([]*podstatus.Pod, int32) {
	switch o := s.State.Get(k).(type) {
	case *rollout.Deployment:
		return deploymentPods(s.State, o), o.Spec.MinReadySeconds
	case *replicaset.ReplicaSet:
		return controlledPods(s.State, o.UID), o.Spec.MinReadySeconds
	case *statefulset.StatefulSet:
		return controlledPods(s.State, o.UID), o.Spec.MinReadySeconds
	case *daemonset.DaemonSet:
		return controlledPods(s.State, o.UID), o.Spec.MinReadySeconds
	case nil:
		return nil, 0
	default:
		return controlledPods(s.State, metaOf(o).UID), 0
	}
}

func podCounts(s Snapshot, k cluster.Key) counts {
	pods, minReady := workloadPods(s, k)
	return count(pods, minReady, s)
}

func phaseCount(s Snapshot, k cluster.Key, ph podstatus.Phase) int64 {
	pods, _ := workloadPods(s, k)
	n := int64(0)
	for _, p := range pods {
		if p.Status.Phase == ph {
			n++
		}
	}
	return n
}

func replicasOf(s Snapshot, k cluster.Key) int64 {
	switch o := s.State.Get(k).(type) {
	case *rollout.Deployment:
		return int64(o.Replicas())
	case *replicaset.ReplicaSet:
		return int64(o.Replicas())
	case *statefulset.StatefulSet:
		if o.Spec.Replicas == nil {
			return 1
		}
		return int64(*o.Spec.Replicas)
	case *daemonset.DaemonSet:
		return int64(o.Status.DesiredNumberScheduled)
	case *job.Job:
		return int64(parallelism(o))
	}
	return 0
}

func updatedOf(s Snapshot, k cluster.Key) int64 {
	n := int64(0)
	switch o := s.State.Get(k).(type) {
	case *rollout.Deployment:
		nrs := rollout.FindNewReplicaSet(o, controlledReplicaSets(s.State, o.UID))
		if nrs == nil {
			return 0
		}
		for _, p := range controlledPods(s.State, nrs.UID) {
			if podstatus.IsActive(p) {
				n++
			}
		}
	case *statefulset.StatefulSet:
		for _, p := range controlledPods(s.State, o.UID) {
			if podstatus.IsActive(p) && o.Status.UpdateRevision != "" && statefulset.PodRevision(p) == o.Status.UpdateRevision {
				n++
			}
		}
	case *daemonset.DaemonSet:
		hash, newest := "", int64(-1)
		for _, dk := range s.State.Dependents(o.UID) {
			if r, _ := s.State.Get(dk).(*history.ControllerRevision); r != nil && r.Revision > newest {
				newest, hash = r.Revision, daemonset.RevisionHash(r)
			}
		}
		for _, p := range controlledPods(s.State, o.UID) {
			if podstatus.IsActive(p) && newest >= 0 && daemonset.IsPodUpdated(p, hash, o) {
				n++
			}
		}
	default:
		return int64(podCounts(s, k).active)
	}
	return n
}
