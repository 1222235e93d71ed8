package eachobs_test

import (
	"errors"
	"iter"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

// take collects the first k batches of seq.
func take(seq iter.Seq[eachobs.Batch[[]int]], k int) []rec {
	var out []rec
	if k == 0 {
		return out
	}
	for b := range seq {
		out = append(out, recOf(b))
		if len(out) == k {
			break
		}
	}
	return out
}

func TestLoaderEpochs(t *testing.T) {
	const n, size, seed = 23, 5, 99
	for _, o := range orders {
		for _, tail := range tails {
			t.Run(o.name+"/"+tail.String(), func(t *testing.T) {
				l := eachobs.NewLoader(blockedTens(n), size, append(o.options(seed), eachobs.Tail(tail))...)
				wantSeed := uint64(seed)
				if o.opt == nil {
					wantSeed = 0
				}
				if l.Seed() != wantSeed || l.Steps() != index.NewSteps(n, size, 1, false, tail) {
					t.Fatalf("Seed() = %d, Steps() = %+v; want %d and the schedule of %d in %d with %v", l.Seed(), l.Steps(), wantSeed, n, size, tail)
				}
				if want := (eachobs.Position{Seed: wantSeed, Order: o.order(n), Nobs: n, Tail: tail}); start(l) != want {
					t.Fatalf("Start() = %+v, want %+v", start(l), want)
				}
				want := reference(n, size, tail, seed, o, nil, 4)
				for e := range 4 {
					var we []rec
					for _, r := range want {
						if r.Pos.Epoch == e {
							we = append(we, r)
						}
					}
					got := collect(l.Epoch(e))
					checkData(t, name(o.name, " ", tail, " epoch ", e), n, got)
					if d := cmp.Diff(we, got, cmpEmpty); d != "" {
						t.Fatalf("epoch %d differs from the reference (-want +got):\n%s", e, d)
					}
					if len(got) != l.Len(e) {
						t.Fatalf("epoch %d: %d batches, Len says %d", e, len(got), l.Len(e))
					}
				}
			})
		}
	}
}

// TestLoaderResume interrupts a stream at random batches and resumes from the saved
// position: the pieces put together are the uninterrupted stream, for every tail,
// with and without shuffle and partition, prefetch and workers.
func TestLoaderResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 40 {
		n := 1 + rng.IntN(20)
		size := 1 + rng.IntN(n+1)
		tail := tails[trial%len(tails)]
		par := parallelism[trial%len(parallelism)]
		part := parts[trial%len(parts)]
		o := orders[trial%len(orders)]
		opts := append(parOpts(par.prefetch, par.workers), eachobs.Tail(tail))
		opts = append(opts, o.options(42)...)
		if part != nil {
			opts = append(opts, eachobs.Partition(*part))
		}
		l := eachobs.NewLoader(blockedTens(n), size, opts...)
		whole, err := resume(l, start(l))
		if err != nil {
			t.Fatal(err)
		}
		want := take(whole, 40)
		what := name("n=", n, " size=", size, " ", tail, " part=", part, " order=", o.name)
		ref := reference(n, size, tail, 42, o, part, 40) // 40 epochs: at least the 40 batches taken, but when steps span epochs
		m := min(len(ref), len(want))
		if d := cmp.Diff(ref[:m], want[:m], cmpEmpty); d != "" {
			t.Fatalf("%s: the stream differs from the reference (-want +got):\n%s", what, d)
		}
		var got []rec
		pos := start(l)
		for len(got) < len(want) {
			seq, err := resume(l, pos)
			if err != nil {
				t.Fatalf("%s: Resume(%+v): %v", what, pos, err)
			}
			k := min(1+rng.IntN(7), len(want)-len(got))
			piece := take(seq, k)
			got = append(got, piece...)
			pos = piece[len(piece)-1].Next
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: resumed stream differs (-whole +resumed):\n%s", what, d)
		}
		// Epoch(e) is the part of the stream in epoch e.
		if len(want) == 0 {
			continue
		}
		if e := want[len(want)-1].Pos.Epoch - 1; e >= 0 {
			var piece []rec
			for _, r := range want {
				if r.Pos.Epoch == e {
					piece = append(piece, r)
				}
			}
			if d := cmp.Diff(piece, collect(l.Epoch(e)), cmpEmpty); d != "" {
				t.Fatalf("%s: Epoch(%d) differs from the stream (-stream +Epoch):\n%s", what, e, d)
			}
		}
	}
}

// TestLoaderDataOrder checks that a strided partition of a loader in data
// order takes every Parts-th index, as index.Part's strided positions are.
func TestLoaderDataOrder(t *testing.T) {
	const n, size = 23, 5
	part := index.Part{Index: 1, Parts: 3, Strided: true}
	l := eachobs.NewLoader(tens(n), size, eachobs.Partition(part))
	var got []int
	for b := range l.Epoch(2) {
		got = append(got, b.Indices[:b.Real]...)
	}
	if d := cmp.Diff(part.Positions(n), got); d != "" {
		t.Errorf("in-order partition mismatch (-want +got):\n%s", d)
	}
}

