package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

// naiveStep is one step of the naive schedule: each part's stream positions
// and real count.
type naiveStep struct {
	epoch int
	parts [][]int
	real  []int
}

// naiveSchedule walks the stream position by position from position c0 of
// epoch e0 and cuts the steps of epochs e0..last, as the Steps doc says.
func naiveSchedule(n, size, parts int, strided bool, tail index.Tail, e0, c0, last int) []naiveStep {
	g := size * parts
	slotOf := func(p, j int) int { // slot of the step of part p's j-th position
		if strided {
			return p + j*parts
		}
		return p*size + j
	}
	var out []naiveStep
	add := func(epoch, start, end int) {
		st := naiveStep{epoch: epoch, parts: make([][]int, parts), real: make([]int, parts)}
		for p := range parts {
			for j := range size {
				at := start + slotOf(p, j)
				switch {
				case at < end:
					st.parts[p] = append(st.parts[p], at)
					st.real[p]++
				case tail == index.Pad:
					st.parts[p] = append(st.parts[p], epoch*n+(at-end)%n)
				}
			}
			if st.parts[p] == nil {
				st.parts[p] = []int{}
			}
		}
		out = append(out, st)
	}
	if n == 0 {
		return nil
	}
	if tail == index.RollOver {
		for at := e0*n + c0; ; at += g {
			epoch := (at + g - 1) / n
			if epoch > last {
				return out
			}
			add(epoch, at, at+g)
		}
	}
	for e := e0; e <= last; e++ {
		cur := 0
		if e == e0 {
			cur = c0
		}
		for ; cur < n; cur += g {
			if tail == index.Drop && cur+g > n {
				break
			}
			add(e, e*n+cur, (e+1)*n)
		}
	}
	return out
}

// sameSchedule compares two schedules without reflection (cmp.Diff, slow under
// the race detector, only explains a difference).
func sameSchedule(a, b []naiveStep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].epoch != b[i].epoch || !slices.Equal(a[i].real, b[i].real) || len(a[i].parts) != len(b[i].parts) {
			return false
		}
		for p := range a[i].parts {
			if !slices.Equal(a[i].parts[p], b[i].parts[p]) {
				return false
			}
		}
	}
	return true
}

// scheduleOf lists the steps of s for epochs e0..last through Len and Batch.
func scheduleOf(s index.Steps, e0, last int) []naiveStep {
	var out []naiveStep
	for e := e0; e <= last; e++ {
		for k := range s.Len(e) {
			st := naiveStep{epoch: e, parts: make([][]int, s.Parts()), real: make([]int, s.Parts())}
			for p := range s.Parts() {
				st.parts[p], st.real[p] = s.Batch(nil, e, k, p)
			}
			out = append(out, st)
		}
	}
	return out
}

// TestStepsAgainstNaive: Len and Batch give the naive schedule for random n,
// sizes, parts, layouts, tails and starts.
func TestStepsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	for trial := range 1500 {
		n, size, parts := rng.IntN(60), 1+rng.IntN(9), 1+rng.IntN(6)
		strided, tail := rng.IntN(2) == 0, allTails[trial%4]
		e0, c0 := rng.IntN(3), 0
		if n > 0 {
			c0 = rng.IntN(n + 1)
		}
		s, err := index.NewSteps(n, size, parts, strided, tail).Resume(e0, c0, 0)
		if err != nil {
			t.Fatal(err)
		}
		e1, c1, _ := s.Start()
		want := naiveSchedule(n, size, parts, strided, tail, e1, c1, e0+2)
		got := scheduleOf(s, e0, e0+2)
		if sameSchedule(want, got) {
			continue
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(naiveStep{}), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("n=%d size=%d parts=%d strided=%v %v from (%d, %d) (-naive +Steps):\n%s", n, size, parts, strided, tail, e0, c0, d)
		}
	}
}

