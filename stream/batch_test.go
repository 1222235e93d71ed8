package stream_test

import (
	"errors"
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

func TestBatches(t *testing.T) {
	tests := []struct {
		n, size int
		tail    index.Tail
		want    [][]int
	}{
		{7, 3, index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}, {6}}},
		{7, 3, index.Drop, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{6, 3, index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{6, 3, index.Drop, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{2, 5, index.Keep, [][]int{{0, 1}}},
		{2, 5, index.Drop, nil},
		{0, 5, index.Keep, nil},
		{3, 1, index.Drop, [][]int{{0}, {1}, {2}}},
	}
	for _, tc := range tests {
		got, err := collect(t, stream.Batches(ints(tc.n), tc.size, tc.tail))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Batches(%d ints, %d, %v) mismatch (-want +got):\n%s", tc.n, tc.size, tc.tail, d)
		}
		for _, b := range got {
			if cap(b) != len(b) {
				t.Errorf("Batches(%d ints, %d, %v): batch %v has cap %d, want %d", tc.n, tc.size, tc.tail, b, cap(b), len(b))
			}
		}
	}
}

func TestBatchesOwned(t *testing.T) {
	got, _ := collect(t, stream.Batches(ints(6), 2, index.Keep))
	got[0][0] = 99
	if d := cmp.Diff([][]int{{99, 1}, {2, 3}, {4, 5}}, got); d != "" {
		t.Errorf("batches share memory (-want +got):\n%s", d)
	}
}

func TestBatchSizes(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		sizes iter.Seq[int]
		tail  index.Tail
		want  [][]int
	}{
		{"scheme ends first", 10, index.Sizes(3, 7), index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}, {6}}},
		{"stream ends first, keep", 5, forever(2), index.Keep, [][]int{{0, 1}, {2, 3}, {4}}},
		{"stream ends first, drop", 5, forever(2), index.Drop, [][]int{{0, 1}, {2, 3}}},
		{"varying", 6, sizes(1, 2, 3), index.Keep, [][]int{{0}, {1, 2}, {3, 4, 5}}},
		{"no sizes", 6, sizes(), index.Keep, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(t, stream.BatchSizes(ints(tc.n), tc.sizes, tc.tail))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("BatchSizes mismatch (-want +got):\n%s", d)
			}
		})
	}
	reads := 0
	collect(t, stream.BatchSizes(counting(-1, &reads), index.Sizes(4, 10), index.Keep))
	if reads != 10 {
		t.Errorf("BatchSizes with sizes adding up to 10 read %d values of an endless stream", reads)
	}
	for _, bad := range []iter.Seq[int]{sizes(0), sizes(2, -1)} {
		got, err := collect(t, stream.BatchSizes(ints(10), bad, index.Keep))
		if !errors.Is(err, stream.ErrBatchSize) {
			t.Errorf("BatchSizes with a bad size: error %v, want ErrBatchSize", err)
		}
		if len(got) > 1 {
			t.Errorf("BatchSizes with a bad size yielded %v before the error", got)
		}
	}
}

// forever yields size forever: the endless constant scheme, which stream.Batches
// is.
func forever(size int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for yield(size) {
		}
	}
}

func sizes(s ...int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, k := range s {
			if !yield(k) {
				return
			}
		}
	}
}

func TestUnbatchInvertsBatches(t *testing.T) {
	rng := seeded(11)
	for range 100 {
		n, size := rng.IntN(40), 1+rng.IntN(9)
		got, err := collect(t, stream.Unbatch(stream.Batches(ints(n), size, index.Keep)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(seq(n), got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("Unbatch(Batches(%d, %d)) mismatch (-want +got):\n%s", n, size, d)
		}
	}
}

// TestBatchesTails checks that a stream keeps or drops its remainder and
// refuses, at the call, the tails it cannot honour: Pad (it does not hold the
// start of an epoch) and RollOver (a pass does not know the next one).
func TestBatchesTails(t *testing.T) {
	for _, tail := range []index.Tail{index.Pad, index.RollOver, index.Tail(9)} {
		wantPanic(t, "stream.Batches", "tail", "want index.Keep or index.Drop", func() { stream.Batches(ints(3), 2, tail) })
		wantPanic(t, "stream.BatchSizes", "tail", "want index.Keep or index.Drop", func() { stream.BatchSizes(ints(3), sizes(2), tail) })
	}
	wantPanic(t, "stream.Batches", "batch size", "0, want >= 1", func() { stream.Batches(ints(3), 0, index.Keep) })
	wantPanic(t, "stream.Batches", "reader", "nil", func() { stream.Batches[int](nil, 1, index.Keep) })
	wantPanic(t, "stream.BatchSizes", "size scheme", "nil", func() { stream.BatchSizes(ints(3), nil, index.Keep) })
	wantPanic(t, "stream.Unbatch", "reader", "nil", func() { stream.Unbatch[int](nil) })
}

// TestBatchesErrors checks that a source error ends the batching after the full
// batches before it; the values of an unfinished batch are not yielded.
func TestBatchesErrors(t *testing.T) {
	got, err := collect(t, stream.Batches(failing(t, 7), 3, index.Keep))
	if !errors.Is(err, errSource) || !cmp.Equal(got, [][]int{{0, 1, 2}, {3, 4, 5}}) {
		t.Errorf("Batches of a failing source = %v, %v; want the two full batches, then %v", got, err, errSource)
	}
	vals, err := collect(t, stream.Unbatch(stream.Batches(failing(t, 4), 2, index.Keep)))
	if !errors.Is(err, errSource) || !cmp.Equal(vals, []int{0, 1, 2, 3}) {
		t.Errorf("Unbatch of a failing stream = %v, %v; want 0..3, then %v", vals, err, errSource)
	}
}
