package eachobs_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
)

// TestViewsKeepTheFastPath shows that a loop over a subset gathers each batch with
// one GetObsInto call on the subset's source, never observation by observation.
func TestViewsKeepTheFastPath(t *testing.T) {
	src := containertest.NewCounting(tens(100))
	view := subset.Shuffle(subset.Range(src, 10, 90), rand.New(rand.NewPCG(1, 1)))
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Shuffle(4)}, {eachobs.Prefetch(2), eachobs.Workers(2)}} {
		src.Reset()
		n := 0
		for b := range eachobs.Batches(view, 16, opts...) {
			for j, i := range b.Indices {
				if b.Data[j] != 10*view.Index(i) {
					t.Fatalf("slot %d holds %d, want observation %d of the view", j, b.Data[j], i)
				}
			}
			n++
		}
		if src.Batches() != n || src.Singles() != 0 {
			t.Errorf("%d batches read with %d GetObsInto and %d GetObs calls on the source, want %d and 0", n, src.Batches(), src.Singles(), n)
		}
	}
}

// TestFixedShuffleStaysFixed: without the Shuffle option a loop keeps the order of
// its container, so a subset.Shuffle view gives the same order on every pass.
func TestFixedShuffleStaysFixed(t *testing.T) {
	view := subset.Shuffle(tens(30), rand.New(rand.NewPCG(9, 9)))
	seq := eachobs.Batches(view, 7)
	first := collect(seq)
	for i := range first {
		first[i].Next.Epoch -= first[i].Pos.Epoch
		first[i].Pos.Epoch = 0
	}
	second := collect(seq)
	for i := range second {
		second[i].Next.Epoch -= second[i].Pos.Epoch
		second[i].Pos.Epoch = 0
	}
	if d := cmp.Diff(first, second); d != "" {
		t.Errorf("second pass over a fixed shuffle differs (-first +second):\n%s", d)
	}
	// Indices are the view's, Data is the shuffled source's.
	if !cmp.Equal(first[0].Indices, iota(7)) || cmp.Equal(first[0].Data, []int{0, 10, 20, 30, 40, 50, 60}) {
		t.Errorf("first batch %+v: want the view's indices 0..6 holding shuffled observations", first[0])
	}
}

// everyOther is an IndexView (observation i is source observation 2i) that
// counts how it is read: a loop must map indices itself and gather from the
// source, never through the view's own GetObsInto (which a view may serve from a
// shared pool).
type everyOther struct {
	src              *containertest.Counting
	viewGets, mapped atomic.Int64
}

func (v *everyOther) Nobs() int        { return v.src.Nobs() / 2 }
func (v *everyOther) GetObs(i int) int { return v.src.GetObs(2 * i) }
func (v *everyOther) GetObsInto(dst []int, idx []int) []int {
	v.viewGets.Add(1)
	return v.src.GetObsInto(dst, v.MapIndices(nil, idx))
}
func (v *everyOther) Source() container.Batched[int, []int] { return v.src }
func (v *everyOther) MapIndices(dst, idx []int) []int {
	v.mapped.Add(1)
	dst = container.Resize(dst, len(idx))
	for k, i := range idx {
		container.CheckIndex("everyOther", i, v.Nobs())
		dst[k] = 2 * i
	}
	return dst
}

// TestLoopsMapViewIndices tells the loop's own index mapping from the view's
// GetObsInto, which gives the same batches: only the counts differ.
func TestLoopsMapViewIndices(t *testing.T) {
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(1)}, {eachobs.Workers(2)}} {
		v := &everyOther{src: containertest.NewCounting(tens(40))}
		n := 0
		for b := range eachobs.Batches(v, 6, opts...) {
			for j, i := range b.Indices {
				if b.Data[j] != 10*2*i {
					t.Fatalf("slot %d holds %d, want %d", j, b.Data[j], 20*i)
				}
			}
			n++
		}
		if v.viewGets.Load() != 0 || v.mapped.Load() != int64(n) || v.src.Batches() != n {
			t.Errorf("options %d: %d batches with %d view GetObsInto, %d MapIndices and %d source GetObsInto calls; want 0, %d and %d",
				len(opts), n, v.viewGets.Load(), v.mapped.Load(), v.src.Batches(), n, n)
		}
	}
}