func TestLoaderSameSeedSameSequence(t *testing.T) {
	a := eachobs.NewLoader(tens(50), 8, eachobs.Shuffle(1))
	b := eachobs.NewLoader(tens(50), 8, eachobs.Shuffle(1), eachobs.Prefetch(2), eachobs.Workers(2))
	c := eachobs.NewLoader(tens(50), 8, eachobs.Shuffle(2))
	if d := cmp.Diff(collect(a.Epoch(3)), collect(b.Epoch(3))); d != "" {
		t.Errorf("equal seeds, different parallelism: sequences differ (-a +b):\n%s", d)
	}
	if cmp.Equal(collect(a.Epoch(3)), collect(c.Epoch(3))) {
		t.Error("different seeds gave the same epoch")
	}
	if cmp.Equal(collect(a.Epoch(0)), collect(a.Epoch(1))) {
		t.Error("epochs 0 and 1 have the same order")
	}
	// Batches is the loader's epochs in turn.
	seq := eachobs.Batches(tens(50), 8, eachobs.Shuffle(1))
	for e := range 3 {
		if d := cmp.Diff(collect(a.Epoch(e)), collect(seq)); d != "" {
			t.Errorf("pass %d of Batches is not epoch %d of the loader (-loader +Batches):\n%s", e, e, d)
		}
	}
}

// TestLoaderResumeErrors: a position that is not of the stream, or taken
// under another order, seed, container size or tail, is refused with
// container.ErrState and the option named.
func TestLoaderResumeErrors(t *testing.T) {
	l := eachobs.NewLoader(tens(10), 3, eachobs.Shuffle(5))
	start0 := start(l)
	with := func(f func(p *eachobs.Position)) eachobs.Position {
		p := start0
		f(&p)
		return p
	}
	for _, tc := range []struct {
		pos  eachobs.Position
		want string
	}{
		{with(func(p *eachobs.Position) { p.Seed = 4 }), "Shuffle: the position's seed is 4"},
		{with(func(p *eachobs.Position) { p.Order, p.Seed = "data", 0 }), "Shuffle: the position's order is \"data\""},
		{with(func(p *eachobs.Position) { p.Order = "perm" }), "Shuffle: the position's order is \"perm\""},
		{with(func(p *eachobs.Position) { p.Nobs = 11 }), "the container: the position is of 11 observations"},
		{with(func(p *eachobs.Position) { p.Tail = index.Pad }), "Tail: the position's tail is pad"},
		{with(func(p *eachobs.Position) { p.Epoch = -1 }), "epoch -1"},
		{with(func(p *eachobs.Position) { p.Consumed = 11 }), "11 positions consumed"},
		{with(func(p *eachobs.Position) { p.Consumed = -1 }), "-1 positions consumed"},
		{with(func(p *eachobs.Position) { p.Batch = -1 }), "step -1"},
		{eachobs.Position{Seed: 5}, "Shuffle: the position's order is \"\""},
	} {
		_, err := resume(l, tc.pos)
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resume(%+v) error = %v, want container.ErrState and %q", tc.pos, err, tc.want)
		}
	}
	// An unshuffled loader refuses a position of Shuffle(0).
	plain := eachobs.NewLoader(tens(10), 3)
	zero := eachobs.NewLoader(tens(10), 3, eachobs.Shuffle(0))
	if _, err := resume(plain, start(zero)); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "no shuffle") {
		t.Errorf("Resume of a Shuffle(0) position in an unshuffled loader: %v, want container.ErrState naming the shuffle", err)
	}
	// The end of an epoch is a valid position: it continues with the next epoch.
	seq, err := resume(l, with(func(p *eachobs.Position) { p.Epoch, p.Batch, p.Consumed = 2, 4, 10 }))
	if err != nil {
		t.Fatal(err)
	}
	if r := take(seq, 1); r[0].Pos != with(func(p *eachobs.Position) { p.Epoch = 3 }) {
		t.Errorf("Resume(end of epoch 2) starts at %+v, want epoch 3 batch 0", r[0].Pos)
	}
	// A loader with no batches in any epoch yields nothing rather than spinning.
	for _, empty := range []*eachobs.Loader[[]int]{
		eachobs.NewLoader(tens(4), 5, eachobs.Shuffle(5), eachobs.Tail(index.Drop)),
		eachobs.NewLoader(tens(0), 5, eachobs.Shuffle(5)),
		eachobs.NewLoader(tens(0), 5, eachobs.Shuffle(5), eachobs.Tail(index.RollOver)),
		eachobs.NewLoader(tens(5), 2, eachobs.Partition(index.Part{Index: 3, Parts: 4})), // its slots lie past every epoch
	} {
		seq, err = resume(empty, start(empty))
		if err != nil || len(take(seq, 3)) != 0 {
			t.Errorf("Resume on a loader without batches: err %v, want nothing yielded", err)
		}
	}
}