// TestStepsElastic: a schedule stopped after any step and resumed with other
// parts and sizes visits the rest of the epoch (all of it, or its longest
// multiple of the new step with Drop), each position once, and the two runs
// together visit the epoch as the tail says. 10^4 random configurations.
func TestStepsElastic(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 23))
	for trial := range 10_000 {
		n := rng.IntN(200)
		size, parts := 1+rng.IntN(12), 1+rng.IntN(8)
		size2, parts2 := 1+rng.IntN(12), 1+rng.IntN(8)
		tail := allTails[rng.IntN(4)]
		strided, strided2 := rng.IntN(2) == 0, rng.IntN(2) == 0
		what := fmt.Sprintf("trial %d: n=%d %v, %dx%d then %dx%d", trial, n, tail, parts, size, parts2, size2)
		s := index.NewSteps(n, size, parts, strided, tail)
		const e = 1
		steps := s.Len(e)
		if steps == 0 || n == 0 {
			continue
		}
		k := rng.IntN(steps)
		var seen []int
		for j := range k + 1 {
			for p := range parts {
				pos, real := s.Batch(nil, e, j, p)
				seen = append(seen, pos[:real]...)
			}
		}
		ep, consumed, step := s.After(e, k)
		r, err := index.NewSteps(n, size2, parts2, strided2, tail).Resume(ep, consumed, step)
		if err != nil {
			t.Fatalf("%s: Resume(After(%d, %d)) = %v", what, e, k, err)
		}
		stop := e
		if tail == index.RollOver {
			stop = e + 1
		}
		var rest []int
		from, _, _ := r.Start()
		for ee := from; ee <= stop; ee++ {
			for j := range r.Len(ee) {
				if tail == index.RollOver && ee == e+1 && j > 0 {
					break // roll-over: up to the first step of the next epoch
				}
				for p := range parts2 {
					pos, real := r.Batch(nil, ee, j, p)
					rest = append(rest, pos[:real]...)
				}
			}
		}
		all := append(slices.Clone(seen), rest...)
		slices.Sort(all)
		if len(slices.Compact(slices.Clone(all))) != len(all) {
			t.Fatalf("%s: a position visited twice: before %v, after %v", what, seen, rest)
		}
		lo, hi := e*n, (e+1)*n
		switch tail {
		case index.Keep, index.Pad:
			if len(all) != n || all[0] != lo || all[len(all)-1] != hi-1 {
				t.Fatalf("%s: the epoch [%d, %d) visited as %v", what, lo, hi, all)
			}
		case index.Drop:
			for _, g := range all {
				if g < lo || g >= hi {
					t.Fatalf("%s: position %d outside the epoch", what, g)
				}
			}
			if want := consumed + (n-consumed)/(size2*parts2)*(size2*parts2); ep == e && len(all) != want {
				t.Fatalf("%s: %d positions visited, want %d", what, len(all), want)
			}
		case index.RollOver: // a contiguous run of the stream from where epoch e's steps start
			for j := 1; j < len(all); j++ {
				if all[j] != all[j-1]+1 {
					t.Fatalf("%s: the stream visited with a gap: %v", what, all)
				}
			}
		}
	}
}

func TestStepsErrorsAndPanics(t *testing.T) {
	s := index.NewSteps(10, 3, 2, false, index.Keep)
	for _, tc := range [][3]int{{-1, 0, 0}, {0, 11, 0}, {0, -1, 0}, {0, 0, -1}, {s.MaxEpoch() + 1, 0, 0}} {
		if _, err := s.Resume(tc[0], tc[1], tc[2]); !errors.Is(err, index.ErrSteps) {
			t.Errorf("Resume(%v) = %v, want ErrSteps", tc, err)
		}
	}
	r, err := s.Resume(2, 10, 5) // the end of epoch 2 is the start of 3
	if e, c, k := r.Start(); err != nil || e != 3 || c != 0 || k != 0 {
		t.Errorf("Resume(2, 10, 5) = start (%d, %d, %d), %v; want (3, 0, 0)", e, c, k, err)
	}
	wantArgPanic(t, "NewSteps(-1)", "index.NewSteps", "number of positions", func() { index.NewSteps(-1, 1, 1, false, index.Keep) })
	wantArgPanic(t, "NewSteps size 0", "index.NewSteps", "batch size", func() { index.NewSteps(1, 0, 1, false, index.Keep) })
	wantArgPanic(t, "NewSteps parts 0", "index.NewSteps", "parts", func() { index.NewSteps(1, 1, 0, false, index.Keep) })
	wantIndexPanic(t, "Batch part 2", "index.Steps.Batch", 2, 2, func() { s.Batch(nil, 0, 0, 2) })
	wantIndexPanic(t, "Span step 2", "index.Steps.Span", 2, 2, func() { s.Span(0, 2) })
}

