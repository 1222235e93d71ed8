package stream_test

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
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
		want, _ := read(t, stream.MapErr(ints(n), f))
		got, err := read(t, stream.ParallelMap(ints(n), w, f))
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
		got, err := read(t, stream.ParallelMap(ints(n), w, func(v int) (int, error) { jitter(v); return v, nil }, stream.Unordered()))
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
	got, err := read(t, stream.ParallelMap(ints(w), w, f))
	if err != nil || !slices.Equal(got, seq(w)) {
		t.Fatalf("ParallelMap = %v, %v", got, err)
	}
}

// atomicCounting is counting with an atomic counter, for sources read on
// another goroutine while the test looks.
func atomicCounting(n int, reads *atomic.Int32) stream.Stream[int] {
	return stream.Seek(func(pos int) iter.Seq2[int, error] {
		return func(yield func(int, error) bool) {
			for i := pos; n < 0 || i < n; i++ {
				reads.Add(1)
				if !yield(i, nil) {
					return
				}
			}
		}
	})
}

func TestPrefetchReadsAhead(t *testing.T) {
	var reads atomic.Int32
	for range stream.Prefetch(atomicCounting(100, &reads), 5).All() {
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
	got, err := read(t, stream.ParallelMap(ints(100), 4, f))
	if !errors.Is(err, bad) || !slices.Equal(got, seq(37)) {
		t.Errorf("ordered: %d values then %v, want 0..36 then %v", len(got), err, bad)
	}
	got, err = read(t, stream.ParallelMap(ints(100), 4, f, stream.Unordered()))
	if !errors.Is(err, bad) || slices.Contains(got, 37) {
		t.Errorf("unordered: %d values then %v, want %v", len(got), err, bad)
	}
	got, err = read(t, stream.ParallelMap(failing(t, 30), 4, func(v int) (int, error) { jitter(v); return v, nil }, stream.Unordered()))
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
			got, err := read(t, stream.ParallelMap(ints(70), w, f))
			if err == nil || err.Error() != "value 7: source failed" || !slices.Equal(got, seq(7)) {
				t.Fatalf("workers=%d: %v then %v, want 0..6 then the error of value 7", w, got, err)
			}
		}
		got, err := read(t, stream.ParallelMap(failing(t, 40), w, func(v int) (int, error) { jitter(v); return v, nil }))
		if !errors.Is(err, errSource) || !slices.Equal(got, seq(40)) {
			t.Fatalf("workers=%d, source error: %d values then %v, want all 40 in order, then %v", w, len(got), err, errSource)
		}
		got, err = read(t, stream.Prefetch(failing(t, 40), w))
		if !errors.Is(err, errSource) || !slices.Equal(got, seq(40)) {
			t.Fatalf("Prefetch(%d), source error: %d values then %v, want all 40 in order, then %v", w, len(got), err, errSource)
		}
	}
}

type customErr struct{ v int }

func (e customErr) Error() string { return fmt.Sprintf("custom %d", e.v) }

// recovered ranges over a pass of s and returns the values it yielded before
// it panicked, and what it panicked with.
func recovered(s stream.Stream[int]) (got []int, p any) {
	defer func() { p = recover() }()
	for v, err := range s.All() {
		if err != nil {
			return got, err
		}
		got = append(got, v)
	}
	return got, nil
}

// TestPanicsReachTheConsumer checks that a panic in the source or in f, in any
// goroutine, reaches the consumer as a *container.PanicError naming the stage
// and the step (the value's position in the stream) that panicked, with its
// value and stack; in order, after every value before it.
func TestPanicsReachTheConsumer(t *testing.T) {
	defer goleak.VerifyNone(t)
	boom := func(v int) (int, error) {
		if v == 13 {
			panic(customErr{v})
		}
		return v, nil
	}
	panicky := stream.Replay(func(yield func(int, error) bool) {
		for i := range 20 {
			if i == 9 {
				panic("source broke")
			}
			if !yield(i, nil) {
				return
			}
		}
	})
	id := func(v int) (int, error) { return v, nil }
	tests := []struct {
		name, op string
		s        stream.Stream[int]
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
				got, p := recovered(tc.s)
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
	for name, s := range map[string]stream.Stream[int]{
		"Prefetch":              stream.Prefetch(ints(1000), 4),
		"ParallelMap":           stream.ParallelMap(ints(1000), 4, id),
		"ParallelMap unordered": stream.ParallelMap(ints(1000), 4, id, stream.Unordered()),
	} {
		t.Run(name, func(t *testing.T) {
			p := func() (p any) {
				defer func() { p = recover() }()
				for v := range s.All() {
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
	pipelines := map[string]func() stream.Stream[int]{
		"Prefetch":              func() stream.Stream[int] { return stream.Prefetch(ints(500), 3) },
		"Prefetch endless":      func() stream.Stream[int] { return stream.Prefetch(endlessInts(), 3) },
		"ParallelMap":           func() stream.Stream[int] { return stream.ParallelMap(ints(500), 4, slow) },
		"ParallelMap unordered": func() stream.Stream[int] { return stream.ParallelMap(ints(500), 4, slow, stream.Unordered()) },
		"Zip": func() stream.Stream[int] {
			return stream.Map(stream.Zip(ints(500), ints(500), stream.Strict), func(p tuples.Pair[int, int]) int { return p.X })
		},
		"ZipN": func() stream.Stream[int] {
			return stream.Unbatch(stream.ZipN(stream.Strict, ints(500), ints(500), ints(500)))
		},
		"BatchSizes": func() stream.Stream[int] {
			return stream.Unbatch(stream.BatchSizes(ints(500), forever(7), index.Keep))
		},
		"chain of them": func() stream.Stream[int] {
			s := stream.ParallelMap(stream.Prefetch(ints(500), 2), 3, slow)
			s = stream.ShuffleBuffer(stream.Prefetch(s, 5), 10, 31)
			return stream.ParallelMap(stream.Unbatch(stream.Batches(s, 7, index.Keep)), 2, slow, stream.Unordered())
		},
	}
	for name, mk := range pipelines {
		t.Run(name, func(t *testing.T) {
			for _, stop := range []int{0, 1, 2, 17, 250} {
				i := 0
				for _, err := range mk().All() {
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
	s := stream.ParallelMap(stream.Prefetch(ints(200), 4), 3, func(v int) (int, error) { jitter(v); return 2 * v, nil })
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := stream.Collect(s)
			if err != nil || len(got) != 200 || got[199] != 398 || !slices.IsSorted(got) {
				t.Errorf("concurrent pass: %d values, %v", len(got), err)
			}
		}()
	}
	wg.Wait()
}

// TestBreakJoins checks that a pass returns only after its goroutines are done:
// when the loop ends (a break out of Stream.All, which closes the pass, or out
// of Iter.All, which pauses it), the source has returned (its deferred cleanup
// ran) and no call of f is still running. The paused pass then continues with
// the next value.
func TestBreakJoins(t *testing.T) {
	var running atomic.Int32
	f := func(v int) (int, error) {
		running.Add(1)
		defer running.Add(-1)
		jitter(v)
		return v, nil
	}
	for name, mk := range map[string]func(stream.Stream[int]) stream.Stream[int]{
		"Prefetch":              func(s stream.Stream[int]) stream.Stream[int] { return stream.Prefetch(s, 3) },
		"ParallelMap":           func(s stream.Stream[int]) stream.Stream[int] { return stream.ParallelMap(s, 4, f) },
		"ParallelMap unordered": func(s stream.Stream[int]) stream.Stream[int] { return stream.ParallelMap(s, 4, f, stream.Unordered()) },
	} {
		t.Run(name, func(t *testing.T) {
			var open atomic.Bool
			src := stream.Seek(func(pos int) iter.Seq2[int, error] {
				return func(yield func(int, error) bool) {
					open.Store(true)
					defer open.Store(false)
					for i := pos; ; i++ {
						if !yield(i, nil) {
							return
						}
					}
				}
			})
			check := func(how string, stop int) {
				t.Helper()
				if open.Load() {
					t.Fatalf("%s at %d: the loop returned while the source was still running", how, stop)
				}
				if n := running.Load(); n != 0 {
					t.Fatalf("%s at %d: the loop returned while %d calls of f were running", how, stop, n)
				}
			}
			for _, stop := range []int{0, 1, 5, 50} {
				i := 0
				for range mk(src).All() {
					if i == stop {
						break
					}
					i++
				}
				check("break out of Stream.All", stop)
			}
			it := mk(src).Iter()
			defer it.Close()
			var got []int
			for _, stop := range []int{1, 5, 50} {
				i := 0
				for v, err := range it.All() {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, v)
					if i++; i == stop {
						break
					}
				}
				check("break out of Iter.All", stop)
			}
			if name != "ParallelMap unordered" && !slices.Equal(got, seq(56)) {
				t.Errorf("values across breaks: %v, want 0..55", got)
			}
			if name == "ParallelMap unordered" && !isPermutationOf(got, seq(200)) {
				t.Errorf("values across breaks: %v, want distinct values", got)
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
		s    stream.Stream[int]
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
				for x, err := range tc.s.All() {
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

// TestParallelState: the state of a parallel stage is the consumer's, so
// passes of 1, 2 and 4 workers standing at one value save the same bytes, and
// each restores into the others; restoring maps again only the values not
// taken, and reads the source again from the last snapshot, at most 256 values
// before the frontier (beside those in flight).
func TestParallelState(t *testing.T) {
	var calls atomic.Int32
	var reads atomic.Int32
	mk := func(w int) stream.Stream[int] {
		return stream.ParallelMap(atomicCounting(2000, &reads), w, func(v int) (int, error) {
			calls.Add(1)
			jitter(v)
			return 3 * v, nil
		})
	}
	want, _ := read(t, mk(2))
	for _, k := range []int{0, 1, 100, 1000, 1999, 2000} {
		var states [][]byte
		for _, w := range []int{1, 2, 4} {
			states = append(states, savedAfter(t, mk(w), k))
		}
		if k < 200 && (!bytes.Equal(states[0], states[1]) || !bytes.Equal(states[0], states[2])) {
			t.Errorf("after %d values: the states of 1, 2 and 4 workers differ: %d, %d, %d bytes", k, len(states[0]), len(states[1]), len(states[2]))
		}
		for i, st := range states {
			for _, w := range []int{1, 3} {
				calls.Store(0)
				reads.Store(0)
				got, err := rest(restored(t, mk(w), st))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want[k:]) {
					t.Fatalf("after %d values, saved with state %d, restored with %d workers: %d values differ", k, i, w, len(got))
				}
				if c := int(calls.Load()); c != 2000-k {
					t.Errorf("after %d values, restored with %d workers: f called %d times, want %d", k, w, c, 2000-k)
				}
				if r := int(reads.Load()); r > 2000-k+256+16 {
					t.Errorf("after %d values, restored with %d workers: %d values read, want at most %d", k, w, r, 2000-k+256+16)
				}
			}
		}
	}
}

// TestPrefetchState restores a Prefetch over a shuffle at many points: the
// values prefetched and not taken are read again.
func TestPrefetchState(t *testing.T) {
	s := stream.Prefetch(stream.ShuffleBuffer(ints(700), 50, 4), 8)
	want, _ := read(t, s)
	it := s.Iter()
	var got []int
	for len(got) < len(want) {
		got = append(got, takeN(t, it, 37)...)
		st, err := it.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		it.Close()
		it = restored(t, s, st)
	}
	it.Close()
	if !slices.Equal(got, want) {
		t.Errorf("Prefetch restored every 37 values differs from the uninterrupted pass")
	}
}

// TestUnorderedState saves and restores an Unordered map many times, with
// other numbers of workers: every value comes once.
func TestUnorderedState(t *testing.T) {
	slowSome := func(v int) (int, error) {
		if v%5 == 0 {
			time.Sleep(20 * time.Microsecond)
		}
		return v, nil
	}
	rng := seeded(41)
	for trial := range 20 {
		mk := func(w int) stream.Stream[int] { return stream.ParallelMap(ints(600), w, slowSome, stream.Unordered()) }
		it := mk(2).Iter()
		var got []int
		for {
			more := takeN(t, it, rng.IntN(80))
			got = append(got, more...)
			st, err := it.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			it.Close()
			it = restored(t, mk(2+rng.IntN(3)), st)
			if len(got) == 600 {
				break
			}
		}
		if v, ok := it.Next(); ok {
			t.Fatalf("trial %d: value %d after all 600", trial, v)
		}
		it.Close()
		if !isPermutation(got, 600) {
			t.Fatalf("trial %d: %d values, not each of 0..599 once", trial, len(got))
		}
	}
}

// TestParallelCannotSave: a parallel stage over a source that cannot save
// refuses to save, naming the source, and a break out of Iter.All leaves its
// goroutines running (it cannot go back), the pass going on in order.
func TestParallelCannotSave(t *testing.T) {
	plain := stream.From(func(yield func(int) bool) {
		for i := 0; i < 100 && yield(i); i++ {
		}
	})
	s := stream.ParallelMap(plain, 3, func(v int) (int, error) { return v, nil })
	it := s.Iter()
	defer it.Close()
	var got []int
	for len(got) < 100 {
		n := 0
		for v, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
			if n++; n == 7 {
				break
			}
		}
		if _, err := it.MarshalBinary(); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stream.From") {
			t.Fatalf("MarshalBinary = %v, want ErrState naming stream.From", err)
		}
	}
	if !slices.Equal(got, seq(100)) {
		t.Errorf("across breaks: %v, want 0..99", got)
	}
}

// TestUnorderedWindow: while one value is slow, an Unordered map yields at
// most its window of values taken ahead of it (4 x its slots, at least 64), so
// that the values a saved state lists stay few; before, it read on without
// bound and a stalled worker grew the state by thousands of entries.
func TestUnorderedWindow(t *testing.T) {
	src := make([]int, 2000)
	for i := range src {
		src[i] = i
	}
	release := make(chan struct{})
	s := stream.ParallelMap(stream.FromSlice(src), 2, func(v int) (int, error) {
		if v == 0 {
			<-release
		}
		return v, nil
	}, stream.Unordered())
	it := s.Iter()
	defer it.Close()
	time.AfterFunc(200*time.Millisecond, func() { close(release) }) // the window fills meanwhile
	ahead := 0
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		if v == 0 {
			break
		}
		if ahead++; ahead > 64 {
			t.Fatalf("%d values yielded ahead of a slow one, want at most the window of 64", ahead)
		}
	}
	saved, err := it.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) > 1024 {
		t.Errorf("state of %d bytes after the slow value, want a few hundred", len(saved))
	}
}
