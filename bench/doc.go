// Package bench is obskit's benchmark suite: the hot paths of a training loop
// measured against the physical limit, copy() of the same bytes, in the same
// run, and the sizes (Obs, Width, BatchSize, SplitObs) that the Python peers in
// peers.py use for the same workloads.
//
// # Running it
//
//	make bench      # every hot path beside its baseline, then the issues' speed targets
//	make compare    # the same, plus NumPy, PyTorch and scikit-learn; writes results/<machine>.json
//	make chart      # redraws docs/performance*.png and docs/performance.md from results/
//
// The make targets run cmd/obskit-bench, which runs the benchmarks of this
// package and the packages' own benchmarks of their targets (subset's
// BenchmarkShuffled and BenchmarkViewOfViews, stream's
// BenchmarkParallelMapSpeedup, npy's BenchmarkOpen, the provider's
// BenchmarkEpochRatio) with go test, and bench/peers.py with Python. To run
// this module's benchmarks alone, from the repository root:
//
//	go test -C bench -run '^$' -bench . -benchmem ./
//
// # The workloads
//
// All work on 60000 observations of 784 features (MNIST's shape), batches of 128
// from a shuffled order, so that no batch finds its data in cache. (The uint8
// array is 47 MB: where the last-level cache is that large, as on the VM of
// docs/performance.md, which reports 260 MiB, much of it stays cached, and its
// gathers and their copy() run faster than memory allows for the float arrays.)
//
//   - BenchmarkGather: Array.GetObsInto per element type (float32, float64,
//     uint8) and layout (observation-first, observation-last, and after the
//     relayout ObsFirst); the observation-first gathers also beside the C
//     reference (internal/cref: the same rows copied by C's memcpy, alone,
//     prefetching two rows ahead, and with the row kernel's prefetch cursor);
//   - BenchmarkPaired and BenchmarkObsFirst: issue 2's gathers against their
//     baselines on the thread's CPU clock (internal/cpuclock), and the
//     relayout;
//   - BenchmarkKernel: the row kernel's experiments, where a shuffled gather's
//     time goes on the machine at hand (row size, prefetch distance, copy
//     routine and non-temporal stores, huge pages);
//   - BenchmarkSplit: one batch gathered by two goroutines
//     (gather.GatherPart) against one, from 32 to 4096 rows, beside the same
//     split in C;
//   - BenchmarkTuple: batches of an (X, y) tuple, beside X alone;
//   - BenchmarkSubset: batches of the training view of a shuffled 80/20 split;
//   - BenchmarkEpoch: one shuffled epoch of the (X, y) tuple through
//     eachobs.Batches, beside a naive loop copying the same shuffled rows;
//   - BenchmarkPrefetch: the same epoch with a loop body as costly as the
//     gather (a linear layer's forward pass, or arithmetic), serial and with
//     Prefetch(1); BenchmarkHandoff: the same shape with plain goroutines,
//     once with blocking channel receives and once with the polling receive the
//     kit uses (internal/pipeline), which shows why the kit polls;
//   - BenchmarkMappedEpoch: the epoch over a memory-mapped .npy file, beside the
//     same file read into memory.
//
// # Reading the output
//
// Kit and baselines run alternately within every iteration, so load from
// other processes hits them alike. Each side reports its own throughput as
// "<side>-MB/s" (the standard MB/s column is the rate of all sides together)
// and every baseline a ratio "x-<side>": the baseline's time over the kit's for
// one operation. Above 1 the kit is faster; for a baseline that moves the same
// bytes it is the kit's throughput as a multiple of the baseline's, so x-copy
// 0.9 means the kit moves data at 90% of the speed of copy().
// allocs/op counts the allocations of all sides; the baselines allocate
// nothing.
package bench