// TestStepsRepartitionAtScale simulates, without data, a job of 1,024 parts
// over an epoch of n = 10^10 observations in a cipher order, stopped mid-epoch
// and resumed with 1,000 parts and another batch size. For sampled positions of
// the epoch it finds the one part and slot that owns each, before and after the
// resume, and checks that the part's batch holds it there: the positions
// consumed belong to the old schedule only, the rest to the new one only, and
// through the cipher each observation is at exactly one position. It holds
// O(1) memory per part: a Steps and a Cipher.
func TestStepsRepartitionAtScale(t *testing.T) {
	const n, e = 10_000_000_000, 3
	old := index.NewSteps(n, 32, 1024, true, index.Pad)
	order := index.NewCipher(n, 2024, e)
	k := old.Len(e) / 3 // stop a third of the way in
	ep, consumed, step := old.After(e, k)
	resumed, err := index.NewSteps(n, 40, 1000, false, index.Pad).Resume(ep, consumed, step)
	if err != nil {
		t.Fatal(err)
	}
	if ep != e || consumed != (k+1)*32*1024 {
		t.Fatalf("After(%d, %d) = (%d, %d), want (%d, %d)", e, k, ep, consumed, e, (k+1)*32*1024)
	}
	// owner returns the step, part and slot of schedule s that holds stream
	// position g, found by arithmetic from the schedule's layout.
	owner := func(s index.Steps, strided bool, g int) (step, part, slot int) {
		start, _ := s.Span(e, 0)
		off := g - start
		global := s.Size() * s.Parts()
		step, t := off/global, off%global
		if strided {
			return step, t % s.Parts(), t / s.Parts()
		}
		return step, t / s.Size(), t % s.Size()
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var buf []int
	for range 20_000 {
		pos := rng.IntN(n)
		g := e*n + pos
		s, strided := resumed, false
		if pos < consumed {
			s, strided = old, true
		}
		st, part, slot := owner(s, strided, g)
		buf, real := s.Batch(buf, e, st, part)
		if slot >= real || buf[slot] != g {
			t.Fatalf("position %d: owner step %d part %d slot %d holds %v (real %d)", pos, st, part, slot, buf, real)
		}
		if pos < consumed { // not in the resumed schedule: it starts at consumed
			if start, _ := resumed.Span(e, 0); g >= start {
				t.Fatalf("consumed position %d is in the resumed schedule, which starts at %d", pos, start-e*n)
			}
		}
		if x := order.At(pos); order.Pos(x) != pos {
			t.Fatalf("observation %d at position %d comes back at %d", x, pos, order.Pos(x))
		}
	}
	// The last step of the epoch, padded: every part has a full batch, the
	// real slots of all parts together end the epoch exactly.
	last := resumed.Len(e) - 1
	realTotal := 0
	for p := range 1000 {
		b, real := resumed.Batch(buf, e, last, p)
		if len(b) != 40 {
			t.Fatalf("part %d: last batch of %d slots, want 40", p, len(b))
		}
		realTotal += real
	}
	start, _ := resumed.Span(e, last)
	if want := (e+1)*n - start; realTotal != want {
		t.Fatalf("the last step holds %d real positions, the epoch has %d left", realTotal, want)
	}
}

// TestStepsRollOverBetweenEpochs: with RollOver the step after the last of an
// epoch may begin in it and end in the next; After says so with a negative
// count, and a schedule of smaller steps resumed there starts in the earlier
// epoch, where its first step ends.
func TestStepsRollOverBetweenEpochs(t *testing.T) {
	s := index.NewSteps(10, 4, 1, false, index.RollOver) // steps [0,4) [4,8) | [8,12) ...
	if e, c, k := s.After(0, 1); e != 1 || c != -2 || k != 0 {
		t.Errorf("After(0, 1) = (%d, %d, %d), want (1, -2, 0): the step [8, 12) belongs to epoch 1", e, c, k)
	}
	r, err := index.NewSteps(10, 1, 1, false, index.RollOver).Resume(1, -2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e, c, k := r.Start(); e != 0 || c != 8 || k != 0 {
		t.Errorf("steps of 1 resumed at (1, -2, 0) start at (%d, %d, %d), want (0, 8, 0)", e, c, k)
	}
	if r.Len(0) != 2 || r.Len(1) != 10 {
		t.Errorf("Len(0), Len(1) = %d, %d; want 2, 10", r.Len(0), r.Len(1))
	}
	if _, err := s.Resume(1, -11, 0); !errors.Is(err, index.ErrSteps) {
		t.Errorf("Resume(1, -11, 0) = %v, want ErrSteps: before the stream", err)
	}
}
