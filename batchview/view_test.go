package batchview_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/batchview"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

var tails = []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// batches returns every batch of v and its real count.
func batches[B any](v *batchview.View[B]) ([]B, []int) {
	var out []B
	var real []int
	for i := range v.Nobs() {
		out = append(out, v.GetObs(i))
		real = append(real, v.Real(i))
	}
	return out, real
}

func TestTails(t *testing.T) {
	c := container.FromSlice(iota(10))
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
			v := batchview.New(c, 3, tc.tail)
			if v.Size() != 3 || v.Steps() != index.NewSteps(10, 3, 1, false, tc.tail) {
				t.Errorf("Size() = %d, Steps() = %+v; want 3 and NewSteps(10, 3, 1, false, %v)", v.Size(), v.Steps(), tc.tail)
			}
			got, real := batches(v)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("batches mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.real, real); d != "" {
				t.Errorf("Real mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestRollOverEpochs(t *testing.T) {
	v := batchview.New(container.FromSlice(iota(10)), 3, index.RollOver)
	want := [][][]int{
		{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}},
		{{9, 0, 1}, {2, 3, 4}, {5, 6, 7}},
		{{8, 9, 0}, {1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
		{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}},
	}
	for e, w := range want {
		got, _ := batches(v.Epoch(e))
		if d := cmp.Diff(w, got); d != "" {
			t.Errorf("epoch %d mismatch (-want +got):\n%s", e, d)
		}
	}
	// Epoch returns a new view; the receiver stays at epoch 0.
	if got, _ := batches(v); !cmp.Equal(want[0], got) {
		t.Errorf("v.Epoch changed v: epoch 0 batches now %v", got)
	}
}

func TestIndices(t *testing.T) {
	c := container.FromSlice(iota(5))
	tests := []struct {
		tail index.Tail
		want []int
	}{
		{index.Keep, []int{4}},
		// Pad slots repeat the first indices of the epoch; there is no -1.
		{index.Pad, []int{4, 0, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.tail.String(), func(t *testing.T) {
			v := batchview.New(c, 4, tc.tail)
			idx, real := v.Indices(nil, 1)
			if real != 1 {
				t.Errorf("Indices(1) real = %d, want 1", real)
			}
			if d := cmp.Diff(tc.want, idx); d != "" {
				t.Errorf("Indices(1) mismatch (-want +got):\n%s", d)
			}
			// dst is reused when it has the capacity.
			buf := make([]int, 0, 8)
			idx, _ = v.Indices(buf, 1)
			if &idx[0] != &buf[:1][0] {
				t.Error("Indices did not reuse dst's memory")
			}
		})
	}
}

// reference returns the batches of epochs 0..epochs-1 computed the obvious way,
// and the real count of each.
func reference(n, size int, tail index.Tail, epochs int) ([][][]int, [][]int) {
	var all [][][]int
	var reals [][]int
	if tail == index.RollOver {
		// One stream of epochs, cut into batches; a batch belongs to the epoch of
		// its last observation.
		var stream []int
		for range epochs + 1 {
			stream = append(stream, iota(n)...)
		}
		all = make([][][]int, epochs)
		reals = make([][]int, epochs)
		for start := 0; start+size <= len(stream); start += size {
			e := (start + size - 1) / n
			if e < epochs {
				all[e] = append(all[e], stream[start:start+size])
				reals[e] = append(reals[e], size)
			}
		}
		return all, reals
	}
	for range epochs {
		var bs [][]int
		var rs []int
		for start := 0; start < n; start += size {
			end := min(n, start+size)
			b := iota(n)[start:end]
			if end-start < size {
				switch tail {
				case index.Drop:
					continue
				case index.Pad:
					for j := 0; len(b) < size; j++ {
						b = append(b, j%n)
					}
				}
			}
			bs = append(bs, b)
			rs = append(rs, end-start)
		}
		all = append(all, bs)
		reals = append(reals, rs)
	}
	return all, reals
}

func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := rng.IntN(30)
		size := 1 + rng.IntN(n+2)
		tail := tails[trial%len(tails)]
		v := batchview.New(container.FromSlice(iota(n)), size, tail)
		want, wantReal := reference(n, size, tail, 4)
		for e := range 4 {
			ve := v.Epoch(e)
			got, real := batches(ve)
			if d := cmp.Diff(want[e], got); d != "" {
				t.Fatalf("n=%d size=%d %v epoch %d: batches mismatch (-want +got):\n%s", n, size, tail, e, d)
			}
			if d := cmp.Diff(wantReal[e], real); d != "" {
				t.Fatalf("n=%d size=%d %v epoch %d: Real mismatch (-want +got):\n%s", n, size, tail, e, d)
			}
			// Indices names the observations GetObs gathers (the source is iota).
			for i, b := range got {
				idx, r := ve.Indices(nil, i)
				if !cmp.Equal(b, idx) || r != real[i] {
					t.Fatalf("n=%d size=%d %v epoch %d: Indices(%d) = %v, %d; want %v, %d", n, size, tail, e, i, idx, r, b, real[i])
				}
			}
		}
	}
}

func TestConformance(t *testing.T) {
	for _, n := range []int{0, 1, 10, 97} {
		for _, tail := range tails {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(i) / 4
			}
			t.Run(fmt.Sprintf("%d/%v", n, tail), func(t *testing.T) {
				v := batchview.New(container.FromSlice(x), 4, tail)
				containertest.Run(t, v.Epoch(1), containertest.SliceConfig[[]float64]())
			})
		}
	}
}

