package stream_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
)

func TestDecorators(t *testing.T) {
	even := func(v int) bool { return v%2 == 0 }
	tests := []struct {
		name string
		r    stream.Reader[int]
		want []int
	}{
		{"Map", stream.Map(ints(4), func(v int) int { return v * 10 }), []int{0, 10, 20, 30}},
		{"MapErr", stream.MapErr(ints(3), func(v int) (int, error) { return -v, nil }), []int{0, -1, -2}},
		{"Filter", stream.Filter(ints(7), even), []int{0, 2, 4, 6}},
		{"Filter none", stream.Filter(ints(7), func(int) bool { return false }), nil},
		{"Take", stream.Take(ints(10), 3), []int{0, 1, 2}},
		{"Take more than there is", stream.Take(ints(2), 5), []int{0, 1}},
		{"Take 0", stream.Take(ints(2), 0), nil},
		{"Chain", stream.Chain(ints(2), ints(0), ints(3)), []int{0, 1, 0, 1, 2}},
		{"Chain nothing", stream.Chain[int](), nil},
		{"From", stream.From(func(yield func(int) bool) { _ = yield(7) && yield(8) }), []int{7, 8}},
		{"FromSlice", stream.FromSlice([]int{3, 1, 2}), []int{3, 1, 2}},
		{"Defer", stream.Defer(func() stream.Reader[int] { return ints(2) }), []int{0, 1}},
		{"Unbatch", stream.Unbatch(stream.FromSlice([][]int{{1, 2}, {}, {3}})), []int{1, 2, 3}},
		{"Cache", stream.Cache(ints(3)), []int{0, 1, 2}},
		{"Prefetch", stream.Prefetch(ints(50), 3), seq(50)},
		{"ParallelMap", stream.ParallelMap(ints(50), 3, func(v int) (int, error) { return v, nil }), seq(50)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for pass := range 2 { // every reader restarts
				got, err := collect(t, tc.r)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Fatalf("pass %d mismatch (-want +got):\n%s", pass, d)
				}
			}
		})
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestErrorsEndTheStream checks that every decorator forwards a source error as
// its last element, after the values that come before it, and reads no further.
func TestErrorsEndTheStream(t *testing.T) {
	rng := seeded(3)
	id := func(v int) (int, error) { return v, nil }
	tests := []struct {
		name string
		mk   func(stream.Reader[int]) stream.Reader[int]
		// wantValues: the values before the error, or nil when the decorator may
		// hold them back (shuffles drop their buffer).
		wantValues []int
	}{
		{"Map", func(r stream.Reader[int]) stream.Reader[int] { return stream.Map(r, func(v int) int { return v }) }, seq(5)},
		{"MapErr", func(r stream.Reader[int]) stream.Reader[int] { return stream.MapErr(r, id) }, seq(5)},
		{"Filter", func(r stream.Reader[int]) stream.Reader[int] { return stream.Filter(r, func(int) bool { return true }) }, seq(5)},
		{"Take", func(r stream.Reader[int]) stream.Reader[int] { return stream.Take(r, 100) }, seq(5)},
		{"Chain", func(r stream.Reader[int]) stream.Reader[int] { return stream.Chain(r, ints(3)) }, seq(5)},
		{"Defer", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Defer(func() stream.Reader[int] { return r })
		}, seq(5)},
		{"BlockShuffle", func(r stream.Reader[int]) stream.Reader[int] { return stream.BlockShuffle(r, 3, rng) }, nil},
		{"Shuffle", func(r stream.Reader[int]) stream.Reader[int] { return stream.ShuffleBuffer(r, 3, rng) }, nil},
		{"Batch+Unbatch", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Unbatch(stream.Batches(r, 2, index.Keep))
		}, seq(4)},
		{"Cache", stream.Cache[int], seq(5)},
		{"Prefetch", func(r stream.Reader[int]) stream.Reader[int] { return stream.Prefetch(r, 2) }, seq(5)},
		{"ParallelMap", func(r stream.Reader[int]) stream.Reader[int] { return stream.ParallelMap(r, 3, id) }, seq(5)},
		{"ParallelMap unordered", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.ParallelMap(r, 3, id, stream.Unordered())
		}, nil},
		{"Zip", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Map(stream.Zip(r, ints(10), stream.Strict), func(p tuples.Pair[int, int]) int { return p.X })
		}, seq(5)},
		{"SortWindow", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.SortWindow(r, 2, func(a, b int) int { return b - a })
		}, nil},
		{"BatchSizes", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Unbatch(stream.BatchSizes(r, sizes(1, 1, 1, 1, 1, 1, 1), index.Keep))
		}, seq(5)},
		{"Bucket", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Unbatch(stream.Bucket(r, func(int) int { return 1 }, []int{2}, []int{1, 1}, index.Keep))
		}, seq(5)},
		{"Mask", func(r stream.Reader[int]) stream.Reader[int] {
			padded := stream.Mask(stream.Map(r, func(v int) [][]int { return [][]int{{v}} }), 0)
			return stream.Map(padded, func(p stream.Masked[int]) int { return p.Data[0] })
		}, seq(5)},
		{"ZipN", func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Unbatch(stream.Map(stream.ZipN(stream.Truncate, ints(10), r), func(p []int) []int { return p[1:] }))
		}, seq(5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for pass := range 2 {
				got, err := collect(t, tc.mk(failing(t, 5)))
				if !errors.Is(err, errSource) {
					t.Fatalf("pass %d: error %v, want %v", pass, err, errSource)
				}
				if tc.wantValues != nil {
					if d := cmp.Diff(tc.wantValues, got); d != "" {
						t.Fatalf("pass %d: values before the error mismatch (-want +got):\n%s", pass, d)
					}
				}
			}
		})
	}
}

