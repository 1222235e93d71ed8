package columnar_test

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/tuples"
)

// TestBlockStarts: the columns' blocks are their chunks, and a loop over the
// blocks of a column zipped with labels reads each chunk in one run of
// consecutive gathers per window: with window 1, once per epoch.
func TestBlockStarts(t *testing.T) {
	sizes := []int{30, 0, 17, 25, 8}
	want := []int{0, 30, 30, 47, 72, 80}
	s := chunked(sizes, 2)
	var reads [5]atomic.Int64
	part := s.Part
	s.Part = func(c int) *columnar.Part[float32] { reads[c].Add(1); return part(c) }
	x := columnar.NewNumbers("test", s, []int{2}, nil)
	strs := columnar.NewStrings("test", columnar.Chunks[byte]{Starts: []int{0, 2, 3}, Part: func(int) *columnar.Part[byte] { return nil }})
	for _, tc := range []struct {
		what      string
		got, want []int
	}{
		{"Numbers", x.BlockStarts(), want},
		{"Lists", lists(sizes).BlockStarts(), want},
		{"Strings", strs.BlockStarts(), []int{0, 2, 3}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: BlockStarts() = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	labels := make([]int, x.Nobs())
	data, err := tuples.Zip2(x, container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	l := eachobs.NewLoader(data, 7, eachobs.ShuffleBlocks(3, 1))
	for e := range 3 {
		for c := range reads {
			reads[c].Store(0)
		}
		rows := 0
		for b := range l.Epoch(e) {
			for k, i := range b.Indices {
				if v := b.Data.X.At(k, 0); v != float32(2*i) {
					t.Fatalf("epoch %d: row %d reads %v, want %v", e, i, v, 2*i)
				}
			}
			rows += b.Real
		}
		if rows != x.Nobs() {
			t.Fatalf("epoch %d: %d rows, want %d", e, rows, x.Nobs())
		}
		// A batch of 7 crosses at most one chunk boundary; the chunks come
		// whole, one after another, so each chunk is entered once per batch
		// that holds its rows, and a chunk of r rows is in at most r/7+2.
		for c, size := range sizes {
			if got, max := reads[c].Load(), int64(size/7+2); got > max || (size > 0) != (got > 0) {
				t.Errorf("epoch %d: chunk %d of %d rows read %d times, want 1 to %d", e, c, size, got, max)
			}
		}
	}
}
