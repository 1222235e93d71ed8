package stream_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

func seqLen(s []int) int { return len(s) }

// seqOf returns a sequence of length l whose values are all id.
func seqOf(id, l int) []int {
	s := make([]int, l)
	for i := range s {
		s[i] = id
	}
	return s
}

// bucketInput returns sequences of the lengths 1, 4, 2, 7, 0, 5, 3, 9, 2, 8.
func bucketInput() [][]int {
	var in [][]int
	for id, l := range []int{1, 4, 2, 7, 0, 5, 3, 9, 2, 8} {
		in = append(in, seqOf(id, l))
	}
	return in
}

func batchLens(got [][][]int) [][]int {
	var out [][]int
	for _, b := range got {
		var lens []int
		for _, s := range b {
			lens = append(lens, len(s))
		}
		out = append(out, lens)
	}
	return out
}

func TestBucket(t *testing.T) {
	// Lengths: bucket 0 is [0, 3), bucket 1 [3, 6), bucket 2 [6, ∞).
	in := bucketInput()
	got, err := read(t, stream.Bucket(stream.FromSlice(in), seqLen, []int{3, 6}, []int{3, 2, 2}, index.Keep))
	if err != nil {
		t.Fatal(err)
	}
	// Bucket 0 fills with lengths 1, 2, 0; bucket 1 with 4, 5; bucket 2 with
	// 7, 9; then the tail: bucket 0 holds 2, bucket 1 holds 3, bucket 2 holds 8.
	want := [][]int{{1, 2, 0}, {4, 5}, {7, 9}, {2}, {3}, {8}}
	if d := cmp.Diff(want, batchLens(got)); d != "" {
		t.Errorf("Bucket lengths mismatch (-want +got):\n%s", d)
	}
	got, _ = read(t, stream.Bucket(stream.FromSlice(in), seqLen, []int{3, 6}, []int{3, 2, 2}, index.Drop))
	if d := cmp.Diff(want[:3], batchLens(got)); d != "" {
		t.Errorf("Bucket with index.Drop: lengths mismatch with the 3 full batches (-want +got):\n%s", d)
	}
}

