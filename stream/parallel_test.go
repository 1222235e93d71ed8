package stream_test

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
	"go.uber.org/goleak"
)

// jitter burns a pseudo-random amount of CPU so that workers finish out of
// order. The result goes to an atomic sink so the work cannot be dropped.
func jitter(v int) {
	x := uint32(v)*2654435761 + 1
	for range x % 2000 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
	}
	jitterSink.Add(x)
}

var jitterSink atomic.Uint32

func TestParallelMapKeepsOrder(t *testing.T) {
	rng := seeded(21)
	for range 60 {
		n, w := rng.IntN(300), 1+rng.IntN(8)
		f := func(v int) (string, error) { jitter(v); return fmt.Sprint(v * v), nil }
		want, _ := collect(t, stream.MapErr(ints(n), f))
		got, err := collect(t, stream.ParallelMap(ints(n), w, f))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("ParallelMap(n=%d, workers=%d) mismatch with Map (-want +got):\n%s", n, w, d)
		}
	}
}

func TestParallelMapUnordered(t *testing.T) {
	rng := seeded(22)
	for range 40 {
		n, w := rng.IntN(300), 1+rng.IntN(8)
		got, err := collect(t, stream.ParallelMap(ints(n), w, func(v int) (int, error) { jitter(v); return v, nil }, stream.Unordered()))
		if err != nil {
			t.Fatal(err)
		}
		if !isPermutation(got, n) {
			t.Fatalf("Unordered ParallelMap(n=%d, workers=%d) = %v, not a permutation", n, w, got)
		}
	}
}

// TestParallelMapRunsInParallel blocks each call until all workers are inside
// f: it can only finish if the calls really run at once.
func TestParallelMapRunsInParallel(t *testing.T) {
	const w = 4
	var inside atomic.Int32
	f := func(v int) (int, error) {
		inside.Add(1)
		deadline := time.Now().Add(10 * time.Second)
		for inside.Load() < w {
			if time.Now().After(deadline) {
				return 0, fmt.Errorf("value %d: only %d of %d workers ever ran at once", v, inside.Load(), w)
			}
			time.Sleep(time.Millisecond)
		}
		return v, nil
	}
	got, err := collect(t, stream.ParallelMap(ints(w), w, f))
	if err != nil || !slices.Equal(got, seq(w)) {
		t.Fatalf("ParallelMap = %v, %v", got, err)
	}
}

func TestPrefetchReadsAhead(t *testing.T) {
	var reads atomic.Int32
	src := func(yield func(int, error) bool) {
		for i := range 100 {
			reads.Add(1)
			if !yield(i, nil) {
				return
			}
		}
	}
	for range stream.Prefetch(src, 5) {
		deadline := time.Now().Add(10 * time.Second)
		for reads.Load() < 6 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := reads.Load(); got < 6 {
			t.Errorf("Prefetch(5) read %d values while the consumer held the first, want at least 6", got)
		}
		if got := reads.Load(); got > 7 {
			t.Errorf("Prefetch(5) read %d values while the consumer held the first, want at most 7", got)
		}
		break
	}
}

func TestParallelMapErrors(t *testing.T) {
	bad := errors.New("bad item")
	f := func(v int) (int, error) {
		jitter(v)
		if v == 37 {
			return 0, bad
		}
		return v, nil
	}
	got, err := collect(t, stream.ParallelMap(ints(100), 4, f))
	if !errors.Is(err, bad) || !slices.Equal(got, seq(37)) {
		t.Errorf("ordered: %d values then %v, want 0..36 then %v", len(got), err, bad)
	}
	got, err = collect(t, stream.ParallelMap(ints(100), 4, f, stream.Unordered()))
	if !errors.Is(err, bad) || slices.Contains(got, 37) {
		t.Errorf("unordered: %d values then %v, want %v", len(got), err, bad)
	}
	got, err = collect(t, stream.ParallelMap(failing(t, 30), 4, func(v int) (int, error) { jitter(v); return v, nil }, stream.Unordered()))
	if !errors.Is(err, errSource) || !isPermutation(got, 30) {
		t.Errorf("unordered, source error: %d values then %v, want all 30 then %v", len(got), err, errSource)
	}
}

