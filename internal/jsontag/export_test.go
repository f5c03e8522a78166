package jsontag

// Resolve is Fields without the cache, for benchmarks.
var Resolve = resolve
