# obskit: every target is a command CI or a developer runs; nothing hidden here.
GO       ?= go
# The library is the root module; each of the others is a nested module with a
# replace directive back to the root, so that the library's go.mod requires only
# what the library and its tests import: arraycontainer/dense (gonum interop),
# bench (the benchmark suite), cmd (obskit, obskit-demo, obskit-bench: plots,
# progress bars), columnar (Arrow IPC and Parquet: parquet-go and the
# compression libraries), gomlx (the GoMLX adapter: GoMLX and its pure-Go
# backend), cmd/obskit-train (the demo that trains with it, a module of its own
# so that neither the adapter nor the kit's commands require the demo's
# plotting and progress bars, or GoMLX), objstore (shard sets in an
# S3-compatible object store: the AWS SDK's S3 client) and docs (the tests of
# the guide and of the README).
MODULES  := . arraycontainer/dense bench cmd columnar gomlx cmd/obskit-train objstore docs
# Commands of the cmd module are built here and run from the repository root, so
# that the paths they are given and write read from the root.
BIN      := $(CURDIR)/.bin
FUZZTIME ?= 20s
FUZZMINIMIZE ?= 0
# make bench / make compare: runs of every benchmark, the Python of the peers,
# more flags of cmd/obskit-bench (BENCHFLAGS=-quick: one iteration of each, to
# test the pipeline).
COUNT    ?= 5
PYTHON   ?= /usr/bin/python3
BENCHFLAGS ?=

# -race needs cgo and a C compiler; without one, test without it and say so.
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo -race)

.PHONY: test vet fmtcheck tidycheck lint bench bench-columnar bench-objstore fuzz demo demo-train demo-images compare chart deps interop bench-images bench-train weed

# Debian packages the kit's tests and benchmarks use: libjpeg-turbo's header
# and library for imagecodec/turbo (found by its C part with __has_include at
# build time and dlopen at run time), scikit-learn for subset's tests
# against its splitters (run by /usr/bin/python3 through internal/pypeer),
# and boto3 for objstore's interop test with the S3 server (python3-boto3
# and its 3 dependencies, no recommends).
# deps installs the missing ones where apt-get is (CI, a Debian machine as
# root), without the packages they only recommend (scikit-learn's, matplotlib
# and pytest, would add 48 packages and 2m16s to its 64 s install, measured on
# a 2-core Zen 5 VM), and says what to install elsewhere; the tests that need
# them then skip with that message.
DEBS := libjpeg62-turbo-dev python3-sklearn python3-boto3
deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "make deps: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	  else echo "make deps: no apt-get here: install$$missing (libjpeg-turbo's header and library for imagecodec/turbo, scikit-learn for subset's tests, boto3 for objstore's)"; fi; \
	fi

# The real object store the objstore module's tests (and the command's s3://
# tests) run against: SeaweedFS's weed mini (Apache-2.0, pure Go), the version
# objstore/s3test pins, fetched from the Go module proxy and built once into
# the user's cache directory, outside the repository (~/.cache/obskit/;
# OBSKIT_WEED_CACHE moves it). The first build takes about 11 minutes of wall
# time on 2 cores, downloads included (README); after it, nothing.
weed:
	@$(GO) run -C objstore ./internal/buildweed >/dev/null

# make test runs every test of every module (and imagecodec/turbo built without
# cgo), with the race detector when cgo and a C compiler allow it, and says which.
# go vet's full set of checks runs inside go test (-vet=all) on the test build
# itself, so that a fresh machine compiles the kit once rather than once for vet
# and again for the tests; files built only without -race are vetted by make vet
# (and make lint). Every module runs even when one fails; testsum prints go
# test's usual lines from its -json output, then one line counting the tests.
# With the Debian packages in place the libjpeg-turbo tests and the
# scikit-learn and boto3 ones must run, not skip (OBSKIT_REQUIRE_TURBO,
# OBSKIT_REQUIRE_SKLEARN, OBSKIT_REQUIRE_BOTO3); the tests that need the S3
# server always must (OBSKIT_REQUIRE_S3: make weed built it).
TESTFLAGS := $(RACE) -vet=all -count=1
# GoMLX's pure-Go backend (github.com/gomlx/compute v0.1.3) turns uintptr
# arithmetic back into pointers in its matmul kernels, which the checkptr
# instrumentation -race turns on stops ("fatal error: checkptr: pointer
# arithmetic result points to invalid allocation"): the modules that run its
# graphs build its packages, and only those, without checkptr.
GOMLXMODS  := gomlx cmd/obskit-train docs
GOMLXFLAGS := $(if $(RACE),-gcflags=github.com/gomlx/compute/...=-d=checkptr=0)
test: deps fmtcheck weed $(BIN)/testsum
	@echo "make test: go test $(TESTFLAGS) ./... in each module: $(MODULES); then imagecodec/turbo with CGO_ENABLED=0"
	@echo "make test: race detector $(if $(RACE),on,OFF (no C compiler found: install gcc to enable it))"
	@req=$$(dpkg -s $(DEBS) >/dev/null 2>&1 && echo 1); \
	{ for m in $(MODULES); do echo "== $$m"; \
	    flags=""; case " $(GOMLXMODS) " in *" $$m "*) flags="$(GOMLXFLAGS)";; esac; \
	    OBSKIT_REQUIRE_TURBO=$$req OBSKIT_REQUIRE_SKLEARN=$$req OBSKIT_REQUIRE_BOTO3=$$req OBSKIT_REQUIRE_S3=1 $(GO) test -C $$m $(TESTFLAGS) $$flags -json ./... || echo "make test: go test exited with status $$? in $$m"; done; \
	  echo "== imagecodec/turbo without cgo"; \
	  CGO_ENABLED=0 $(GO) test -vet=all -count=1 -json ./imagecodec/turbo/ || echo "make test: go test exited with status $$? in imagecodec/turbo"; \
	} | $(BIN)/testsum