// TestParallelMapErrorsInOrder makes several values fail, later ones faster
// than earlier ones: the ordered map reports the first failing value in input
// order, after every result before it, however the workers finish; a source
// error comes after every result.
func TestParallelMapErrorsInOrder(t *testing.T) {
	f := func(v int) (int, error) {
		if v%10 == 7 {
			time.Sleep(time.Duration(70-v) * 20 * time.Microsecond) // 7 slowest, 67 fastest
			return 0, fmt.Errorf("value %d: %w", v, errSource)
		}
		jitter(v)
		return v, nil
	}
	for w := 1; w <= 8; w++ {
		for range 5 {
			got, err := collect(t, stream.ParallelMap(ints(70), w, f))
			if err == nil || err.Error() != "value 7: source failed" || !slices.Equal(got, seq(7)) {
				t.Fatalf("workers=%d: %v then %v, want 0..6 then the error of value 7", w, got, err)
			}
		}
		src := failing(t, 40)
		got, err := collect(t, stream.ParallelMap(src, w, func(v int) (int, error) { jitter(v); return v, nil }))
		if !errors.Is(err, errSource) || !slices.Equal(got, seq(40)) {
			t.Fatalf("workers=%d, source error: %d values then %v, want all 40 in order, then %v", w, len(got), err, errSource)
		}
		got, err = collect(t, stream.Prefetch(failing(t, 40), w))
		if !errors.Is(err, errSource) || !slices.Equal(got, seq(40)) {
			t.Fatalf("Prefetch(%d), source error: %d values then %v, want all 40 in order, then %v", w, len(got), err, errSource)
		}
	}
}

type customErr struct{ v int }

func (e customErr) Error() string { return fmt.Sprintf("custom %d", e.v) }

// recovered runs the loop over r and returns the values it yielded before it
// panicked, and what it panicked with.
func recovered(r stream.Reader[int]) (got []int, p any) {
	defer func() { p = recover() }()
	for v, err := range r {
		if err != nil {
			return got, err
		}
		got = append(got, v)
	}
	return got, nil
}

// TestPanicsReachTheConsumer checks that a panic in the source or in f, in any
// goroutine, reaches the consumer as a *container.PanicError naming the
// decorator and the step (the value's position in the stream) that panicked,
// with its value and stack; in order, after every value before it.
func TestPanicsReachTheConsumer(t *testing.T) {
	defer goleak.VerifyNone(t)
	boom := func(v int) (int, error) {
		if v == 13 {
			panic(customErr{v})
		}
		return v, nil
	}
	panicky := func(yield func(int, error) bool) {
		for i := range 20 {
			if i == 9 {
				panic("source broke")
			}
			if !yield(i, nil) {
				return
			}
		}
	}
	id := func(v int) (int, error) { return v, nil }
	tests := []struct {
		name, op string
		r        stream.Reader[int]
		step     int
		want     any // the panic value; nil for the nested case
		ordered  bool
		n        int // the values the source yields
	}{
		{"ParallelMap f", "stream.ParallelMap", stream.ParallelMap(ints(50), 3, boom), 13, customErr{13}, true, 50},
		{"ParallelMap f, one worker", "stream.ParallelMap", stream.ParallelMap(ints(50), 1, boom), 13, customErr{13}, true, 50},
		{"ParallelMap f unordered", "stream.ParallelMap", stream.ParallelMap(ints(50), 3, boom, stream.Unordered()), 13, customErr{13}, false, 50},
		{"ParallelMap source", "stream.ParallelMap", stream.ParallelMap(panicky, 3, id), 9, "source broke", true, 9},
		{"ParallelMap source unordered", "stream.ParallelMap", stream.ParallelMap(panicky, 3, id, stream.Unordered()), 9, "source broke", false, 9},
		{"Prefetch source", "stream.Prefetch", stream.Prefetch(panicky, 2), 9, "source broke", true, 9},
		{"nested", "stream.Prefetch", stream.Prefetch(stream.ParallelMap(ints(50), 2, boom), 2), 13, nil, true, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 { // the race between the workers, many times
				got, p := recovered(tc.r)
				pe, ok := p.(*container.PanicError)
				if !ok {
					t.Fatalf("panic value %v (%T), want *container.PanicError", p, p)
				}
				if pe.Op != tc.op || pe.Step != tc.step {
					t.Fatalf("PanicError Op %q Step %d, want %q at step %d", pe.Op, pe.Step, tc.op, tc.step)
				}
				if tc.want != nil && pe.Value != tc.want {
					t.Errorf("PanicError.Value = %v, want %v", pe.Value, tc.want)
				}
				if len(pe.Stack) == 0 {
					t.Error("PanicError.Stack is empty")
				}
				if tc.ordered && !slices.Equal(got, seq(tc.step)) {
					t.Fatalf("values before the panic %v, want 0..%d", got, tc.step-1)
				}
				if !tc.ordered && (slices.Contains(got, tc.step) || !isPermutationOf(got, seq(tc.n))) {
					t.Fatalf("values before the panic %v: want distinct values below %d, without %d", got, tc.n, tc.step)
				}
				if ce, ok := tc.want.(customErr); ok {
					var got customErr
					if !errors.As(pe, &got) || got != ce {
						t.Errorf("errors.As(PanicError, customErr) = %v, want %v", got, ce)
					}
				}
			}
		})
	}
	// The nested case: the inner PanicError, with its own op and step, is the
	// value of the outer one.
	_, p := recovered(stream.Prefetch(stream.ParallelMap(ints(50), 2, boom), 2))
	inner, ok := p.(*container.PanicError).Value.(*container.PanicError)
	if !ok || inner.Op != "stream.ParallelMap" || inner.Step != 13 {
		t.Errorf("nested: inner value %v, want the ParallelMap's *PanicError at step 13", p.(*container.PanicError).Value)
	}
	var ce customErr
	if !errors.As(p.(error), &ce) || ce.v != 13 {
		t.Errorf("nested PanicError does not unwrap to the worker's value: %v", p)
	}
}