// TestLoaderHugeEpochs is the regression test of an overflow: Resume accepted any
// epoch >= 0, and a position such as epoch math.MaxInt/10 of 10 observations
// overflowed the position arithmetic and later panicked with an index out of
// range [-8]. Now every epoch outside [0, Steps().MaxEpoch()] is an error
// wrapping container.ErrState (a panic with a *container.ArgError for Epoch and Len),
// and every position Resume accepts, up to the last epoch, yields valid batches.
func TestLoaderHugeEpochs(t *testing.T) {
	l := eachobs.NewLoader(tens(10), 3, eachobs.Shuffle(5))
	huge := start(l)
	huge.Epoch = math.MaxInt / 10
	if _, err := resume(l, huge); !errors.Is(err, container.ErrState) {
		t.Errorf("Resume(epoch MaxInt/10) error = %v, want container.ErrState", err)
	}
	for _, f := range []func(){
		func() { l.Epoch(math.MaxInt / 10) },
		func() { l.Epoch(l.Steps().MaxEpoch() + 1) },
		func() { l.Epoch(-1) },
		func() { l.Len(math.MaxInt) },
	} {
		if err := argPanic(f); err == nil || err.Arg != "epoch" {
			t.Errorf("Epoch or Len of an epoch outside [0, MaxEpoch]: panic %v, want a *container.ArgError for the epoch", err)
		}
	}

	rng := rand.New(rand.NewPCG(8, 8))
	for _, tc := range []struct {
		n, size int
		tail    index.Tail
		part    *index.Part
	}{
		{10, 3, index.Keep, nil},
		{10, 3, index.Drop, nil},
		{10, 3, index.Pad, nil},
		{10, 3, index.RollOver, nil},
		{7, 4, index.RollOver, parts[2]},
		{1, 1, index.Keep, nil},
		{13, 13, index.Pad, parts[3]},
	} {
		opts := []eachobs.Option{eachobs.Shuffle(5), eachobs.Tail(tc.tail)}
		if tc.part != nil {
			opts = append(opts, eachobs.Partition(*tc.part))
		}
		l := eachobs.NewLoader(tens(tc.n), tc.size, opts...)
		last := l.Steps().MaxEpoch()
		if last <= 0 || last >= math.MaxInt/max(1, tc.n) {
			t.Fatalf("n=%d size=%d: MaxEpoch %d, want a positive epoch below MaxInt/n", tc.n, tc.size, last)
		}
		for probe := range 120 {
			var e int
			switch probe % 4 {
			case 0:
				e = rng.IntN(math.MaxInt)
			case 1: // around the last epoch, without overflowing
				e = last + min(rng.IntN(7)-3, math.MaxInt-last)
			case 2:
				e = math.MaxInt / (1 + rng.IntN(20))
			default:
				e = math.MaxInt - rng.IntN(5)
			}
			pos := start(l)
			pos.Epoch = e
			valid := e >= 0 && e <= last
			if valid { // a step boundary of the epoch: after step k-1
				if k := rng.IntN(l.Len(e) + 1); k > 0 {
					pos.Epoch, pos.Consumed, pos.Batch = l.Steps().After(e, k-1)
				} else {
					pos.Epoch, pos.Consumed, pos.Batch = l.Steps().First(e)
				}
			}
			valid = valid && pos.Epoch <= last // after the last step of the last epoch is past it
			what := name("n=", tc.n, " size=", tc.size, " ", tc.tail, " part=", tc.part, " Resume(", pos, ")")
			seq, err := resume(l, pos)
			if !valid {
				if !errors.Is(err, container.ErrState) {
					t.Fatalf("%s: error %v, want container.ErrState (MaxEpoch %d)", what, err, last)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: error %v for a position of the loader (MaxEpoch %d)", what, err, last)
			}
			rs := take(seq, 4)
			checkData(t, what, tc.n, rs)
			for k, r := range rs {
				if r.Pos.Epoch < e || r.Pos.Epoch > last || r.Count != l.Len(r.Pos.Epoch) || r.Pos.Batch >= r.Count {
					t.Fatalf("%s: batch %d at %+v of %d", what, k, r.Pos, r.Count)
				}
			}
			if e < last-8 && len(rs) != 4 {
				t.Fatalf("%s: %d batches well before the last epoch, want 4", what, len(rs))
			}
			if e == last {
				// The last epoch is a whole epoch, after which the loop ends.
				if got := len(collect(l.Epoch(e))); got != l.Len(e) {
					t.Fatalf("%s: last epoch has %d batches, Len says %d", what, got, l.Len(e))
				}
			}
		}
	}
}

// argPanic runs f and returns the *container.ArgError it panics with (nil when
// it does not panic; a test failure when it panics with another value).
func argPanic(f func()) (err *container.ArgError) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(error); !ok || !errors.As(e, &err) {
			panic(r)
		}
	}()
	f()
	return nil
}