func TestMapErr(t *testing.T) {
	bad := errors.New("bad value")
	r := stream.MapErr(stream.FromSlice([]string{"1", "2", "x", "4"}), func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, errors.Join(bad, err)
		}
		return v, nil
	})
	got, err := collect(t, r)
	if !errors.Is(err, bad) {
		t.Fatalf("MapErr error %v, want %v", err, bad)
	}
	if d := cmp.Diff([]int{1, 2}, got); d != "" {
		t.Errorf("MapErr values before the error mismatch (-want +got):\n%s", d)
	}
}

func TestMapErrYieldsZeroWithError(t *testing.T) {
	r := stream.MapErr(ints(3), func(v int) (int, error) {
		if v == 1 {
			return 42, errSource // a partial result must not leak out
		}
		return v, nil
	})
	for v, err := range r {
		if err != nil && v != 0 {
			t.Errorf("MapErr yielded %d with its error, want the zero value", v)
		}
	}
}

func TestTakeStopsReading(t *testing.T) {
	reads := 0
	got, err := collect(t, stream.Take(counting(-1, &reads), 5))
	if err != nil || len(got) != 5 {
		t.Fatalf("Take(endless, 5) = %v, %v", got, err)
	}
	if reads != 5 {
		t.Errorf("Take(endless, 5) read %d values, want 5", reads)
	}
	reads = 0
	collect(t, stream.Take(counting(-1, &reads), 0))
	if reads != 0 {
		t.Errorf("Take(endless, 0) read %d values, want 0", reads)
	}
}

func TestEarlyBreakStopsSources(t *testing.T) {
	rng := seeded(4)
	id := func(v int) (int, error) { return v, nil }
	mks := map[string]func(stream.Reader[int]) stream.Reader[int]{
		"Map":          func(r stream.Reader[int]) stream.Reader[int] { return stream.Map(r, func(v int) int { return v }) },
		"Filter":       func(r stream.Reader[int]) stream.Reader[int] { return stream.Filter(r, func(int) bool { return true }) },
		"Chain":        func(r stream.Reader[int]) stream.Reader[int] { return stream.Chain(r, r) },
		"BlockShuffle": func(r stream.Reader[int]) stream.Reader[int] { return stream.BlockShuffle(r, 4, rng) },
		"Shuffle":      func(r stream.Reader[int]) stream.Reader[int] { return stream.ShuffleBuffer(r, 4, rng) },
		"Batch": func(r stream.Reader[int]) stream.Reader[int] {
			return stream.Unbatch(stream.Batches(r, 3, index.Keep))
		},
		"Cache":       stream.Cache[int],
		"Prefetch":    func(r stream.Reader[int]) stream.Reader[int] { return stream.Prefetch(r, 4) },
		"ParallelMap": func(r stream.Reader[int]) stream.Reader[int] { return stream.ParallelMap(r, 4, id) },
	}
	for name, mk := range mks {
		t.Run(name, func(t *testing.T) {
			reads := 0
			for range mk(counting(-1, &reads)) {
				break
			}
			// Every decorator returned, so the endless source stopped; what it
			// read ahead is bounded by the decorator's buffer.
			if reads > 100 {
				t.Errorf("source read %d values for a consumer that took 1", reads)
			}
		})
	}
}

