package pipeline

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/obskit/obskit/container"
	"go.uber.org/goleak"
)

type slot struct {
	step int
	out  int
}

// configs are the shapes every test runs under.
var configs = []struct {
	cfg   Config
	depth int
}{
	{Config{Op: "serial"}, 1},
	{Config{Op: "prefetch", Workers: 1}, 2},
	{Config{Op: "prefetch", Workers: 1}, 5},
	{Config{Op: "workers", Workers: 2}, 3},
	{Config{Op: "workers", Workers: 4}, 9},
	{Config{Op: "unordered", Workers: 2, Unordered: true}, 4},
	{Config{Op: "unordered", Workers: 3, Unordered: true}, 3},
}

func name(cfg Config, depth int) string {
	return fmt.Sprintf("%s/w%d/d%d", cfg.Op, cfg.Workers, depth)
}

// steps returns a source of n steps (n < 0: endless), counting the steps it
// prepared in *made when made is not nil.
func steps(n int, made *int) func(s *slot) bool {
	k := 0
	return func(s *slot) bool {
		if k == n {
			return false
		}
		s.step = k
		k++
		if made != nil {
			*made = k
		}
		return true
	}
}

func square(s *slot) { s.out = s.step * s.step }

func TestOrderAndCompleteness(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		for _, n := range []int{0, 1, 2, 7, 100} {
			t.Run(fmt.Sprintf("%s/n%d", name(c.cfg, c.depth), n), func(t *testing.T) {
				var got []int
				Run(c.cfg, make([]slot, c.depth), steps(n, nil), square, func(s *slot) bool {
					if s.out != s.step*s.step {
						t.Fatalf("step %d: work result %d, want %d", s.step, s.out, s.step*s.step)
					}
					got = append(got, s.step)
					return true
				})
				if c.cfg.Unordered {
					slices.Sort(got)
				}
				want := make([]int, n)
				for i := range want {
					want[i] = i
				}
				if !slices.Equal(got, want) {
					t.Fatalf("steps delivered %v, want each of 0..%d once in order", got, n-1)
				}
			})
		}
	}
}

func TestEarlyStop(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		for _, stop := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("%s/stop%d", name(c.cfg, c.depth), stop), func(t *testing.T) {
				emitted := 0
				got := 0
				Run(c.cfg, make([]slot, c.depth), steps(-1, &emitted), square, func(*slot) bool {
					got++
					return got <= stop
				})
				if got != stop+1 {
					t.Fatalf("Run yielded %d steps, want %d", got, stop+1)
				}
				if emitted > stop+1+c.depth {
					t.Errorf("the source emitted %d steps for %d consumed with %d slots", emitted, stop+1, c.depth)
				}
			})
		}
	}
}

// TestWorkPanics checks that a panic in work reaches the caller as a PanicError
// naming the first step in order that panicked, after every earlier step, and
// never hangs: the regression test of the parallel loop that waited forever for
// an earlier step when a later step's panic was recorded first.
func TestWorkPanics(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		for _, bad := range [][]int{{0}, {3}, {1, 2}, {2, 5}, {0, 1, 2, 3}} {
			t.Run(fmt.Sprintf("%s/bad%v", name(c.cfg, c.depth), bad), func(t *testing.T) {
				for trial := range 20 {
					rng := rand.New(rand.NewPCG(uint64(trial), 1))
					var got []int
					v := recovered(func() {
						Run(c.cfg, make([]slot, c.depth), steps(8, nil), func(s *slot) {
							// The first bad step sleeps so that later ones fail first.
							if s.step == bad[0] {
								time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
							}
							if slices.Contains(bad, s.step) {
								panic(fmt.Sprintf("bad step %d", s.step))
							}
						}, func(s *slot) bool { got = append(got, s.step); return true })
					})
					var pe *container.PanicError
					err, _ := v.(error)
					switch {
					case !errors.As(err, &pe):
						t.Fatalf("panic %v (%T), want a *container.PanicError", v, v)
					case c.cfg.Unordered:
						if !slices.Contains(bad, pe.Step) || pe.Value != fmt.Sprintf("bad step %d", pe.Step) {
							t.Fatalf("PanicError at step %d with %v, want one of the bad steps %v", pe.Step, pe.Value, bad)
						}
						continue
					case pe.Step != bad[0] || pe.Op != c.cfg.Op || len(pe.Stack) == 0:
						t.Fatalf("PanicError{Op %q, Step %d, Value %v}, want Op %q at step %d with a stack", pe.Op, pe.Step, pe.Value, c.cfg.Op, bad[0])
					}
					want := make([]int, bad[0])
					for i := range want {
						want[i] = i
					}
					if !slices.Equal(got, want) {
						t.Fatalf("steps before the panic %v, want %v", got, want)
					}
				}
			})
		}
	}
}

