package main

// Issue 16's speed targets (branch aug): decode + RandomResizedCrop(224) +
// flip + normalize into float32 CHW batches of 64 through eachobs, against
// torchvision's DataLoader and against decoding alone, all measured by one
// benchmark whose sides alternate (augment's BenchmarkImages); a file of its
// own, appended to the suite's lists in init, as the other branches do.
func init() {
	goRuns = append(goRuns, goRun{Pkg: "augment", Bench: "^BenchmarkImages$", Benchtime: "1x"})
	const set = "2000 JPEGs near 500x375 at quality 90 made from the testdata photos: decode + RandomResizedCrop(224) + flip + Normalize into float32 CHW batches of 64"
	images := func(unit string) ref { return ref{"augment BenchmarkImages", unit} }
	for _, w := range []struct{ unit, kit, tv string }{
		{"x-tv-w0", "serially", "num_workers=0"},
		{"x-tv-w1", "with Workers(1)", "num_workers=1"},
		{"x-tv-w2", "with Workers(2)", "num_workers=2"},
	} {
		moreTargets = append(moreTargets, targetDef{issue: 16,
			what:   set + ", libjpeg-turbo, through eachobs " + w.kit + ", against torchvision's DataLoader(ImageFolder(...), batch_size=64, shuffle=True, " + w.tv + ")",
			metric: "images per CPU second (all processes) / torchvision's (alternating)",
			ref:    images(w.unit), op: ">=", want: 2})
	}
	moreTargets = append(moreTargets,
		targetDef{issue: 16, what: set + ", libjpeg-turbo, serially, against decoding every image at full size with libjpeg-turbo",
			metric: "images per CPU second / decode-only's (alternating)", ref: images("x-decode"), op: ">=", want: 1},
		targetDef{issue: 16, what: "the same with the pure-Go decoder (the first 1024 images), against decoding them at full size with it",
			metric: "images per CPU second / decode-only's (alternating)", ref: images("x-decode-go"), op: ">=", want: 0.85},
		targetDef{issue: 16, what: "no allocation per batch in the steady state of the serial epoch with libjpeg-turbo (which allocates nothing in Go)",
			metric: "allocations per batch, the process's, from the fifth batch of an epoch to the last", ref: images("allocs/batch"), op: "<=", want: 0},
	)
	moreContext = append(moreContext,
		targetDef{issue: 16, what: set + ": the share of the serial epoch's CPU time spent in libjpeg-turbo (Config and the crop's Decode)",
			metric: "decoder CPU time / epoch CPU time", ref: images("decode-share")},
		targetDef{issue: 16, what: "the kit serially with libjpeg-turbo", metric: "images per CPU second", ref: images("kit-w0-img/s-cpu")},
		targetDef{issue: 16, what: "the kit with Workers(2)", metric: "images per second (wall)", ref: images("kit-w2-img/s")},
		targetDef{issue: 16, what: "torchvision with num_workers=0", metric: "images per CPU second", ref: images("tv-w0-img/s-cpu")},
		targetDef{issue: 16, what: "torchvision with num_workers=2", metric: "images per second (wall)", ref: images("tv-w2-img/s")},
		targetDef{issue: 16, what: "libjpeg-turbo decoding at full size", metric: "images per CPU second", ref: images("decode-img/s-cpu")},
		targetDef{issue: 16, what: "the pure-Go decoder at full size", metric: "images per CPU second", ref: images("decode-go-img/s-cpu")},
		targetDef{issue: 16, what: "allocations per batch with Workers(2), libjpeg-turbo", metric: "allocations per batch", ref: images("allocs/batch-w2")},
		targetDef{issue: 16, what: "allocations per batch serially with the pure-Go decoder (image/jpeg allocates its planes)", metric: "allocations per batch", ref: images("allocs/batch-go")},
	)
}
