package index_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

// onePart returns where batch k of epoch e of a schedule of one part lies: its
// first stream position, its real slots and its padding slots.
func onePart(s index.Steps, e, k int) (start, real, pad int) {
	first, _, real, total, _ := s.Slots(e, k, 0)
	return first, real, total - real
}

// FuzzStepsOnePart checks the invariants of a schedule of one part (a loop's
// batches) for any n, size, tail and epoch: every epoch of Keep and Pad visits
// each position once as a real observation, Drop visits all but the n mod size
// of the tail, and RollOver's epochs cut one unbroken stream.
func FuzzStepsOnePart(f *testing.F) {
	f.Add(10, 3, uint8(0), 0)
	f.Add(10, 3, uint8(3), 2)
	f.Add(2, 5, uint8(3), 3)
	f.Add(7, 7, uint8(2), 1)
	f.Add(0, 1, uint8(1), 0)
	f.Fuzz(func(t *testing.T, n, size int, pk uint8, epoch int) {
		if n < 0 || n > 500 || size < 1 || size > 600 || epoch < 0 || epoch > 50 {
			t.Skip()
		}
		p := []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}[pk%4]
		plan := index.NewSteps(n, size, 1, false, p)
		seen := make([]int, n)
		next := -1 // RollOver: the stream position the next batch must start at
		if p == index.RollOver {
			next = epoch * n / size * size
		}
		var buf []int
		for k := range plan.Len(epoch) {
			start, real, pad := onePart(plan, epoch, k)
			if real < 1 || real > size || (p == index.Pad && real+pad != size) || (p != index.Pad && pad != 0) {
				t.Fatalf("n=%d size=%d %v: Span(%d, %d) = %d, %d, %d", n, size, p, epoch, k, start, real, pad)
			}
			if next >= 0 && start != next {
				t.Fatalf("n=%d size=%d roll-over: batch %d of epoch %d starts at %d, want %d", n, size, k, epoch, start, next)
			}
			next = start + size
			idx, r := plan.Batch(buf, epoch, k, 0)
			buf = idx
			if r != real || len(idx) != real+pad {
				t.Fatalf("Batch gave %d positions, %d real; want %d, %d", len(idx), r, real+pad, real)
			}
			for j, g := range idx {
				e, i := g/n, g%n
				if e < 0 || e > epoch {
					t.Fatalf("n=%d size=%d %v: Batch(%d, %d) slot %d holds position %d of epoch %d", n, size, p, epoch, k, j, i, e)
				}
				if e < epoch {
					i = -1
				}
				// Slot j holds stream position start+j (-1 when it lies in an
				// earlier epoch); padding slots wrap to positions 0, 1, ... of
				// this epoch.
				want := (start + j) - epoch*n
				if start+j < epoch*n {
					want = -1
				}
				if j >= real {
					want = (j - real) % n
				}
				if i != want {
					t.Fatalf("n=%d size=%d %v: Batch(%d, %d) slot %d = %d, want %d", n, size, p, epoch, k, j, i, want)
				}
				if j < real && i >= 0 {
					seen[i]++
				}
			}
		}
		switch {
		case p == index.RollOver:
			// Epoch e's batches end inside epoch e and the next one starts where
			// this epoch ends.
			if want := (epoch + 1) * n / size * size; next >= 0 && plan.Len(epoch) > 0 && next != want {
				t.Fatalf("roll-over epoch %d ends at %d, want %d", epoch, next, want)
			}
		default:
			covered := n
			if p == index.Drop {
				covered = n / size * size
			}
			for i, c := range seen {
				if want := map[bool]int{true: 1, false: 0}[i < covered]; c != want {
					t.Fatalf("n=%d size=%d %v: position %d visited %d times, want %d", n, size, p, i, c, want)
				}
			}
		}
	})
}

// span is one batch of one part: its first stream position, its real and its
// padding slots.
type span struct{ Start, Real, Pad int }

