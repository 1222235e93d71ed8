package stream_test

import (
	"errors"
	"iter"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func TestStages(t *testing.T) {
	even := func(v int) bool { return v%2 == 0 }
	tests := []struct {
		name string
		s    stream.Stream[int]
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
		{"Repeat", stream.Repeat(ints(2), 3), []int{0, 1, 0, 1, 0, 1}},
		{"Repeat 0", stream.Repeat(ints(2), 0), nil},
		{"Repeat Forever", stream.Take(stream.Repeat(ints(2), stream.Forever), 5), []int{0, 1, 0, 1, 0}},
		{"From", stream.From(func(yield func(int) bool) { _ = yield(7) && yield(8) }), []int{7, 8}},
		{"FromSlice", stream.FromSlice([]int{3, 1, 2}), []int{3, 1, 2}},
		{"Seek", stream.Seek(func(pos int) iter.Seq2[int, error] {
			return func(yield func(int, error) bool) { _ = pos == 0 && yield(4, nil) && yield(5, nil) }
		}), []int{4, 5}},
		{"Replay", stream.Replay(func(yield func(int, error) bool) { _ = yield(6, nil) && yield(7, nil) }), []int{6, 7}},
		{"FromIter", stream.FromIter(ints(3).Iter), []int{0, 1, 2}},
		{"Unbatch", stream.Unbatch(stream.FromSlice([][]int{{1, 2}, {}, {3}})), []int{1, 2, 3}},
		{"Cache", stream.Cache(ints(3)), []int{0, 1, 2}},
		{"Prefetch", stream.Prefetch(ints(50), 3), seq(50)},
		{"ParallelMap", stream.ParallelMap(ints(50), 3, func(v int) (int, error) { return v, nil }), seq(50)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for pass := range 2 { // every pass starts from the start
				got, err := read(t, tc.s)
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

// TestErrorsEndTheStream checks that every stage forwards a source error as
// its last element, after the values that come before it, and reads no further.
func TestErrorsEndTheStream(t *testing.T) {
	id := func(v int) (int, error) { return v, nil }
	h, err := subset.NewHash("errors", 0.5)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		mk   func(stream.Stream[int]) stream.Stream[int]
		// wantValues: the values before the error, or nil when the stage may
		// hold them back (shuffles drop their buffer).
		wantValues []int
	}{
		{"Map", func(s stream.Stream[int]) stream.Stream[int] { return stream.Map(s, func(v int) int { return v }) }, seq(5)},
		{"MapErr", func(s stream.Stream[int]) stream.Stream[int] { return stream.MapErr(s, id) }, seq(5)},
		{"Filter", func(s stream.Stream[int]) stream.Stream[int] { return stream.Filter(s, func(int) bool { return true }) }, seq(5)},
		{"Take", func(s stream.Stream[int]) stream.Stream[int] { return stream.Take(s, 100) }, seq(5)},
		{"Chain", func(s stream.Stream[int]) stream.Stream[int] { return stream.Chain(s, ints(3)) }, seq(5)},
		{"Repeat", func(s stream.Stream[int]) stream.Stream[int] { return stream.Repeat(s, 3) }, seq(5)},
		{"FromIter", func(s stream.Stream[int]) stream.Stream[int] { return stream.FromIter(s.Iter) }, seq(5)},
		{"BlockShuffle", func(s stream.Stream[int]) stream.Stream[int] { return stream.BlockShuffle(s, 3, 1) }, nil},
		{"ShuffleBuffer", func(s stream.Stream[int]) stream.Stream[int] { return stream.ShuffleBuffer(s, 3, 1) }, nil},
		{"Batches+Unbatch", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Unbatch(stream.Batches(s, 2, index.Keep))
		}, seq(4)},
		{"Cache", stream.Cache[int], seq(5)},
		{"Prefetch", func(s stream.Stream[int]) stream.Stream[int] { return stream.Prefetch(s, 2) }, seq(5)},
		{"ParallelMap", func(s stream.Stream[int]) stream.Stream[int] { return stream.ParallelMap(s, 3, id) }, seq(5)},
		{"ParallelMap unordered", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.ParallelMap(s, 3, id, stream.Unordered())
		}, nil},
		{"Zip", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Map(stream.Zip(s, ints(10), stream.Strict), func(p tuples.Pair[int, int]) int { return p.X })
		}, seq(5)},
		{"Zip second", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Map(stream.Zip(ints(10), s, stream.Strict), func(p tuples.Pair[int, int]) int { return p.Y })
		}, seq(5)},
		{"SortWindow", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.SortWindow(s, 2, func(a, b int) int { return b - a })
		}, nil},
		{"BatchSizes", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Unbatch(stream.BatchSizes(s, sizes(1, 1, 1, 1, 1, 1, 1), index.Keep))
		}, seq(5)},
		{"Bucket", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Unbatch(stream.Bucket(s, func(int) int { return 1 }, []int{2}, []int{1, 1}, index.Keep))
		}, seq(5)},
		{"Mask", func(s stream.Stream[int]) stream.Stream[int] {
			padded := stream.Mask(stream.Map(s, func(v int) [][]int { return [][]int{{v}} }), 0)
			return stream.Map(padded, func(p stream.Masked[int]) int { return p.Data[0] })
		}, seq(5)},
		{"ZipN", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Unbatch(stream.Map(stream.ZipN(stream.Truncate, ints(10), s), func(p []int) []int { return p[1:] }))
		}, seq(5)},
		{"Mix", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Filter(stream.Mix(mix.AllExhausted, []float64{1, 1}, 0, s, stream.Map(ints(10), func(v int) int { return -1 })),
				func(v int) bool { return v >= 0 })
		}, seq(5)},
		{"Pack", func(s stream.Stream[int]) stream.Stream[int] {
			// A window of one row: a row closes when the next sequence comes,
			// so the last one is held when the error comes.
			packed := stream.Pack(stream.Map(s, func(v int) []int { return []int{v} }), 1, 1, stream.PackOptions{Window: 1})
			return stream.Map(packed, func(p *stream.Packed[int]) int { return p.Tokens[0] })
		}, seq(4)},
		{"HashPart", func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Filter(stream.HashPart(s, h, 0, strconv.Itoa), func(int) bool { return false })
		}, []int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for pass := range 2 {
				got, err := read(t, tc.mk(failing(t, 5)))
				if !errors.Is(err, errSource) {
					t.Fatalf("pass %d: error %v, want %v", pass, err, errSource)
				}
				if tc.wantValues != nil {
					if d := cmp.Diff(tc.wantValues, got, cmpEmpty); d != "" {
						t.Fatalf("pass %d: values before the error mismatch (-want +got):\n%s", pass, d)
					}
				}
			}
		})
	}
}