// TestBucketProperty checks on random input, against what the documentation
// promises rather than against a second implementation: a batch holds values of
// one bucket; per bucket, the batches in output order hold that bucket's values
// in input order (all of them with index.Keep, the full batches' worth with
// index.Drop); full batches have their bucket's size and come out as the value
// that fills them arrives; at most one short batch per bucket, with Keep
// only, after every full batch and in bucket order.
func TestBucketProperty(t *testing.T) {
	type value struct{ ID, Len int }
	rng := seeded(12)
	for range 200 {
		nb := rng.IntN(4)
		var bounds []int
		for b := 1 + rng.IntN(3); len(bounds) < nb; b += 1 + rng.IntN(4) {
			bounds = append(bounds, b)
		}
		sizes := make([]int, nb+1)
		for i := range sizes {
			sizes[i] = 1 + rng.IntN(4)
		}
		bucketOf := func(l int) int {
			k := 0
			for k < len(bounds) && l >= bounds[k] {
				k++
			}
			return k
		}
		n := rng.IntN(60)
		in := make([]value, n)
		wantIDs := make([][]int, nb+1) // per bucket, in input order
		for id := range in {
			in[id] = value{id, rng.IntN(15)}
			k := bucketOf(in[id].Len)
			wantIDs[k] = append(wantIDs[k], id)
		}
		tail := []index.Tail{index.Keep, index.Drop}[rng.IntN(2)]
		s := stream.Bucket(stream.FromSlice(in), func(v value) int { return v.Len }, bounds, sizes, tail)
		got, err := read(t, s)
		if err != nil {
			t.Fatal(err)
		}
		gotIDs := make([][]int, nb+1)
		lastFull, lastShort := -1, -1 // the id that completed the last full batch; the bucket of the last short one
		for _, b := range got {
			k := bucketOf(b[0].Len)
			for _, v := range b {
				if bucketOf(v.Len) != k {
					t.Fatalf("bounds %v: batch mixes buckets: %v", bounds, b)
				}
				gotIDs[k] = append(gotIDs[k], v.ID)
			}
			switch {
			case len(b) == sizes[k] && lastShort < 0:
				if b[len(b)-1].ID <= lastFull {
					t.Fatalf("bounds %v sizes %v: full batch %v came after the one completed by value %d", bounds, sizes, b, lastFull)
				}
				lastFull = b[len(b)-1].ID
			case len(b) < sizes[k] && tail == index.Keep && k > lastShort:
				lastShort = k
			default:
				t.Fatalf("bounds %v sizes %v tail %v: batch %v of bucket %d out of place in %v", bounds, sizes, tail, b, k, got)
			}
		}
		for k := range wantIDs {
			want := wantIDs[k]
			if tail == index.Drop {
				want = want[:len(want)/sizes[k]*sizes[k]]
			}
			if d := cmp.Diff(want, gotIDs[k], cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("bounds %v sizes %v tail %v: values of bucket %d mismatch (-want +got):\n%s", bounds, sizes, tail, k, d)
			}
		}
		// Restored anywhere, the pass goes on with the batches it would have
		// yielded: the values in the buckets are in the state.
		k := rng.IntN(len(got) + 1)
		after, err := rest(restored(t, s, savedAfter(t, s, k)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(got[k:], after, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("bounds %v sizes %v tail %v: restored after %d batches mismatch (-want +got):\n%s", bounds, sizes, tail, k, d)
		}
	}
}

// TestBucketMask pads within the bucket, as bucket_by_sequence_length does.
func TestBucketMask(t *testing.T) {
	in := stream.FromSlice([][]int{{1}, {1, 2, 3, 4, 5}, {1, 2}, {1, 2, 3, 4, 5, 6}})
	got, err := read(t, stream.Mask(stream.Bucket(in, seqLen, []int{3}, []int{2, 2}, index.Keep), 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Width != 2 || got[1].Width != 6 {
		t.Fatalf("got %d batches, widths %v; want widths 2 and 6", len(got), got)
	}
	if d := cmp.Diff([]float32{1, 0, 1, 1}, got[0].Mask); d != "" {
		t.Errorf("mask of the short bucket mismatch (-want +got):\n%s", d)
	}
}

func TestBucketErrors(t *testing.T) {
	s := stream.Bucket(stream.FromSlice([]int{3, -2}), func(v int) int { return v }, []int{2}, []int{2, 2}, index.Keep)
	_, err := read(t, s)
	if !errors.Is(err, stream.ErrLength) || err.Error() != "stream.Bucket: length -2 for value 1 of the stream: negative length" {
		t.Errorf("negative length: error %v, want ErrLength naming value 1", err)
	}
	_, err = read(t, stream.Bucket(failing(t, 3), func(int) int { return 1 }, nil, []int{2}, index.Keep))
	if !errors.Is(err, errSource) {
		t.Errorf("source error: %v, want %v", err, errSource)
	}
	id := func(v int) int { return v }
	tests := []struct {
		name, arg, want string
		bounds, sizes   []int
		tail            index.Tail
	}{
		{"not increasing", "boundaries", "boundaries [3 3], want strictly increasing positive lengths (fails at 1)", []int{3, 3}, []int{1, 1, 1}, index.Keep},
		{"zero boundary", "boundaries", "boundaries [0], want strictly increasing", []int{0}, []int{1, 1}, index.Keep},
		{"sizes count", "batch sizes", "batch sizes [1 1], want 3 sizes, one per bucket of 2 boundaries", []int{2, 4}, []int{1, 1}, index.Keep},
		{"size", "batch size of bucket 1", "batch size of bucket 1 0, want >= 1", []int{2}, []int{1, 0}, index.Keep},
		{"pad", "tail", "tail pad, want index.Keep or index.Drop", []int{2}, []int{1, 1}, index.Pad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantPanic(t, "stream.Bucket", tc.arg, tc.want, func() { stream.Bucket(ints(1), id, tc.bounds, tc.sizes, tc.tail) })
		})
	}
	wantPanic(t, "stream.Bucket", "length function", "length function nil", func() { stream.Bucket(ints(1), nil, nil, []int{1}, index.Keep) })
	wantPanic(t, "stream.Bucket", "stream", "the zero Stream", func() { stream.Bucket(stream.Stream[int]{}, id, nil, []int{1}, index.Keep) })
	bounds, sizes := []int{2}, []int{1, 1}
	s = stream.Bucket(ints(4), id, bounds, sizes, index.Keep)
	bounds[0], sizes[0] = 100, 50
	got, _ := read(t, s)
	if len(got) != 4 || !slices.Equal(got[0], []int{0}) {
		t.Errorf("Bucket did not copy its boundaries and sizes: %v", got)
	}
}

// TestBucketStateMismatch: a state restored into a Bucket of other settings
// is refused, naming the setting.
func TestBucketStateMismatch(t *testing.T) {
	mk := func(bounds, sizes []int, tail index.Tail) stream.Stream[[][]int] {
		return stream.Bucket(stream.FromSlice(bucketInput()), seqLen, bounds, sizes, tail)
	}
	st := savedAfter(t, mk([]int{3, 6}, []int{3, 2, 2}, index.Keep), 1)
	for _, tc := range []struct {
		s    stream.Stream[[][]int]
		want string
	}{
		{mk([]int{3}, []int{3, 2}, index.Keep), "stage 0 (bucket): number of buckets is 3 in the state and 2 here"},
		{mk([]int{3, 6}, []int{3, 2, 2}, index.Drop), "stage 0 (bucket): tail is 0 in the state and 1 here"},
		// Smaller buckets cannot hold the values saved in them.
		{mk([]int{3, 6}, []int{1, 1, 1}, index.Keep), "stage 0 (bucket): 1 values where at most 0 fit"},
	} {
		if err := tc.s.Iter().UnmarshalBinary(st); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UnmarshalBinary = %v, want ErrState saying %q", err, tc.want)
		}
	}
}
