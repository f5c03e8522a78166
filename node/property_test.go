package node

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

// Zone state is monotone in the number of not-ready nodes: turning a ready
// node not ready never makes the state healthier.
func checkZoneStateMonotone(t *rapid.T) {
	rank := map[ZoneState]int{ZoneNormal: 0, ZonePartialDisruption: 1, ZoneFullDisruption: 2}
	size := rapid.IntRange(1, 200).Draw(t, "size")
	notReady := rapid.IntRange(0, size-1).Draw(t, "notReady")
	mk := func(nr int) []ConditionStatus {
		out := make([]ConditionStatus, size)
		for i := range out {
			out[i] = ConditionTrue
			if i < nr {
				out[i] = ConditionFalse
			}
		}
		return out
	}
	_, a := ComputeZoneState(mk(notReady), Options{})
	_, b := ComputeZoneState(mk(notReady+1), Options{})
	if rank[b] < rank[a] {
		t.Fatalf("%d→%d not ready of %d: %s → %s", notReady, notReady+1, size, a, b)
	}
}

func TestPropZoneStateMonotone(t *testing.T) { t.Parallel(); rapid.Check(t, checkZoneStateMonotone) }

func drawToleration(t *rapid.T) (Toleration, Taint) {
	keys := []string{"", "a", "b"}
	vals := []string{"", "x", "1", "2"}
	effects := []string{"", "NoSchedule", "PreferNoSchedule", "NoExecute"}
	tol := Toleration{Key: rapid.SampledFrom(keys).Draw(t, "k"), Operator: rapid.SampledFrom([]string{"", OpEqual, OpExists, OpLt, OpGt}).Draw(t, "op"),
		Value: rapid.SampledFrom(vals).Draw(t, "v"), Effect: rapid.SampledFrom(effects).Draw(t, "e")}
	taint := Taint{Key: rapid.SampledFrom(keys[1:]).Draw(t, "tk"), Value: rapid.SampledFrom(vals).Draw(t, "tv"), Effect: TaintEffect(rapid.SampledFrom(effects[1:]).Draw(t, "te"))}
	return tol, taint
}

// A toleration that matches a taint still matches when its effect is
// emptied.
func checkEmptyEffectStillTolerates(t *rapid.T) {
	tol, taint := drawToleration(t)
	opts := Options{TaintTolerationComparisonOperators: rapid.Bool().Draw(t, "gate")}
	if ToleratesTaint(&tol, &taint, opts) {
		tol.Effect = ""
		if !ToleratesTaint(&tol, &taint, opts) {
			t.Fatalf("%+v stops tolerating %+v without effect", tol, taint)
		}
	}
}

func TestPropEmptyEffectStillTolerates(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkEmptyEffectStillTolerates)
}

// Eviction time never precedes the time the taint was seen.
func checkEvictionNotBeforeTaint(t *rapid.T) {
	var tols []Toleration
	for range rapid.IntRange(0, 3).Draw(t, "n") {
		tol, _ := drawToleration(t)
		if rapid.Bool().Draw(t, "secs") {
			s := rapid.Int64Range(-10, 1<<40).Draw(t, "s")
			tol.TolerationSeconds = &s
		}
		tols = append(tols, tol)
	}
	_, taint := drawToleration(t)
	taint.Effect = NoExecute
	seen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e := EvictionFor(tols, []Taint{taint}, seen, Options{})
	if e.Kind != NotEvicted && e.At.Before(seen) {
		t.Fatalf("%+v before %v", e, seen)
	}
}

func TestPropEvictionNotBeforeTaint(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkEvictionNotBeforeTaint)
}

// Shutdown groups cover every pod exactly once, and when every group has a
// pod they take the whole delay.
func checkShutdownGroups(t *rapid.T) {
	prios := rapid.SliceOfNDistinct(rapid.Int32Range(-5, 5), 1, 4, rapid.ID[int32]).Draw(t, "prios")
	var ps []ShutdownPeriod
	for _, p := range prios {
		ps = append(ps, ShutdownPeriod{Priority: p, Seconds: rapid.Int64Range(0, 100).Draw(t, "s")})
	}
	ps = ShutdownPeriods(ps, 0, 0)
	var pods []*podstatus.Pod
	for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
		p := &podstatus.Pod{}
		p.Name = string(rune('a' + i))
		prio := rapid.Int32Range(-7, 7).Draw(t, "prio")
		p.Spec.Priority = &prio
		pods = append(pods, p)
	}
	gs, err := Shutdown(ps, pods)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	full := true
	for _, g := range gs {
		if len(g.Pods) == 0 {
			full = false
		}
		for _, p := range g.Pods {
			seen[p.Name]++
		}
	}
	for _, p := range pods {
		if seen[p.Name] != 1 {
			t.Fatalf("pod %s in %d groups", p.Name, seen[p.Name])
		}
	}
	if full && gs[len(gs)-1].End != ShutdownDelay(ps) {
		t.Fatalf("end %v, delay %v", gs[len(gs)-1].End, ShutdownDelay(ps))
	}
}