func TestMapErr(t *testing.T) {
	bad := errors.New("bad value")
	s := stream.MapErr(stream.FromSlice([]string{"1", "2", "x", "4"}), func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, errors.Join(bad, err)
		}
		return v, nil
	})
	got, err := read(t, s)
	if !errors.Is(err, bad) {
		t.Fatalf("MapErr error %v, want %v", err, bad)
	}
	if d := cmp.Diff([]int{1, 2}, got); d != "" {
		t.Errorf("MapErr values before the error mismatch (-want +got):\n%s", d)
	}
}

func TestMapErrYieldsZeroWithError(t *testing.T) {
	s := stream.MapErr(ints(3), func(v int) (int, error) {
		if v == 1 {
			return 42, errSource // a partial result must not leak out
		}
		return v, nil
	})
	for v, err := range s.All() {
		if err != nil && v != 0 {
			t.Errorf("MapErr yielded %d with its error, want the zero value", v)
		}
	}
	it := s.Iter()
	defer it.Close()
	it.Next()
	if v, ok := it.Next(); ok || v != 0 || !errors.Is(it.Err(), errSource) {
		t.Errorf("Next at the error = %d, %v (Err %v), want 0, false and %v", v, ok, it.Err(), errSource)
	}
}

func TestTakeStopsReading(t *testing.T) {
	reads := 0
	got, err := read(t, stream.Take(counting(-1, &reads), 5))
	if err != nil || len(got) != 5 {
		t.Fatalf("Take(endless, 5) = %v, %v", got, err)
	}
	if reads != 5 {
		t.Errorf("Take(endless, 5) read %d values, want 5", reads)
	}
	reads = 0
	read(t, stream.Take(counting(-1, &reads), 0))
	if reads != 0 {
		t.Errorf("Take(endless, 0) read %d values, want 0", reads)
	}
}