vet:
	@for m in $(MODULES); do $(GO) vet -C $$m ./... || exit 1; done

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# go mod tidy -diff prints what tidying would change (nothing, when every
# module's go.mod and go.sum are tidy).
tidycheck:
	@for m in $(MODULES); do (cd $$m && $(GO) mod tidy -diff) || { echo "make tidycheck: run go mod tidy in $$m"; exit 1; }; done

lint: vet fmtcheck tidycheck
	@for m in $(MODULES); do (cd $$m && $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...) || exit 1; done

# The Go benchmarks of every hot path, each beside its limit and the C
# reference in the same run, then the issues' speed targets, then Arrow and
# Parquet (bench-columnar), image decoding (bench-images: both decoders
# beside Pillow) and training with GoMLX (bench-train: beside PyTorch).
bench: deps $(BIN)/obskit-bench
	$(BIN)/obskit-bench bench -count $(COUNT) $(BENCHFLAGS)
	$(MAKE) bench-columnar
	$(MAKE) bench-objstore
	$(MAKE) bench-shard
	$(MAKE) bench-images
	$(MAKE) bench-train

# Issue 18's targets (columnar): the Arrow IPC epoch beside .npy, and the
# Parquet epochs (local order, full shuffle, .npy) over a 1 GiB table that is
# written once into $(BIN)/parquet-bench (1 GiB of Parquet and 1 GiB of .npy)
# and kept for the next run.
bench-columnar:
	$(GO) test -C columnar ./arrowipc -run '^$$' -bench . -count $(COUNT)
	mkdir -p $(BIN)/parquet-bench
	$(GO) test -C columnar ./parquet -run '^$$' -bench . -count $(COUNT) -timeout 60m -args -parquet.dir=$(BIN)/parquet-bench

# Issue 29's figures: an epoch of raw samples of 1 GiB of 64 MiB tar shards
# from memory, the local disk (page cache dropped), the S3 server on loopback
# through the cache (cold, warm) and through a proxy adding 20 ms per
# request, with 1, 2 and 4 readers (BenchmarkEpoch); the image pipeline's
# epoch over image shards from the disk and the S3 server the same ways
# (BenchmarkImages); a rank's start at 10^5 shards (BenchmarkOpenManifest).
# The ratios of each come from one run.
bench-objstore: deps weed
	$(GO) test -C objstore -run '^$$' -bench 'BenchmarkEpoch|BenchmarkImages|BenchmarkOpenManifest' -benchtime 1x -count $(COUNT) -timeout 90m .

