package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"time"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/bench/internal/cref"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
)

// lastPass is the number of batches of an observation-last pass: each batch
// reads a line of every one of the 784 rows per observation, so 32 batches
// touch most of the array's lines and a whole epoch would take seconds.
const lastPass = 32

// filled returns a rows x Width observation-first array of E, allocated as
// the kit allocates every large array (Zeros: aligned, advised for huge
// pages), element i holding i % 251 as peers.py's do.
func filled[E arraycontainer.Number](b *testing.B, rows int) *arraycontainer.Array[E] {
	debug.FreeOSMemory() // the arrays of the previous workload
	x, err := arraycontainer.Zeros[E]([]int{rows, Width}, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	for i, d := 0, x.Data(); i < len(d); i++ {
		d[i] = E(i % 251)
	}
	return x
}

// obsLast returns the values of x stored [Width rows] with obsdim.Last
// (Julia's layout).
func obsLast[E arraycontainer.Number](b *testing.B, x *arraycontainer.Array[E]) *arraycontainer.Array[E] {
	t, err := x.Transpose().WithDim(obsdim.Last)
	if err != nil {
		b.Fatal(err)
	}
	return t.Clone()
}

// loopSide is the kit as a user's loop runs it: x.GetObsInto every batch in
// turn into one reused buffer.
func loopSide[T, B any](name string, x container.Batched[T, B], batches [][]int, amount int64) side {
	buf := x.GetObsInto(*new(B), batches[0]) // the first gather allocates the buffer
	return timed(name, amount, func() {
		for _, idx := range batches {
			buf = x.GetObsInto(buf, idx)
		}
	})
}

// copySide is the limit: copy() of a pass's bytes from consecutive positions
// of src into one batch buffer of n elements, batch by batch, carrying on
// where the previous pass stopped.
func copySide[E any](src []E, n, batches int, amount int64) side {
	dst, pos := make([]E, n), 0
	return timed("copy", amount, func() {
		for range batches {
			if pos+n > len(src) {
				pos = 0
			}
			copy(dst, src[pos:pos+n])
			pos += n
		}
	})
}

// asBytes views the elements of s as bytes.
func asBytes[E any](s []E) []byte {
	var e E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(e)))
}

// cSides are the C reference's sides of an observation-first gather of rows
// of n bytes from src: memcpy per row ("c-memcpy") and the same prefetching
// every line of the row two rows ahead ("c-prefetch"). None without cgo.
func cSides(src []byte, n int, batches [][]int, amount int64) []side {
	if !cref.Available {
		return nil
	}
	var sides []side
	for _, c := range []struct {
		name  string
		ahead int
	}{{"c-memcpy", 0}, {"c-prefetch", 2}} {
		dst := make([]byte, n*BatchSize)
		sides = append(sides, timed(c.name, amount, func() {
			for _, idx := range batches {
				cref.Rows(dst, src, n, n, idx, c.ahead)
			}
		}))
	}
	return sides
}

// BenchmarkGather gathers shuffled batches of 128 observations of 784
// elements of each type, in each regime (cache: an array of at most half the
// last-level cache; dram: at least four times it), in passes alternating with
// the baselines and peers:
//
//   - first: observation-first ([rows 784]), a pass an epoch (every full batch
//     of a permutation), beside the array after the relayout ObsFirst
//     ("relaid"), copy() of the same bytes, the C reference (cSides) and the
//     peers: NumPy X[idx] and np.take(out=), PyTorch index_select(out=).
//     x-c is the kit against the faster C loop;
//   - last: the same values stored [784 rows] with obsdim.Last, a pass 32
//     batches, beside copy(), the naive loops a user would write ("naive":
//     observation by observation into an observation-first batch;
//     "naive-rows": in the source's row order) and the peers: NumPy X[:, idx]
//     and np.take(axis=1, out=), PyTorch index_select(dim=1, out=). x-naive is
//     the kit against the faster naive loop.
func BenchmarkGather(b *testing.B) {
	for _, r := range regimes {
		b.Run(r.name+"/float32", gatherType[float32](r))
		b.Run(r.name+"/float64", gatherType[float64](r))
		b.Run(r.name+"/uint8", gatherType[uint8](r))
	}
}

