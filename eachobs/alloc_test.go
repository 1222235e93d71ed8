package eachobs_test

import (
	"iter"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// allocCase is a loop to pin at zero allocations per batch: an endless stream
// over a container.
type allocCase struct {
	name   string
	stream func(opts ...eachobs.Option) iter.Seq[struct{}]
}

// discard turns a batch loop into a loop of empty values, so that cases over
// different batch types fit one table.
func discard[B any](seq iter.Seq[eachobs.Batch[B]]) iter.Seq[struct{}] {
	return func(yield func(struct{}) bool) {
		for range seq {
			if !yield(struct{}{}) {
				return
			}
		}
	}
}

func features(t testing.TB, n, width int) *arraycontainer.Array[float32] {
	x := make([]float32, n*width)
	for i := range x {
		x[i] = float32(i)
	}
	a, err := arraycontainer.New(x, []int{n, width}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func allocCases(t testing.TB) []allocCase {
	const n, width, size = 600, 16, 8
	x := features(t, n, width)
	labels := container.FromSlice(iota(n))
	slice := container.FromSlice(make([]float64, n))
	sliceTuple, err := tuples.Zip2(slice, labels)
	if err != nil {
		t.Fatal(err)
	}
	arrayTuple, err := tuples.Zip2(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	randomTuple, err := tuples.Zip2(containertest.NewDraws(n), labels)
	if err != nil {
		t.Fatal(err)
	}
	return []allocCase{
		caseOf("slice tuple", sliceTuple, size),
		caseOf("array", x, size),
		caseOf("array and labels", arrayTuple, size),
		caseOf("array and labels, Pad", arrayTuple, size+5, eachobs.Tail(index.Pad)),
		caseOf("array and labels, RollOver", arrayTuple, size+5, eachobs.Tail(index.RollOver)),
		caseOf("array and labels, Partition", arrayTuple, size, eachobs.Partition(index.Part{Index: 1, Parts: 3, Strided: true}), eachobs.Tail(index.Pad)),
		caseOf("subset of array", subset.Range(x, 10, n-3), size),
		caseOf("shuffled subset of array and labels", subset.Shuffle(arrayTuple, rand.New(rand.NewPCG(1, 1))), size),
		caseOf("subset of slice tuple", subset.Of(sliceTuple, iota(n/2)), size),
		// Random containers draw with the slot's generator, reseeded.
		caseOf("random map", noisy(n), size),
		caseOf("subset of random container", subset.Range(containertest.NewDraws(n), 5, n), size),
		caseOf("random member and labels", randomTuple, size),
		// The two-level order resets its table of blocks from epoch to epoch.
		caseWith("array in blocks of its own, ShuffleBlocks", blockedArray{x, blocksOf(n)}, size, eachobs.ShuffleBlocks(1, 3)),
		caseWith("array, ShuffleBlocksOf", x, size, eachobs.ShuffleBlocksOf(1, 7, 3)),
	}
}

// blockedArray is an array with blocks (container.Blocked).
type blockedArray struct {
	*arraycontainer.Array[float32]
	starts []int
}

func (b blockedArray) BlockStarts() []int { return b.starts }

func caseOf[T, B any](name string, c container.Batched[T, B], size int, extra ...eachobs.Option) allocCase {
	return caseWith(name, c, size, eachobs.Shuffle(1), extra...)
}

// caseWith is caseOf with another shuffle option.
func caseWith[T, B any](name string, c container.Batched[T, B], size int, shuffle eachobs.Option, extra ...eachobs.Option) allocCase {
	return allocCase{
		name: name,
		stream: func(opts ...eachobs.Option) iter.Seq[struct{}] {
			l := eachobs.NewLoader(c, size, append(append(opts, shuffle), extra...)...)
			seq, err := resume(l, start(l))
			if err != nil {
				panic(err)
			}
			return discard(seq)
		},
	}
}

// TestZeroAllocsPerBatch pins the loop at zero allocations per batch after the
// first, serial and with prefetch and workers: each step of an endless stream,
// across epoch boundaries, allocates nothing.
func TestZeroAllocsPerBatch(t *testing.T) {
	for _, tc := range allocCases(t) {
		for _, par := range parallelism {
			t.Run(name(tc.name, "/prefetch=", par.prefetch, ",workers=", par.workers), func(t *testing.T) {
				next, stop := iter.Pull(tc.stream(parOpts(par.prefetch, par.workers)...))
				defer stop()
				next() // the first batch allocates the buffers
				for range 100 {
					next() // fill the ring and cross an epoch boundary
				}
				if a := testing.AllocsPerRun(200, func() { next() }); a != 0 {
					t.Errorf("%v allocations per batch, want 0", a)
				}
			})
		}
	}
}

// TestOwnedAllocates is the control of the pins above: with Owned every batch is
// new memory, and the same measurement sees it.
func TestOwnedAllocates(t *testing.T) {
	for _, tc := range allocCases(t)[:3] {
		for _, par := range parallelism[:2] {
			t.Run(name(tc.name, "/prefetch=", par.prefetch), func(t *testing.T) {
				next, stop := iter.Pull(tc.stream(append(parOpts(par.prefetch, par.workers), eachobs.Owned())...))
				defer stop()
				next()
				if a := testing.AllocsPerRun(50, func() { next() }); a < 1 {
					t.Errorf("%v allocations per owned batch, want at least 1", a)
				}
			})
		}
	}
}

// TestZeroAllocsBatches pins the single-pass form: a pass of twice as many batches
// allocates no more than a pass of half as many, but for the runtime's few
// allocations per pass of a pipeline (a margin of 8: under -race the two passes'
// counts differed by 2 with workers, in about 1 run in 50, and one
// allocation per batch would add 100).
func TestZeroAllocsBatches(t *testing.T) {
	x := features(t, 4000, 8)
	labels := container.FromSlice(iota(4000))
	data, _ := tuples.Zip2(x, labels)
	for _, par := range parallelism[:3] {
		t.Run(name("prefetch=", par.prefetch, ",workers=", par.workers), func(t *testing.T) {
			allocs := func(size int) float64 {
				seq := eachobs.Batches(data, size, parOpts(par.prefetch, par.workers)...)
				return testing.AllocsPerRun(5, func() {
					for range seq {
					}
				})
			}
			// size 20 gives 200 batches, size 40 gives 100; equal per-pass costs.
			if a, b := allocs(20), allocs(40); a > b+8 {
				t.Errorf("a pass of 200 batches allocates %v, one of 100 batches %v: batches allocate", a, b)
			}
		})
	}
}

// TestPermutationKept pins the O(n) memory of shuffled passes: a loop keeps the
// permutation of a finished pass for the next one (as it keeps its batch
// buffers, and the table of blocks of ShuffleBlocks), so ten steady-state
// passes over n observations allocate less than one permutation of n ints. A
// loop that drew a new permutation per pass would allocate ten.
func TestPermutationKept(t *testing.T) {
	const n, size, passes = 1 << 14, 1 << 10, 10
	c := container.FromSlice(iota(n))
	tests := []struct {
		name string
		pass func(k int) // runs pass k, k >= 1 (pass 0 warms the loop up)
	}{
		{"Loader.Epoch", func() func(int) {
			l := eachobs.NewLoader(c, size, eachobs.Shuffle(1))
			return func(k int) { drain(l.Epoch(k)) }
		}()},
		{"Loader.Epoch, Prefetch", func() func(int) {
			l := eachobs.NewLoader(c, size, eachobs.Shuffle(1), eachobs.Prefetch(1))
			return func(k int) { drain(l.Epoch(k)) }
		}()},
		{"Batches", func() func(int) {
			seq := eachobs.Batches(c, size, eachobs.Shuffle(1))
			return func(int) { drain(seq) }
		}()},
		{"Loader.Epoch, ShuffleBlocks", func() func(int) {
			// A table of len(starts) ints, n/2.6 here: ten tables would
			// allocate more than n ints.
			l := eachobs.NewLoader(blocked[int]{c, blocksOf(n)}, size, eachobs.ShuffleBlocks(1, 4))
			return func(k int) { drain(l.Epoch(k)) }
		}()},
		{"Obs", func() func(int) {
			seq := eachobs.Obs(c, eachobs.Shuffle(1))
			return func(int) {
				for range seq {
				}
			}
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.pass(0)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for k := range passes {
				tc.pass(k + 1)
			}
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got >= n*8 {
				t.Errorf("%d passes allocated %d bytes, want less than one permutation (%d bytes)", passes, got, n*8)
			}
		})
	}
}

func drain[B any](seq iter.Seq[eachobs.Batch[B]]) {
	for range seq {
	}
}
