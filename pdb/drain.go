package pdb

import (
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Cluster is the state a drain simulation starts from and carries. A node
// runs at most status.allocatable.pods pods (terminating pods included; no
// limit when the node states none); spec.unschedulable (cordoned) keeps
// new pods off it, and a drain sets it.
type Cluster struct {
	Nodes       []node.Node           `json:"nodes"`
	Pods        []podstatus.Pod       `json:"pods"`
	Controllers []Controller          `json:"controllers"`
	Budgets     []PodDisruptionBudget `json:"budgets"`
}

// ActionKind is one step of a drain script.
type ActionKind string

// Actions of a drain script.
const (
	// ActionDrain cordons Node and requests the eviction of each of its pods
	// not yet being deleted, in name order, as kubectl drain does on each
	// pass (a later ActionDrain of the same node is kubectl's retry).
	ActionDrain ActionKind = "Drain"
	// ActionSync runs the disruption controller ([Step]) on every budget.
	ActionSync ActionKind = "Sync"
	// ActionRecreate lets every controller but a Deployment (whose
	// ReplicaSets own its pods) create
	// the pods it misses (replicas minus owned pods not being deleted),
	// named Pods in order, on the schedulable node with the fewest pods
	// below its capacity (ties by name), Running and not Ready; Pending and
	// unscheduled when no node fits.
	ActionRecreate ActionKind = "Recreate"
	// ActionCreate creates the bare, Ready pods Pods on Node.
	ActionCreate ActionKind = "Create"
	// ActionReady makes Pods Running and Ready.
	ActionReady ActionKind = "Ready"
	// ActionTerminate removes the pods being deleted (Pods, or all).
	ActionTerminate ActionKind = "Terminate"
	// ActionAdvance moves the clock by After.
	ActionAdvance ActionKind = "Advance"
)

// Action is one step of a drain script.
type Action struct {
	Kind   ActionKind    `json:"kind"`
	Node   string        `json:"node,omitempty"`
	Pods   []string      `json:"pods,omitempty"`
	After  time.Duration `json:"after,omitempty"`
	DryRun bool          `json:"dryRun,omitempty"`
}

// Attempt is one eviction request of a drain and its answer.
type Attempt struct {
	Pod      string   `json:"pod"`
	Decision Decision `json:"decision"`
}

// BudgetState is a budget's status as a drain step leaves it.
type BudgetState struct {
	Name               string `json:"name"`
	DisruptionsAllowed int32  `json:"disruptionsAllowed"`
	CurrentHealthy     int32  `json:"currentHealthy"`
	DesiredHealthy     int32  `json:"desiredHealthy"`
	ExpectedPods       int32  `json:"expectedPods"`
}

// PodState is a pod as a drain step leaves it: "available" (Ready),
// "starting" (Running, not Ready), "pending", or "terminating".
type PodState struct {
	Name  string `json:"name"`
	Node  string `json:"node,omitempty"`
	State string `json:"state"`
}

// DrainStep is what one action did and the state after it.
type DrainStep struct {
	Action   Action        `json:"action"`
	Attempts []Attempt     `json:"attempts"`
	Created  []string      `json:"created"`
	Removed  []string      `json:"removed"`
	Budgets  []BudgetState `json:"budgets"`
	Pods     []PodState    `json:"pods"`
}

// Drain simulates a script of drains, controller syncs and pod lifecycle
// steps from cluster c at start, each eviction decided by [Evict] and each
// budget sync by [Step], and returns what every action did and the state
// after it. It is deterministic and does not modify c.
//
// Source: seed 000 (disruptions, "PodDisruptionBudget 예시", L772–L822);
// kubectl drain evicts every pod of the node and retries refused ones.
func Drain(c Cluster, script []Action, start time.Time, opts Options) ([]DrainStep, error) {
	s := sim{now: start, opts: opts}
	s.nodes = slices.Clone(c.Nodes)
	s.capacity = make([]int64, len(s.nodes))
	for i := range s.nodes {
		pods, ok, err := s.nodes[i].AllocatablePods()
		if err != nil {
			return nil, field.Under(field.Index("cluster.nodes", i), err)
		}
		if ok {
			s.capacity[i] = pods
		} else {
			s.capacity[i] = -1
		}
	}
	for _, p := range c.Pods {
		p.Status.Conditions = slices.Clone(p.Status.Conditions)
		p.OwnerReferences = slices.Clone(p.OwnerReferences)
		s.pods = append(s.pods, &p)
	}
	s.controllers = slices.Clone(c.Controllers)
	s.budgets = make([]PodDisruptionBudget, len(c.Budgets))
	for i, b := range c.Budgets {
		if err := Validate(&b); err != nil {
			return nil, field.Under(field.Index("cluster.budgets", i), err)
		}
		b.Status = copyStatus(b.Status)
		s.budgets[i] = b
	}
	slices.SortStableFunc(s.budgets, func(a, b PodDisruptionBudget) int { return strings.Compare(a.Name, b.Name) })
	s.sortPods()
	var out []DrainStep
	for i, a := range script {
		st, err := s.do(a)
		if err != nil {
			return nil, field.Under(field.Index("script", i), err)
		}
		st.Action = a
		st.Budgets = s.budgetStates()
		st.Pods = s.podStates()
		out = append(out, st)
	}
	return out, nil
}

type sim struct {
	now         time.Time
	opts        Options
	nodes       []node.Node
	capacity    []int64 // of nodes[i]; -1: no limit
	pods        []*podstatus.Pod
	controllers []Controller
	budgets     []PodDisruptionBudget
}

func (s *sim) sortPods() {
	slices.SortStableFunc(s.pods, func(a, b *podstatus.Pod) int { return strings.Compare(a.Name, b.Name) })
}

func (s *sim) pod(name string) *podstatus.Pod {
	for _, p := range s.pods {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (s *sim) node(name string) *node.Node {
	for i := range s.nodes {
		if s.nodes[i].Name == name {
			return &s.nodes[i]
		}
	}
	return nil
}

func (s *sim) do(a Action) (DrainStep, error) {
	var st DrainStep
	switch a.Kind {
	case ActionDrain:
		n := s.node(a.Node)
		if n == nil {
			return st, field.New("node", a.Node, field.ErrInvalid)
		}
		if !a.DryRun {
			n.Spec.Unschedulable = true
		}
		for _, p := range slices.Clone(s.pods) {
			if p.Spec.NodeName != a.Node || p.IsDeleting() {
				continue
			}
			d, err := Evict(p, s.budgets, Request{DryRun: a.DryRun}, s.now)
			if err != nil {
				return st, err
			}
			st.Attempts = append(st.Attempts, Attempt{Pod: p.Name, Decision: d})
			if !d.Allowed || a.DryRun {
				continue
			}
			if d.UpdateStatus && d.Status != nil {
				for i := range s.budgets {
					if s.budgets[i].Name == d.Budget {
						s.budgets[i].Status = copyStatus(*d.Status)
					}
				}
			}
			t := s.now
			p.DeletionTimestamp = &t
		}
	case ActionSync:
		for i := range s.budgets {
			b := &s.budgets[i]
			p, err := Step(b, s.pods, s.controllers, s.now, s.opts)
			if err != nil {
				return st, err
			}
			if p.UpdateStatus {
				b.Status = p.Status
			}
		}
	case ActionRecreate:
		names := slices.Clone(a.Pods)
		for _, c := range s.controllers {
			if c.Spec.Replicas == nil || c.Kind == "Deployment" {
				continue // a Deployment creates ReplicaSets, not pods
			}
			var owned []*podstatus.Pod
			active := int32(0)
			for _, p := range s.pods {
				if p.IsControlledBy(c.UID) {
					owned = append(owned, p)
					if podstatus.IsActive(p) {
						active++
					}
				}
			}
			for ; active < *c.Spec.Replicas; active++ {
				if len(names) == 0 {
					return st, field.New("pods", "", field.ErrRequired)
				}
				np := &podstatus.Pod{}
				np.Name, names = names[0], names[1:]
				if s.pod(np.Name) != nil {
					return st, field.New("pods", np.Name, field.ErrDuplicate)
				}
				np.UID = np.Name
				np.Namespace = c.namespace(owned, s.budgets)
				if len(owned) > 0 {
					np.Labels = owned[0].Labels
				}
				yes := true
				np.OwnerReferences = []meta.OwnerReference{{APIVersion: c.APIVersion, Kind: c.Kind, Name: c.Name, UID: c.UID, Controller: &yes}}
				if n := s.fit(); n != "" {
					np.Spec.NodeName = n
					np.Status.Phase = podstatus.Running
				} else {
					np.Status.Phase = podstatus.Pending
				}
				np.CreationTimestamp = s.now
				s.pods = append(s.pods, np)
				s.sortPods()
				st.Created = append(st.Created, np.Name)
			}
		}
	case ActionCreate:
		for _, name := range a.Pods {
			if s.pod(name) != nil {
				return st, field.New("pods", name, field.ErrDuplicate)
			}
			np := &podstatus.Pod{}
			np.Name, np.UID, np.Spec.NodeName, np.CreationTimestamp = name, name, a.Node, s.now
			if len(s.budgets) > 0 {
				np.Namespace = s.budgets[0].Namespace
			}
			setReady(np, s.now)
			s.pods = append(s.pods, np)
			s.sortPods()
			st.Created = append(st.Created, name)
		}
	case ActionReady:
		for _, name := range a.Pods {
			p := s.pod(name)
			if p == nil {
				return st, field.New("pods", name, field.ErrInvalid)
			}
			setReady(p, s.now)
		}
	case ActionTerminate:
		var keep []*podstatus.Pod
		for _, p := range s.pods {
			if p.IsDeleting() && (len(a.Pods) == 0 || slices.Contains(a.Pods, p.Name)) {
				st.Removed = append(st.Removed, p.Name)
				continue
			}
			keep = append(keep, p)
		}
		s.pods = keep
	case ActionAdvance:
		if a.After < 0 {
			return st, field.New("after", a.After.String(), field.ErrNegative)
		}
		s.now = s.now.Add(a.After)
	default:
		return st, field.New("kind", string(a.Kind), field.ErrUnsupported)
	}
	return st, nil
}

func (c Controller) namespace(owned []*podstatus.Pod, budgets []PodDisruptionBudget) string {
	if len(owned) > 0 {
		return owned[0].Namespace
	}
	if len(budgets) > 0 {
		return budgets[0].Namespace
	}
	return ""
}

func setReady(p *podstatus.Pod, now time.Time) {
	p.Status.Phase = podstatus.Running
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == podstatus.Ready {
			p.Status.Conditions[i].Status = meta.ConditionTrue
			p.Status.Conditions[i].LastTransitionTime = now
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now})
}

// fit returns the schedulable node with the fewest pods below capacity.
func (s *sim) fit() string {
	best, bestN := "", 0
	order := make([]int, len(s.nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(s.nodes[a].Name, s.nodes[b].Name) })
	for _, i := range order {
		n := &s.nodes[i]
		if n.Spec.Unschedulable {
			continue
		}
		k := 0
		for _, p := range s.pods {
			if p.Spec.NodeName == n.Name {
				k++
			}
		}
		if c := s.capacity[i]; c >= 0 && int64(k) >= c {
			continue
		}
		if best == "" || k < bestN {
			best, bestN = n.Name, k
		}
	}
	return best
}

func (s *sim) budgetStates() []BudgetState {
	out := make([]BudgetState, 0, len(s.budgets))
	for _, b := range s.budgets {
		out = append(out, BudgetState{Name: b.Name, DisruptionsAllowed: b.Status.DisruptionsAllowed,
			CurrentHealthy: b.Status.CurrentHealthy, DesiredHealthy: b.Status.DesiredHealthy, ExpectedPods: b.Status.ExpectedPods})
	}
	return out
}

func (s *sim) podStates() []PodState {
	out := make([]PodState, 0, len(s.pods))
	for _, p := range s.pods {
		state := "starting"
		switch {
		case p.IsDeleting():
			state = "terminating"
		case p.Status.Phase == podstatus.Pending:
			state = "pending"
		case podstatus.IsReady(p):
			state = "available"
		}
		out = append(out, PodState{Name: p.Name, Node: p.Spec.NodeName, State: state})
	}
	return out
}

// UnmarshalJSON reads After as a Go duration string ("30s") or integer
// nanoseconds. Keys are case-sensitive; an unknown or repeated key is a
// *field.Error at its name (Unsupported, Duplicate).
func (a *Action) UnmarshalJSON(b []byte) error {
	type plain Action
	var p plain
	if err := apijson.UnmarshalStrict(b, &p); err != nil {
		return err
	}
	*a = Action(p)
	return nil
}
