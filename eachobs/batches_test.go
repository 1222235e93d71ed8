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

// reference is the naive model of a loop's first epochs over tens(n) in batches
// of size: epoch e visits position pos of the part (the whole container when part
// is nil) at container index perm_e[part.Pos(n, pos)], where perm_e is
// rand.New(rand.NewPCG(seed, e)).Perm(n) with shuffle and the identity without;
// the epoch's visits are cut into batches by the tail, written out case by case.
func reference(n, size int, tail index.Tail, seed uint64, shuffle bool, part *index.Part, epochs int) []rec {
	m := n
	if part != nil {
		m = part.Len(n)
	}
	var pseed uint64
	if shuffle {
		pseed = seed
	}
	order := func(e int) []int {
		perm := iota(n)
		if shuffle {
			perm = rand.New(rand.NewPCG(seed, uint64(e))).Perm(n)
		}
		out := make([]int, m)
		for pos := range out {
			q := pos
			if part != nil {
				q = part.Pos(n, pos)
			}
			out[pos] = perm[q]
		}
		return out
	}
	batch := func(idx []int, real int, e, k int) rec {
		data := make([]int, len(idx))
		for j, i := range idx {
			data[j] = 10 * i
		}
		return rec{Data: data, Indices: idx, Real: real, Pos: eachobs.Position{Seed: pseed, Epoch: e, Batch: k}}
	}
	var out []rec
	if tail == index.RollOver {
		if m == 0 {
			return nil
		}
		var stream []int
		for e := range epochs {
			stream = append(stream, order(e)...)
		}
		counts := make([]int, epochs)
		for lo := 0; lo+size <= len(stream); lo += size {
			e := (lo + size - 1) / m // the epoch of the batch's last position
			out = append(out, batch(stream[lo:lo+size:lo+size], size, e, counts[e]))
			counts[e]++
		}
		for i := range out {
			out[i].Count = counts[out[i].Pos.Epoch]
		}
		return out
	}
	for e := range epochs {
		o := order(e)
		first := len(out)
		for lo := 0; lo < m; lo += size {
			hi := min(lo+size, m)
			if hi-lo < size && tail == index.Drop {
				break
			}
			idx := append([]int(nil), o[lo:hi]...)
			if tail == index.Pad {
				for j := 0; len(idx) < size; j++ {
					idx = append(idx, o[j%m])
				}
			}
			out = append(out, batch(idx, hi-lo, e, len(out)-first))
		}
		for i := first; i < len(out); i++ {
			out[i].Count = len(out) - first
		}
	}
	return out
}

// parts are the partitions the property tests run: none, and one of each tail,
// contiguous and strided.
var parts = []*index.Part{
	nil,
	{Index: 0, Parts: 2},
	{Index: 1, Parts: 3, Strided: true},
	{Index: 2, Parts: 3, Tail: index.Pad},
	{Index: 1, Parts: 4, Strided: true, Tail: index.Drop},
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
		c := tens(n)
		for size := 1; size <= n+1; size++ {
			for _, tail := range tails {
				for _, shuffle := range []bool{false, true} {
					for _, part := range parts {
						seed := uint64(100*n + size)
						want := reference(n, size, tail, seed, shuffle, part, 2)
						for _, par := range parallelism {
							opts := append(parOpts(par.prefetch, par.workers), eachobs.Tail(tail))
							if shuffle {
								opts = append(opts, eachobs.Shuffle(seed))
							}
							if part != nil {
								opts = append(opts, eachobs.Partition(*part))
							}
							what := name("n=", n, " size=", size, " ", tail, " shuffle=", shuffle, " part=", part, " prefetch=", par.prefetch, " workers=", par.workers)
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
							from, err := l.Resume(eachobs.Position{Seed: l.Seed()})
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
	c := container.FromSlice([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"})
	for _, part := range parts {
		for _, shuffle := range []bool{false, true} {
			var want []int
			for _, r := range reference(n, 1, index.Keep, seed, shuffle, part, 2) {
				want = append(want, r.Indices[0])
			}
			for _, par := range parallelism {
				opts := parOpts(par.prefetch, par.workers)
				if shuffle {
					opts = append(opts, eachobs.Shuffle(seed))
				}
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
					t.Errorf("part=%v shuffle=%v prefetch=%d workers=%d: indices of two passes (-want +got):\n%s", part, shuffle, par.prefetch, par.workers, d)
				}
			}
		}
	}
}