# Issue 28's targets (shard): an epoch of raw samples of about 1 GB of 64 MiB
# tar shards on local disk in the two-level shuffled order beside the same
# bytes read as one file, cold (page cache dropped) and warm
# (BenchmarkShardEpoch: x-file >= 0.9); the image pipeline over image shards
# beside the same images in a .rec and a folder (BenchmarkShardImages:
# x-rec >= 0.95); the time to the first batch (BenchmarkShardFirstBatch);
# shard.Open at 10^5 shards, its time and the heap it holds
# (BenchmarkShardOpen). The ratios of each come from one run.
.PHONY: bench-shard
bench-shard: deps
	$(GO) test -run '^$$' -bench '^BenchmarkShard' -benchtime 1x -count $(COUNT) -timeout 60m ./shard/

# The same with NumPy, PyTorch and scikit-learn (bench/peers.py, run with
# PYTHON as sides of the same benchmarks), this machine's results file in
# bench/results/ (one file per machine, named after its CPU: a run replaces
# its own machine's file and keeps the others'), then its chart and section
# of docs/performance.md (make chart).
compare: deps $(BIN)/obskit-bench
	$(BIN)/obskit-bench compare -count $(COUNT) -python $(PYTHON) -out bench/results/ $(BENCHFLAGS)
	$(MAKE) chart

# Redraws docs/performance-<machine>.png and the generated section of
# docs/performance.md, a section per machine, from bench/results/, without
# measuring.
chart: $(BIN)/obskit-bench
	$(BIN)/obskit-bench report -in bench/results -charts docs

# Image decoding, decode only: the pure-Go and libjpeg-turbo decoders (full
# size, scale 1/2 and 1/4, a crop) beside Pillow's decode of the same 300
# JPEGs, alternating in each iteration; Pillow from PYTHON (Debian's
# python3-pil, installed here when missing).
bench-images: DEBS += python3-pil
bench-images: deps
	PYTHON=$(PYTHON) $(GO) test -run '^$$' -bench '^BenchmarkDecode$$' -benchtime $(COUNT)x ./imagecodec/turbo/

# Issue 19's and 30's figures: the gomlx adapter's time per batch beside the
# plain loop's and beside a copy() of the batch (BenchmarkAdapter), the two
# ownership routes of GoMLX v0.28 (BenchmarkOwnership), a CNN step fed uint8
# normalized in the graph or float32 (BenchmarkNormalizeStep), then the training loop
# of the demo's CNN, GoMLX through the adapter beside PyTorch
# (a DataLoader, 1 and 2 threads; Debian's python3-torch from PYTHON, installed
# here when missing), alternating COUNT rounds (obskit-train -bench).
bench-train: DEBS += python3-torch
bench-train: deps
	$(GO) test -C gomlx -run '^$$' -bench 'Adapter|Ownership|NormalizeStep' -count $(COUNT)
	$(GO) build -C cmd/obskit-train -o $(BIN)/obskit-train .
	$(BIN)/obskit-train -bench $(COUNT) -python $(PYTHON)