// TestStepsOnePartExamples: the batches of a loop (one part) with each tail,
// epoch by epoch.
func TestStepsOnePartExamples(t *testing.T) {
	tests := []struct {
		n, size int
		tail    index.Tail
		epochs  [][]span // epochs 0, 1, 2, ...
	}{
		{10, 3, index.Keep, [][]span{
			{{0, 3, 0}, {3, 3, 0}, {6, 3, 0}, {9, 1, 0}},
			{{10, 3, 0}, {13, 3, 0}, {16, 3, 0}, {19, 1, 0}},
		}},
		{10, 3, index.Drop, [][]span{
			{{0, 3, 0}, {3, 3, 0}, {6, 3, 0}},
			{{10, 3, 0}, {13, 3, 0}, {16, 3, 0}},
		}},
		{10, 3, index.Pad, [][]span{
			{{0, 3, 0}, {3, 3, 0}, {6, 3, 0}, {9, 1, 2}},
			{{10, 3, 0}, {13, 3, 0}, {16, 3, 0}, {19, 1, 2}},
		}},
		{10, 3, index.RollOver, [][]span{
			{{0, 3, 0}, {3, 3, 0}, {6, 3, 0}},
			{{9, 3, 0}, {12, 3, 0}, {15, 3, 0}},
			{{18, 3, 0}, {21, 3, 0}, {24, 3, 0}, {27, 3, 0}},
			{{30, 3, 0}, {33, 3, 0}, {36, 3, 0}},
		}},
		// A size above n: one short batch, none, one padded batch, and roll-over
		// batches only in the epochs where a batch ends.
		{2, 5, index.Keep, [][]span{{{0, 2, 0}}, {{2, 2, 0}}}},
		{2, 5, index.Drop, [][]span{{}, {}}},
		{2, 5, index.Pad, [][]span{{{0, 2, 3}}, {{2, 2, 3}}}},
		{2, 5, index.RollOver, [][]span{{}, {}, {{0, 5, 0}}, {}, {{5, 5, 0}}}},
		{0, 4, index.Keep, [][]span{{}, {}}},
		{0, 4, index.Pad, [][]span{{}, {}}},
		{0, 4, index.RollOver, [][]span{{}, {}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n=%d/size=%d/%v", tc.n, tc.size, tc.tail), func(t *testing.T) {
			p := index.NewSteps(tc.n, tc.size, 1, false, tc.tail)
			if p.N() != tc.n || p.Size() != tc.size || p.Parts() != 1 || p.Tail() != tc.tail {
				t.Errorf("N, Size, Parts, Tail = %d, %d, %d, %v; want %d, %d, 1, %v", p.N(), p.Size(), p.Parts(), p.Tail(), tc.n, tc.size, tc.tail)
			}
			for e, want := range tc.epochs {
				got := []span{}
				for k := range p.Len(e) {
					s, r, pad := onePart(p, e, k)
					got = append(got, span{s, r, pad})
				}
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("epoch %d spans mismatch (-want +got):\n%s", e, d)
				}
			}
		})
	}
}

// referenceBatches cuts epochs 0..epochs-1 into batches the obvious way. A slot
// holds e*1000+pos for position pos of epoch e (the tag order below gives), so
// that the epoch a roll-over slot comes from is visible.
func referenceBatches(n, size int, tail index.Tail, epochs int) (batches [][][]int, reals [][]int) {
	batches, reals = make([][][]int, epochs), make([][]int, epochs)
	if tail == index.RollOver {
		var stream []int
		for e := range epochs + 1 {
			for pos := range n {
				stream = append(stream, e*1000+pos)
			}
		}
		for start := 0; start+size <= len(stream); start += size {
			if e := (start + size - 1) / n; e < epochs {
				batches[e] = append(batches[e], stream[start:start+size])
				reals[e] = append(reals[e], size)
			}
		}
		return batches, reals
	}
	for e := range epochs {
		for start := 0; start < n; start += size {
			var b []int
			for pos := start; pos < min(n, start+size); pos++ {
				b = append(b, e*1000+pos)
			}
			real := len(b)
			if real < size {
				if tail == index.Drop {
					continue
				}
				if tail == index.Pad {
					for j := 0; len(b) < size; j++ {
						b = append(b, e*1000+j%n)
					}
				}
			}
			batches[e] = append(batches[e], b)
			reals[e] = append(reals[e], real)
		}
	}
	return batches, reals
}

