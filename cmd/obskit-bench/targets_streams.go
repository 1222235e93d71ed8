package main

// Issue 17's targets of mixing and packing (branch streams): a file of their own,
// appended to the suite's lists, so that the branches of issue 17 add their
// targets without editing each other's lines.
func init() {
	targetDefs = append(targetDefs,
		targetDef{Issue: 17, What: "shuffled epoch of a 3:2:1 mix of three containers (mix.Views of the (X, y) data of 60000x784 float32, batches of 128) against the epoch over the one container of the same 60000 observations",
			Metric: "throughput / one container's (alternating)",
			Ref:    metricRef{"bench", "BenchmarkMixEpoch", "x-one"}, Op: ">=", Want: 0.95},
	)
	const pack = "packing 10^6 whitespace-tokenized paragraphs of Go's source tree and the licenses into batches of 8 rows of 512"
	contextDefs = append(contextDefs,
		targetDef{Issue: 17, What: pack + ", first-fit (16 open rows)",
			Metric: "tokens MB/s (4 bytes a token)", Ref: metricRef{"bench", "BenchmarkPack", "pack-ff-MB/s"}},
		targetDef{Issue: 17, What: pack + ": length bucketing (stream.Bucket + stream.Mask) against first-fit packing",
			Metric: "bucketing time / first-fit time", Ref: metricRef{"bench", "BenchmarkPack", "x-bucket"}},
		targetDef{Issue: 17, What: pack + ": best-fit-decreasing (windows of 1024) against first-fit",
			Metric: "best-fit-decreasing time / first-fit time", Ref: metricRef{"bench", "BenchmarkPack", "x-pack-bfd"}},
		targetDef{Issue: 17, What: pack + ": padding of first-fit packing",
			Metric: "padding / slots", Ref: metricRef{"bench", "BenchmarkPack", "padding-pack-ff"}},
		targetDef{Issue: 17, What: pack + ": padding of best-fit-decreasing packing",
			Metric: "padding / slots", Ref: metricRef{"bench", "BenchmarkPack", "padding-pack-bfd"}},
		targetDef{Issue: 17, What: pack + ": padding of length bucketing (batches of about 4096 tokens padded to their longest)",
			Metric: "padding / slots", Ref: metricRef{"bench", "BenchmarkPack", "padding-bucket"}},
		targetDef{Issue: 17, What: pack + ": padding of plain batches of 64 padded to their longest",
			Metric: "padding / slots", Ref: metricRef{"bench", "BenchmarkPack", "padding-batch"}},
		targetDef{Issue: 17, What: pack + ": padding of one sequence per row of 512",
			Metric: "padding / slots", Ref: metricRef{"bench", "BenchmarkPack", "padding-rows"}},
	)
}
