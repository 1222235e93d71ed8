package provider_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// TestMustHold is the scenario of the issue: data of 10 observations of 4
// features, label of 10 values, batch 4, padding 0.
func TestMustHold(t *testing.T) {
	x := numbered[float32](t, 1, []int{10, 4}, obsdim.First)
	y := numbered[float32](t, 1, []int{10}, obsdim.First)
	data := must(tuples.NewNamed([]string{"data"}, x))
	label := must(tuples.NewNamed([]string{"label"}, y))
	p := must(provider.New(data, label, 4, provider.PadWith(0)))

	if d := cmp.Diff([]provider.Desc{{Name: "data", Shape: []int{4, 4}}}, p.ProvideData()); d != "" {
		t.Errorf("ProvideData() mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]provider.Desc{{Name: "label", Shape: []int{4}}}, p.ProvideLabel()); d != "" {
		t.Errorf("ProvideLabel() mismatch (-want +got):\n%s", d)
	}
	if p.BatchSize() != 4 {
		t.Errorf("BatchSize() = %d, want 4", p.BatchSize())
	}
	var reals []int
	var indices [][]int
	for b := range p.Epoch(0) {
		reals = append(reals, b.Real)
		indices = append(indices, append([]int(nil), b.Indices...))
		if p.Data(b, "data") != b.Data.X[0] || p.Label(b, "label") != b.Data.Y[0] {
			t.Errorf("batch %d: Data and Label by name are not the batches of Data.X and Data.Y", b.Pos.Batch)
		}
		if got := b.Data.X[0].Shape(); !cmp.Equal(got, []int{4, 4}) {
			t.Errorf("batch %d: data shape %v, want [4 4]", b.Pos.Batch, got)
		}
		for j := b.Real; j < 4; j++ {
			for f := range 4 {
				if v := b.Data.X[0].At(j, f); v != 0 {
					t.Errorf("batch %d: padding slot %d feature %d = %v, want 0", b.Pos.Batch, j, f, v)
				}
			}
			if v := b.Data.Y[0].At(j); v != 0 {
				t.Errorf("batch %d: label padding slot %d = %v, want 0", b.Pos.Batch, j, v)
			}
		}
		devices := provider.Split(b, 2)
		if len(devices) != 2 {
			t.Fatalf("Split(2) gave %d slices", len(devices))
		}
		for d, s := range devices {
			if s.Data.X[0].Nobs() != 2 || s.Data.Y[0].Nobs() != 2 {
				t.Errorf("batch %d device %d: %d data and %d label observations, want 2 and 2", b.Pos.Batch, d, s.Data.X[0].Nobs(), s.Data.Y[0].Nobs())
			}
			if !sharesMemory(s.Data.X[0], b.Data.X[0], 2*d) || !sharesMemory(s.Data.Y[0], b.Data.Y[0], 2*d) {
				t.Errorf("batch %d device %d: the slice is not a view of the batch", b.Pos.Batch, d)
			}
		}
	}
	if d := cmp.Diff([]int{4, 4, 2}, reals); d != "" {
		t.Errorf("real samples per batch mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, -1, -1}}, indices); d != "" {
		t.Errorf("indices mismatch (-want +got):\n%s", d)
	}
}

// sharesMemory reports whether view is the observations of batch from lo on, in
// the same backing memory.
func sharesMemory[E arraycontainer.Number](view, batch *arraycontainer.Array[E], lo int) bool {
	if view.Nobs() == 0 {
		return true
	}
	return &view.Data()[view.Offset()] == &batch.Data()[batch.Offset()+lo*batch.Strides()[batch.Dim()]] &&
		view.Equal(batch.ObsRange(lo, lo+view.Nobs()))
}

// TestProperty runs providers with random sizes, orders, partitions, tails,
// prefetching and workers over sources of several layouts and element types,
// and checks every batch against a reference: the indices, positions and
// counts of each batch are those of package eachobs's loop with the same order,
// part and tail over the indices themselves; every source's batch holds the
// observations its indices name;
// padding holds each source's own constant (index -1) or the repeated
// observation.
func TestProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	policies := []string{"keep", "drop", "pad", "pad-with", "pad-with, Tail(Pad)"}
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for trial := range trials {
		n, size := rng.IntN(31), 1+rng.IntN(12)
		policy := policies[rng.IntN(len(policies))]
		var opts []provider.Option
		switch policy {
		case "drop":
			opts = append(opts, provider.Loop(eachobs.Tail(index.Drop)))
		case "pad":
			opts = append(opts, provider.Loop(eachobs.Tail(index.Pad)))
		case "pad-with, Tail(Pad)":
			opts = append(opts, provider.Loop(eachobs.Tail(index.Pad)))
			fallthrough
		case "pad-with":
			opts = append(opts, provider.PadWith(7), provider.PadSource("a", 0.25), provider.PadSource("y", 200))
		}
		seed, shuffled := rng.Uint64(), rng.IntN(2) == 0
		if shuffled {
			opts = append(opts, provider.Loop(eachobs.Shuffle(seed)))
		}
		var part *index.Part
		if rng.IntN(2) == 0 {
			parts := 1 + rng.IntN(3)
			part = &index.Part{Index: rng.IntN(parts), Parts: parts, Strided: rng.IntN(2) == 0}
			opts = append(opts, provider.Loop(eachobs.Partition(*part)))
		}
		prefetch, workers := rng.IntN(3), 1+rng.IntN(3)
		opts = append(opts, provider.Loop(eachobs.Prefetch(prefetch), eachobs.Workers(workers)))
		what := fmt.Sprintf("trial %d: n=%d size=%d %s shuffled=%v part=%+v prefetch=%d workers=%d", trial, n, size, policy, shuffled, part, prefetch, workers)

		data, label := sources(t, n)
		p, err := provider.New(data, label, size, opts...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		// The reference is the loop of package eachobs with the same order,
		// part and tail over the indices themselves (its own tests hold it to
		// the naive model); PadWith turns its padding indices into -1.
		refOpts := []eachobs.Option{eachobs.Tail(map[string]index.Tail{"keep": index.Keep, "drop": index.Drop}[policy])}
		if strings.HasPrefix(policy, "pad") {
			refOpts[0] = eachobs.Tail(index.Pad)
		}
		if shuffled {
			refOpts = append(refOpts, eachobs.Shuffle(seed))
		}
		if part != nil {
			refOpts = append(refOpts, eachobs.Partition(*part))
		}
		ref := eachobs.NewLoader(subset.Iota(n), size, refOpts...)
		for e := range 2 {
			var wantIdx, gotIdx [][]int
			var wantReal, gotReal []int
			var wantPos []eachobs.Position
			var wantCount []int
			for b := range ref.Epoch(e) {
				idx := append([]int(nil), b.Indices...)
				if strings.HasPrefix(policy, "pad-with") {
					for j := b.Real; j < len(idx); j++ {
						idx[j] = -1
					}
				}
				wantIdx, wantReal = append(wantIdx, idx), append(wantReal, b.Real)
				wantPos, wantCount = append(wantPos, b.Pos), append(wantCount, b.Count)
			}
			for b := range p.Epoch(e) {
				k := len(gotIdx)
				gotIdx = append(gotIdx, append([]int(nil), b.Indices...))
				gotReal = append(gotReal, b.Real)
				if k >= len(wantPos) || b.Pos != wantPos[k] || b.Count != wantCount[k] || b.Pad() != len(b.Indices)-b.Real {
					t.Fatalf("%s: epoch %d batch %d: Pos %+v, Count %d, Pad %d", what, e, k, b.Pos, b.Count, b.Pad())
				}
				checkBatch(t, fmt.Sprintf("%s epoch %d batch %d", what, e, b.Pos.Batch), p, data, label, b, policy != "keep" && policy != "drop" && policy != "pad")
			}
			if d := cmp.Diff(wantIdx, gotIdx); d != "" {
				t.Fatalf("%s: epoch %d indices mismatch (-want +got):\n%s", what, e, d)
			}
			if d := cmp.Diff(wantReal, gotReal); d != "" {
				t.Fatalf("%s: epoch %d real counts mismatch (-want +got):\n%s", what, e, d)
			}
		}
	}
}

// padOf is the padding of source name in TestProperty's pad-with providers.
var padOf = map[string]float64{"a": 0.25, "b": 7, "y": 200, "w": 7}

// checkBatch checks that every source's batch in b holds, slot by slot, the
// observation b.Indices names, or the source's padding value when padWith.
func checkBatch(t *testing.T, what string, p *provider.Provider[float32, uint8], data *floatGroup, label *byteGroup, b provider.Batch[float32, uint8], padWith bool) {
	t.Helper()
	if len(b.Data.X) != data.Len() || len(b.Data.Y) != label.Len() {
		t.Fatalf("%s: %d data and %d label batches, want %d and %d", what, len(b.Data.X), len(b.Data.Y), data.Len(), label.Len())
	}
	for k, name := range data.Names() {
		checkSource(t, what, name, data.Member(k), b.Data.X[k], p.Data(b, name), b, padWith)
	}
	for k, name := range label.Names() {
		checkSource(t, what, name, label.Member(k), b.Data.Y[k], p.Label(b, name), b, padWith)
	}
}

func checkSource[E arraycontainer.Number](t *testing.T, what, name string, src *arraycontainer.Array[E], got, byName *arraycontainer.Array[E], b provider.Batch[float32, uint8], padWith bool) {
	t.Helper()
	if got != byName {
		t.Fatalf("%s: the batch of %q by name is not the source's batch", what, name)
	}
	if got.Nobs() != len(b.Indices) {
		t.Fatalf("%s: source %q holds %d observations for %d indices", what, name, got.Nobs(), len(b.Indices))
	}
	for j, i := range b.Indices {
		obs := got.GetObs(j)
		if j >= b.Real && padWith {
			want := obs.Clone()
			want.Fill(E(padOf[name]))
			if i != -1 || !obs.Equal(want) {
				t.Fatalf("%s: source %q padding slot %d (index %d) = %v, want %v", what, name, j, i, obs, want)
			}
			continue
		}
		if want := src.GetObs(i); !obs.Equal(want) {
			t.Fatalf("%s: source %q slot %d = %v, observation %d is %v", what, name, j, obs, i, want)
		}
	}
}

// TestRollOver checks the provider against the eachobs.Loader it wraps with
// RollOver, the one tail the naive reference above does not cover: the same
// batches, positions and counts, epoch after epoch.
func TestRollOver(t *testing.T) {
	data, label := sources(t, 11)
	zipped := must(tuples.Zip2(data, label))
	for _, shuffled := range []bool{true, false} {
		opts := []eachobs.Option{eachobs.Tail(index.RollOver)}
		if shuffled {
			opts = append(opts, eachobs.Shuffle(9))
		}
		p := must(provider.New(data, label, 4, provider.Loop(opts...)))
		l := eachobs.NewLoader(zipped, 4, opts...)
		rollOverEpochs(t, p, l)
	}
}

func rollOverEpochs(t *testing.T, p *provider.Provider[float32, uint8], l *eachobs.Loader[provider.Arrays[float32, uint8]]) {
	t.Helper()
	for e := range 5 {
		var want, got []string
		for b := range l.Epoch(e) {
			want = append(want, fmt.Sprint(b.Indices, b.Real, b.Pos, b.Count, b.Data.X[0], b.Data.Y[1]))
		}
		for b := range p.Epoch(e) {
			got = append(got, fmt.Sprint(b.Indices, b.Real, b.Pos, b.Count, b.Data.X[0], b.Data.Y[1]))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("epoch %d mismatch with the Loader (-want +got):\n%s", e, d)
		}
	}
}

// TestResume interrupts a provider's stream at random batches and resumes from
// the position of the last batch's Next: the pieces put together are the
// uninterrupted stream, padding constants and -1 indices included.
func TestResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	data, label := sources(t, 13)
	for _, opts := range [][]provider.Option{
		{provider.Loop(eachobs.Shuffle(6)), provider.PadWith(3)},
		{provider.Loop(eachobs.Shuffle(6), eachobs.Tail(index.RollOver), eachobs.Prefetch(2))},
		{provider.Loop(eachobs.Workers(2), eachobs.Tail(index.Drop))},
		{provider.Loop(eachobs.Shuffle(6), eachobs.Partition(index.Part{Index: 1, Parts: 2}), eachobs.Tail(index.Pad)), provider.PadSource("y", 9)},
	} {
		p := must(provider.New(data, label, 5, opts...))
		start := p.Iter().Pos()
		for b := range p.Epoch(0) { // Seed and Steps say what the batches carry
			if b.Pos.Seed != p.Seed() || b.Count != p.Steps().Len(0) || len(b.Indices) != p.Steps().Size() {
				t.Fatalf("first batch at %+v of %d batches of %d; Seed() %d, Steps().Len(0) %d, Steps().Size() %d",
					b.Pos, b.Count, len(b.Indices), p.Seed(), p.Steps().Len(0), p.Steps().Size())
			}
			break
		}
		whole := must(resume(p, start))
		var want []string
		var pos []eachobs.Position
		for b := range whole {
			want = append(want, fmt.Sprint(b.Indices, b.Real, b.Pos, b.Count, b.Data.X, b.Data.Y))
			pos = append(pos, b.Next())
			if len(want) == 25 {
				break
			}
		}
		var got []string
		at := start
		for len(got) < len(want) {
			k := min(1+rng.IntN(6), len(want)-len(got))
			for b := range must(resume(p, at)) {
				got = append(got, fmt.Sprint(b.Indices, b.Real, b.Pos, b.Count, b.Data.X, b.Data.Y))
				at = b.Next()
				if k--; k == 0 {
					break
				}
			}
			if at != pos[len(got)-1] {
				t.Fatalf("Next of batch %d is %+v, the uninterrupted stream's %+v", len(got)-1, at, pos[len(got)-1])
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("resumed stream differs (-whole +resumed):\n%s", d)
		}
	}
}

// TestSplitProperty splits random batches into random numbers of slices: the
// slices are views of consecutive slots that together hold the batch, the
// first ones one slot longer, with the real observations counted where they lie.
func TestSplitProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := range 200 {
		n, size, k := 1+rng.IntN(20), 1+rng.IntN(9), 1+rng.IntN(12)
		data, label := sources(t, n)
		opt := []provider.Option{provider.Loop(eachobs.Tail(index.Keep)), provider.Loop(eachobs.Tail(index.Pad)), provider.PadWith(1)}[rng.IntN(3)]
		p := must(provider.New(data, label, size, opt))
		var reused []provider.Batch[float32, uint8] // SplitInto's, from batch to batch
		for b := range p.Epoch(0) {
			what := fmt.Sprintf("trial %d: n=%d size=%d k=%d batch %d", trial, n, size, k, b.Pos.Batch)
			split := provider.Split(b, k)
			reused = provider.SplitInto(reused, b, k)
			if d := cmp.Diff(fmt.Sprint(split), fmt.Sprint(reused)); d != "" {
				t.Fatalf("%s: SplitInto differs from Split (-Split +SplitInto):\n%s", what, d)
			}
			var idx []int
			lo, real := 0, 0
			for j, s := range split {
				m := len(s.Indices)
				if want := len(b.Indices)/k + btoi(j < len(b.Indices)%k); m != want {
					t.Fatalf("%s: slice %d holds %d slots, want %d", what, j, m, want)
				}
				checkRange(t, fmt.Sprint(what, ": slice ", j), p, b, s, lo, lo+m)
				idx = append(idx, s.Indices...)
				lo += m
				real += s.Real
			}
			if d := cmp.Diff(b.Indices, idx); d != "" || real != b.Real {
				t.Fatalf("%s: slices hold %d real and indices (-batch +slices):\n%s", what, real, d)
			}
		}
	}
}

// checkRange checks that s is slots [lo, hi) of b: views of each source's batch,
// the indices, the real observations among them, and b's position and count.
func checkRange(t *testing.T, what string, p *provider.Provider[float32, uint8], b, s provider.Batch[float32, uint8], lo, hi int) {
	t.Helper()
	if want := min(max(b.Real-lo, 0), hi-lo); s.Real != want || s.Pad() != hi-lo-want {
		t.Fatalf("%s of slots [%d, %d) has Real %d Pad %d, want Real %d", what, lo, hi, s.Real, s.Pad(), want)
	}
	if !cmp.Equal(s.Indices, b.Indices[lo:hi]) || cap(s.Indices) != len(s.Indices) {
		t.Fatalf("%s of slots [%d, %d): indices %v (cap %d), want %v capped", what, lo, hi, s.Indices, cap(s.Indices), b.Indices[lo:hi])
	}
	for src := range s.Data.X {
		if !sharesMemory(s.Data.X[src], b.Data.X[src], lo) || s.Data.X[src].Nobs() != hi-lo {
			t.Fatalf("%s: data %d is not a view of slots [%d, %d)", what, src, lo, hi)
		}
	}
	for src := range s.Data.Y {
		if !sharesMemory(s.Data.Y[src], b.Data.Y[src], lo) || s.Data.Y[src].Nobs() != hi-lo {
			t.Fatalf("%s: label %d is not a view of slots [%d, %d)", what, src, lo, hi)
		}
	}
	if s.Pos != b.Pos || s.Count != b.Count || p.Data(s, "b") != s.Data.X[1] || p.Label(s, "w") != s.Data.Y[1] {
		t.Fatalf("%s lost the batch's position or names", what)
	}
}

// TestRange takes every range of slots of padded and unpadded batches.
func TestRange(t *testing.T) {
	data, label := sources(t, 7)
	for _, opt := range []provider.Option{provider.PadWith(5), provider.Loop(eachobs.Tail(index.Keep))} {
		p := must(provider.New(data, label, 4, opt))
		for b := range p.Epoch(0) {
			for lo := 0; lo <= len(b.Indices); lo++ {
				for hi := lo; hi <= len(b.Indices); hi++ {
					checkRange(t, fmt.Sprintf("batch %d: Range(%d, %d)", b.Pos.Batch, lo, hi), p, b, provider.Range(b, lo, hi), lo, hi)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestShapes(t *testing.T) {
	images := numbered[uint8](t, 0, []int{6, 2, 3}, obsdim.First)         // 6 images of 2x3
	columns := numbered[uint8](t, 0, []int{5, 6}, obsdim.Last)            // Julia's layout
	channels := numbered[uint8](t, 0, []int{2, 6, 3}, obsdim.Constant(1)) // observation in the middle
	split := subset.Range(images, 1, 6)                                   // not an array: shape from a gathered batch
	tests := []struct {
		name string
		src  container.Batched[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]]
		want []int
	}{
		{"observation first", images.ObsRange(0, 5), []int{4, 2, 3}},
		{"observation last", columns.ObsRange(0, 5), []int{5, 4}},
		{"observation axis 1", channels.ObsRange(0, 5), []int{2, 4, 3}},
		{"subset of an array", split, []int{4, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := must(tuples.NewNamed([]string{"x"}, tc.src))
			p := must(provider.NewUnlabeled(g, 4))
			if d := cmp.Diff([]provider.Desc{{Name: "x", Shape: tc.want}}, p.ProvideData()); d != "" {
				t.Fatalf("ProvideData() mismatch (-want +got):\n%s", d)
			}
			if len(p.ProvideLabel()) != 0 {
				t.Errorf("ProvideLabel() of an unlabeled provider = %v", p.ProvideLabel())
			}
			for b := range p.Epoch(0) {
				if got := b.Data.X[0].Shape(); !cmp.Equal(got, tc.want) {
					t.Errorf("first batch has shape %v, ProvideData says %v", got, tc.want)
				}
				if len(b.Data.Y) != 0 {
					t.Errorf("unlabeled batch has %d label batches", len(b.Data.Y))
				}
				break
			}
			p.ProvideData()[0].Shape[0] = -1 // a copy: the provider keeps its own
			if p.ProvideData()[0].Shape[0] == -1 {
				t.Error("ProvideData returned the provider's own shape slice")
			}
		})
	}
}

// TestUnlabeled checks a provider without labels: every observation once per
// epoch, shuffled, partitioned and padded as a labeled one, with no label batch.
func TestUnlabeled(t *testing.T) {
	data, _ := sources(t, 9)
	p := must(provider.NewUnlabeled(data, 4, provider.Loop(eachobs.Shuffle(2), eachobs.Prefetch(1)), provider.PadWith(-2)))
	seen := map[int]int{}
	for b := range p.Epoch(1) {
		if len(b.Data.Y) != 0 || len(b.Data.X) != 2 {
			t.Fatalf("batch %d: %d data and %d label batches, want 2 and 0", b.Pos.Batch, len(b.Data.X), len(b.Data.Y))
		}
		for j, i := range b.Indices {
			if j >= b.Real {
				if i != -1 || p.Data(b, "a").At(j, 0) != -2 {
					t.Fatalf("batch %d padding slot %d: index %d, value %v", b.Pos.Batch, j, i, p.Data(b, "a").At(j, 0))
				}
				continue
			}
			seen[i]++
			if !p.Data(b, "a").GetObs(j).Equal(data.Member(0).GetObs(i)) {
				t.Fatalf("batch %d slot %d is not observation %d", b.Pos.Batch, j, i)
			}
		}
	}
	if len(seen) != 9 {
		t.Errorf("an epoch saw %d distinct observations of 9: %v", len(seen), seen)
	}
	for i, c := range seen {
		if c != 1 {
			t.Errorf("observation %d seen %d times", i, c)
		}
	}
}

func TestErrors(t *testing.T) {
	data, label := sources(t, 5)
	short := must(tuples.NewNamed([]string{"y"}, numbered[uint8](t, 0, []int{4}, obsdim.First)))
	same := must(tuples.NewNamed([]string{"b"}, numbered[uint8](t, 0, []int{5}, obsdim.First)))
	empty := must(tuples.NewNamed([]string{"e"}, subset.Range(numbered[float32](t, 0, []int{3, 2}, obsdim.First), 1, 1)))
	ints, intLabel := tenByFour()
	tests := []struct {
		name string
		err  error
		msg  string
		f    func() error
	}{
		{"observation counts", tuples.ErrNobsMismatch, "data sources hold 5, label sources 4", func() error {
			_, err := provider.New(data, short, 2)
			return err
		}},
		{"name in data and labels", tuples.ErrName, `"b" names a data and a label source`, func() error {
			_, err := provider.New(data, same, 2)
			return err
		}},
		{"unknown PadSource", provider.ErrPad, `PadSource("z") names no source`, func() error {
			_, err := provider.New(data, label, 2, provider.PadSource("z", 1))
			return err
		}},
		{"fraction for bytes", provider.ErrPad, `0.5 does not fit source "y" of element type uint8`, func() error {
			_, err := provider.New(data, label, 2, provider.PadSource("y", 0.5))
			return err
		}},
		{"negative for bytes", provider.ErrPad, `-1 does not fit source "y"`, func() error {
			_, err := provider.New(data, label, 2, provider.PadWith(-1))
			return err
		}},
		{"too large for bytes", provider.ErrPad, `256 does not fit source "w"`, func() error {
			_, err := provider.New(data, label, 2, provider.PadSource("w", 256))
			return err
		}},
		{"NaN for int32", provider.ErrPad, `NaN does not fit source "label" of element type int32`, func() error {
			_, err := provider.New(ints, intLabel, 2, provider.PadSource("label", math.NaN()))
			return err
		}},
		{"overflow for float32", provider.ErrPad, `1e+40 does not fit source "data" of element type float32`, func() error {
			_, err := provider.New(ints, intLabel, 2, provider.PadWith(1e40))
			return err
		}},
		{"empty source that is not an array", provider.ErrSource, `provider.NewUnlabeled: source "e"`, func() error {
			_, err := provider.NewUnlabeled(empty, 2)
			return err
		}},
		{"Resume in order with a shuffle's position", container.ErrState, `the position's order is "cipher"`, func() error {
			shuffled := must(provider.New(data, label, 2, provider.Loop(eachobs.Shuffle(5))))
			_, err := resume(must(provider.New(data, label, 2)), shuffled.Iter().Pos())
			return err
		}},
		{"Resume with another seed", container.ErrState, "seed is 4", func() error {
			p := must(provider.New(data, label, 2, provider.Loop(eachobs.Shuffle(3))))
			pos := p.Iter().Pos()
			pos.Seed = 4
			_, err := resume(p, pos)
			return err
		}},
		{"Resume past the last epoch", container.ErrState, "epoch", func() error {
			p := must(provider.New(data, label, 2, provider.PadWith(0)))
			pos := p.Iter().Pos()
			pos.Epoch = math.MaxInt / 2
			_, err := resume(p, pos)
			return err
		}},
		{"Resume past the end of an epoch", container.ErrState, "positions consumed", func() error {
			p := must(provider.New(data, label, 2))
			pos := p.Iter().Pos()
			pos.Consumed = pos.Nobs + 1
			_, err := resume(p, pos)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if !errors.Is(err, tc.err) || !strings.Contains(fmt.Sprint(err), tc.msg) {
				t.Errorf("error %v, want one wrapping %v and containing %q", err, tc.err, tc.msg)
			}
		})
	}
}

// TestPadValues checks that padding values that fit are accepted, floats
// rounded to the nearest value and NaN kept.
func TestPadValues(t *testing.T) {
	ints, intLabel := tenByFour()
	for _, v := range []float64{0.1, math.NaN(), math.Inf(-1), -3} {
		p := must(provider.New(ints, intLabel, 4, provider.PadSource("data", v)))
		for b := range p.Epoch(0) {
			if b.Pad() == 0 {
				continue
			}
			got := b.Data.X[0].At(3, 0)
			if want := float32(v); got != want && !(math.IsNaN(v) && got != got) {
				t.Errorf("PadSource(data, %v): padding %v, want %v", v, got, want)
			}
			if lab := b.Data.Y[0].At(3); lab != 0 {
				t.Errorf("PadSource(data, %v): label padding %v, want PadWith's default 0", v, lab)
			}
		}
	}
}

func TestPanics(t *testing.T) {
	data, label := sources(t, 5)
	p := must(provider.New(data, label, 2))
	unlabeled := must(provider.NewUnlabeled(data, 2))
	first := func(p *provider.Provider[float32, uint8]) provider.Batch[float32, uint8] {
		for b := range p.Epoch(0) {
			return b
		}
		panic("no batch")
	}
	tests := []struct {
		name, op, arg string
		f             func()
	}{
		{"batch size", "provider.New", "batch size", func() { provider.New(data, label, 0) }},
		{"nil label", "provider.New", "label group", func() { provider.New(data, (*byteGroup)(nil), 2) }},
		{"nil data", "provider.New", "data group", func() { provider.New((*floatGroup)(nil), label, 2) }},
		{"nil option", "provider.New", "option", func() { provider.New(data, label, 2, nil) }},
		{"PadWith and Drop", "provider.New", "loop tail", func() {
			provider.New(data, label, 2, provider.PadWith(1), provider.Loop(eachobs.Tail(index.Drop)))
		}},
		{"PadSource and RollOver", "provider.New", "loop tail", func() {
			provider.New(data, label, 2, provider.Loop(eachobs.Tail(index.RollOver)), provider.PadSource("a", 1))
		}},
		{"unlabeled PadWith and Drop", "provider.NewUnlabeled", "loop tail", func() {
			provider.NewUnlabeled(data, 2, provider.PadWith(1), provider.Loop(eachobs.Tail(index.Drop)))
		}},
		{"nil loop option", "provider.Loop", "option", func() { provider.Loop(eachobs.Prefetch(1), nil) }},
		{"prefetch", "eachobs.Prefetch", "count", func() { provider.Loop(eachobs.Prefetch(-1)) }},
		{"workers", "eachobs.Workers", "workers", func() { provider.Loop(eachobs.Workers(0)) }},
		{"partition", "eachobs.Partition", "part", func() { provider.Loop(eachobs.Partition(index.Part{Index: 2, Parts: 2})) }},
		{"epoch", "index.Steps.Len", "epoch", func() { p.Epoch(-1) }},
		{"data name", "provider.Provider.Data", "source", func() { p.Data(first(p), "y") }},
		{"label name", "provider.Provider.Label", "source", func() { p.Label(first(p), "a") }},
		{"unlabeled", "provider.Provider.Label", "source", func() {
			for b := range unlabeled.Epoch(0) {
				unlabeled.Label(b, "y")
			}
		}},
		{"slice", "provider.Range", "range", func() { provider.Range(first(p), 1, 3) }},
		{"slice reversed", "provider.Range", "range", func() { provider.Range(first(p), 2, 1) }},
		{"split", "provider.Split", "number of slices", func() { provider.Split(first(p), 0) }},
		{"split into", "provider.SplitInto", "number of slices", func() { provider.SplitInto(nil, first(p), -1) }},
		{"unlabeled batch size", "provider.NewUnlabeled", "batch size", func() { provider.NewUnlabeled(data, -1) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				var ae *container.ArgError
				if err, ok := r.(error); !ok || !errors.As(err, &ae) || ae.Op != tc.op || ae.Arg != tc.arg {
					t.Errorf("panic %v (%T), want a *container.ArgError of %s for %q", r, r, tc.op, tc.arg)
				}
			}()
			tc.f()
		})
	}
	// The message names the sources there are.
	func() {
		defer func() {
			if msg := fmt.Sprint(recover()); !strings.Contains(msg, `provider.Provider.Data: source y, want one of ["a" "b"]`) {
				t.Errorf("panic %q does not name the data sources", msg)
			}
		}()
		p.Data(first(p), "y")
	}()
}

// TestMixedSourceTypes: sources of different Go types with arrays of one element
// type (an array beside a conversion of another) go into one group as
// arraycontainer.Batched, spelled once (issue 14: the doc said only that element
// types must match, and the compile error named no fix).
func TestMixedSourceTypes(t *testing.T) {
	x := must(arraycontainer.New([]float32{0, 1, 2, 3, 4, 5}, []int{3, 2}, obsdim.First))
	pixels := must(arraycontainer.New([]uint8{10, 20, 30}, []int{3, 1}, obsdim.First))
	scaled := convert.Scale(pixels, float32(0.1), 0)
	data := must(tuples.NewNamed([]string{"x", "scaled"}, []arraycontainer.Batched[float32]{x, scaled}...))
	label := must(tuples.NewNamed([]string{"y"}, must(arraycontainer.New([]int32{7, 8, 9}, []int{3}, obsdim.First))))
	p := must(provider.New(data, label, 3))
	for b := range p.Epoch(0) {
		got := [][]float32{b.Data.X[0].Data(), b.Data.X[1].Data()}
		want := [][]float32{{0, 1, 2, 3, 4, 5}, {1, 2, 3}}
		if d := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-6)); d != "" {
			t.Errorf("batch of mixed sources mismatch (-want +got):\n%s", d)
		}
	}
}
