package bench

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/bench/internal/rangeloop"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

type mnistData = arraycontainer.LabeledTuple[float32, int]

// data is the (X, y) data of the labelled workloads: rows observations of
// random float32 features (no page is the kernel's shared zero page) and
// labels in 0..9, and the slices behind them.
func data(b *testing.B, rows int) (d *mnistData, x []float32, y []int) {
	a := filled[float32](b, rows)
	x = a.Data()
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range x {
		x[i] = rng.Float32()
	}
	y = make([]int, rows)
	for i := range y {
		y[i] = rng.IntN(10)
	}
	d, err := tuples.Zip2(a, container.FromSlice(y))
	if err != nil {
		b.Fatal(err)
	}
	return d, x, y
}

// epochSide runs one pass of loop per operation.
func epochSide[B any](name string, loop iter.Seq[eachobs.Batch[B]], amount int64) side {
	return timed(name, amount, func() {
		for range loop {
		}
	})
}

// BenchmarkEpoch moves one shuffled epoch of the (X, y) tuple through
// eachobs.Batches(data, 128, eachobs.Shuffle(seed)) per pass, in each regime,
// beside copy() of the same bytes batch by batch (x-copy; issue 3 asks for at
// least 0.9), a naive loop copying the same shuffled rows one by one
// (x-rowcopy), and the peers: NumPy fancy indexing and np.take(out=), PyTorch
// DataLoader(TensorDataset). kit-allocs/op is the loop's allocations per
// epoch: none per batch.
func BenchmarkEpoch(b *testing.B) {
	for _, r := range regimes {
		b.Run(r.name, func(b *testing.B) {
			rows := r.rows(Width * 4)
			d, x, y := data(b, rows)
			bx, by := make([]float32, BatchSize*Width), make([]int, BatchSize)
			perm := rand.New(rand.NewPCG(5, 5)).Perm(rows)
			amount := int64(rows * (Width*4 + 8))
			sides := []side{
				epochSide("eachobs", eachobs.Batches(d, BatchSize, eachobs.Shuffle(2)), amount),
				timed("copy", amount, func() {
					for lo := 0; lo < rows; lo += BatchSize {
						hi := min(rows, lo+BatchSize)
						copy(bx, x[lo*Width:hi*Width])
						copy(by, y[lo:hi])
					}
				}),
				timed("rowcopy", amount, func() {
					for lo := 0; lo < rows; lo += BatchSize {
						for j, i := range perm[lo:min(rows, lo+BatchSize)] {
							copy(bx[j*Width:(j+1)*Width], x[i*Width:(i+1)*Width])
							by[j] = y[i]
						}
					}
				}),
			}
			sides = append(sides, peers(b, amount, "epoch", map[string]any{"obs": rows})...)
			paired(b, "MB/s", r.name == "cache", sides...)
		})
	}
}

// weights are the linear layer's.
var weights = func() []float32 {
	w := make([]float32, Width)
	for i := range w {
		w[i] = float32(i%7) / 7
	}
	return w
}()

// linear is the forward pass of a linear layer over n rows of the batch, in
// turn (n above the batch's rows passes over it again): a row's dot product
// with fixed weights.
func linear(batch []float32, n int) float32 {
	var s float32
	w, rows := weights, len(batch)/Width
	for k := range n {
		r := batch[k%rows*Width:][:Width]
		var a0, a1, a2, a3 float32
		for j := 0; j+4 <= len(r); j += 4 {
			a0 += r[j] * w[j]
			a1 += r[j+1] * w[j+1]
			a2 += r[j+2] * w[j+2]
			a3 += r[j+3] * w[j+3]
		}
		s += a0 + a1 + a2 + a3
	}
	return s
}

// compute is n x 10 rounds of xorshift seeded by the batch's first value: CPU
// work that reads almost nothing of the batch.
func compute(batch []float32, n int) float32 {
	x := uint64(batch[0]*1e6) | 1
	for range n * 10 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return float32(x & 1)
}

var sink float32

// BenchmarkPrefetch measures one shuffled epoch of the (X, y) tuple with a
// loop body that costs as much as the gather, serial and with Prefetch(1), for
// two bodies: linear, a linear layer's forward pass over rows of the batch
// (the whole batch when it costs less than the gather, then rows again), and
// compute, arithmetic that reads one value. The body's amount of work is
// calibrated here, to a row (or 10 rounds), from the best of three timings of
// a gather and of a body (load can only lengthen them). It reports
// prefetch/serial (issue 3 asks for at most 0.6; 0.5 is perfect overlap) and
// body/gather, the body's measured cost over the gather's.
func BenchmarkPrefetch(b *testing.B) {
	d, _, _ := data(b, Obs)
	for _, bc := range []struct {
		name string
		work func([]float32, int) float32
	}{{"linear", linear}, {"compute", compute}} {
		b.Run(bc.name, func(b *testing.B) {
			serial := eachobs.Batches(d, BatchSize, eachobs.Shuffle(4))
			var batch []float32
			for bt := range serial {
				batch = slices.Clone(bt.Data.X.Data())
				break
			}
			const units = 1000 // rows, or rounds of 10
			gather, body := time.Duration(1<<62), time.Duration(1<<62)
			for range 3 {
				t0 := time.Now()
				for range serial {
				}
				gather = min(gather, time.Since(t0)/time.Duration(Obs/BatchSize+1))
				t0 = time.Now()
				for range 10 {
					sink += bc.work(batch, units)
				}
				body = min(body, time.Since(t0)/10)
			}
			reps := max(1, int(units*gather/max(body, 1)))
			prefetch := eachobs.Batches(d, BatchSize, eachobs.Shuffle(4), eachobs.Prefetch(1))
			var tBody, tGather time.Duration
			best := paired(b, "MB/s", false,
				wallTimed("prefetch", 0, func() {
					for bt := range prefetch {
						sink += bc.work(bt.Data.X.Data(), reps)
					}
				}),
				wallTimed("serial", 0, func() {
					last := time.Now()
					for bt := range serial {
						t := time.Now()
						tGather += t.Sub(last)
						sink += bc.work(bt.Data.X.Data(), reps)
						last = time.Now()
						tBody += last.Sub(t)
					}
				}))
			b.ReportMetric(float64(best[0])/float64(best[1]), "prefetch/serial")
			b.ReportMetric(float64(tBody)/float64(tGather), "body/gather")
		})
	}
}

