package provider_test

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/tuples"
	"go.uber.org/goleak"
)

// loops are the goroutine settings the concurrency tests run under.
var loops = []struct {
	name string
	opts []provider.Option
}{
	{"serial", nil},
	{"prefetch=1", []provider.Option{provider.Loop(eachobs.Prefetch(1))}},
	{"workers=2", []provider.Option{provider.Loop(eachobs.Workers(2))}},
	{"prefetch=3,workers=2", []provider.Option{provider.Loop(eachobs.Prefetch(3), eachobs.Workers(2))}},
}

func TestEarlyBreakStopsGoroutines(t *testing.T) {
	data, label := sources(t, 30)
	for _, l := range loops {
		for _, shuffled := range []bool{false, true} {
			t.Run(fmt.Sprint(l.name, ",shuffled=", shuffled), func(t *testing.T) {
				opts := l.opts
				if shuffled {
					opts = append(opts[:len(opts):len(opts)], provider.Loop(eachobs.Shuffle(1)))
				}
				p := must(provider.New(data, label, 4, append(opts, provider.PadWith(0))...))
				before := goleak.IgnoreCurrent()
				for b := range p.Epoch(0) {
					if b.Pos.Batch == 1 {
						break
					}
				}
				goleak.VerifyNone(t, before)
				if shuffled {
					seq := p.Iter().All()
					for b := range seq {
						if b.Pos.Epoch == 2 {
							break
						}
					}
					goleak.VerifyNone(t, before)
				}
			})
		}
	}
}

// TestConcurrentLoops ranges one provider from several goroutines at once (run
// it with -race): every loop sees the batches a serial loop sees.
func TestConcurrentLoops(t *testing.T) {
	data, label := sources(t, 29)
	serial := must(provider.New(data, label, 4, provider.Loop(eachobs.Shuffle(2)), provider.PadWith(9)))
	want := record(serial.Epoch(1))
	for _, l := range loops {
		t.Run(l.name, func(t *testing.T) {
			p := must(provider.New(data, label, 4, append(l.opts, provider.Loop(eachobs.Shuffle(2)), provider.PadWith(9))...))
			var wg sync.WaitGroup
			got := make([][]string, 4)
			for g := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[g] = record(p.Epoch(1))
				}()
			}
			wg.Wait()
			for g := range got {
				if d := cmp.Diff(want, got[g]); d != "" {
					t.Errorf("goroutine %d mismatch with a serial loop (-want +got):\n%s", g, d)
				}
			}
		})
	}
}

// record returns every batch of seq as text, slices included.
func record(seq iter.Seq[provider.Batch[float32, uint8]]) []string {
	var out []string
	for b := range seq {
		out = append(out, fmt.Sprint(b.Indices, b.Real, b.Data.X, b.Data.Y))
		for _, s := range provider.Split(b, 3) {
			out = append(out, fmt.Sprint(s.Indices, s.Real, s.Data.X, s.Data.Y))
		}
	}
	return out
}

// failing is an array source whose observation bad cannot be loaded.
type failing struct {
	*arraycontainer.Array[float32]
	bad int
}

func (f failing) GetObsInto(dst *arraycontainer.Array[float32], idx []int) *arraycontainer.Array[float32] {
	for _, i := range idx {
		if i == f.bad {
			panic(fmt.Errorf("cannot load observation %d", i))
		}
	}
	return f.Array.GetObsInto(dst, idx)
}

// TestWorkerPanicReachesCaller checks that a source that panics in a
// background goroutine stops the loop in the ranging goroutine, after every
// earlier batch, with no goroutine left.
func TestWorkerPanicReachesCaller(t *testing.T) {
	x := failing{numbered[float32](t, 0, []int{20, 2}, obsdim.First), 13}
	data := must(tuples.NewNamed([]string{"x"}, x))
	for _, l := range loops {
		t.Run(l.name, func(t *testing.T) {
			p := must(provider.NewUnlabeled(data, 4, l.opts...))
			before := goleak.IgnoreCurrent()
			var batches []int
			func() {
				defer func() {
					r := recover()
					err, _ := r.(error)
					if err == nil || !strings.Contains(err.Error(), "cannot load observation 13") {
						t.Fatalf("panic %v, want the source's error", r)
					}
					var pe *container.PanicError
					if l.opts != nil && (!errors.As(err, &pe) || pe.Op != "eachobs" || pe.Step != 3) {
						t.Errorf("panic %v (%T) from a background goroutine, want an eachobs *container.PanicError at step 3", r, r)
					}
				}()
				for b := range p.Epoch(0) {
					batches = append(batches, b.Pos.Batch)
				}
			}()
			if d := cmp.Diff([]int{0, 1, 2}, batches); d != "" {
				t.Errorf("batches before the panic mismatch (-want +got):\n%s", d)
			}
			goleak.VerifyNone(t, before)
		})
	}
}
