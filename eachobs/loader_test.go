package eachobs_test

import (
	"errors"
	"iter"
	"math"
	"math/rand/v2"
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

// epochPerm is the documented permutation of epoch e.
func epochPerm(seed uint64, e, n int) []int {
	return rand.New(rand.NewPCG(seed, uint64(e))).Perm(n)
}

func TestLoaderEpochs(t *testing.T) {
	const n, size, seed = 23, 5, 99
	for _, tail := range tails {
		t.Run(tail.String(), func(t *testing.T) {
			l := eachobs.NewLoader(tens(n), size, eachobs.Shuffle(seed), eachobs.Tail(tail))
			if l.Seed() != seed || l.Plan() != index.NewPlan(n, size, tail) {
				t.Fatalf("Seed() = %d, Plan() = %+v; want %d and the plan of %d in %d with %v", l.Seed(), l.Plan(), seed, n, size, tail)
			}
			checkEpochs(t, l, seed, tail, size, 4, func(e int) []int { return epochPerm(seed, e, n) })
		})
	}
}

// checkEpochs runs epochs 0..epochs-1 of l, a loader with seed over tens(n) in
// batches of size with tail, and checks them against order(e), the n indices
// epoch e must visit in turn: every batch holds the data its indices name and
// carries its position and the epoch's count; the real indices of epoch e are
// order(e), less the tail with Drop; with RollOver the epochs together are one
// stream of order(0), order(1), ... cut into full batches.
func checkEpochs(t *testing.T, l *eachobs.Loader[[]int], seed uint64, tail index.Tail, size, epochs int, order func(e int) []int) {
	t.Helper()
	var stream, orders []int // RollOver: the real indices of every epoch in turn, and the orders in turn
	n := 0
	for e := range epochs {
		want := order(e)
		n = len(want)
		rs := collect(l.Epoch(e))
		checkData(t, name(tail, " epoch ", e), n, rs)
		if len(rs) != l.Len(e) {
			t.Fatalf("epoch %d: %d batches, Len says %d", e, len(rs), l.Len(e))
		}
		var real []int
		for k, r := range rs {
			if r.Pos != (eachobs.Position{Seed: seed, Epoch: e, Batch: k}) || r.Count != len(rs) {
				t.Fatalf("epoch %d batch %d: Pos %+v Count %d", e, k, r.Pos, r.Count)
			}
			real = append(real, r.Indices[:r.Real]...)
		}
		switch tail {
		case index.RollOver:
			stream = append(stream, real...)
			orders = append(orders, want...)
		case index.Drop:
			if d := cmp.Diff(want[:n/size*size], real, cmpEmpty); d != "" {
				t.Fatalf("epoch %d: real indices are not the epoch's order less its tail (-want +got):\n%s", e, d)
			}
		default:
			if d := cmp.Diff(want, real, cmpEmpty); d != "" {
				t.Fatalf("epoch %d: real indices are not the epoch's order (-want +got):\n%s", e, d)
			}
		}
	}
	if tail == index.RollOver {
		if len(stream) != epochs*n/size*size {
			t.Fatalf("roll-over: %d observations in %d epochs, want %d", len(stream), epochs, epochs*n/size*size)
		}
		if d := cmp.Diff(orders[:len(stream)], stream); d != "" {
			t.Fatalf("roll-over epochs are not one stream of the epochs' orders (-want +got):\n%s", d)
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
		opts := append(parOpts(par.prefetch, par.workers), eachobs.Tail(tail))
		if trial%3 != 0 {
			opts = append(opts, eachobs.Shuffle(42))
		}
		if part != nil {
			opts = append(opts, eachobs.Partition(*part))
		}
		l := eachobs.NewLoader(tens(n), size, opts...)
		start := eachobs.Position{Seed: l.Seed()}
		whole, err := l.Resume(start)
		if err != nil {
			t.Fatal(err)
		}
		want := take(whole, 40)
		what := name("n=", n, " size=", size, " ", tail, " part=", part, " seed=", l.Seed())
		m := l.Plan().N()
		if empty := m == 0 || (tail == index.Drop && m < size); empty != (len(want) == 0) || !empty && len(want) != 40 {
			t.Fatalf("%s: the stream ended after %d batches", what, len(want))
		}
		var got []rec
		pos := start
		for len(got) < len(want) {
			seq, err := l.Resume(pos)
			if err != nil {
				t.Fatalf("%s: Resume(%+v): %v", what, pos, err)
			}
			k := min(1+rng.IntN(7), len(want)-len(got))
			piece := take(seq, k)
			got = append(got, piece...)
			last := piece[len(piece)-1]
			pos = eachobs.Batch[[]int]{Pos: last.Pos, Count: last.Count}.Next()
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

// TestLoaderDataOrder checks that a loader without Shuffle visits every epoch in
// data order with every tail, the roll-over stream included, that its seed is
// 0, and that a partition takes its share of the identity order.
func TestLoaderDataOrder(t *testing.T) {
	const n, size = 23, 5
	for _, tail := range tails {
		t.Run(tail.String(), func(t *testing.T) {
			l := eachobs.NewLoader(tens(n), size, eachobs.Tail(tail))
			checkEpochs(t, l, 0, tail, size, 3, func(int) []int { return iota(n) })
		})
	}
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

func TestLoaderFromErrors(t *testing.T) {
	l := eachobs.NewLoader(tens(10), 3, eachobs.Shuffle(5))
	for _, pos := range []eachobs.Position{{Seed: 4}, {Seed: 0}, {Seed: 5, Epoch: -1}, {Seed: 5, Batch: 5}, {Seed: 5, Batch: -1}} {
		if _, err := l.Resume(pos); !errors.Is(err, eachobs.ErrPosition) {
			t.Errorf("Resume(%+v) error = %v, want ErrPosition", pos, err)
		}
	}
	// A loader without Shuffle has seed 0.
	if _, err := eachobs.NewLoader(tens(10), 3).Resume(eachobs.Position{Seed: 5}); !errors.Is(err, eachobs.ErrPosition) {
		t.Errorf("Resume(seed 5) of an unshuffled loader: error = %v, want ErrPosition", err)
	}
	// The end of an epoch is a valid position: it continues with the next epoch.
	seq, err := l.Resume(eachobs.Position{Seed: 5, Epoch: 2, Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r := take(seq, 1); r[0].Pos != (eachobs.Position{Seed: 5, Epoch: 3}) {
		t.Errorf("Resume(end of epoch 2) starts at %+v, want epoch 3 batch 0", r[0].Pos)
	}
	// A loader with no batches in any epoch yields nothing rather than spinning.
	for _, empty := range []*eachobs.Loader[[]int]{
		eachobs.NewLoader(tens(4), 5, eachobs.Shuffle(5), eachobs.Tail(index.Drop)),
		eachobs.NewLoader(tens(0), 5, eachobs.Shuffle(5)),
		eachobs.NewLoader(tens(0), 5, eachobs.Shuffle(5), eachobs.Tail(index.RollOver)),
	} {
		seq, err = empty.Resume(eachobs.Position{Seed: 5})
		if err != nil || len(take(seq, 3)) != 0 {
			t.Errorf("Resume on a loader without batches: err %v, want nothing yielded", err)
		}
	}
}

// TestLoaderHugeEpochs is the regression test of an overflow: Resume accepted any
// epoch >= 0, and a position such as epoch math.MaxInt/10 of 10 observations
// overflowed the plan's position arithmetic and later panicked with an index out
// of range [-8]. Now every epoch outside [0, Plan().MaxEpoch()] is an error
// wrapping ErrPosition (a panic with a *container.ArgError for Epoch and Len),
// and every position Resume accepts, up to the last epoch, yields valid batches.
func TestLoaderHugeEpochs(t *testing.T) {
	l := eachobs.NewLoader(tens(10), 3, eachobs.Shuffle(5))
	if _, err := l.Resume(eachobs.Position{Seed: 5, Epoch: math.MaxInt / 10}); !errors.Is(err, eachobs.ErrPosition) {
		t.Errorf("Resume(epoch MaxInt/10) error = %v, want ErrPosition", err)
	}
	for _, f := range []func(){
		func() { l.Epoch(math.MaxInt / 10) },
		func() { l.Epoch(l.Plan().MaxEpoch() + 1) },
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
		last := l.Plan().MaxEpoch()
		if last <= 0 || last >= math.MaxInt/max(1, l.Plan().N()) {
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
			pos := eachobs.Position{Seed: 5, Epoch: e, Batch: rng.IntN(6)}
			what := name("n=", tc.n, " size=", tc.size, " ", tc.tail, " part=", tc.part, " Resume(", pos, ")")
			seq, err := l.Resume(pos)
			valid := e >= 0 && e <= last && pos.Batch <= l.Len(e)
			if !valid {
				if !errors.Is(err, eachobs.ErrPosition) {
					t.Fatalf("%s: error %v, want ErrPosition (MaxEpoch %d)", what, err, last)
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
