package main

// Issue 17's targets of mixing and packing and the figures of checkpointable
// streams (branch streams): a file of their own, appended to the suite's lists,
// so that the branches of issue 17 add their runs and targets without editing
// each other's lines. The checkpointable stages are package stream's since
// issue 26 merged stream/resumable into it: the plain range-over-func readers
// they are measured against are kept in its benchmark.
func init() {
	goRuns = append(goRuns, goRun{Pkg: "stream", Bench: "^Benchmark(StagesVsPlain|Save)$"})
	moreTargets = append(moreTargets,
		targetDef{issue: 17, what: "shuffled epoch of a 3:2:1 mix of three containers (mix.Views of the (X, y) data of 60000x784 float32, batches of 128) against the epoch over the one container of the same 60000 observations",
			metric: "throughput / one container's (alternating)", ref: ref{"bench BenchmarkMixEpoch", "x-one"}, op: ">=", want: 0.95},
	)
	const pack = "packing 10^6 whitespace-tokenized paragraphs of Go's source tree and the licenses into batches of 8 rows of 512"
	moreContext = append(moreContext,
		targetDef{issue: 17, what: pack + ", first-fit (16 open rows)",
			metric: "tokens MB/s (4 bytes a token)", ref: ref{"bench BenchmarkPack", "pack-ff-MB/s"}},
		targetDef{issue: 17, what: pack + ": length bucketing (stream.Bucket + stream.Mask) against first-fit packing",
			metric: "bucketing time / first-fit time", ref: ref{"bench BenchmarkPack", "x-bucket"}},
		targetDef{issue: 17, what: pack + ": best-fit-decreasing (windows of 1024) against first-fit",
			metric: "best-fit-decreasing time / first-fit time", ref: ref{"bench BenchmarkPack", "x-pack-bfd"}},
		targetDef{issue: 17, what: pack + ": padding of first-fit packing",
			metric: "padding / slots", ref: ref{"bench BenchmarkPack", "padding-pack-ff"}},
		targetDef{issue: 17, what: pack + ": padding of best-fit-decreasing packing",
			metric: "padding / slots", ref: ref{"bench BenchmarkPack", "padding-pack-bfd"}},
		targetDef{issue: 17, what: pack + ": padding of length bucketing (batches of about 4096 tokens padded to their longest)",
			metric: "padding / slots", ref: ref{"bench BenchmarkPack", "padding-bucket"}},
		targetDef{issue: 17, what: pack + ": padding of plain batches of 64 padded to their longest",
			metric: "padding / slots", ref: ref{"bench BenchmarkPack", "padding-batch"}},
		targetDef{issue: 17, what: pack + ": padding of one sequence per row of 512",
			metric: "padding / slots", ref: ref{"bench BenchmarkPack", "padding-rows"}},
		targetDef{issue: 17, what: "checkpointable stream stages against plain range-over-func readers (the package's before issue 26): ShuffleBuffer(1000) + Batches(32) over 100,000 ints",
			metric: "stages time / plain readers' time (alternating)", ref: ref{"stream BenchmarkStagesVsPlain", "stages/plain"}},
		targetDef{issue: 17, what: "the saved state of a pass standing in a full shuffle buffer of 10,000 ints",
			metric: "bytes", ref: ref{"stream BenchmarkSave", "state-bytes"}},
		targetDef{issue: 17, what: "saving that pass (Iter.MarshalBinary)",
			metric: "ns per save", ref: ref{"stream BenchmarkSave", "ns/op"}},
	)
}