// isPermutationOf reports whether got holds distinct values, each in among (a
// permutation of a subset of among).
func isPermutationOf(got, among []int) bool {
	seen := map[int]bool{}
	for _, v := range got {
		if seen[v] || !slices.Contains(among, v) {
			return false
		}
		seen[v] = true
	}
	return true
}

// TestConsumerPanic checks that a panic in the loop body stops the goroutines
// and reaches the caller unchanged.
func TestConsumerPanic(t *testing.T) {
	defer goleak.VerifyNone(t)
	id := func(v int) (int, error) { return v, nil }
	for name, r := range map[string]stream.Reader[int]{
		"Prefetch":              stream.Prefetch(ints(1000), 4),
		"ParallelMap":           stream.ParallelMap(ints(1000), 4, id),
		"ParallelMap unordered": stream.ParallelMap(ints(1000), 4, id, stream.Unordered()),
	} {
		t.Run(name, func(t *testing.T) {
			p := func() (p any) {
				defer func() { p = recover() }()
				for v := range r {
					if v == 5 {
						panic("consumer broke")
					}
				}
				return nil
			}()
			if p != "consumer broke" {
				t.Errorf("recovered %v, want the consumer's own panic value", p)
			}
		})
	}
}

// TestNoGoroutineLeft breaks out of pipelines with goroutines at many points and
// checks that nothing is left running.
func TestNoGoroutineLeft(t *testing.T) {
	defer goleak.VerifyNone(t)
	slow := func(v int) (int, error) { jitter(v); return v, nil }
	rng := seeded(31)
	pipelines := map[string]func() stream.Reader[int]{
		"Prefetch":              func() stream.Reader[int] { return stream.Prefetch(ints(500), 3) },
		"Prefetch endless":      func() stream.Reader[int] { var n int; return stream.Prefetch(counting(-1, &n), 3) },
		"ParallelMap":           func() stream.Reader[int] { return stream.ParallelMap(ints(500), 4, slow) },
		"ParallelMap unordered": func() stream.Reader[int] { return stream.ParallelMap(ints(500), 4, slow, stream.Unordered()) },
		"Zip": func() stream.Reader[int] {
			return stream.Map(stream.Zip(ints(500), ints(500), stream.Strict), func(p tuples.Pair[int, int]) int { return p.X })
		},
		"ZipN": func() stream.Reader[int] {
			return stream.Unbatch(stream.ZipN(stream.Strict, ints(500), ints(500), ints(500)))
		},
		"BatchSizes": func() stream.Reader[int] {
			return stream.Unbatch(stream.BatchSizes(ints(500), sizes(3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35), index.Keep))
		},
		"chain of them": func() stream.Reader[int] {
			r := stream.ParallelMap(stream.Prefetch(ints(500), 2), 3, slow)
			r = stream.ShuffleBuffer(stream.Prefetch(r, 5), 10, rng)
			return stream.ParallelMap(stream.Unbatch(stream.Batches(r, 7, index.Keep)), 2, slow, stream.Unordered())
		},
	}
	for name, mk := range pipelines {
		t.Run(name, func(t *testing.T) {
			for _, stop := range []int{0, 1, 2, 17, 250} {
				i := 0
				for _, err := range mk() {
					if err != nil {
						t.Fatal(err)
					}
					if i == stop {
						break
					}
					i++
				}
				if err := goleak.Find(); err != nil {
					t.Fatalf("after a break at value %d: %v", stop, err)
				}
			}
		})
	}
}