func TestSourcePanics(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		for _, at := range []int{0, 1, 6} {
			{
				t.Run(fmt.Sprintf("%s/at%d", name(c.cfg, c.depth), at), func(t *testing.T) {
					got := 0
					v := recovered(func() {
						k := 0
						Run(c.cfg, make([]slot, c.depth), func(s *slot) bool {
							if k == at {
								s.step = -1
								panic("source")
							}
							s.step = k
							k++
							return true
						}, square, func(*slot) bool { got++; return true })
					})
					var pe *container.PanicError
					if err, _ := v.(error); !errors.As(err, &pe) || pe.Step != at {
						t.Fatalf("panic %v, want a PanicError at step %d", v, at)
					}
					if got != at {
						t.Fatalf("%d steps delivered before the source's panic, want %d", got, at)
					}
				})
			}
		}
	}
}

func TestYieldPanicStopsEverything(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		t.Run(name(c.cfg, c.depth), func(t *testing.T) {
			v := recovered(func() {
				Run(c.cfg, make([]slot, c.depth), steps(1000, nil), square, func(s *slot) bool {
					if s.step == 2 || c.cfg.Unordered {
						panic("body")
					}
					return true
				})
			})
			if v != "body" {
				t.Fatalf("panic %v, want the body's own panic value", v)
			}
		})
	}
}

// TestSlotsNotShared checks that a slot being yielded is not reused until yield
// returns: the consumer holds each slot for a while and checks it is unchanged.
func TestSlotsNotShared(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs {
		t.Run(name(c.cfg, c.depth), func(t *testing.T) {
			Run(c.cfg, make([]slot, c.depth), steps(200, nil), square, func(s *slot) bool {
				step, out := s.step, s.out
				for range 20 {
					time.Sleep(time.Microsecond)
					if s.step != step || s.out != out {
						t.Fatalf("slot of step %d changed to step %d while held", step, s.step)
					}
				}
				return true
			})
		})
	}
}

func TestBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		depth int
	}{
		{Config{}, 0},
		{Config{Workers: 1}, 1},
		{Config{Workers: -1}, 2},
		{Config{Workers: 1, Unordered: true}, 3},
	} {
		if v := recovered(func() { Run(tc.cfg, make([]slot, tc.depth), steps(1, nil), nil, func(*slot) bool { return true }) }); v == nil {
			t.Errorf("Run(%+v, %d slots) did not panic", tc.cfg, tc.depth)
		}
	}
}

func TestPollAndBlock(t *testing.T) {
	for _, recv := range []func(<-chan int, <-chan struct{}) (int, bool, bool){Poll[int], Block[int]} {
		c := make(chan int, 1)
		stop := make(chan struct{})
		c <- 7
		if v, ok, stopped := recv(c, stop); v != 7 || !ok || stopped {
			t.Errorf("recv of a value = %d %v %v", v, ok, stopped)
		}
		go func() { time.Sleep(2 * PollBudget); c <- 8 }() // past the budget: parks
		if v, ok, _ := recv(c, stop); v != 8 || !ok {
			t.Errorf("recv after a wait = %d %v", v, ok)
		}
		close(stop)
		if _, ok, stopped := recv(c, stop); ok || !stopped {
			t.Errorf("recv after stop: ok %v stopped %v", ok, stopped)
		}
		close(c)
		if _, ok, stopped := recv(c, nil); ok || stopped {
			t.Errorf("recv of a closed channel: ok %v stopped %v", ok, stopped)
		}
	}
}

func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// TestGoexit: runtime.Goexit in work or in the source of a background goroutine
// (t.FailNow called there, say) is reported like a panic, as a PanicError at its
// step, instead of leaving the consumer waiting forever for a step that never
// completes or ending the pass early with no error.
func TestGoexit(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range configs[1:] { // serial runs in the caller's goroutine: Goexit ends the caller
		for _, inSource := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/source=%v", name(c.cfg, c.depth), inSource), func(t *testing.T) {
				done := make(chan any, 1)
				got := 0
				go func() {
					done <- recovered(func() {
						k := 0
						Run(c.cfg, make([]slot, c.depth), func(s *slot) bool {
							if inSource && k == 4 {
								runtime.Goexit()
							}
							s.step = k
							k++
							return k <= 8
						}, func(s *slot) {
							if !inSource && s.step == 4 {
								runtime.Goexit()
							}
						}, func(*slot) bool { got++; return true })
					})
				}()
				var v any
				select {
				case v = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("Run still waiting 10 s after a Goexit at step 4")
				}
				var pe *container.PanicError
				if err, _ := v.(error); !errors.As(err, &pe) || pe.Step != 4 || !errors.Is(pe, errGoexit) {
					t.Fatalf("Run panicked with %v, want a PanicError at step 4 wrapping errGoexit", v)
				}
				if !c.cfg.Unordered && got != 4 {
					t.Errorf("%d steps delivered before the Goexit, want 4", got)
				}
			})
		}
	}
}