func gatherType[E arraycontainer.Number](r regime) func(*testing.B) {
	return func(b *testing.B) {
		var e E
		size := int(unsafe.Sizeof(e))
		rows := r.rows(Width * size)
		x := filled[E](b, rows)
		batches := permBatches(rows)
		batch := int64(BatchSize * Width * size)
		warm := r.name == "cache"
		py := map[string]any{"obs": rows, "dtype": fmt.Sprintf("%T", e)}
		b.Run("first", func(b *testing.B) {
			relaid := obsLast(b, x).ObsFirst()
			amount := int64(len(batches)) * batch
			py["passes"] = len(batches)
			sides := []side{
				loopSide("kit", x, batches, amount),
				loopSide("relaid", relaid, batches, amount),
				copySide(x.Data(), BatchSize*Width, len(batches), amount),
			}
			sides = append(sides, cSides(asBytes(x.Data()), Width*size, batches, amount)...)
			sides = append(sides, peers(b, amount, "gather/first", py)...)
			if best := paired(b, "MB/s", warm, sides...); cref.Available { // sides 3 and 4
				b.ReportMetric(float64(min(best[3], best[4]))/float64(best[0]), "x-c")
			}
		})
		b.Run("last", func(b *testing.B) {
			l := obsLast(b, x)
			pass := batches[:min(lastPass, len(batches))]
			amount := int64(len(pass)) * batch
			py["passes"] = len(pass)
			sides := []side{
				loopSide("kit", l, pass, amount),
				copySide(l.Data(), BatchSize*Width, len(pass), amount),
				naiveSide(l.Data(), rows, pass, amount),
				naiveRowsSide(l.Data(), rows, pass, amount),
			}
			sides = append(sides, peers(b, amount, "gather/last", py)...)
			best := paired(b, "MB/s", warm, sides...)
			b.ReportMetric(float64(min(best[2], best[3]))/float64(best[0]), "x-naive")
		})
	}
}

// naiveSide is what a user would write for observation-last data src ([Width
// rows]): observation by observation, element by element, into an
// observation-first batch.
func naiveSide[E any](src []E, rows int, batches [][]int, amount int64) side {
	dst := make([]E, BatchSize*Width)
	return timed("naive", amount, func() {
		for _, idx := range batches {
			for j, i := range idx {
				for f := range Width {
					dst[j*Width+f] = src[f*rows+i]
				}
			}
		}
	})
}

// naiveRowsSide is the same loop in the row order of the source: one element
// per observation from each row, into an observation-last batch.
func naiveRowsSide[E any](src []E, rows int, batches [][]int, amount int64) side {
	dst := make([]E, BatchSize*Width)
	return timed("naive-rows", amount, func() {
		for _, idx := range batches {
			for f := range Width {
				row := src[f*rows : (f+1)*rows]
				for j, i := range idx {
					dst[f*BatchSize+j] = row[i]
				}
			}
		}
	})
}

// BenchmarkPlain is the kit's loop of BenchmarkGather/<regime>/float32/first
// alone, pass after pass with nothing between them, timed as the suite times
// its sides: a user's program. The suite's figure must agree with it.
func BenchmarkPlain(b *testing.B) {
	for _, r := range regimes {
		b.Run(r.name, func(b *testing.B) {
			rows := r.rows(Width * 4)
			batches := permBatches(rows)
			paired(b, "MB/s", r.name == "cache", loopSide("kit", filled[float32](b, rows), batches, int64(len(batches)*BatchSize*Width*4)))
		})
	}
}

// BenchmarkTuple gathers every shuffled batch of 128 of the (X, y) tuple of
// Obs observations per pass, beside X alone from the same array, copy() of
// the tuple's bytes and the peers (X[idx], y[idx]; np.take(out=); PyTorch
// index_select(out=) of both). x-X is X alone's time over the tuple's:
// issue 2 asks for at least 0.95.
func BenchmarkTuple(b *testing.B) {
	t, x, y := data(b, Obs)
	batches := permBatches(Obs)
	xBytes := int64(len(batches) * BatchSize * Width * 4)
	yBytes := int64(len(batches) * BatchSize * 8)
	cx := copySide(x, BatchSize*Width, len(batches), xBytes)
	cy := copySide(y, BatchSize, len(batches), yBytes)
	sides := []side{
		loopSide("tuple", t, batches, xBytes+yBytes),
		loopSide("X", t.X(), batches, xBytes),
		{"copy", xBytes + yBytes, func(bool) time.Duration { return cx.run(false) + cy.run(false) }},
	}
	paired(b, "MB/s", false, append(sides, peers(b, xBytes+yBytes, "tuple", map[string]any{"obs": Obs, "passes": len(batches)})...)...)
}

// BenchmarkSubset gathers the batches of 128 of the training part of a
// shuffled 80/20 subset.Split of the (X, y) features (a lazy view whose
// GetObsInto maps the indices and calls the array's kernel), walking the
// view's positions in order, beside copy() of the same bytes.
func BenchmarkSubset(b *testing.B) {
	t, x, _ := data(b, Obs)
	parts, err := subset.Split(t.X(), rand.New(rand.NewPCG(7, 7)), 0.8)
	if err != nil {
		b.Fatal(err)
	}
	pos := make([]int, parts[0].Nobs())
	for i := range pos {
		pos[i] = i
	}
	batches := cutBatches(pos, BatchSize)
	amount := int64(len(batches) * BatchSize * Width * 4)
	paired(b, "MB/s", false, loopSide("kit", parts[0], batches, amount), copySide(x, BatchSize*Width, len(batches), amount))
}