// TestStepsOnePartAgainstReference checks Len, Slots and Batch of random
// schedules of one part, epochs 0..4, against the batches cut by hand, each
// slot tagged with the epoch of its position.
func TestStepsOnePartAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 400 {
		n, tail := rng.IntN(40), allTails[trial%len(allTails)]
		size := 1 + rng.IntN(n+3)
		p := index.NewSteps(n, size, 1, false, tail)
		want, wantReal := referenceBatches(n, size, tail, 5)
		var buf []int
		for e := range 5 {
			var got [][]int
			var reals []int
			for k := range p.Len(e) {
				idx, real := p.Batch(buf, e, k, 0)
				tagged := make([]int, len(idx))
				for j, g := range idx {
					tagged[j] = g/n*1000 + g%n
				}
				got = append(got, tagged)
				reals = append(reals, real)
				buf = idx
				if _, r, pad := onePart(p, e, k); r != real || r+pad != len(idx) {
					t.Fatalf("n=%d size=%d %v: Slots(%d, %d) gives %d real + %d pad, Batch %d of %d", n, size, tail, e, k, r, pad, real, len(idx))
				}
			}
			if d := cmp.Diff(want[e], got); d != "" {
				t.Fatalf("n=%d size=%d %v epoch %d: batches mismatch (-want +got):\n%s", n, size, tail, e, d)
			}
			if d := cmp.Diff(wantReal[e], reals); d != "" {
				t.Fatalf("n=%d size=%d %v epoch %d: real counts mismatch (-want +got):\n%s", n, size, tail, e, d)
			}
		}
	}
}

// TestStepsOnePartMaxEpoch checks, with exact arithmetic, that every position
// of every batch of the last epoch a schedule of one part can address fits in
// an int and is the one Slots reports, that MaxEpoch is not far below the true
// limit, and that Len and Span refuse the epoch after it with a
// *container.ArgError.
func TestStepsOnePartMaxEpoch(t *testing.T) {
	const maxInt = math.MaxInt
	sizes := []struct{ n, size int }{
		{1, 1}, {10, 3}, {7, 7}, {2, 5}, {1000, 4096}, {3, 1 << 40},
		{maxInt / 3, 5}, {maxInt/2 + 1, 1}, {maxInt / 2, 3}, {maxInt - 1, 2},
		{maxInt, 1}, {maxInt, 2}, {maxInt, 1 << 40}, {maxInt - 7, maxInt},
	}
	bi := func(x int) *big.Int { return new(big.Int).SetInt64(int64(x)) }
	mul := func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
	add := func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
	div := func(a, b *big.Int) *big.Int { return new(big.Int).Quo(a, b) }
	limit := bi(maxInt)
	for _, sz := range sizes {
		for _, tail := range allTails {
			p := index.NewSteps(sz.n, sz.size, 1, false, tail)
			e := p.MaxEpoch()
			name := fmt.Sprintf("n=%d size=%d %v: MaxEpoch %d", sz.n, sz.size, tail, e)
			if e < 0 {
				t.Errorf("%s, want >= 0 (epoch 0 always fits)", name)
				continue
			}
			n, size, E := bi(sz.n), bi(sz.size), bi(e)
			// Every position of epochs 0..e is below (e+1)*n.
			if end := mul(add(E, bi(1)), n); end.Cmp(add(limit, bi(1))) > 0 {
				t.Errorf("%s: epoch %d ends at position %v, past math.MaxInt", name, e, end)
			}
			// Not far below the limit: epoch e+1 and a batch would not fit.
			if e > 0 {
				if next := add(mul(add(E, bi(2)), n), size); next.Cmp(limit) <= 0 {
					t.Errorf("%s: epoch %d and a batch would still fit (end %v)", name, e+1, next)
				}
			}
			// Len and Span of epoch e match exact arithmetic.
			var wantLen *big.Int
			switch tail {
			case index.Drop:
				wantLen = div(n, size)
			case index.RollOver:
				wantLen = new(big.Int).Sub(div(mul(add(E, bi(1)), n), size), div(mul(E, n), size))
			default:
				wantLen = div(add(n, new(big.Int).Sub(size, bi(1))), size)
			}
			if got := p.Len(e); bi(got).Cmp(wantLen) != 0 {
				t.Errorf("%s: Len(%d) = %d, want %v", name, e, got, wantLen)
				continue
			}
			for _, k := range []int{0, p.Len(e) - 1} {
				if k < 0 || k >= p.Len(e) {
					continue
				}
				start, real, pad := onePart(p, e, k)
				K := bi(k)
				var wantStart *big.Int
				if tail == index.RollOver {
					wantStart = mul(add(div(mul(E, n), size), K), size)
				} else {
					wantStart = add(mul(E, n), mul(K, size))
				}
				if bi(start).Cmp(wantStart) != 0 || real < 1 || real > sz.size || pad < 0 || real+pad > sz.size {
					t.Errorf("%s: Slots(%d, %d) = %d, %d, %d; want start %v", name, e, k, start, real, pad, wantStart)
				}
				if last := add(wantStart, bi(real-1)); last.Cmp(mul(add(E, bi(1)), n)) >= 0 {
					t.Errorf("%s: batch %d of epoch %d ends at %v, past the epoch", name, k, e, last)
				}
				if sz.size > 1<<12 {
					continue
				}
				idx, _ := p.Batch(nil, e, k, 0)
				for _, g := range idx {
					if ep := g / sz.n; ep < e-1 || ep > e {
						t.Fatalf("%s: Batch(%d, %d) holds position %d of epoch %d", name, e, k, g%sz.n, ep)
					}
				}
				if len(idx) != real+pad {
					t.Errorf("%s: Batch(%d, %d) gave %d positions, want %d", name, e, k, len(idx), real+pad)
				}
			}
			if e == maxInt {
				continue
			}
			wantArgPanic(t, name+": Len(MaxEpoch+1)", "index.Steps.Len", "epoch", func() { p.Len(e + 1) })
			wantArgPanic(t, name+": Span(MaxEpoch+1, 0)", "index.Steps.Len", "epoch", func() { p.Span(e+1, 0) })
			wantArgPanic(t, name+": Batch(MaxEpoch+1, 0)", "index.Steps.Len", "epoch", func() { p.Batch(nil, e+1, 0, 0) })
		}
	}
	if e := index.NewSteps(0, 3, 1, false, index.RollOver).MaxEpoch(); e != maxInt {
		t.Errorf("MaxEpoch of an empty schedule = %d, want math.MaxInt", e)
	}
}