// TestGathersThroughSource checks that a batch is one GetObsInto call on the
// source, with the batch's indices, and never observation by observation.
func TestGathersThroughSource(t *testing.T) {
	src := containertest.NewCounting(iota(7))
	v := batchview.New(src, 3, index.Pad)
	got := v.GetObsInto(nil, []int{2, 0})
	if d := cmp.Diff([][]int{{6, 0, 1}, {0, 1, 2}}, got); d != "" {
		t.Errorf("GetObsInto mismatch (-want +got):\n%s", d)
	}
	if src.Batches() != 2 || src.Singles() != 0 {
		t.Errorf("GetObsInto of 2 batches: %d GetObsInto and %d GetObs calls on the source, want 2 and 0", src.Batches(), src.Singles())
	}
	if d := cmp.Diff([]int{0, 1, 2}, src.Last()); d != "" {
		t.Errorf("last source indices mismatch (-want +got):\n%s", d)
	}
	src.Reset()
	v.GetObs(1)
	if src.Batches() != 1 || src.Singles() != 0 {
		t.Errorf("GetObs: %d GetObsInto and %d GetObs calls on the source, want 1 and 0", src.Batches(), src.Singles())
	}
}

func TestTupleBatches(t *testing.T) {
	x := container.FromSlice([]float32{0, 10, 20, 30, 40})
	y := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		t.Fatal(err)
	}
	v := batchview.New(data, 2, index.Pad)
	got := v.GetObsInto(nil, []int{2, 0})
	want := []tuples.Pair[[]float32, []string]{
		{X: []float32{40, 0}, Y: []string{"e", "a"}}, // padded with observation 0
		{X: []float32{0, 10}, Y: []string{"a", "b"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GetObsInto mismatch (-want +got):\n%s", d)
	}
	// Buffers are reused: no allocation beyond the index list of the call, which
	// comes from a pool.
	idx := []int{1, 2}
	if a := testing.AllocsPerRun(50, func() { got = v.GetObsInto(got, idx) }); a > 1 {
		t.Errorf("GetObsInto with reused buffers: %v allocs, want at most 1 (the index list)", a)
	}
	want = []tuples.Pair[[]float32, []string]{
		{X: []float32{20, 30}, Y: []string{"c", "d"}},
		{X: []float32{40, 0}, Y: []string{"e", "a"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GetObsInto into reused buffers mismatch (-want +got):\n%s", d)
	}
	if raceEnabled {
		t.Log("GetObsInto zero-allocation pin skipped: sync.Pool drops items at random under -race")
		return
	}
	if a := testing.AllocsPerRun(50, func() { got = v.GetObsInto(got, idx) }); a != 0 {
		t.Errorf("GetObsInto with reused buffers: %v allocs, want 0 (the index list is pooled)", a)
	}
}

// TestMaxEpoch checks that a view addresses every epoch of its plan and no more:
// a roll-over batch of the last epoch still names valid source indices.
func TestMaxEpoch(t *testing.T) {
	v := batchview.New(container.FromSlice(iota(10)), 3, index.RollOver)
	last := v.Steps().MaxEpoch()
	ve := v.Epoch(last)
	for i := range ve.Nobs() {
		idx, real := ve.Indices(nil, i)
		if real != 3 || len(idx) != 3 {
			t.Fatalf("epoch %d batch %d: %d indices, %d real; want 3, 3", last, i, len(idx), real)
		}
		for _, j := range idx {
			if j < 0 || j >= 10 {
				t.Fatalf("epoch %d batch %d: index %d outside [0, 10)", last, i, j)
			}
		}
	}
	var ae *container.ArgError
	if r := recoverFrom(func() { v.Epoch(last + 1) }); !errors.As(r, &ae) || ae.Arg != "epoch" {
		t.Errorf("Epoch(MaxEpoch+1) panicked with %v, want a *container.ArgError for the epoch", r)
	}
}

// recoverFrom runs f and returns what it panicked with as an error (nil when it
// did not panic; a non-error panic value becomes an error that As cannot match).
func recoverFrom(f func()) (err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			err = r
		default:
			err = fmt.Errorf("non-error panic value %T: %v", r, r)
		}
	}()
	f()
	return nil
}

func TestPanics(t *testing.T) {
	c := container.FromSlice(iota(4))
	args := []struct {
		name, op, arg string
		f             func()
	}{
		{"size 0", "batchview.New", "batch size", func() { batchview.New(c, 0, index.Keep) }},
		{"bad tail", "index.NewSteps", "tail", func() { batchview.New(c, 2, index.Tail(9)) }},
		{"negative epoch", "index.Steps.Len", "epoch", func() { batchview.New(c, 2, index.Keep).Epoch(-1) }},
	}
	for _, tc := range args {
		t.Run(tc.name, func(t *testing.T) {
			var ae *container.ArgError
			r := recoverFrom(tc.f)
			if !errors.As(r, &ae) || ae.Op != tc.op || ae.Arg != tc.arg {
				t.Errorf("panic %v, want a *container.ArgError from %s about the %s", r, tc.op, tc.arg)
			}
		})
	}
	v := batchview.New(c, 2, index.Keep)
	indices := []struct {
		name    string
		i, nobs int
		f       func()
	}{
		{"GetObs", 2, 2, func() { v.GetObs(2) }},
		{"GetObsInto", -1, 2, func() { v.GetObsInto(nil, []int{0, -1}) }},
		{"Real", 2, 2, func() { v.Real(2) }},
		{"Indices", 5, 2, func() { v.Indices(nil, 5) }},
	}
	for _, tc := range indices {
		t.Run(tc.name, func(t *testing.T) {
			var ie *container.IndexError
			r := recoverFrom(tc.f)
			if !errors.As(r, &ie) || ie.Index != tc.i || ie.Nobs != tc.nobs {
				t.Errorf("panic %v, want a *container.IndexError for index %d of %d", r, tc.i, tc.nobs)
			}
		})
	}
}