func TestConstructorPanics(t *testing.T) {
	r := ints(3)
	rng := seeded(1)
	tests := []struct {
		name, op, arg, want string
		f                   func()
	}{
		{"Map nil reader", "stream.Map", "reader", "reader nil, want a Reader", func() { stream.Map(nil, func(int) int { return 0 }) }},
		{"Map nil f", "stream.Map", "function", "function nil, want a function", func() { stream.Map[int, int](r, nil) }},
		{"MapErr nil f", "stream.MapErr", "function", "function nil", func() { stream.MapErr[int, int](r, nil) }},
		{"Filter nil", "stream.Filter", "predicate", "predicate nil", func() { stream.Filter(r, nil) }},
		{"Take negative", "stream.Take", "count", "count -1, want >= 0", func() { stream.Take(r, -1) }},
		{"Chain nil", "stream.Chain", "reader", "reader nil", func() { stream.Chain(r, nil) }},
		{"From nil", "stream.From", "sequence", "sequence nil", func() { stream.From[int](nil) }},
		{"Defer nil", "stream.Defer", "create function", "create function nil", func() { stream.Defer[int](nil) }},
		{"Lines nil", "stream.Lines", "open function", "open function nil", func() { stream.Lines(nil) }},
		{"BlockShuffle size", "stream.BlockShuffle", "buffer size", "buffer size 0, want >= 1", func() { stream.BlockShuffle(r, 0, rng) }},
		{"BlockShuffle rng", "stream.BlockShuffle", "rng", "want a *rand.Rand", func() { stream.BlockShuffle(r, 2, nil) }},
		{"ShuffleBuffer size", "stream.ShuffleBuffer", "buffer size", "buffer size -3, want >= 1", func() { stream.ShuffleBuffer(r, -3, rng) }},
		{"ShuffleBuffer rng", "stream.ShuffleBuffer", "rng", "want a *rand.Rand", func() { stream.ShuffleBuffer(r, 2, nil) }},
		{"SortWindow size", "stream.SortWindow", "window size", "window size 0, want >= 1", func() { stream.SortWindow(r, 0, func(a, b int) int { return a - b }) }},
		{"SortWindow nil", "stream.SortWindow", "comparison function", "comparison function nil", func() { stream.SortWindow(r, 2, nil) }},
		{"Batches size", "stream.Batches", "batch size", "batch size 0, want >= 1", func() { stream.Batches(r, 0, index.Keep) }},
		{"Batches tail", "stream.Batches", "tail", "want index.Keep or index.Drop", func() { stream.Batches(r, 2, index.Tail(7)) }},
		{"BatchSizes nil", "stream.BatchSizes", "size scheme", "size scheme nil", func() { stream.BatchSizes(r, nil, index.Keep) }},
		{"Unbatch nil", "stream.Unbatch", "reader", "reader nil", func() { stream.Unbatch[int](nil) }},
		{"Cache nil", "stream.Cache", "reader", "reader nil", func() { stream.Cache[int](nil) }},
		{"Prefetch nil", "stream.Prefetch", "reader", "reader nil", func() { stream.Prefetch[int](nil, 1) }},
		{"Prefetch size", "stream.Prefetch", "buffer size", "buffer size 0, want >= 1", func() { stream.Prefetch(r, 0) }},
		{"ParallelMap workers", "stream.ParallelMap", "number of workers", "number of workers 0, want >= 1", func() {
			stream.ParallelMap(r, 0, func(v int) (int, error) { return v, nil })
		}},
		{"ParallelMap nil f", "stream.ParallelMap", "function", "function nil", func() { stream.ParallelMap[int, int](r, 2, nil) }},
		{"ParallelMap nil option", "stream.ParallelMap", "option", "option nil", func() {
			stream.ParallelMap(r, 2, func(v int) (int, error) { return v, nil }, nil)
		}},
		{"Zip nil", "stream.Zip", "reader", "reader nil", func() { stream.Zip[int, int](r, nil, stream.Strict) }},
		{"Zip align", "stream.Zip", "alignment", "alignment 5, want Strict or Truncate", func() { stream.Zip(r, r, stream.Align(5)) }},
		{"ZipN nil", "stream.ZipN", "reader", "reader nil", func() { stream.ZipN(stream.Strict, r, nil) }},
		{"ZipN align", "stream.ZipN", "alignment", "alignment 5", func() { stream.ZipN(stream.Align(5), r) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantPanic(t, tc.op, tc.arg, tc.want, tc.f) })
	}
}

// TestNoAllocationPerValue pins the decorators, serial and with goroutines, at
// zero allocations per value once a pass is running.
func TestNoAllocationPerValue(t *testing.T) {
	rng := seeded(5)
	endlessInts := func(yield func(int, error) bool) {
		for i := 0; yield(i, nil); i++ {
		}
	}
	for name, r := range map[string]stream.Reader[int]{
		"Map":           stream.Map(endlessInts, func(v int) int { return v + 1 }),
		"MapErr":        stream.MapErr(endlessInts, func(v int) (int, error) { return v + 1, nil }),
		"Filter":        stream.Filter(endlessInts, func(v int) bool { return v%2 == 0 }),
		"Take":          stream.Take(endlessInts, 1<<40),
		"ShuffleBuffer": stream.ShuffleBuffer(endlessInts, 64, rng),
		"BlockShuffle":  stream.BlockShuffle(endlessInts, 64, rng),
		"SortWindow":    stream.SortWindow(endlessInts, 64, func(a, b int) int { return b - a }),
		// The pipelines too: their slots are reused, nothing is made per value.
		"Prefetch":              stream.Prefetch(endlessInts, 8),
		"ParallelMap":           stream.ParallelMap(endlessInts, 3, func(v int) (int, error) { return v + 1, nil }),
		"ParallelMap unordered": stream.ParallelMap(endlessInts, 3, func(v int) (int, error) { return v + 1, nil }, stream.Unordered()),
	} {
		t.Run(name, func(t *testing.T) {
			next, stop := iterPull(r)
			defer stop()
			for range 200 { // fill the buffers
				next()
			}
			if a := testing.AllocsPerRun(1000, func() { next() }); a != 0 {
				t.Errorf("%v allocations per value, want 0", a)
			}
		})
	}
}
