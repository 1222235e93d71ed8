package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/internal/cputime"
	"github.com/obskit/obskit/mxnet"
)

func init() {
	register(command{
		group: "rec", name: "bench", args: "FILE.rec",
		summary: "measure how fast FILE.rec is served, after a pass to warm up: its images decoded at full size (decode only), then MXNet's ImageRecordIter (mxnet.ImageRecordIter, with the flags of its parameters, MXNet's names) over shuffled epochs with each number of --workers; print one JSON object per measurement: what, decoder, workers, images, seconds, cpu_seconds, images_per_second, images_per_cpu_second",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			batch := fs.Int("batch", 64, "images per batch (batch_size)")
			workers := fs.String("workers", "1,2", "the numbers of workers (preprocess_threads) to measure, separated by commas")
			prefetch := fs.Int("prefetch", 4, "batches prepared ahead (prefetch_buffer)")
			seconds := fs.Float64("seconds", 2, "measure each for at least this many seconds (and at least one pass), after a pass to warm up")
			iter := iterFlags(fs)
			return func(e *env, args []string) error {
				if len(args) != 1 {
					return usageErrorf("want FILE.rec, got %d arguments", len(args))
				}
				var ws []int
				for _, s := range strings.Split(*workers, ",") {
					w, err := strconv.Atoi(strings.TrimSpace(s))
					if err != nil || w < 1 {
						return usageErrorf("--workers %q: want numbers of at least 1, separated by commas", *workers)
					}
					ws = append(ws, w)
				}
				if *batch < 1 || *prefetch < 0 {
					return usageErrorf("--batch %d, --prefetch %d: want at least 1 and 0", *batch, *prefetch)
				}
				it, err := iter(args[0], *batch)
				if err != nil {
					return err
				}
				it.Shuffle, it.PrefetchBuffer = true, *prefetch
				return recBench(e, it, ws, time.Duration(*seconds*float64(time.Second)))
			}
		},
	})
}

// benchResult is the JSON line of obskit rec bench.
type benchResult struct {
	What       string   `json:"what"` // "decode" or "loader"
	Decoder    string   `json:"decoder"`
	Workers    int      `json:"workers,omitempty"`
	Images     int      `json:"images"`
	Seconds    float64  `json:"seconds"`
	CPUSeconds *float64 `json:"cpu_seconds"` // null where the CPU time is unknown
	PerSecond  float64  `json:"images_per_second"`
	PerCPU     *float64 `json:"images_per_cpu_second"`
}

// measure runs pass once to warm up (buffers grown, threads started), then
// until min has passed (at least once), and returns the result of what the
// timed passes counted.
func measure(what string, min time.Duration, pass func() int) benchResult {
	pass()
	runtime.GC()
	c0, cpuOK := cputime.Process()
	t0 := time.Now()
	n := 0
	for n == 0 || time.Since(t0) < min {
		n += pass()
	}
	wall := time.Since(t0)
	r := benchResult{What: what, Images: n, Seconds: wall.Seconds(), PerSecond: float64(n) / wall.Seconds()}
	if c1, ok := cputime.Process(); ok && cpuOK {
		cpu := (c1 - c0).Seconds()
		per := float64(n) / cpu
		r.CPUSeconds, r.PerCPU = &cpu, &per
	}
	return r
}

// recBench measures decoding the records' images at full size with it's
// decoder, then the iterator's epochs with each number of workers. An image
// that cannot be decoded is its error.
func recBench(e *env, it mxnet.ImageRecordIter, workers []int, min time.Duration) (err error) {
	defer recoverRead(&err)
	recs, err := imagedata.OpenRecords(it.PathImgrec, "", imagedata.All)
	if err != nil {
		return err
	}
	if recs.Nobs() == 0 {
		return fmt.Errorf("%s: no record to measure", it.PathImgrec)
	}
	enc := json.NewEncoder(e.stdout)
	var img *imagecodec.RGB
	data, err := recs.X().AppendObs(nil, 0)
	if err != nil {
		return err
	}
	cfg, err := it.Decoder.Config(it.PathImgrec, data)
	if err != nil {
		return err
	}
	decoder := decoderName(cfg.Format) // of the first image
	var decodeErr error
	r := measure("decode", min, func() int {
		for i := range recs.Nobs() {
			if data, err = recs.X().AppendObs(data[:0], i); err != nil {
				decodeErr = err
				return 1
			}
			if img, _, err = it.Decoder.Decode(img, it.PathImgrec, data, imagecodec.Request{}); err != nil {
				decodeErr = err
				return 1
			}
		}
		return recs.Nobs()
	})
	if decodeErr != nil {
		return decodeErr
	}
	r.Decoder = decoder
	if err := enc.Encode(r); err != nil {
		return err
	}
	for _, w := range workers {
		it.PreprocessThreads = w
		p, err := it.Provider()
		if err != nil {
			return err
		}
		epoch := 0
		r := measure("loader", min, func() int {
			n := 0
			for b := range p.Epoch(epoch) {
				n += b.Real
			}
			epoch++
			return n
		})
		r.Decoder, r.Workers = decoder, w
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}