// TestStart: a started pipeline completes its first steps before anyone asks
// for them, then delivers every step in order; one stopped unconsumed leaves no
// goroutine; a panic in a step before the consumer comes reaches it.
func TestStart(t *testing.T) {
	for _, c := range configs {
		if c.cfg.Workers == 0 {
			continue
		}
		t.Run(name(c.cfg, c.depth), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			done := make(chan int, 100)
			work := func(s *slot) { s.out = s.step * s.step; done <- s.step }
			p := New(c.cfg, make([]slot, c.depth), steps(20, nil), work)
			p.Start()
			for range c.depth { // completed before Next is called
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("a started pipeline completed no step before it was consumed")
				}
			}
			var got []int
			for s, ok := p.Next(); ok; s, ok = p.Next() {
				got = append(got, s.out)
			}
			slices.Sort(got)
			for k, v := range got {
				if v != k*k {
					t.Fatalf("step %d gave %d", k, v)
				}
			}
			if len(got) != 20 {
				t.Fatalf("%d steps consumed, want 20", len(got))
			}
			goleak.VerifyNone(t, before)

			p = New(c.cfg, make([]slot, c.depth), steps(1000, nil), func(s *slot) { s.out = s.step })
			p.Start()
			p.Stop()
			goleak.VerifyNone(t, before)

			bad := New(c.cfg, make([]slot, c.depth), steps(5, nil), func(s *slot) {
				if s.step == 0 {
					panic("step 0")
				}
			})
			bad.Start()
			time.Sleep(time.Millisecond)
			var pe *container.PanicError
			func() {
				defer func() {
					if err, _ := recover().(error); !errors.As(err, &pe) || pe.Value != "step 0" {
						t.Errorf("panic before Next: recovered %v, want a *container.PanicError of step 0", err)
					}
				}()
				for _, ok := bad.Next(); ok; _, ok = bad.Next() { // unordered: later steps may come first
				}
			}()
			if _, ok := bad.Next(); ok {
				t.Error("Next after a panic returned a step")
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// TestStopAndRestart: a pipe stopped mid-way starts again at the next Next from
// where its owner has set the source, as a restore of saved state does (the
// steps in flight are prepared again); a pipe at its end stays there until
// Stop; Stop and Next may alternate any number of times, and nothing leaks.
func TestStopAndRestart(t *testing.T) {
	for _, c := range configs {
		t.Run(name(c.cfg, c.depth), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			next := 0 // the source's position, which the owner sets back
			p := New(c.cfg, make([]slot, c.depth), func(s *slot) bool {
				if next == 30 {
					return false
				}
				s.step = next
				next++
				return true
			}, square)
			var got []int
			consumed := 0 // the position after the last step consumed
			for round := 0; ; round++ {
				s, ok := p.Next()
				if !ok {
					break
				}
				if s.out != s.step*s.step {
					t.Fatalf("step %d: out %d", s.step, s.out)
				}
				got = append(got, s.step)
				consumed = max(consumed, s.step+1)
				if round%7 == 3 && !c.cfg.Unordered {
					p.Stop()
					next = consumed
				}
			}
			if _, ok := p.Next(); ok {
				t.Fatal("Next after the end returned a step")
			}
			if c.cfg.Unordered {
				slices.Sort(got)
			}
			want := make([]int, 30)
			for i := range want {
				want[i] = i
			}
			if !slices.Equal(got, want) {
				t.Fatalf("steps %v, want 0..29 once each in order", got)
			}
			p.Stop()
			next = 25
			n := 0
			for _, ok := p.Next(); ok; _, ok = p.Next() {
				n++
			}
			if n != 5 {
				t.Fatalf("after Stop at the end and the source set to 25: %d steps, want 5", n)
			}
			p.Stop()
			goleak.VerifyNone(t, before)
		})
	}
}
