package history

import "github.com/kubesem/kubesem/meta"

// ControllerRevision is the subset of an apps/v1 ControllerRevision the
// workload controllers read. JSON tags follow the API, so a real
// revision's JSON (its data ignored) decodes as is.
type ControllerRevision struct {
	meta.ObjectMeta `json:"metadata"`
	// Revision is the revision number: higher is newer.
	Revision int64 `json:"revision"`
}
