package index_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

// FuzzPlan checks the plan's invariants for any n, size, policy and epoch: every
// epoch of Keep and Pad visits each position once as a real observation, Drop
// visits all but the n mod size of the tail, and RollOver's epochs cut one
// unbroken stream.
func FuzzPlan(f *testing.F) {
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
		plan := index.NewPlan(n, size, p)
		seen := make([]int, n)
		next := -1 // RollOver: the stream position the next batch must start at
		if p == index.RollOver {
			next = epoch * n / size * size
		}
		var buf []int
		for k := range plan.Len(epoch) {
			start, real, pad := plan.Span(epoch, k)
			if real < 1 || real > size || (p == index.Pad && real+pad != size) || (p != index.Pad && pad != 0) {
				t.Fatalf("n=%d size=%d %v: Span(%d, %d) = %d, %d, %d", n, size, p, epoch, k, start, real, pad)
			}
			if next >= 0 && start != next {
				t.Fatalf("n=%d size=%d roll-over: batch %d of epoch %d starts at %d, want %d", n, size, k, epoch, start, next)
			}
			next = start + size
			idx, r := plan.Indices(buf, epoch, k, func(e, pos int) int {
				if pos < 0 || pos >= n || e < 0 || e > epoch {
					t.Fatalf("order asked for epoch %d position %d (n=%d, epoch %d)", e, pos, n, epoch)
				}
				if e < epoch {
					return -1
				}
				return pos
			})
			buf = idx
			if r != real || len(idx) != real+pad {
				t.Fatalf("Indices gave %d indices, %d real; want %d, %d", len(idx), r, real+pad, real)
			}
			for j, i := range idx {
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
					t.Fatalf("n=%d size=%d %v: Indices(%d, %d) slot %d = %d, want %d", n, size, p, epoch, k, j, i, want)
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

var allTails = []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}

func TestTailString(t *testing.T) {
	for tail, want := range map[index.Tail]string{
		index.Keep: "keep", index.Drop: "drop", index.Pad: "pad", index.RollOver: "roll-over", 9: "Tail(9)",
	} {
		if got := tail.String(); got != want {
			t.Errorf("Tail(%d).String() = %q, want %q", uint8(tail), got, want)
		}
	}
	var zero index.Tail
	if zero != index.Keep {
		t.Error("the zero Tail is not Keep")
	}
}

// span is one batch as Span describes it.
type span struct{ Start, Real, Pad int }

func TestPlanExamples(t *testing.T) {
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
			p := index.NewPlan(tc.n, tc.size, tc.tail)
			if p.N() != tc.n || p.Size() != tc.size || p.Tail() != tc.tail {
				t.Errorf("N, Size, Tail = %d, %d, %v; want %d, %d, %v", p.N(), p.Size(), p.Tail(), tc.n, tc.size, tc.tail)
			}
			for e, want := range tc.epochs {
				got := []span{}
				for k := range p.Len(e) {
					s, r, pad := p.Span(e, k)
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

// TestPlanAgainstReference checks Len, Span and Indices of random plans, epochs
// 0..4, against the batches cut by hand, with an order function that tags each
// slot with the epoch it was asked for.
func TestPlanAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tag := func(e, pos int) int { return e*1000 + pos }
	for trial := range 400 {
		n, tail := rng.IntN(40), allTails[trial%len(allTails)]
		size := 1 + rng.IntN(n+3)
		p := index.NewPlan(n, size, tail)
		want, wantReal := referenceBatches(n, size, tail, 5)
		var buf []int
		for e := range 5 {
			var got [][]int
			var reals []int
			for k := range p.Len(e) {
				idx, real := p.Indices(buf, e, k, tag)
				got = append(got, slices.Clone(idx))
				reals = append(reals, real)
				buf = idx
				if _, r, pad := p.Span(e, k); r != real || r+pad != len(idx) {
					t.Fatalf("n=%d size=%d %v: Span(%d, %d) gives %d real + %d pad, Indices %d of %d", n, size, tail, e, k, r, pad, real, len(idx))
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

// TestMaxEpoch checks, with exact arithmetic, that every position of every batch
// of the last epoch a plan can address fits in an int and is the one Span
// reports, that MaxEpoch is not far below the true limit, and that Len and Span
// refuse the epoch after it with a *container.ArgError.
func TestMaxEpoch(t *testing.T) {
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
			p := index.NewPlan(sz.n, sz.size, tail)
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
				start, real, pad := p.Span(e, k)
				K := bi(k)
				var wantStart *big.Int
				if tail == index.RollOver {
					wantStart = mul(add(div(mul(E, n), size), K), size)
				} else {
					wantStart = add(mul(E, n), mul(K, size))
				}
				if bi(start).Cmp(wantStart) != 0 || real < 1 || real > sz.size || pad < 0 || real+pad > sz.size {
					t.Errorf("%s: Span(%d, %d) = %d, %d, %d; want start %v", name, e, k, start, real, pad, wantStart)
				}
				if last := add(wantStart, bi(real-1)); last.Cmp(mul(add(E, bi(1)), n)) >= 0 {
					t.Errorf("%s: batch %d of epoch %d ends at %v, past the epoch", name, k, e, last)
				}
				if sz.size > 1<<12 {
					continue
				}
				idx, _ := p.Indices(nil, e, k, func(ep, pos int) int {
					if ep < e-1 || ep > e || pos < 0 || pos >= sz.n {
						t.Fatalf("%s: order asked for epoch %d position %d", name, ep, pos)
					}
					return pos
				})
				if len(idx) != real+pad {
					t.Errorf("%s: Indices(%d, %d) gave %d indices, want %d", name, e, k, len(idx), real+pad)
				}
			}
			if e == maxInt {
				continue
			}
			wantArgPanic(t, name+": Len(MaxEpoch+1)", "index.Plan.Len", "epoch", func() { p.Len(e + 1) })
			wantArgPanic(t, name+": Span(MaxEpoch+1, 0)", "index.Plan.Span", "epoch", func() { p.Span(e+1, 0) })
			wantArgPanic(t, name+": Indices(MaxEpoch+1, 0)", "index.Plan.Span", "epoch", func() { p.Indices(nil, e+1, 0, func(_, pos int) int { return pos }) })
		}
	}
	if e := index.NewPlan(0, 3, index.RollOver).MaxEpoch(); e != maxInt {
		t.Errorf("MaxEpoch of an empty plan = %d, want math.MaxInt", e)
	}
}

func TestPlanPanics(t *testing.T) {
	wantArgPanic(t, "NewPlan(-1, 2, Keep)", "index.NewPlan", "number of positions", func() { index.NewPlan(-1, 2, index.Keep) })
	wantArgPanic(t, "NewPlan(3, 0, Keep)", "index.NewPlan", "batch size", func() { index.NewPlan(3, 0, index.Keep) })
	wantArgPanic(t, "NewPlan(3, 1, Tail(4))", "index.NewPlan", "tail", func() { index.NewPlan(3, 1, index.Tail(4)) })
	p := index.NewPlan(4, 3, index.Pad)
	wantArgPanic(t, "Len(-1)", "index.Plan.Len", "epoch", func() { p.Len(-1) })
	wantArgPanic(t, "Span(-1, 0)", "index.Plan.Span", "epoch", func() { p.Span(-1, 0) })
	wantIndexPanic(t, "Span(0, 2)", "index.Plan.Span", 2, 2, func() { p.Span(0, 2) })
	wantIndexPanic(t, "Span(0, -1)", "index.Plan.Span", -1, 2, func() { p.Span(0, -1) })
	wantIndexPanic(t, "Indices(nil, 1, 3)", "index.Plan.Span", 3, 2, func() { p.Indices(nil, 1, 3, func(_, pos int) int { return pos }) })
	r := index.NewPlan(10, 3, index.RollOver)
	wantIndexPanic(t, "roll-over Span(1, 3)", "index.Plan.Span", 3, 3, func() { r.Span(1, 3) })
}

func TestPlanAllocs(t *testing.T) {
	p := index.NewPlan(1000, 32, index.Pad)
	buf := make([]int, 0, 32)
	order := func(_, pos int) int { return pos }
	if a := testing.AllocsPerRun(100, func() {
		for k := range p.Len(7) {
			_, _, _ = p.Span(7, k)
			buf, _ = p.Indices(buf, 7, k, order)
		}
	}); a != 0 {
		t.Errorf("Len, Span and Indices with capacity: %v allocs, want 0", a)
	}
}

func TestTailText(t *testing.T) {
	for _, tail := range allTails {
		b, err := tail.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back index.Tail
		if err := back.UnmarshalText(b); err != nil || back != tail {
			t.Errorf("%v: text %q reads back as %v, %v", tail, b, back, err)
		}
	}
	var bad index.Tail
	if err := bad.UnmarshalText([]byte("Pad")); !errors.Is(err, index.ErrTail) {
		t.Errorf("UnmarshalText(Pad) = %v, want ErrTail", err)
	}
	if _, err := index.Tail(9).MarshalText(); !errors.Is(err, index.ErrTail) {
		t.Errorf("Tail(9).MarshalText() = %v, want ErrTail", err)
	}
}