# Runs every fuzz target of every module for FUZZTIME each. Go's fuzzer
# minimizes each input that adds coverage (for up to -fuzzminimizetime, 60 s by
# default) before it counts that worker's executions, and the file targets cost
# about 1.5 ms an execution (a file written and mapped): at the default the
# columnar targets reported a dozen executions a minute. FUZZMINIMIZE=0 keeps
# them fuzzing (about 600 executions a second); crashers are then kept as found.
fuzz:
	@for m in $(MODULES); do \
	  for pkg in $$($(GO) list -C $$m ./...); do \
	    for f in $$($(GO) test -C $$m -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	      echo "== $$pkg $$f"; $(GO) test -C $$m -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg || exit 1; \
	    done; \
	  done; \
	done

# The columnar tests read fixtures written by independent writers (apache-arrow,
# parquet-wasm, DuckDB; arrow-go for the compressed Arrow files), committed in
# columnar/testdata/interop with their generators. This installs gen.mjs's npm
# packages (pinned by its package-lock.json, once: npm's cache keeps them), runs
# the tests that write those fixtures again and run the conformance suite on
# them (OBSKIT_INTEROP=1; make test skips them), and rewrites the arrow-go
# fixtures (arrowgo, a module of its own) in place before testing them.
INTEROP := columnar/testdata/interop
interop: $(INTEROP)/node_modules/.package-lock.json
	OBSKIT_INTEROP=1 $(GO) test -C columnar -count=1 -run 'TestInteropRegenerated' ./...
	cd $(INTEROP)/arrowgo && $(GO) run . $(CURDIR)/$(INTEROP)
	$(GO) test -C columnar -count=1 -run 'TestInterop$$|TestConformance' ./...

$(INTEROP)/node_modules/.package-lock.json: $(INTEROP)/package-lock.json
	cd $(INTEROP) && npm ci --no-audit --no-fund

demo: $(BIN)/obskit-demo
	$(BIN)/obskit-demo $(ARGS)

# The demo that learns (issues 19, 30): a small CNN (convolutions, max-pooling,
# dense) trained with GoMLX v0.28's pure-Go backend (no cgo, no XLA) on the
# embedded digits through the gomlx adapter, the uint8 pixels normalized in the
# graph: stratified split, 3-fold cross-validation of the learning rate on
# augmented batches, early stopping, accuracy per epoch, the learning curves in
# $(BIN)/obskit-train.png and the share of step time spent waiting for data.
# ARGS passes flags (-h lists them).
demo-train:
	$(GO) build -C cmd/obskit-train -o $(BIN)/obskit-train .
	$(BIN)/obskit-train -png $(BIN)/obskit-train.png $(ARGS)

# The image loader end to end with obskit's commands: the shared photographs
# (in imagecodec/testdata/images), listed 8 times over with a class per photo,
# packed into a .rec as MXNet's im2rec packs them (JPEG at quality 90, the
# shorter side 375 pixels), a contact sheet of the first 16 images of a
# shuffled epoch augmented as MXNet's ImageRecordIter would (DEMO_AUG, MXNet's
# parameter names: random crop and mirror, contrast and illumination,
# ImageNet's mean and std), and the throughput of its augmented batches,
# serially and with two workers, beside decoding the same images at full
# size. Everything goes to $(DEMO).
DEMO        := $(BIN)/demo-images
DEMO_PHOTOS := astronaut.png camera_gray.jpg chelsea_q95_444.jpg coffee_q85_422.jpg coins_gray.png \
               color_cmyk.jpg horse_palette.png logo_rgba.png orig_hubble_deep_field.jpg orig_rocket.jpg
DEMO_AUG    := --data_shape 3,224,224 --rand_crop --rand_mirror --max_random_contrast 0.2 \
               --max_random_illumination 20 --mean_r 123.68 --mean_g 116.28 --mean_b 103.53 \
               --std_r 58.395 --std_g 57.12 --std_b 57.375
demo-images: deps $(BIN)/obskit
	@mkdir -p $(DEMO)
	@n=0; for copy in 1 2 3 4 5 6 7 8; do k=0; for f in $(DEMO_PHOTOS); do \
	  printf '%d\t%d\t%s\n' $$n $$k $$f; n=$$((n+1)); k=$$((k+1)); done; done > $(DEMO)/photos.lst
	$(BIN)/obskit rec pack --resize 375 --quality 90 $(DEMO)/photos imagecodec/testdata/images
	$(BIN)/obskit rec sheet --n 16 --seed 1 $(DEMO_AUG) $(DEMO)/photos.rec $(DEMO)/sheet.png > $(DEMO)/sheet.jsonl
	@echo "contact sheet: $(DEMO)/sheet.png (the images, one JSON line each: $(DEMO)/sheet.jsonl)"
	$(BIN)/obskit rec bench --batch 16 --workers 1,2 $(DEMO_AUG) $(DEMO)/photos.rec

# Always rebuilt (go build is a no-op when nothing changed).
.PHONY: $(BIN)/obskit $(BIN)/obskit-bench $(BIN)/obskit-demo $(BIN)/testsum
$(BIN)/obskit $(BIN)/obskit-bench $(BIN)/obskit-demo:
	$(GO) build -C cmd -o $@ ./$(notdir $@)
$(BIN)/testsum:
	@$(GO) build -C cmd -o $@ ./internal/testsum
