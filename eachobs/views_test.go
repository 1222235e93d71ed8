package eachobs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/internal/containertest"
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
		first[i].Pos.Epoch = 0
	}
	second := collect(seq)
	for i := range second {
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
