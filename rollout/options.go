package rollout

// Options changes the semantics of the rules and the Step. Its zero value is
// Kubernetes v1.36.3 with default feature gates; no deviation is modelled
// yet, so every field a future version adds must name the deviation it turns
// on.
type Options struct{}
