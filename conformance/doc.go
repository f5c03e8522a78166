// Package conformance loads kubesem's language-neutral JSON vectors and
// checks an implementation against them.
//
// A vector names a decision ("rollout.Fenceposts"), gives its input and
// options as JSON, and states the expected output: one answer (want), a set
// of acceptable answers (wantOneOf, for decisions where Kubernetes itself is
// nondeterministic), or an expected input error (wantError: field path and
// kind). The format is documented in README.md beside this file.
//
// Any Go implementation can be checked with [Run]; implementations in other
// languages speak the line protocol of [Exec]. [Kubesem] is kubesem's own
// implementation, and the only place kubesem decodes JSON.
//
// # Matching
//
// Outputs are compared as JSON values. An object in want matches when every
// key it names matches (keys it does not name are not checked); arrays match
// element by element and must have the same length; numbers compare by value;
// two strings that both parse as RFC 3339 times compare as instants, and two
// that both parse as Go durations ("1m30s", "90s") compare as durations.
//
// # Divergences
//
// A vector's want is v1.36.3's answer. Where v1.36.3 leaves the answer
// open (an unstable sort, informer order) the vector lists the answers it
// allows (wantOneOf); where v1.36.3 has no answer (its controller panics, or
// its sync never ends) the vector expects kubesem's input error (wantError),
// and the package's documentation says so under Divergences. What ships, and
// how each decision is checked against v1.36.3, is in README.md and
// DECISIONS.md beside this file.
package conformance
