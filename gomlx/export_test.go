package gomlx

// UseHostTensors makes d write every batch into host tensors it keeps and
// rewrites, the other ownership route GoMLX v0.28 allows (the trainer copies
// each into a device buffer it donates to the step, and leaves the host tensor
// alone): BenchmarkOwnership measures it against the device route the
// adapter takes.
func UseHostTensors[B any](d *Dataset[B]) { d.w.host = true }