func TestEarlyBreakStopsSources(t *testing.T) {
	id := func(v int) (int, error) { return v, nil }
	mks := map[string]func(stream.Stream[int]) stream.Stream[int]{
		"Map":           func(s stream.Stream[int]) stream.Stream[int] { return stream.Map(s, func(v int) int { return v }) },
		"Filter":        func(s stream.Stream[int]) stream.Stream[int] { return stream.Filter(s, func(int) bool { return true }) },
		"Chain":         func(s stream.Stream[int]) stream.Stream[int] { return stream.Chain(s, s) },
		"Repeat":        func(s stream.Stream[int]) stream.Stream[int] { return stream.Repeat(s, stream.Forever) },
		"BlockShuffle":  func(s stream.Stream[int]) stream.Stream[int] { return stream.BlockShuffle(s, 4, 4) },
		"ShuffleBuffer": func(s stream.Stream[int]) stream.Stream[int] { return stream.ShuffleBuffer(s, 4, 4) },
		"Batch": func(s stream.Stream[int]) stream.Stream[int] {
			return stream.Unbatch(stream.Batches(s, 3, index.Keep))
		},
		"Cache":       stream.Cache[int],
		"Prefetch":    func(s stream.Stream[int]) stream.Stream[int] { return stream.Prefetch(s, 4) },
		"ParallelMap": func(s stream.Stream[int]) stream.Stream[int] { return stream.ParallelMap(s, 4, id) },
	}
	for name, mk := range mks {
		t.Run(name, func(t *testing.T) {
			reads := 0
			for range mk(counting(-1, &reads)).All() {
				break
			}
			// Every stage returned, so the endless source stopped; what it
			// read ahead is bounded by the stage's buffer.
			if reads > 100 {
				t.Errorf("source read %d values for a consumer that took 1", reads)
			}
		})
	}
}

