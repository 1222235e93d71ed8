package stream_test

import (
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
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
		got, err := read(t, stream.Batches(ints(tc.n), tc.size, tc.tail))
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
	got, _ := read(t, stream.Batches(ints(6), 2, index.Keep))
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
		{"scheme ends first", 10, sizes(3, 3, 1), index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}, {6}}},
		{"stream ends first, keep", 5, forever(2), index.Keep, [][]int{{0, 1}, {2, 3}, {4}}},
		{"stream ends first, drop", 5, forever(2), index.Drop, [][]int{{0, 1}, {2, 3}}},
		{"varying", 6, sizes(1, 2, 3), index.Keep, [][]int{{0}, {1, 2}, {3, 4, 5}}},
		{"no sizes", 6, sizes(), index.Keep, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, stream.BatchSizes(ints(tc.n), tc.sizes, tc.tail))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("BatchSizes mismatch (-want +got):\n%s", d)
			}
		})
	}
	reads := 0
	read(t, stream.BatchSizes(counting(-1, &reads), sizes(4, 4, 2), index.Keep))
	if reads != 10 {
		t.Errorf("BatchSizes with sizes adding up to 10 read %d values of an endless stream", reads)
	}
	for _, tc := range []struct {
		sizes iter.Seq[int]
		msg   string
	}{
		{sizes(0), "stream.BatchSizes: request 0 asks for 0 values: batch size below 1"},
		{sizes(2, -1), "stream.BatchSizes: request 1 asks for -1 values: batch size below 1"},
	} {
		got, err := read(t, stream.BatchSizes(ints(10), tc.sizes, index.Keep))
		if !errors.Is(err, stream.ErrBatchSize) || err.Error() != tc.msg {
			t.Errorf("BatchSizes with a bad size: error %v, want %q", err, tc.msg)
		}
		if len(got) > 1 {
			t.Errorf("BatchSizes with a bad size yielded %v before the error", got)
		}
	}
}

// forever yields size forever: the endless constant scheme, which
// stream.Batches is.
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
		got, err := read(t, stream.Unbatch(stream.Batches(ints(n), size, index.Keep)))
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
		wantPanic(t, "stream.Bucket", "tail", "want index.Keep or index.Drop", func() {
			stream.Bucket(ints(3), func(int) int { return 1 }, nil, []int{1}, tail)
		})
	}
}

// TestBatchesErrors checks that a source error ends the batching after the full
// batches before it; the values of an unfinished batch are not yielded.
func TestBatchesErrors(t *testing.T) {
	got, err := read(t, stream.Batches(failing(t, 7), 3, index.Keep))
	if !errors.Is(err, errSource) || !cmp.Equal(got, [][]int{{0, 1, 2}, {3, 4, 5}}) {
		t.Errorf("Batches of a failing source = %v, %v; want the two full batches, then %v", got, err, errSource)
	}
	vals, err := read(t, stream.Unbatch(stream.Batches(failing(t, 4), 2, index.Keep)))
	if !errors.Is(err, errSource) || !cmp.Equal(vals, []int{0, 1, 2, 3}) {
		t.Errorf("Unbatch of a failing stream = %v, %v; want 0..3, then %v", vals, err, errSource)
	}
}

// TestBatchSizesResume restores a pass of BatchSizes at every batch: the size
// scheme is ranged again and the sizes already used are skipped, so the
// restored pass yields the batches the uninterrupted one yields; a scheme that
// yields fewer sizes on the new range is refused, naming the counts.
func TestBatchSizesResume(t *testing.T) {
	s := stream.BatchSizes(ints(20), sizes(1, 2, 3, 4, 5), index.Keep)
	want, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	for k := range len(want) + 1 {
		st := savedAfter(t, s, k)
		got, err := rest(restored(t, s, st))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want[k:], got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("restored after %d batches mismatch (-want +got):\n%s", k, d)
		}
	}
	st := savedAfter(t, s, 4)
	short := stream.BatchSizes(ints(20), sizes(1, 2), index.Keep)
	err = short.Iter().UnmarshalBinary(st)
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "the size scheme ended after 2 sizes; the state is after 4") {
		t.Errorf("a shorter scheme: %v, want ErrState naming 2 sizes of 4", err)
	}
	other := stream.Batches(ints(20), 3, index.Keep)
	err = other.Iter().UnmarshalBinary(st)
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stage 0 (batches): the state holds a batch-sizes here") {
		t.Errorf("Batches for BatchSizes: %v, want ErrState naming the kinds", err)
	}
	st = savedAfter(t, stream.Batches(ints(20), 3, index.Keep), 2)
	for _, tc := range []struct {
		s    stream.Stream[[]int]
		want string
	}{
		{stream.Batches(ints(20), 4, index.Keep), "stage 0 (batches): batch size is 3 in the state and 4 here"},
		{stream.Batches(ints(20), 3, index.Drop), "stage 0 (batches): tail is 0 in the state and 1 here"},
	} {
		if err := tc.s.Iter().UnmarshalBinary(st); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UnmarshalBinary = %v, want ErrState saying %q", err, tc.want)
		}
	}
}

// TestUnbatchState saves a pass in the middle of a batch: the rest of the
// batch is in the state (encoded with gob), and a restored pass yields it.
func TestUnbatchState(t *testing.T) {
	type word struct{ Text string }
	batches := [][]word{{{"a"}, {"b"}, {"c"}}, {{"d"}}}
	s := stream.Unbatch(stream.FromSlice(batches))
	st := savedAfter(t, s, 1)
	got, err := rest(restored(t, s, st))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]word{{"b"}, {"c"}, {"d"}}, got); d != "" {
		t.Errorf("restored in a batch mismatch (-want +got):\n%s", d)
	}
}