func TestPropShutdownGroups(t *testing.T) { t.Parallel(); rapid.Check(t, checkShutdownGroups) }

// Shuffling nodes and leases does not change the Plan.
func checkStepOrderIndependent(t *rapid.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var nodes []*Node
	var leases []Lease
	for i := range rapid.IntRange(1, 8).Draw(t, "n") {
		n := readyNode(string(rune('a'+i)), rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone"), t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "age"))*time.Second))
		n.Status.Conditions[0].Status = rapid.SampledFrom([]ConditionStatus{ConditionTrue, ConditionFalse, ConditionUnknown}).Draw(t, "st")
		nodes = append(nodes, n)
		if rapid.Bool().Draw(t, "lease") {
			rt := t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "rt")) * time.Second)
			leases = append(leases, Lease{ObjectMeta: meta.ObjectMeta{Name: n.Name}, Spec: LeaseSpec{RenewTime: &rt}})
		}
	}
	// leases of nodes not listed, before, between and after the nodes
	for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"0", "b0", "d0", "z"}), 0, 3, rapid.ID[string]).Draw(t, "stray") {
		rt := t0
		leases = append(leases, Lease{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: LeaseSpec{RenewTime: &rt}})
	}
	slices.SortFunc(leases, func(a, b Lease) int { return strings.Compare(a.Name, b.Name) })
	p1, err := Step(nodes, leases, nil, Memory{}, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// the inputs are left as they were: the list, the nodes, the leases
	// and the memory
	list := slices.Clone(nodes)
	before, _ := json.Marshal([]any{nodes, leases, p1.Memory})
	p1b, _ := Step(nodes, leases, nil, p1.Memory, t0.Add(60*time.Second), Options{})
	after, _ := json.Marshal([]any{nodes, leases, p1.Memory})
	if !slices.Equal(list, nodes) || string(before) != string(after) {
		t.Fatalf("Step modified its inputs")
	}
	r := rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed")))
	r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	r.Shuffle(len(leases), func(i, j int) { leases[i], leases[j] = leases[j], leases[i] })
	p2, _ := Step(nodes, leases, nil, Memory{}, t0, Options{})
	p2b, _ := Step(nodes, leases, nil, p2.Memory, t0.Add(60*time.Second), Options{})
	if !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(p1b, p2b) {
		t.Fatalf("order changes the plan")
	}
}

func TestPropStepOrderIndependent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkStepOrderIndependent)
}

// A pass after some nodes are gone plans the same whether the memory's
// registered nodes are listed in order (matched by walking) or not
// (matched through a set), and its memory shares no time or lease with
// the memory, leases and nodes it was given.
func checkStepKnownOrderAndCopies(t *rapid.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var nodes []*Node
	var leases []Lease
	for i := range rapid.IntRange(1, 8).Draw(t, "n") {
		n := readyNode(string(rune('a'+i)), rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone"), t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "age"))*time.Second))
		nodes = append(nodes, n)
		if rapid.Bool().Draw(t, "lease") {
			rt := t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "rt")) * time.Second)
			leases = append(leases, Lease{ObjectMeta: meta.ObjectMeta{Name: n.Name}, Spec: LeaseSpec{RenewTime: &rt}})
		}
	}
	p1, err := Step(nodes, leases, nil, Memory{}, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kept []*Node
	for _, n := range nodes {
		if rapid.Bool().Draw(t, "keep") {
			kept = append(kept, n)
		}
	}
	for i := range leases {
		rt := leases[i].Spec.RenewTime.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "renew")) * time.Second)
		leases[i].Spec.RenewTime = &rt
	}
	mem := p1.Memory
	shuffled := mem
	shuffled.Known = slices.Clone(mem.Known)
	r := rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed")))
	r.Shuffle(len(shuffled.Known), func(i, j int) { shuffled.Known[i], shuffled.Known[j] = shuffled.Known[j], shuffled.Known[i] })
	now := t0.Add(time.Duration(rapid.IntRange(1, 120).Draw(t, "later")) * time.Second)
	pa, err := Step(kept, leases, nil, mem, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := Step(kept, leases, nil, shuffled, now, Options{})
	if !reflect.DeepEqual(pa, pb) {
		t.Fatalf("the order of the registered nodes changes the plan")
	}
	given := map[any]bool{}
	for _, h := range mem.Nodes {
		given[h.ReadyHeartbeat], given[h.Lease] = true, true
	}
	for i := range leases {
		given[&leases[i]], given[leases[i].Spec.RenewTime] = true, true
	}
	for _, n := range nodes {
		for i := range n.Status.Conditions {
			given[&n.Status.Conditions[i].LastHeartbeatTime] = true
		}
	}
	for k, h := range pa.Memory.Nodes {
		shared := h.ReadyHeartbeat != nil && given[h.ReadyHeartbeat] || h.Lease != nil && given[h.Lease]
		if shared {
			t.Fatalf("record %s shares a time or lease with the input", k)
		}
	}
}