func TestConstructorPanics(t *testing.T) {
	s := ints(3)
	var zero stream.Stream[int]
	id := func(v int) (int, error) { return v, nil }
	const zeroWant = "stream the zero Stream, want a Stream built by this package"
	tests := []struct {
		name, op, arg, want string
		f                   func()
	}{
		{"Map zero stream", "stream.Map", "stream", zeroWant, func() { stream.Map(zero, func(int) int { return 0 }) }},
		{"Map nil f", "stream.Map", "function", "function nil, want a function", func() { stream.Map[int, int](s, nil) }},
		{"MapErr zero stream", "stream.MapErr", "stream", zeroWant, func() { stream.MapErr(zero, id) }},
		{"MapErr nil f", "stream.MapErr", "function", "function nil", func() { stream.MapErr[int, int](s, nil) }},
		{"Filter zero stream", "stream.Filter", "stream", zeroWant, func() { stream.Filter(zero, func(int) bool { return true }) }},
		{"Filter nil", "stream.Filter", "predicate", "predicate nil", func() { stream.Filter(s, nil) }},
		{"Take zero stream", "stream.Take", "stream", zeroWant, func() { stream.Take(zero, 1) }},
		{"Take negative", "stream.Take", "count", "count -1, want >= 0", func() { stream.Take(s, -1) }},
		{"Repeat zero stream", "stream.Repeat", "stream", zeroWant, func() { stream.Repeat(zero, 1) }},
		{"Repeat below Forever", "stream.Repeat", "epochs", "epochs -2, want >= 0, or Forever", func() { stream.Repeat(s, -2) }},
		{"Chain zero stream", "stream.Chain", "stream", zeroWant, func() { stream.Chain(s, zero) }},
		{"From nil", "stream.From", "sequence", "sequence nil", func() { stream.From[int](nil) }},
		{"Seek nil", "stream.Seek", "open function", "open function nil", func() { stream.Seek[int](nil) }},
		{"Replay nil", "stream.Replay", "sequence", "sequence nil", func() { stream.Replay[int](nil) }},
		{"FromIter nil", "stream.FromIter", "open function", "open function nil", func() { stream.FromIter[int, *stream.Iter[int]](nil) }},
		{"Lines nil", "stream.Lines", "open function", "open function nil", func() { stream.Lines(nil, 10) }},
		{"Lines limit", "stream.Lines", "line limit", "line limit 0, want >= 1", func() { stream.Lines(openText("a"), 0) }},
		{"BlockShuffle zero stream", "stream.BlockShuffle", "stream", zeroWant, func() { stream.BlockShuffle(zero, 2, 1) }},
		{"BlockShuffle size", "stream.BlockShuffle", "buffer size", "buffer size 0, want >= 1", func() { stream.BlockShuffle(s, 0, 1) }},
		{"ShuffleBuffer zero stream", "stream.ShuffleBuffer", "stream", zeroWant, func() { stream.ShuffleBuffer(zero, 2, 1) }},
		{"ShuffleBuffer size", "stream.ShuffleBuffer", "buffer size", "buffer size -3, want >= 1", func() { stream.ShuffleBuffer(s, -3, 1) }},
		{"SortWindow zero stream", "stream.SortWindow", "stream", zeroWant, func() { stream.SortWindow(zero, 2, func(a, b int) int { return a - b }) }},
		{"SortWindow size", "stream.SortWindow", "window size", "window size 0, want >= 1", func() { stream.SortWindow(s, 0, func(a, b int) int { return a - b }) }},
		{"SortWindow nil", "stream.SortWindow", "comparison function", "comparison function nil", func() { stream.SortWindow(s, 2, nil) }},
		{"Batches zero stream", "stream.Batches", "stream", zeroWant, func() { stream.Batches(zero, 1, index.Keep) }},
		{"Batches size", "stream.Batches", "batch size", "batch size 0, want >= 1", func() { stream.Batches(s, 0, index.Keep) }},
		{"Batches tail", "stream.Batches", "tail", "want index.Keep or index.Drop", func() { stream.Batches(s, 2, index.Tail(7)) }},
		{"BatchSizes zero stream", "stream.BatchSizes", "stream", zeroWant, func() { stream.BatchSizes(zero, sizes(1), index.Keep) }},
		{"BatchSizes nil", "stream.BatchSizes", "size scheme", "size scheme nil", func() { stream.BatchSizes(s, nil, index.Keep) }},
		{"Unbatch zero stream", "stream.Unbatch", "stream", zeroWant, func() { stream.Unbatch(stream.Stream[[]int]{}) }},
		{"Cache zero stream", "stream.Cache", "stream", zeroWant, func() { stream.Cache(zero) }},
		{"Prefetch zero stream", "stream.Prefetch", "stream", zeroWant, func() { stream.Prefetch(zero, 1) }},
		{"Prefetch size", "stream.Prefetch", "buffer size", "buffer size 0, want >= 1", func() { stream.Prefetch(s, 0) }},
		{"ParallelMap zero stream", "stream.ParallelMap", "stream", zeroWant, func() { stream.ParallelMap(zero, 2, id) }},
		{"ParallelMap workers", "stream.ParallelMap", "number of workers", "number of workers 0, want >= 1", func() { stream.ParallelMap(s, 0, id) }},
		{"ParallelMap nil f", "stream.ParallelMap", "function", "function nil", func() { stream.ParallelMap[int, int](s, 2, nil) }},
		{"ParallelMap nil option", "stream.ParallelMap", "option", "option nil", func() { stream.ParallelMap(s, 2, id, nil) }},
		{"Zip zero stream", "stream.Zip", "stream", zeroWant, func() { stream.Zip(s, zero, stream.Strict) }},
		{"Zip align", "stream.Zip", "alignment", "alignment 5, want Strict or Truncate", func() { stream.Zip(s, s, stream.Align(5)) }},
		{"ZipN zero stream", "stream.ZipN", "stream", zeroWant, func() { stream.ZipN(stream.Strict, s, zero) }},
		{"ZipN align", "stream.ZipN", "alignment", "alignment 5", func() { stream.ZipN(stream.Align(5), s) }},
		{"Mix no sources", "stream.Mix", "sources", "sources none, want at least one", func() { stream.Mix[int](mix.AllExhausted, nil, 0) }},
		{"Mix weights", "stream.Mix", "weights", "weights [1], want 2 weights, one per source", func() { stream.Mix(mix.AllExhausted, []float64{1}, 0, s, s) }},
		{"Mix zero weight", "stream.Mix", "weight", "weight 0, want a positive finite number", func() { stream.Mix(mix.AllExhausted, []float64{1, 0}, 0, s, s) }},
		{"Mix infinite weight", "stream.Mix", "weight", "weight +Inf", func() { stream.Mix(mix.AllExhausted, []float64{math.Inf(1)}, 0, s) }},
		{"Mix NaN weight", "stream.Mix", "weight", "weight NaN", func() { stream.Mix(mix.AllExhausted, []float64{math.NaN()}, 0, s) }},
		{"Mix rule", "stream.Mix", "rule", "want mix.FirstExhausted, mix.AllExhausted or mix.Resample", func() { stream.Mix(mix.Rule(3), []float64{1}, 0, s) }},
		{"Mix zero stream", "stream.Mix", "stream", zeroWant, func() { stream.Mix(mix.AllExhausted, []float64{1, 1}, 0, s, zero) }},
		{"Pack zero stream", "stream.Pack", "stream", zeroWant, func() { stream.Pack(stream.Stream[[]int]{}, 4, 1, stream.PackOptions{}) }},
		{"Pack length", "stream.Pack", "row length", "row length 0, want >= 1", func() { stream.Pack(stream.FromSlice([][]int{}), 0, 1, stream.PackOptions{}) }},
		{"Pack rows", "stream.Pack", "rows", "rows 0, want >= 1", func() { stream.Pack(stream.FromSlice([][]int{}), 4, 0, stream.PackOptions{}) }},
		{"Pack method", "stream.Pack", "method", "want FirstFit or BestFitDecreasing", func() {
			stream.Pack(stream.FromSlice([][]int{}), 4, 1, stream.PackOptions{Method: 2})
		}},
		{"Pack window", "stream.Pack", "window", "window -1, want >= 0", func() { stream.Pack(stream.FromSlice([][]int{}), 4, 1, stream.PackOptions{Window: -1}) }},
		{"Mask zero stream", "stream.Mask", "stream", zeroWant, func() { stream.Mask(stream.Stream[[][]int]{}, 0) }},
		{"Iter of the zero Stream", "stream.Stream.Iter", "stream", zeroWant, func() { zero.Iter() }},
		{"All of the zero Stream", "stream.Stream.All", "stream", zeroWant, func() { zero.All() }},
		{"Collect of the zero Stream", "stream.Collect", "stream", zeroWant, func() { stream.Collect(zero) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantPanic(t, tc.op, tc.arg, tc.want, tc.f) })
	}
}

