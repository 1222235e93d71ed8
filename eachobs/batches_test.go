package eachobs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

func TestBatchesMustHold(t *testing.T) {
	c := tens(10)
	tests := []struct {
		tail index.Tail
		want [][]int
		real []int
	}{
		{index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}}, []int{3, 3, 3, 1}},
		{index.Drop, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, []int{3, 3, 3}},
		{index.Pad, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 0, 1}}, []int{3, 3, 3, 1}},
		{index.RollOver, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, []int{3, 3, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.tail.String(), func(t *testing.T) {
			rs := collect(eachobs.Batches(c, 3, eachobs.Tail(tc.tail)))
			checkData(t, tc.tail.String(), 10, rs)
			var idx [][]int
			var real []int
			for _, r := range rs {
				idx = append(idx, r.Indices)
				real = append(real, r.Real)
			}
			if d := cmp.Diff(tc.want, idx); d != "" {
				t.Errorf("indices mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.real, real); d != "" {
				t.Errorf("Real mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBatchesRollOverCarries(t *testing.T) {
	seq := eachobs.Batches(tens(10), 3, eachobs.Tail(index.RollOver))
	var got [][]int
	for range 3 {
		for b := range seq {
			got = append(got, append([]int(nil), b.Indices...))
		}
	}
	want := [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 0, 1}, {2, 3, 4}, {5, 6, 7}, {8, 9, 0}, {1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("three passes mismatch (-want +got):\n%s", d)
	}
}

// An orderOf is the documented order of a loop kind: the container index at
// each position of epoch e.
type orderOf struct {
	name string // the Order of its positions
	opt  func(seed uint64) eachobs.Option
	perm func(n int, seed uint64, e int) []int
	// nameOf gives the Order of a loop over n observations, when it depends
	// on n.
	nameOf func(n int) string
}

// order returns the Order of o's positions in a loop over n observations.
func (o orderOf) order(n int) string {
	if o.nameOf != nil {
		return o.nameOf(n)
	}
	return o.name
}

var orders = []orderOf{
	{"data", nil, func(n int, _ uint64, _ int) []int { return iota(n) }, nil},
	{"cipher", eachobs.Shuffle, func(n int, seed uint64, e int) []int {
		c := index.NewCipher(n, seed, e)
		out := make([]int, n)
		for i := range out {
			out[i] = c.At(i)
		}
		return out
	}, nil},
	{"perm", eachobs.ShufflePerm, func(n int, seed uint64, e int) []int {
		return rand.New(rand.NewPCG(seed, uint64(e))).Perm(n)
	}, nil},
	{"blocks 3x2", func(seed uint64) eachobs.Option { return eachobs.ShuffleBlocksOf(seed, 3, 2) }, func(n int, seed uint64, e int) []int {
		b := index.NewBlocks(n, 3, 2, seed, e)
		out := make([]int, n)
		for i := range out {
			out[i] = b.At(i)
		}
		return out
	}, nil},
	// The blocks of the container (blockedTens, blocksOf).
	{"container blocks x2", func(seed uint64) eachobs.Option { return eachobs.ShuffleBlocks(seed, 2) }, func(n int, seed uint64, e int) []int {
		b := index.NewBlocksAt(blocksOf(n), 2, seed, e)
		out := make([]int, n)
		for i := range out {
			out[i] = b.At(i)
		}
		return out
	}, func(n int) string {
		return start(eachobs.NewLoader(blockedTens(n), 1, eachobs.ShuffleBlocks(0, 2))).Order
	}},
}

// options returns the options of a loop of order o with seed.
func (o orderOf) options(seed uint64) []eachobs.Option {
	if o.opt == nil {
		return nil
	}
	return []eachobs.Option{o.opt(seed)}
}

// reference is the naive model of the first epochs of a loop over tens(n) in
// batches of size, as the docs of eachobs and index.Steps say it, written out
// position by position: the epochs are one stream of positions, epoch e's
// position q visiting container index order(e)[q]; a step takes the next
// parts*size positions from the start of the epoch (with RollOver, from the
// end of the last step), cut by the tail at the end of the epoch; part takes
// its size slots of each step, consecutive or strided; a padding slot reads
// position (g - end) mod n of its epoch. Each batch carries its position, the
// count of steps of its epoch, and the position of the step after it.
func reference(n, size int, tail index.Tail, seed uint64, o orderOf, part *index.Part, epochs int) []rec {
	p, parts, strided := 0, 1, false
	if part != nil {
		p, parts, strided = part.Index, part.Parts, part.Strided
	}
	if o.opt == nil {
		seed = 0
	}
	base := eachobs.Position{Seed: seed, Order: o.order(n), Nobs: n, Tail: tail}
	g := size * parts
	type step struct {
		e, start, end int
	}
	var steps []step // every step of epochs 0..epochs (one more, for Next)
	if n > 0 {
		if tail == index.RollOver { // through the first step past the epochs
			for at := 0; len(steps) == 0 || steps[len(steps)-1].e < epochs; at += g {
				steps = append(steps, step{(at + g - 1) / n, at, at + g})
			}
		} else {
			for e := 0; e <= epochs; e++ {
				for at := 0; at < n; at += g {
					if tail == index.Drop && at+g > n {
						break
					}
					steps = append(steps, step{e, e*n + at, (e + 1) * n})
				}
			}
		}
	}
	perms := map[int][]int{}
	perm := func(e int) []int {
		if perms[e] == nil {
			perms[e] = o.perm(n, seed, e)
		}
		return perms[e]
	}
	count := map[int]int{}
	for _, st := range steps {
		count[st.e]++
	}
	posOf := func(i int) eachobs.Position { // the position of step i
		pos := base
		if i == len(steps) { // after the last step listed: cannot be reached in the test
			pos.Epoch = -1
			return pos
		}
		st := steps[i]
		pos.Epoch, pos.Consumed = st.e, st.start-st.e*n
		for j := i - 1; j >= 0 && steps[j].e == st.e; j-- {
			pos.Batch++
		}
		return pos
	}
	var out []rec
	for i, st := range steps {
		if st.e >= epochs {
			break
		}
		var idx []int
		real := 0
		for j := range size {
			slot := p*size + j
			if strided {
				slot = p + j*parts
			}
			at := st.start + slot
			switch {
			case at < st.end:
				idx = append(idx, perm(at / n)[at%n])
				real++
			case tail == index.Pad:
				idx = append(idx, perm(st.e)[(at-st.end)%n])
			}
		}
		if len(idx) == 0 {
			continue // Keep: nothing of this part in the step
		}
		data := make([]int, len(idx))
		for j, x := range idx {
			data[j] = 10 * x
		}
		next := posOf(i + 1)
		if tail != index.RollOver && (i+1 == len(steps) || steps[i+1].e != st.e) {
			next = base
			next.Epoch = st.e + 1
		}
		out = append(out, rec{Data: data, Indices: idx, Real: real, Pos: posOf(i), Count: count[st.e], Next: next})
	}
	return out
}

// parts are the partitions the property tests run: none, contiguous and
// strided.
var parts = []*index.Part{
	nil,
	{Index: 0, Parts: 2},
	{Index: 1, Parts: 3, Strided: true},
	{Index: 2, Parts: 3},
	{Index: 3, Parts: 4, Strided: true},
}

// TestBatchesProperty runs every combination of size 1..n+1, tail, shuffle,
// partition, prefetch and workers on random n: two passes of Batches, and the
// same epochs from a Loader, are those of the naive reference; each pass yields
// every observation exactly once (Keep, Pad: as real observations; Drop: all but
// the tail; RollOver: the passes form one stream); so the sequence is the same
// with and without prefetch and workers.
func TestBatchesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 2
	if testing.Short() {
		trials = 1
	}
	for range trials {
		n := rng.IntN(25)
		c := blockedTens(n)
		for size := 1; size <= n+1; size++ {
			for _, tail := range tails {
				for _, o := range orders {
					for _, part := range parts {
						seed := uint64(100*n + size)
						want := reference(n, size, tail, seed, o, part, 2)
						// Serial and one of the parallel settings in turn: every
						// setting meets every order and tail over the sizes.
						for _, par := range []struct{ prefetch, workers int }{parallelism[0], parallelism[1+size%(len(parallelism)-1)]} {
							opts := append(parOpts(par.prefetch, par.workers), eachobs.Tail(tail))
							opts = append(opts, o.options(seed)...)
							if part != nil {
								opts = append(opts, eachobs.Partition(*part))
							}
							what := name("n=", n, " size=", size, " ", tail, " order=", o.name, " part=", part, " prefetch=", par.prefetch, " workers=", par.workers)
							seq := eachobs.Batches(c, size, opts...)
							got := append(collect(seq), collect(seq)...) // two passes
							checkData(t, what, n, got)
							if part == nil {
								checkPasses(t, what, n, size, tail, got)
							}
							if d := cmp.Diff(want, got, cmpEmpty); d != "" {
								t.Fatalf("%s: Batches differs from the reference (-want +got):\n%s", what, d)
							}
							l := eachobs.NewLoader(c, size, opts...)
							from, err := resume(l, start(l))
							if err != nil {
								t.Fatalf("%s: Resume(start): %v", what, err)
							}
							if d := cmp.Diff(want, take(from, len(want)), cmpEmpty); d != "" {
								t.Fatalf("%s: Loader.Resume differs from the reference (-want +got):\n%s", what, d)
							}
						}
					}
				}
			}
		}
	}
}

// checkPasses checks the exactly-once rule on the batches of two passes.
func checkPasses(t *testing.T, what string, n, size int, tail index.Tail, rs []rec) {
	t.Helper()
	seen := make([][]int, 2)
	for e := range seen {
		seen[e] = make([]int, n)
	}
	total := 0
	for _, r := range rs {
		if len(r.Indices) != size && !(tail == index.Keep && r.Real < size) {
			t.Fatalf("%s: batch %+v has %d slots, want %d", what, r.Pos, len(r.Indices), size)
		}
		for _, i := range r.Indices[:r.Real] {
			seen[r.Pos.Epoch][i]++
			total++
		}
	}
	switch tail {
	case index.RollOver:
		// Two passes are one stream: 2n positions cut into full batches.
		if want := 2 * n / size * size; total != want {
			t.Fatalf("%s: %d observations in two roll-over passes, want %d", what, total, want)
		}
		for i := range n {
			if s := seen[0][i] + seen[1][i]; s > 2 {
				t.Fatalf("%s: observation %d seen %d times in two passes", what, i, s)
			}
		}
	default:
		covered := n
		if tail == index.Drop {
			covered = n / size * size
		}
		for e := range seen {
			count := 0
			for i, s := range seen[e] {
				if s > 1 {
					t.Fatalf("%s: pass %d visits observation %d %d times", what, e, i, s)
				}
				count += s
			}
			if count != covered {
				t.Fatalf("%s: pass %d visits %d observations, want %d", what, e, count, covered)
			}
		}
	}
}

// TestObs checks that every pass of Obs visits every observation once (of its
// part, with Partition), pass k in the order of epoch k, with the same sequence
// for every prefetch and worker setting.
func TestObs(t *testing.T) {
	const n, seed = 11, 5
	c := withBlocks(container.FromSlice([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}))
	for _, part := range parts {
		for _, o := range orders {
			var want []int
			for _, r := range reference(n, 1, index.Keep, seed, o, part, 2) {
				want = append(want, r.Indices[0])
			}
			for _, par := range parallelism {
				opts := append(parOpts(par.prefetch, par.workers), o.options(seed)...)
				if part != nil {
					opts = append(opts, eachobs.Partition(*part))
				}
				seq := eachobs.Obs(c, opts...)
				var got []int
				for range 2 {
					for i, x := range seq {
						if c.GetObs(i) != x {
							t.Fatalf("Obs yielded index %d with %q", i, x)
						}
						got = append(got, i)
					}
				}
				if d := cmp.Diff(want, got, cmpEmpty); d != "" {
					t.Errorf("part=%v order=%s prefetch=%d workers=%d: indices of two passes (-want +got):\n%s", part, o.name, par.prefetch, par.workers, d)
				}
			}
		}
	}
}