// TestStepsOnePartPanics: Len, Span and Batch of a schedule of one part
// refuse an epoch or a batch outside it.
func TestStepsOnePartPanics(t *testing.T) {
	wantArgPanic(t, "NewSteps tail 4", "index.NewSteps", "tail", func() { index.NewSteps(3, 1, 1, false, index.Tail(4)) })
	p := index.NewSteps(4, 3, 1, false, index.Pad)
	wantArgPanic(t, "Len(-1)", "index.Steps.Len", "epoch", func() { p.Len(-1) })
	wantArgPanic(t, "Span(-1, 0)", "index.Steps.Len", "epoch", func() { p.Span(-1, 0) })
	wantIndexPanic(t, "Span(0, 2)", "index.Steps.Span", 2, 2, func() { p.Span(0, 2) })
	wantIndexPanic(t, "Span(0, -1)", "index.Steps.Span", -1, 2, func() { p.Span(0, -1) })
	wantIndexPanic(t, "Batch(nil, 1, 3, 0)", "index.Steps.Span", 3, 2, func() { p.Batch(nil, 1, 3, 0) })
	r := index.NewSteps(10, 3, 1, false, index.RollOver)
	wantIndexPanic(t, "roll-over Span(1, 3)", "index.Steps.Span", 3, 3, func() { r.Span(1, 3) })
}

// TestStepsOnePartAllocs: Len, Slots and Batch into a buffer with room
// allocate nothing.
func TestStepsOnePartAllocs(t *testing.T) {
	p := index.NewSteps(1000, 32, 1, false, index.Pad)
	buf := make([]int, 0, 32)
	if a := testing.AllocsPerRun(100, func() {
		for k := range p.Len(7) {
			_, _, _, _, _ = p.Slots(7, k, 0)
			buf, _ = p.Batch(buf, 7, k, 0)
		}
	}); a != 0 {
		t.Errorf("Len, Slots and Batch with capacity: %v allocs, want 0", a)
	}
}