// TestNoAllocationPerValue pins the stages, serial and with goroutines, at
// zero allocations per value once a pass is running.
func TestNoAllocationPerValue(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for name, s := range map[string]stream.Stream[int]{
		"source":        endlessInts(),
		"Map":           stream.Map(endlessInts(), func(v int) int { return v + 1 }),
		"MapErr":        stream.MapErr(endlessInts(), func(v int) (int, error) { return v + 1, nil }),
		"Filter":        stream.Filter(endlessInts(), func(v int) bool { return v%2 == 0 }),
		"Take":          stream.Take(endlessInts(), 1<<40),
		"ShuffleBuffer": stream.ShuffleBuffer(endlessInts(), 64, 5),
		"BlockShuffle":  stream.BlockShuffle(endlessInts(), 64, 5),
		"SortWindow":    stream.SortWindow(endlessInts(), 64, func(a, b int) int { return b - a }),
		// The pipelines too: their slots and snapshots are reused, nothing is
		// made per value.
		"Prefetch":              stream.Prefetch(endlessInts(), 8),
		"ParallelMap":           stream.ParallelMap(endlessInts(), 3, func(v int) (int, error) { return v + 1, nil }),
		"ParallelMap unordered": stream.ParallelMap(endlessInts(), 3, func(v int) (int, error) { return v + 1, nil }, stream.Unordered()),
	} {
		unordered := name == "ParallelMap unordered"
		t.Run(name, func(t *testing.T) {
			it := s.Iter()
			defer it.Close()
			for range 5000 { // fill the buffers, and the snapshots of every slot
				it.Next()
			}
			if unordered {
				// An unordered map records the values taken ahead of the
				// oldest one in flight (its state holds them), and keeps a
				// snapshot of its source for each 256 of them: a worker that
				// stalls while the others go on grows these lists, once for
				// the longest stall. Below one allocation per value.
				if a := testing.AllocsPerRun(3000, func() { it.Next() }); a != 0 {
					t.Errorf("%v allocations per value, want 0", a)
				}
				return
			}
			// AllocsPerRun divides by the runs and rounds down: a run of 1000
			// values sees an allocation made once every few hundred values.
			if a := testing.AllocsPerRun(20, func() {
				for range 1000 {
					it.Next()
				}
			}); a != 0 {
				t.Errorf("%v allocations per 1000 values, want 0", a)
			}
		})
	}
}

// cmpEmpty makes nil and empty slices equal.
var cmpEmpty = cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })
