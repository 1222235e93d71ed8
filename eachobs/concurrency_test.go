package eachobs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/tuples"
	"go.uber.org/goleak"
)

func TestEarlyBreakStopsGoroutines(t *testing.T) {
	c := tens(1000)
	for _, par := range parallelism[1:] {
		t.Run(name("prefetch=", par.prefetch, " workers=", par.workers), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			opts := parOpts(par.prefetch, par.workers)
			for b := range eachobs.Batches(c, 7, opts...) {
				if b.Pos.Batch == 3 {
					break
				}
			}
			goleak.VerifyNone(t, before)
			l := eachobs.NewLoader(c, 7, append(opts, eachobs.Shuffle(1))...)
			seq, err := resume(l, start(l))
			if err != nil {
				t.Fatal(err)
			}
			for b := range seq {
				if b.Pos.Epoch == 2 {
					break
				}
			}
			goleak.VerifyNone(t, before)
			for b := range l.Epoch(5) {
				if b.Pos.Batch == 1 {
					break
				}
			}
			goleak.VerifyNone(t, before)
			for i := range eachobs.Obs(c, opts...) {
				if i == 10 {
					break
				}
			}
			goleak.VerifyNone(t, before)
			for b := range must(eachobs.RandomBatches(c, 7, eachobs.Forever, rand.New(rand.NewPCG(1, 1)), opts...)) {
				if b.Pos.Batch == 20 {
					break
				}
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// failing is a container whose observation bad panics.
func failing(n, bad int) *container.Func[int] {
	return container.FromFunc(n, func(i int) int {
		if i == bad {
			panic(fmt.Errorf("cannot load observation %d", i))
		}
		return 10 * i
	})
}

func TestWorkerPanicReachesCaller(t *testing.T) {
	for _, par := range parallelism {
		t.Run(name("prefetch=", par.prefetch, " workers=", par.workers), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			var got []int
			func() {
				defer func() {
					r := recover()
					if r == nil {
						t.Fatal("the loop did not panic")
					}
					msg := fmt.Sprint(r)
					// The same type whatever the number of workers, a serial
					// loop's too.
					var pe *container.PanicError
					if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Step != 5 || pe.Op != "eachobs" {
						t.Fatalf("panic value %v (%T), want an eachobs *PanicError at step 5", r, r)
					}
					if err := r.(error); errors.Unwrap(err) == nil {
						t.Errorf("PanicError does not unwrap to the worker's error")
					}
					if !strings.Contains(msg, "cannot load observation 52") {
						t.Errorf("panic %q does not carry the worker's message", msg)
					}
				}()
				for b := range eachobs.Batches(failing(100, 52), 10, parOpts(par.prefetch, par.workers)...) {
					got = append(got, b.Pos.Batch)
				}
			}()
			// Every batch before the failing one reached the loop body, as in a
			// serial loop.
			if d := cmp.Diff([]int{0, 1, 2, 3, 4}, got); d != "" {
				t.Errorf("batches before the panic mismatch (-want +got):\n%s", d)
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// panicky is a container of n observations whose every gather panics, after
// sleeping delay(i) for a batch that starts with index i.
type panicky struct {
	n     int
	delay func(i int) time.Duration
}

func (p panicky) Nobs() int { return p.n }

func (p panicky) GetObs(i int) int { return p.GetObsInto(nil, []int{i})[0] }

func (p panicky) GetObsInto(dst []int, idx []int) []int {
	time.Sleep(p.delay(idx[0]))
	panic(fmt.Errorf("gather %v", idx))
}

// expectStep0 ranges seq and checks that it panics with the *PanicError of step 0
// before it yields anything.
func expectStep0(t *testing.T, what string, seq func(func(eachobs.Batch[[]int]) bool)) {
	defer func() {
		r := recover()
		var pe *container.PanicError
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Step != 0 {
			t.Errorf("%s: panic %v (%T), want a *container.PanicError at step 0", what, r, r)
		}
	}()
	for b := range seq {
		t.Errorf("%s: yielded batch %+v of a container whose every gather panics", what, b.Pos)
	}
}

// TestLaterPanicFirstNoDeadlock is the regression test of a deadlock: with
// several workers, when the gathers of steps 0 and 1 both panic and step 1's is
// recorded first, the old loop saw the failure of a later step, went back to
// wait for step 0's batch, which never came, and hung. Now each step carries its
// own panic and the loop panics with step 0's.
func TestLaterPanicFirstNoDeadlock(t *testing.T) {
	before := goleak.IgnoreCurrent()
	slow0 := panicky{n: 8, delay: func(i int) time.Duration {
		if i == 0 {
			return 50 * time.Millisecond
		}
		return 0
	}}
	withTimeout(t, 5*time.Second, func() {
		for w := 2; w <= 4; w++ {
			expectStep0(t, name("slow step 0, workers=", w), eachobs.Batches(slow0, 1, eachobs.Workers(w)))
		}
	})
	// The same race left to chance: every gather panics after up to 20 µs.
	jitter := panicky{n: 8, delay: func(int) time.Duration { return time.Duration(rand.IntN(20_000)) }}
	withTimeout(t, 20*time.Second, func() {
		for run := range 300 {
			w := 2 + run%3
			opts := []eachobs.Option{eachobs.Workers(w)}
			if run%2 == 1 {
				opts = append(opts, eachobs.Prefetch(w+1))
			}
			expectStep0(t, name("jitter run ", run, ", workers=", w), eachobs.Batches(jitter, 1, opts...))
		}
	})
	goleak.VerifyNone(t, before)
}

func TestBodyPanicStopsGoroutines(t *testing.T) {
	for _, par := range parallelism {
		before := goleak.IgnoreCurrent()
		func() {
			defer func() {
				if r := recover(); r != "body" {
					t.Errorf("prefetch=%d workers=%d: recovered %v, want the body's own panic value", par.prefetch, par.workers, r)
				}
			}()
			for range eachobs.Batches(tens(100), 3, parOpts(par.prefetch, par.workers)...) {
				panic("body")
			}
		}()
		goleak.VerifyNone(t, before)
	}
}

// TestNestedAndConcurrentLoops runs two loops over one container at once, nested
// and in two goroutines: each sees the full, correct sequence.
func TestNestedAndConcurrentLoops(t *testing.T) {
	c := tens(40)
	l := eachobs.NewLoader(c, 6, eachobs.Shuffle(3), eachobs.Prefetch(1), eachobs.Workers(2))
	want := collect(l.Epoch(0))
	// Nested: the inner loop runs a whole epoch for each outer batch.
	k := 0
	for b := range l.Epoch(0) {
		outer := recOf(b)
		if d := cmp.Diff(want, collect(l.Epoch(0))); d != "" {
			t.Fatalf("inner loop mismatch (-want +got):\n%s", d)
		}
		// The outer batch was not disturbed by the inner loop.
		if d := cmp.Diff(want[k], rec{b.Data, b.Indices, b.Real, b.Pos, b.Count, b.Next()}); d != "" || !cmp.Equal(outer, want[k]) {
			t.Fatalf("outer batch %d changed by the inner loop (-want +got):\n%s", k, d)
		}
		k++
	}
	// Four goroutines, each ranging one loader's epoch and one Batches iterator
	// at once.
	seq := eachobs.Batches(c, 6)
	wantSeq := collect(seq)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d := cmp.Diff(want, collect(l.Epoch(0))); d != "" {
				errs <- d
			}
			got := collect(seq)
			for i := range got { // passes are numbered in the order they start
				got[i].Next.Epoch -= got[i].Pos.Epoch
				got[i].Pos.Epoch = 0
			}
			if d := cmp.Diff(wantSeq, got); d != "" {
				errs <- d
			}
		}()
	}
	wg.Wait()
	close(errs)
	for d := range errs {
		t.Errorf("concurrent loop mismatch (-want +got):\n%s", d)
	}
}

// goexitAt is a container of tens whose gathers call runtime.Goexit (as
// t.FailNow does) when they reach index at.
type goexitAt struct {
	container.Slice[int]
	at int
}

func (c goexitAt) GetObsInto(dst []int, idx []int) []int {
	for _, i := range idx {
		if i == c.at {
			runtime.Goexit()
		}
	}
	return c.Slice.GetObsInto(dst, idx)
}

// TestGoexitInGather: a gather that calls runtime.Goexit on a background
// goroutine reaches the caller as a PanicError at its batch, instead of leaving
// the loop waiting forever (issue 14).
func TestGoexitInGather(t *testing.T) {
	defer goleak.VerifyNone(t)
	c := goexitAt{tens(10), 4}
	for _, par := range parallelism[1:] {
		t.Run(name("prefetch=", par.prefetch, " workers=", par.workers), func(t *testing.T) {
			var got []int
			var v any
			withTimeout(t, 10*time.Second, func() {
				defer func() { v = recover() }()
				for b := range eachobs.Batches(c, 1, parOpts(par.prefetch, par.workers)...) {
					got = append(got, b.Data...)
				}
			})
			var pe *container.PanicError
			if err, _ := v.(error); !errors.As(err, &pe) || pe.Step != 4 || !strings.Contains(pe.Error(), "Goexit") {
				t.Fatalf("loop panicked with %v, want a PanicError at step 4 naming Goexit", v)
			}
			if diff := cmp.Diff([]int{0, 10, 20, 30}, got); diff != "" {
				t.Errorf("batches before the Goexit mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEveryLoopWrapsPanics checks that every loop of the package reports a panic
// in the container as a *container.PanicError unwrapping to the container's
// error, whatever its workers (issue 25: the type depended on the worker
// count), and that a panic in the loop body is not wrapped.
func TestEveryLoopWrapsPanics(t *testing.T) {
	bad := failing(20, 7)
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	labeled := must(tuples.Zip2(bad, container.FromFunc(20, func(i int) int { return i % 2 })))
	loops := map[string]func(){
		"Obs": func() {
			for range eachobs.Obs(bad) {
			}
		},
		"RandomObs": func() {
			for range must(eachobs.RandomObs(container.FromFunc(20, func(int) int { panic(errors.New("cannot load")) }), 5, rng())) {
			}
		},
		"BalancedObs": func() {
			for range must(eachobs.BalancedObs(must(tuples.Zip2(container.FromFunc(20, func(int) int { panic(errors.New("cannot load")) }), container.FromFunc(20, func(i int) int { return i % 2 }))), 5, rng())) {
			}
		},
	}
	for _, par := range parallelism {
		opts := parOpts(par.prefetch, par.workers)
		p := name("/prefetch=", par.prefetch, "/workers=", par.workers)
		loops["Batches"+p] = func() {
			for range eachobs.Batches(container.AsBatched(bad), 4, opts...) {
			}
		}
		loops["Loader.Epoch"+p] = func() {
			for range eachobs.NewLoader(container.AsBatched(bad), 4, append(opts, eachobs.Shuffle(3))...).Epoch(2) {
			}
		}
		loops["RandomBatches"+p] = func() {
			for range must(eachobs.RandomBatches(labeled, 4, 50, rng(), opts...)) {
			}
		}
	}
	for what, loop := range loops {
		t.Run(what, func(t *testing.T) {
			v := func() (v any) {
				defer func() { v = recover() }()
				loop()
				return nil
			}()
			var pe *container.PanicError
			if err, ok := v.(error); !ok || !errors.As(err, &pe) || errors.Unwrap(pe) == nil {
				t.Fatalf("panic %v (%T), want a *container.PanicError unwrapping to the container's error", v, v)
			}
		})
	}
	t.Run("body", func(t *testing.T) {
		for _, par := range parallelism {
			v := func() (v any) {
				defer func() { v = recover() }()
				for range eachobs.Batches(container.AsBatched(tens(20)), 4, parOpts(par.prefetch, par.workers)...) {
					panic("body")
				}
				return nil
			}()
			if v != "body" {
				t.Errorf("prefetch=%d workers=%d: a panic in the loop body reached the caller as %v (%T), want it unchanged", par.prefetch, par.workers, v, v)
			}
		}
	})
}
