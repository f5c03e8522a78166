// Package plan holds the vocabulary every kubesem Step speaks: why a sync
// ended ([Reason]), what it creates ([Creation]) and deletes ([Deletion]),
// the events it records ([Event]), when the controller looks again
// ([Requeue]), and the one canonical JSON encoding of all of them ([Encode]).
//
// Every workload package's Plan is built from these pieces, with the same
// field names in the same order (see VOCABULARY.md at the repository root):
//
//	Outcome      Reason       why the sync ended as it did; always set
//	Create       Creation[T]  what is created (Count, Reason, the objects when they differ)
//	<writes>                  package-specific writes, each named by its verb (Scale, Update, Adopt, …)
//	Delete       []Deletion   what is deleted, in the controller's order
//	Status       <pkg>.Status the status after the sync
//	UpdateStatus bool         whether the controller writes Status
//	Events       []Event      the events recorded, in order
//	Requeue      []Requeue    when the controller looks again, and why
//	Memory       <pkg> type   controller memory carried to the next sync (job's backoff record, node's probe times)
//
// # Encoding
//
// [Encode] renders any value as JSON with the field names of its json tags,
// durations as Go duration strings ("1m30s"), times as RFC 3339 in UTC and
// nil slices as []. Plans implement json.Marshaler with it, so
// json.Marshal(plan) and kubesem's CLI and conformance output agree.
//
// # Divergences
//
// A Plan is kubesem's, not an upstream object: it states what one sync
// decides, and each package's Plan.Writes lists the API requests the
// controller sends for it. Where upstream sends requests concurrently or in
// cache order, Writes pins one order (each package's Divergences says
// which).
//
// # Inputs
//
// Nothing here reads a clock or does I/O; every function is safe for
// concurrent use.
package plan
