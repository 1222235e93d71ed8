package bench

// The sizes of the suite's workloads. The Go benchmarks of this package use them,
// and cmd/obskit-bench passes them to the Python peers (peers.py), so that both
// sides measure the same work.
const (
	// Obs is the number of observations of the array workloads (MNIST's
	// training set).
	Obs = 60000
	// Width is the number of features of an observation (28 x 28 pixels).
	Width = 784
	// BatchSize is the batch size of every gather and batch loop.
	BatchSize = 128
	// SplitObs is the number of observations split and folded by the split
	// workloads, which are subset's BenchmarkShuffled.
	SplitObs = 10_000_000
	// Folds is the number of folds of the k-fold workload.
	Folds = 10
	// TestFraction is the held-out fraction of the split workload (an 80/20
	// split).
	TestFraction = 0.2
)

// The sides of the C reference (internal/cref) beside the observation-first
// gathers of BenchmarkGather and in the rows of BenchmarkKernel, as their
// metrics name them: "<side>-MB/s" and "x-<side>".
const (
	// CMemcpy copies the rows with C's memcpy, one call per row, without
	// prefetch.
	CMemcpy = "c-memcpy"
	// CPrefetch is the same, prefetching each row two rows ahead, the usual
	// way to write a prefetching gather in C.
	CPrefetch = "c-prefetch"
	// CKernel is the row kernel's own algorithm in C: memcpy per row while a
	// cursor prefetches 8 KiB ahead along the gathered rows.
	CKernel = "c-kernel"
)
