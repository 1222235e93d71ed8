// Package bench is obskit's benchmark suite: the hot paths of a training loop
// measured against their limit (copy() of the same bytes, rand.Perm), the C
// reference (internal/cref) and the Python libraries users would otherwise
// pick (peers.py), all in the same benchmark.
//
// # Running it
//
//	make bench      # the suite and the issues' targets, without the Python peers
//	make compare    # the same with NumPy, PyTorch and scikit-learn; writes results/<machine>.json
//	make chart      # redraws docs/performance-<machine>.png and docs/performance.md from results/
//
// The make targets run cmd/obskit-bench, which runs this package's benchmarks
// and the packages' own benchmarks of their targets with go test. To run this
// module's benchmarks alone, from the repository root (OBSKIT_PYTHON adds the
// peers):
//
//	OBSKIT_PYTHON=/usr/bin/python3 go test -C bench -run '^$' -bench . ./
//
// # How it measures
//
// A user's loop gathers batch after batch into one reused buffer, so every
// benchmark alternates its sides pass by pass: each side (obskit, the limit,
// C, a peer in the peers.py process) runs a whole pass, an epoch of shuffled
// batches into its own buffer, and the sides take turns, rotating which goes
// first, so that load from other processes hits them alike and the ratios
// come from one run. A side's figure is its fastest pass, timed by the CPU
// clock of the thread that runs it (Python's time.thread_time for a peer),
// which stops while other processes have the core: on a machine shared with
// other work a pass's wall time is mostly theirs. Sides whose work runs on
// other goroutines too (a split batch, a prefetching loop), and allocations
// large enough that the garbage collector's threads matter (splits, the
// relayout), are timed by the wall clock. BenchmarkPlain, the kit's loop
// alone, checks that the suite's figure agrees with a user's program.
//
// The gathers run in two regimes: "cache", an array of a quarter of the
// last-level cache (read from sysfs), where a side's turn is 8 passes and its
// figure the fastest, so that its array is back in the cache; "dram", at
// least four times that cache and never less than 60000 x 784, so that every
// pass reads memory. A figure belongs to its
// regime: a 188 MB array is in DRAM on a CPU with 32 MiB of cache and mostly
// in cache on one with 260 MiB.
//
// # Reading the output
//
// Each side reports its throughput, "<side>-MB/s" (or Mobs/s), and every side
// after the first (obskit) "x-<side>": that side's time over obskit's for one
// pass, above 1 when obskit is faster; for sides that move the same bytes it
// is obskit's throughput as a multiple of theirs. "kit-allocs/op" counts
// obskit's allocations per pass. The standard ns/op is the time of one pass
// of every side.
package bench