// BenchmarkMappedEpoch runs one shuffled epoch of eachobs.Batches(x, 128,
// Shuffle) per pass over the features of the (X, y) data saved as a .npy
// file (188 MB) and memory-mapped with npy.Open, its pages cached and mapped
// by a first epoch; beside it the same loop over the file read into memory
// with npy.Load (x-memory: issue 5 asks for at least 0.9), copy() of the same
// bytes batch by batch from the mapping, and NumPy's np.load(mmap_mode="r")
// with X[idx].
func BenchmarkMappedEpoch(b *testing.B) {
	d, _, _ := data(b, Obs)
	path := filepath.Join(b.TempDir(), "x.npy")
	if err := npy.Save(path, d.X()); err != nil {
		b.Fatal(err)
	}
	mem, err := npy.Load[float32](path, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	mapped, err := npy.Open[float32](path, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	const amount = Obs * Width * 4
	loop := eachobs.Batches(mapped, BatchSize, eachobs.Shuffle(3))
	for range loop {
	}
	sides := []side{
		epochSide("mapped", loop, amount),
		epochSide("memory", eachobs.Batches(mem, BatchSize, eachobs.Shuffle(3)), amount),
		copySide(mapped.Data(), BatchSize*Width, Obs/BatchSize, amount),
	}
	paired(b, "MB/s", false, append(sides, peers(b, amount, "mapped", map[string]any{"obs": Obs})...)...)
}

// BenchmarkSplits (on the wall clock: the garbage collector's share of an
// allocation runs on other threads) builds a shuffled 80/20 split and the 10 folds (every
// training and validation view) of 10,000,000 observations with subset,
// beside rand.Perm of the same size (x-perm: issue 7 asks for the kit's time
// at most twice rand.Perm's, x-perm at least 0.5) and scikit-learn's
// train_test_split and KFold (all folds).
func BenchmarkSplits(b *testing.B) {
	src := subset.Iota(SplitObs)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		kit  func() error
	}{
		{"split", func() error { _, err := subset.Split(src, rng, 0.8); return err }},
		{"kfold", func() error {
			fs, err := subset.KFolds(src, rng, 10)
			if err != nil {
				return err
			}
			for train, val := range fs.All() {
				if train.Nobs()+val.Nobs() != SplitObs {
					return fmt.Errorf("a fold of %d + %d observations", train.Nobs(), val.Nobs())
				}
			}
			return nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sides := []side{
				wallTimed("kit", SplitObs, func() {
					if err := c.kit(); err != nil {
						b.Fatal(err)
					}
				}),
				wallTimed("perm", SplitObs, func() { rng.Perm(SplitObs) }),
			}
			paired(b, "Mobs/s", false, append(sides, peers(b, SplitObs, c.name, map[string]any{"obs": SplitObs})...)...)
		})
	}
}

// BenchmarkPullLoop measures what the pull form of the loops costs per batch
// (issue 26: within 5% of the range loop it replaced): one shuffled epoch of
// the 60000x784 float32 (X, y) tuple in batches of 128, serial, through
// eachobs.Loader.Iter's Next (iter), through eachobs.Batches, the range form
// over it (batches), and through a copy of the range loop of the kit before
// the pull form (bench/internal/rangeloop: range-kept), alternating in each
// iteration. pull/range is iter's time over range-kept's.
func BenchmarkPullLoop(b *testing.B) {
	d, _, _ := data(b, Obs)
	amount := int64(Obs * (Width*4 + 8))
	l := eachobs.NewLoader(d, BatchSize, eachobs.Shuffle(2))
	var sum float32
	sides := []side{
		timed("iter", amount, func() {
			it := l.Iter()
			for b, ok := it.Next(); ok && b.Pos.Epoch == 0; b, ok = it.Next() {
				sum += b.Data.X.Data()[0]
			}
			it.Close()
		}),
		timed("batches", amount, func() {
			for b := range l.Epoch(0) {
				sum += b.Data.X.Data()[0]
			}
		}),
		timed("range-kept", amount, func() {
			for b := range rangeloop.Epoch(d, BatchSize, 2, 0) {
				sum += b.Data.X.Data()[0]
			}
		}),
	}
	paired(b, "MB/s", false, sides...)
	sink += sum
}