func TestParallelPassesAtOnce(t *testing.T) {
	r := stream.ParallelMap(stream.Prefetch(ints(200), 4), 3, func(v int) (int, error) { jitter(v); return 2 * v, nil })
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := stream.Collect(r)
			if err != nil || len(got) != 200 || got[199] != 398 || !slices.IsSorted(got) {
				t.Errorf("concurrent pass: %d values, %v", len(got), err)
			}
		}()
	}
	wg.Wait()
}

// TestBreakJoins checks that a pass returns only after its goroutines are done:
// when the loop ends, the source has returned (its deferred cleanup ran) and no
// call of f is still running.
func TestBreakJoins(t *testing.T) {
	var running atomic.Int32
	f := func(v int) (int, error) {
		running.Add(1)
		defer running.Add(-1)
		jitter(v)
		return v, nil
	}
	for name, mk := range map[string]func(stream.Reader[int]) stream.Reader[int]{
		"Prefetch":              func(r stream.Reader[int]) stream.Reader[int] { return stream.Prefetch(r, 3) },
		"ParallelMap":           func(r stream.Reader[int]) stream.Reader[int] { return stream.ParallelMap(r, 4, f) },
		"ParallelMap unordered": func(r stream.Reader[int]) stream.Reader[int] { return stream.ParallelMap(r, 4, f, stream.Unordered()) },
	} {
		t.Run(name, func(t *testing.T) {
			for _, stop := range []int{0, 1, 5, 50} {
				var open atomic.Bool
				src := func(yield func(int, error) bool) {
					open.Store(true)
					defer open.Store(false)
					for i := 0; ; i++ {
						if !yield(i, nil) {
							return
						}
					}
				}
				i := 0
				for range mk(src) {
					if i == stop {
						break
					}
					i++
				}
				if open.Load() {
					t.Fatalf("break at %d: the loop returned while the source was still running", stop)
				}
				if n := running.Load(); n != 0 {
					t.Fatalf("break at %d: the loop returned while %d calls of f were running", stop, n)
				}
			}
		})
	}
}

// TestGoexitInSource: runtime.Goexit in a prefetched source or in a parallel map
// function (t.FailNow on the pipeline's goroutine) reaches the consumer as a
// PanicError at its value, instead of ending the stream with no error or leaving
// the consumer waiting (issue 14).
func TestGoexitInSource(t *testing.T) {
	exitAt4 := func(v int) int {
		if v == 4 {
			runtime.Goexit()
		}
		return v
	}
	for _, tc := range []struct {
		name string
		r    stream.Reader[int]
	}{
		{"Prefetch", stream.Prefetch(stream.Map(ints(10), exitAt4), 2)},
		{"ParallelMap", stream.ParallelMap(ints(10), 2, func(v int) (int, error) { return exitAt4(v), nil })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			var v any
			done := make(chan struct{})
			go func() {
				defer close(done)
				defer func() { v = recover() }()
				for x, err := range tc.r {
					if err != nil {
						t.Errorf("error %v, want a panic", err)
						return
					}
					got = append(got, x)
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting 10 s after a Goexit")
			}
			var pe *container.PanicError
			if err, _ := v.(error); !errors.As(err, &pe) || pe.Step != 4 || !strings.Contains(pe.Error(), "Goexit") {
				t.Fatalf("stream panicked with %v after %v, want a PanicError at value 4 naming Goexit", v, got)
			}
			if diff := cmp.Diff([]int{0, 1, 2, 3}, got); diff != "" {
				t.Errorf("values before the Goexit mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