func TestPropStepKnownOrderAndCopies(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkStepKnownOrderAndCopies)
}

// ZoneStates agrees with grouping by [Zone] in a map and deciding each
// zone with [ComputeZoneState], whatever the number of zones (its own
// table grows past 32) and the label values.
func checkZoneStatesGrouping(t *rapid.T) {
	keys := []string{LabelTopologyZone, LabelFailureZone, LabelTopologyRegion, LabelFailureRegion, LabelExcludeDisruption}
	values := rapid.StringMatching(`[a-z0-9.:-]{0,24}`)
	var nodes []*Node
	groups := map[string][]ConditionStatus{}
	for range rapid.IntRange(0, 300).Draw(t, "nodes") {
		n := &Node{}
		n.Labels = map[string]string{}
		for _, k := range keys {
			if rapid.IntRange(0, 3).Draw(t, "has") == 0 {
				n.Labels[k] = values.Draw(t, "v")
			}
		}
		s := rapid.SampledFrom([]ConditionStatus{ConditionTrue, ConditionFalse, ConditionUnknown}).Draw(t, "ready")
		n.Status.Conditions = []Condition{{Type: Ready, Status: s}}
		nodes = append(nodes, n)
		if !ExcludedFromDisruption(n) {
			groups[Zone(n)] = append(groups[Zone(n)], s)
		}
	}
	got := ZoneStates(nodes, Options{})
	if len(got) != len(groups) {
		t.Fatalf("%d zones, want %d", len(got), len(groups))
	}
	for _, z := range got {
		nr, st := ComputeZoneState(groups[z.Zone], Options{})
		if z.Size != len(groups[z.Zone]) || z.NotReady != nr || z.State != st {
			t.Fatalf("zone %q: %+v, want size %d, %d not ready, %s", z.Zone, z, len(groups[z.Zone]), nr, st)
		}
	}
}

func TestPropZoneStatesGrouping(t *testing.T) { t.Parallel(); rapid.Check(t, checkZoneStatesGrouping) }

// zoneLabels, which stops looking labels up once it has found every label
// of the map, reads what five plain look-ups read, whatever other labels
// the node carries.
func checkZoneLabelsPlain(t *rapid.T) {
	keys := []string{LabelTopologyZone, LabelFailureZone, LabelTopologyRegion, LabelFailureRegion, LabelExcludeDisruption,
		"kubernetes.io/hostname", "a", ""}
	l := map[string]string{}
	for _, k := range keys {
		if rapid.Bool().Draw(t, "has") {
			l[k] = rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "v")
		}
	}
	if rapid.Bool().Draw(t, "nil") && len(l) == 0 {
		l = nil
	}
	region, zone, excluded := zoneLabels(l)
	wz, ok := l[LabelFailureZone]
	if !ok {
		wz = l[LabelTopologyZone]
	}
	wr, ok := l[LabelFailureRegion]
	if !ok {
		wr = l[LabelTopologyRegion]
	}
	_, we := l[LabelExcludeDisruption]
	if region != wr || zone != wz || excluded != we {
		t.Fatalf("%v: %q %q %v, want %q %q %v", l, region, zone, excluded, wr, wz, we)
	}
}

func TestPropZoneLabelsPlain(t *testing.T) { t.Parallel(); rapid.Check(t, checkZoneLabelsPlain) }
