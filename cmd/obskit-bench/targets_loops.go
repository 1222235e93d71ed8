package main

// Issue 17's targets of the loops (branch loops): the cipher order's epoch,
// resuming a loop of 10^9 observations and the locality order's reads; a file of its own, appended to the
// suite's lists as targets_streams.go is.
// locality describes BenchmarkLocality's workload.
const locality = "an epoch of a memory-mapped 2 GiB .npy of 4 KiB observations in batches of 128, in a 512 MiB memory cgroup, the file evicted before each pass"

func init() {
	goRuns = append(goRuns, goRun{Pkg: "index", Bench: "^BenchmarkCipher$"})
	moreTargets = append(moreTargets,
		targetDef{issue: 17, what: "shuffled epoch of 60000x784 float32 in batches of 128 with the cipher order (eachobs.Shuffle) against the array permutation (eachobs.ShufflePerm)",
			metric: "throughput / the array permutation's (alternating)", ref: ref{"bench BenchmarkCipherEpoch", "x-perm"}, op: ">=", want: 0.97},
		targetDef{issue: 26, what: "shuffled epoch of 60000x784 float32 in batches of 128 pulled through eachobs.Iter.Next against a copy of the range loop it replaced (bench/internal/rangeloop)",
			metric: "the kept range loop's time / the pull form's (alternating)", ref: ref{"bench BenchmarkPullLoop", "x-range-kept"}, op: ">=", want: 0.95},
		targetDef{issue: 17, what: "resume anywhere in an epoch of n = 10^9 (a new Loader.Iter, UnmarshalBinary of a saved position, and the first batch of 128)",
			metric: "ns per resume", ref: ref{"bench BenchmarkResume/Resume+batch", "ns/op"}, op: "<", want: 1e6},
		targetDef{issue: 17, what: "resume anywhere in an epoch of n = 10^9: the memory a restore takes (Loader.Iter and Iter.UnmarshalBinary)",
			metric: "bytes per resume", ref: ref{"bench BenchmarkResume/Resume", "B/op"}, op: "<", want: 1024},
	)
	moreContext = append(moreContext,
		targetDef{issue: 17, what: "resume with the array permutation (ShufflePerm), n = 10^7: the epoch's permutation drawn again",
			metric: "ns per resume", ref: ref{"bench BenchmarkResume/ShufflePerm-1e7+batch", "ns/op"}},
		targetDef{issue: 17, what: "positions of an epoch of 60,000 computed by the cipher (index.Cipher.Fill, 128 at a time)",
			metric: "ns per position", ref: ref{"index BenchmarkCipher/Cipher.Fill", "ns/position"}},
		targetDef{issue: 17, what: "positions of an epoch of 60,000 from an array permutation (index.PermInto, then read 128 at a time)",
			metric: "ns per position", ref: ref{"index BenchmarkCipher/baseline=PermInto", "ns/position"}},
		targetDef{issue: 17, what: locality + ": epoch time of the full shuffle (eachobs.Shuffle, MADV_RANDOM, a quarter of the epoch extrapolated) over the two-level order's (ShuffleBlocksOf, blocks of 4 MiB in windows of 16)",
			metric: "full shuffle time / two-level time", ref: ref{"bench BenchmarkLocality", "x-cipher"}},
		targetDef{issue: 17, what: locality + ": read from storage per epoch, two-level order",
			metric: "MB read per epoch", ref: ref{"bench BenchmarkLocality", "blocks-read-MB"}},
		targetDef{issue: 17, what: locality + ": read from storage per epoch, full shuffle",
			metric: "MB read per epoch", ref: ref{"bench BenchmarkLocality", "cipher-read-MB"}},
		targetDef{issue: 17, what: locality + ": distinct 4 KiB pages a batch of 128 touches, two-level order",
			metric: "pages per batch", ref: ref{"bench BenchmarkLocality", "blocks-pages/batch"}},
		targetDef{issue: 17, what: locality + ": distinct 4 KiB pages a batch of 128 touches, full shuffle",
			metric: "pages per batch", ref: ref{"bench BenchmarkLocality", "cipher-pages/batch"}},
		targetDef{issue: 17, what: locality + ": distinct 4 MiB regions a batch of 128 reads from, two-level order",
			metric: "regions per batch", ref: ref{"bench BenchmarkLocality", "blocks-regions/batch"}},
		targetDef{issue: 17, what: locality + ": distinct 4 MiB regions a batch of 128 reads from, full shuffle",
			metric: "regions per batch", ref: ref{"bench BenchmarkLocality", "cipher-regions/batch"}},
		targetDef{issue: 17, what: locality + ": 1 when the process ran in its memory cgroup (as root), 0 when the page cache was not limited",
			metric: "limited", ref: ref{"bench BenchmarkLocality", "limited"}},
	)
}
