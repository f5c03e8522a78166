// Package check explores every interleaving of a small cluster and checks
// properties on it: from a scenario's objects, the world of package
// cluster runs while the events of an alphabet (pod failures, node
// outages and returns, evictions, drains, the users' updates, scales,
// pauses …) happen at every point of every path, breadth first, so that
// each property violated comes with a shortest counterexample — a path of
// events at instants, which, added to the scenario, replays it in any
// world (kubesem simulate cluster prints it as a timeline).
//
// Reference semantics: the world's (package cluster), that is Kubernetes
// v1.36.3 with default feature gates as the workload packages decide it,
// with the world's documented environment model (scheduler, kubelets,
// heartbeats, garbage collector). Options.World changes it as
// cluster.Options does. The checker adds no rule of its own: its
// transitions are the world's instants and the events the world already
// takes (cluster.World.Inject).
//
// # Exploration
//
//   - [Explore]: the search, [Alphabet] what may happen, [Options] the
//     bounds (depth, horizon, liveness window, states), [Shard] one of n
//     independent parts of a search.
//   - Transitions: a tick (the world runs until something happens) or an
//     event at the world's next due instant; see [Explore].
//   - States: a canonical form hashed ([Fingerprint]): generated names and
//     UIDs renamed by content, nodes renamed by content (symmetry), time
//     read relative to now (exactly back to Options.TimeCap, by order
//     before), the world's memory (cluster.World.Memory) included.
//
// # Properties
//
//   - [Property]: Holds (states), Allows (writes, against the State just
//     before each one), Wants (liveness: from every state, left alone, the
//     world settles where it holds).
//   - [Builtins], [Builtin]: deployment-max-surge, deployment-availability,
//     statefulset-ordered-ready, pdb-eviction, job-parallelism,
//     job-exclusive, cronjob-forbid (safety); deployment-completes,
//     statefulset-completes, daemonset-completes, drain-completes
//     (liveness). Each Doc says precisely what it counts.
//   - [Expression]: "available(deploy/web) >= 2", "eventually …".
//   - [Snapshot]: what a property reads.
//
// # Results
//
//   - [Report], [Result], [Counterexample] (its Scenario replays it),
//     [Merge] (the reports of shards).
//
// # Bounds and what they mean
//
// Safety properties hold on every path within the bounds: MaxDepth
// transitions, events within Horizon of the first state. Liveness is
// bounded the same way for the states it starts from, and by Window for
// the world left alone afterwards; a world that settles (a state that
// repeats, time read relative to now) where the property does not hold
// violates it for ever, one that has not settled within the window
// violates it within the bound. Report.Complete is false when MaxStates
// stopped the search.
//
// # Divergences
//
//   - Only the order of events among the world's happenings is explored:
//     an event happens at the world's next due instant after something
//     happened (not at every instant of a quiet world), and a world with
//     nothing but periodic work due that stays quiet for Options.Quiet is
//     settled (a final state). The world's own timers (ready delays, grace
//     periods, requeues, heartbeats) place the events in time.
//   - Controllers sync in the world's fixed order within an instant (a
//     controller manager with a perfectly fresh cache) unless
//     Alphabet.Orders allows changes of it: each moves one controller with
//     objects to the front of every round from its instant on
//     (cluster.EventOrder), so with n changes the search covers the orders
//     reachable by n such moves, not every permutation of every round.
//     A controller still sees the writes of those before it in a round
//     (their informers are never behind), and the canonical form leaves
//     the order out: a state reached under two orders is explored under
//     the first, and the order moves stay available from it.
//   - Symmetry: the world breaks ties by name (equally loaded nodes,
//     equally ranked pods); of two states that differ only by the names of
//     pods and nodes, one is explored, standing for the other.
//   - Instants older than Options.TimeCap keep only their order; a rule
//     that buckets long durations (the ReplicaSet controller's logarithmic
//     ranking of ready times) may tell apart states the form merges.
//   - A template is broken (liveness asks nothing of its workload) when the
//     scenario's first pod behaviour matching its labels makes pods never
//     ready or exit non-zero.
//
// # Inputs
//
// No clock, randomness, I/O or globals: the same scenario, alphabet and
// options give the same report. Inputs are never modified. Hashes are
// deterministic across processes (shards compare them).
//
// # Errors
//
// Explore and Expression return *field.Error values (alphabet.podFailures,
// shard.index, property …) wrapping field sentinels, or cluster.New's
// errors for the scenario. A world that gets stuck (cluster.ErrStuck) is
// reported as the violation of [StuckProperty].
//
// Vectors: none; this package registers no conformance decision.
package check
