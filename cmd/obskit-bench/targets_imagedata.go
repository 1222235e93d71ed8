package main

// Issue 16's speed targets measured through the kit's image loader (branch
// rec): imagedata.Decode over an ImageFolder and over a .rec, files read from
// disk as torchvision's ImageFolder reads them, beside torchvision's DataLoader
// and full-size decoding in one benchmark whose sides alternate (imagedata's
// BenchmarkLoader). augment's BenchmarkImages (targets_images.go) measures the
// same pipeline over bytes in memory.
func init() {
	goRuns = append(goRuns, goRun{Pkg: "imagedata", Bench: "^BenchmarkLoader$", Benchtime: "1x"})
	const set = "imagedata.Decode over an ImageFolder of 2000 JPEGs near 500x375 at quality 90: decode + RandomResizedCrop(224) + flip + Normalize into float32 CHW batches of 64, libjpeg-turbo"
	loader := func(unit string) ref { return ref{"imagedata BenchmarkLoader", unit} }
	for _, w := range []struct{ unit, kit, tv string }{
		{"x-tv-w0", "Workers(1)", "num_workers=0"},
		{"x-tv-w1", "Workers(1)", "num_workers=1"},
		{"x-tv-w2", "Workers(2)", "num_workers=2"},
	} {
		moreTargets = append(moreTargets, targetDef{issue: 16,
			what:   set + ", eachobs with " + w.kit + ", against torchvision's DataLoader(ImageFolder(...), batch_size=64, shuffle=True, " + w.tv + ")",
			metric: "images per CPU second (all processes) / torchvision's (alternating)",
			ref:    loader(w.unit), op: ">=", want: 2})
	}
	moreTargets = append(moreTargets,
		targetDef{issue: 16, what: set + ", serially, against reading and decoding every file at full size with libjpeg-turbo",
			metric: "images per CPU second / decode-only's (alternating)", ref: loader("x-decode"), op: ">=", want: 1},
		targetDef{issue: 16, what: "no allocation per batch in the steady state of the loader's serial epoch over the folder (files read by openat/read into reused buffers)",
			metric: "allocations per batch, the process's, from the third batch of an epoch to the last", ref: loader("allocs/batch"), op: "<=", want: 0},
	)
	moreContext = append(moreContext,
		targetDef{issue: 16, what: "the same over a .rec (records from the mapping), serially, against full-size decoding of the files",
			metric: "images per CPU second / decode-only's (alternating)", ref: loader("x-decode-rec")},
		targetDef{issue: 16, what: "the loader over the folder, serially", metric: "images per CPU second", ref: loader("folder-w1-img/s-cpu")},
		targetDef{issue: 16, what: "the loader over the folder with Workers(2)", metric: "images per second (wall)", ref: loader("folder-w2-img/s")},
		targetDef{issue: 16, what: "the loader over the .rec with Workers(2)", metric: "images per second (wall)", ref: loader("rec-w2-img/s")},
		targetDef{issue: 16, what: "allocations per batch of the loader with Workers(2) over the folder", metric: "allocations per batch", ref: loader("allocs/batch-w2")},
		targetDef{issue: 16, what: "allocations per batch of the loader serially over the .rec", metric: "allocations per batch", ref: loader("allocs/batch-rec")},
	)
}
