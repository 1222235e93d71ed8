package main

// Issue 17's targets of the loops (branch loops): the cipher order's epoch and
// resuming a loop of 10^9 observations; a file of its own, appended to the
// suite's lists as targets_streams.go is.
func init() {
	goRuns = append(goRuns, goRun{Pkg: "index", Bench: "^BenchmarkCipher$"})
	moreTargets = append(moreTargets,
		targetDef{issue: 17, what: "shuffled epoch of 60000x784 float32 in batches of 128 with the cipher order (eachobs.Shuffle) against the array permutation (eachobs.ShufflePerm)",
			metric: "throughput / the array permutation's (alternating)", ref: ref{"bench BenchmarkCipherEpoch", "x-perm"}, op: ">=", want: 0.97},
		targetDef{issue: 17, what: "resume anywhere in an epoch of n = 10^9 (Loader.Resume and the first batch of 128)",
			metric: "ns per resume", ref: ref{"bench BenchmarkResume/Resume+batch", "ns/op"}, op: "<", want: 1e6},
		targetDef{issue: 17, what: "resume anywhere in an epoch of n = 10^9: the memory Loader.Resume takes",
			metric: "bytes per resume", ref: ref{"bench BenchmarkResume/Resume", "B/op"}, op: "<", want: 1024},
	)
	moreContext = append(moreContext,
		targetDef{issue: 17, what: "resume with the array permutation (ShufflePerm), n = 10^7: the epoch's permutation drawn again",
			metric: "ns per resume", ref: ref{"bench BenchmarkResume/ShufflePerm-1e7+batch", "ns/op"}},
		targetDef{issue: 17, what: "positions of an epoch of 60,000 computed by the cipher (index.Cipher.Fill, 128 at a time)",
			metric: "ns per position", ref: ref{"index BenchmarkCipher/Cipher.Fill", "ns/position"}},
		targetDef{issue: 17, what: "positions of an epoch of 60,000 from an array permutation (index.PermInto, then read 128 at a time)",
			metric: "ns per position", ref: ref{"index BenchmarkCipher/baseline=PermInto", "ns/position"}},
	)
}
