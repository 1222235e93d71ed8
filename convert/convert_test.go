package convert_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// pixels returns n observations of shape [4 3] of uint8 values, random.
func pixels(n int, seed uint64) *arraycontainer.Array[uint8] {
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]uint8, n*12)
	for i := range data {
		data[i] = uint8(rng.IntN(256))
	}
	return must(arraycontainer.New(data, []int{n, 4, 3}, obsdim.First))
}

// naive converts every element of the batch of src at idx with f, the reference.
func naive[From, To arraycontainer.Number](src container.Batched[*arraycontainer.Array[From], *arraycontainer.Array[From]], idx []int, f func(feature int, v From) To) *arraycontainer.Array[To] {
	b := src.GetObsInto(nil, idx)
	in := b.Data()
	out := make([]To, len(in))
	L := b.Len() / max(len(idx), 1)
	for j, v := range in {
		out[j] = f(j%max(L, 1), v)
	}
	return must(arraycontainer.New(out, b.Shape(), obsdim.Constant(b.Dim())))
}

func arrayConfig[E arraycontainer.Number]() containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]] {
	return containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]]{
		Obs: func(b *arraycontainer.Array[E], j int) *arraycontainer.Array[E] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[E]) int { return b.Nobs() },
		Options: []cmp.Option{cmp.Comparer(func(a, b *arraycontainer.Array[E]) bool {
			return a.Equal(b)
		})},
	}
}

// sources are containers of the same observations through every path: the
// array (fused), a view of it (fused through MapIndices), a transposed copy
// seen observation-first (strided rows: not fused), and a plain container of
// arrays (AsBatched is not an array container; a Func of arrays gathered by
// the fallback).
func sources(x *arraycontainer.Array[uint8]) map[string]container.Batched[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]] {
	n := x.Nobs()
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	// Observations whose rows are strided: the features of a transposed copy.
	t := x.Transpose(0, 2, 1).Clone().Transpose(0, 2, 1)
	return map[string]container.Batched[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]]{
		"array":   x,
		"view":    subset.Of(x, rev),
		"strided": t,
		"other":   wrapped{x},
	}
}

// wrapped hides an array behind a type of its own, so no fast path applies.
type wrapped struct{ a *arraycontainer.Array[uint8] }

func (w wrapped) Nobs() int                                 { return w.a.Nobs() }
func (w wrapped) GetObs(i int) *arraycontainer.Array[uint8] { return w.a.GetObs(i) }
func (w wrapped) GetObsInto(dst *arraycontainer.Array[uint8], idx []int) *arraycontainer.Array[uint8] {
	return w.a.GetObsInto(dst, idx)
}

func TestScale(t *testing.T) {
	x := pixels(50, 1)
	idx := []int{3, 3, 0, 49, 17}
	for name, src := range sources(x) {
		t.Run(name, func(t *testing.T) {
			c := convert.Scale(src, float32(1)/255, -0.5)
			want := naive(src, idx, func(_ int, v uint8) float32 { return float32(v)*(float32(1)/255) + -0.5 })
			if got := c.GetObsInto(nil, idx); !got.Equal(want) {
				t.Fatalf("GetObsInto = %v, want %v", got, want)
			}
			containertest.Run(t, c, arrayConfig[float32]())
		})
	}
}

func TestScaleOfIntegersAndFloats(t *testing.T) {
	a := must(arraycontainer.New([]int16{-300, 0, 7, 32767}, []int{4}, obsdim.First))
	c := convert.Scale(a, 0.5, 1.0)
	got := c.GetObsInto(nil, []int{0, 1, 2, 3}).Data()
	if d := cmp.Diff([]float64{-149, 1, 4.5, 16384.5}, got); d != "" {
		t.Errorf("Scale of int16 to float64 mismatch (-want +got):\n%s", d)
	}
	if got := c.GetObs(2).Item(); got != 4.5 {
		t.Errorf("GetObs(2) = %v, want 4.5", got)
	}
	// A Scale of a Scale is one map, composed.
	twice := convert.Scale(c, 2.0, -2)
	if d := cmp.Diff([]float64{-300, 0, 7, 32767}, twice.GetObsInto(nil, []int{0, 1, 2, 3}).Data()); d != "" {
		t.Errorf("Scale of Scale mismatch (-want +got):\n%s", d)
	}
}

func TestMeanStdAndStandardize(t *testing.T) {
	x := pixels(3000, 2) // more than one chunk of MeanStd
	xf := convert.Scale(x, float32(1)/255, 0)
	st, err := convert.MeanStd(xf)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: two passes in float64 over the converted values.
	all := xf.GetObsInto(nil, subset.Iota(3000).GetObsInto(nil, seq(3000))).Data()
	mean, std := make([]float64, 12), make([]float64, 12)
	for j, v := range all {
		mean[j%12] += float64(v)
	}
	for f := range mean {
		mean[f] /= 3000
	}
	for j, v := range all {
		d := float64(v) - mean[j%12]
		std[j%12] += d * d
	}
	for f := range std {
		std[f] = math.Sqrt(std[f] / 3000)
	}
	approx := cmpopts.EquateApprox(1e-6, 1e-6)
	if d := cmp.Diff(toF64(st.Mean), mean, approx); d != "" {
		t.Errorf("Mean mismatch (-got +want):\n%s", d)
	}
	if d := cmp.Diff(toF64(st.Std), std, approx); d != "" {
		t.Errorf("Std mismatch (-got +want):\n%s", d)
	}
	if d := cmp.Diff([]int{4, 3}, st.Shape); d != "" {
		t.Errorf("Shape mismatch (-want +got):\n%s", d)
	}

	xs := must(convert.Standardize(xf, st))
	idx := []int{0, 2999, 5, 5}
	want := naive(x, idx, func(f int, v uint8) float32 {
		return float32((float64(v)/255 - mean[f]) / std[f])
	})
	got := xs.GetObsInto(nil, idx)
	if d := cmp.Diff(want.Data(), got.Data(), cmpopts.EquateApprox(0, 1e-5)); d != "" {
		t.Errorf("Standardize mismatch (-want +got):\n%s", d)
	}
	containertest.Run(t, xs, containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]]{
		Obs: func(b *arraycontainer.Array[float32], j int) *arraycontainer.Array[float32] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[float32]) int { return b.Nobs() },
		Options: []cmp.Option{cmp.Transformer("data", func(a *arraycontainer.Array[float32]) []float32 { return a.Clone().Data() }),
			cmpopts.EquateApprox(0, 1e-5)},
		MaxObs: 50,
	})

	// The standardized training part has mean 0 and deviation 1 per feature.
	st2 := must(convert.MeanStd(xs))
	for f := range st2.Mean {
		if math.Abs(float64(st2.Mean[f])) > 1e-4 || math.Abs(float64(st2.Std[f])-1) > 1e-4 {
			t.Fatalf("feature %d after Standardize: mean %v std %v, want 0 and 1", f, st2.Mean[f], st2.Std[f])
		}
	}
}

func TestStandardizeConstantFeature(t *testing.T) {
	a := must(arraycontainer.New([]float64{1, 5, 3, 5}, []int{2, 2}, obsdim.First))
	st := must(convert.MeanStd(a))
	if st.Std[1] != 0 {
		t.Fatalf("Std of a constant feature = %v", st.Std[1])
	}
	s := must(convert.Standardize(a, st))
	if d := cmp.Diff([]float64{-1, 0, 1, 0}, s.GetObsInto(nil, []int{0, 1}).Data()); d != "" {
		t.Errorf("Standardize with a constant feature mismatch (-want +got):\n%s", d)
	}
}

func TestStatsErrors(t *testing.T) {
	empty := must(arraycontainer.New([]float32{}, []int{0, 3}, obsdim.First))
	if _, err := convert.MeanStd(empty); !errors.Is(err, container.ErrEmpty) {
		t.Errorf("MeanStd of no observations: err = %v, want ErrEmpty", err)
	}
	last := must(arraycontainer.New([]float32{1, 2, 3, 4, 5, 6}, []int{2, 3}, obsdim.Last))
	if _, err := convert.MeanStd(last); !errors.Is(err, arraycontainer.ErrLayout) {
		t.Errorf("MeanStd observation-last: err = %v, want ErrLayout", err)
	}
	if _, err := convert.Standardize(last, convert.Stats[float32]{}); !errors.Is(err, arraycontainer.ErrLayout) {
		t.Errorf("Standardize observation-last: err = %v, want ErrLayout", err)
	}
	a := must(arraycontainer.New([]float32{1, 2, 3, 4, 5, 6}, []int{2, 3}, obsdim.First))
	bad := convert.Stats[float32]{Mean: []float32{0, 0}, Std: []float32{1, 1}, Shape: []int{2}}
	if _, err := convert.Standardize(a, bad); !errors.Is(err, arraycontainer.ErrShape) {
		t.Errorf("Standardize with stats of another shape: err = %v, want ErrShape", err)
	}
}

func TestOneHot(t *testing.T) {
	y := container.FromSlice([]int{2, 0, 1, 2})
	c := must(convert.OneHot(y, 3, float32(1)))
	got := c.GetObsInto(nil, []int{3, 1, 1})
	want := must(arraycontainer.New([]float32{0, 0, 1, 1, 0, 0, 1, 0, 0}, []int{3, 3}, obsdim.First))
	if !got.Equal(want) {
		t.Errorf("OneHot batch = %v, want %v", got, want)
	}
	if d := cmp.Diff([]int{3}, c.ObsShape()); d != "" {
		t.Errorf("ObsShape mismatch (-want +got):\n%s", d)
	}
	containertest.Run(t, c, arrayConfig[float32]())
	// Through a view of the labels, as in a split.
	v := must(convert.OneHot(subset.Of(y, []int{3, 2}), 3, int8(1)))
	if d := cmp.Diff([]int8{0, 0, 1, 0, 1, 0}, v.GetObsInto(nil, []int{0, 1}).Data()); d != "" {
		t.Errorf("OneHot of a view mismatch (-want +got):\n%s", d)
	}
	for _, bad := range []int{-1, 3} {
		_, err := convert.OneHot(container.FromSlice([]int{0, bad}), 3, float32(1))
		if !errors.Is(err, convert.ErrRange) || !strings.Contains(err.Error(), "index 1") {
			t.Errorf("OneHot with label %d: err = %v, want ErrRange naming index 1", bad, err)
		}
	}
}

func TestCast(t *testing.T) {
	y := container.FromSlice([]int64{5, -3, 1 << 20})
	c := must(convert.Cast[int32](y))
	if d := cmp.Diff([]int32{1 << 20, 5}, c.GetObsInto(nil, []int{2, 0})); d != "" {
		t.Errorf("Cast mismatch (-want +got):\n%s", d)
	}
	if c.GetObs(1) != -3 || c.Nobs() != 3 {
		t.Errorf("GetObs(1) = %v, Nobs = %d", c.GetObs(1), c.Nobs())
	}
	containertest.Run(t, c, containertest.SliceConfig[int32]())
	for name, tc := range map[string]struct {
		run  func() error
		want string
	}{
		"int64 to int8": {func() error { _, err := convert.Cast[int8](y); return err }, "value 1048576 at index 2"},
		"negative to uint": {func() error {
			_, err := convert.Cast[uint16](container.FromSlice([]int{1, -1}))
			return err
		}, "value -1 at index 1"},
		"NaN to int": {func() error {
			_, err := convert.Cast[int](container.FromSlice([]float64{math.NaN()}))
			return err
		}, "NaN"},
		"overflow to float32": {func() error {
			_, err := convert.Cast[float32](container.FromSlice([]float64{1e300}))
			return err
		}, "1e+300"},
	} {
		err := tc.run()
		if !errors.Is(err, convert.ErrRange) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrRange containing %q", name, err, tc.want)
		}
	}
	if y8 := must(convert.Cast[int8](container.FromSlice([]int64{127, -128}))); y8.GetObs(1) != -128 {
		t.Errorf("Cast to int8 at the bound: %v", y8.GetObs(1))
	}
}

// TestCastChangedSource is issue 14's silent wrong answer: labels that change
// after Cast wrapped them (a reused slice, a mapped file rewritten) to values
// the target cannot hold. Gathers returned stale values and GetObs wrapped
// around (300 became 44); now both panic with an error wrapping ErrRange that
// names the value and says the container changed, as OneHot does.
func TestCastChangedSource(t *testing.T) {
	l := container.Slice[int]{1, 2, 3, 4}
	c := must(convert.Cast[int8](l))
	buf := c.GetObsInto(nil, []int{0, 1, 2, 3})
	l[1], l[2] = 300, -1000
	for name, read := range map[string]func(){
		"GetObsInto": func() { buf = c.GetObsInto(buf, []int{3, 2, 1, 0}) },
		"GetObs":     func() { c.GetObs(1) },
	} {
		func() {
			defer func() {
				err, _ := recover().(error)
				if !errors.Is(err, convert.ErrRange) || !strings.Contains(err.Error(), "changed after it was wrapped") {
					t.Errorf("%s after the source changed: panic %v, want an error wrapping ErrRange saying the container changed", name, err)
				}
			}()
			read()
		}()
	}
	l[1], l[2] = 20, -100 // in range again: read as they are now
	if d := cmp.Diff([]int8{4, -100, 20, 1}, c.GetObsInto(buf, []int{3, 2, 1, 0})); d != "" {
		t.Errorf("gather after an in-range change mismatch (-want +got):\n%s", d)
	}
}

func TestInto(t *testing.T) {
	x := pixels(4, 3)
	b := x.GetObsInto(nil, []int{1, 2})
	var dst *arraycontainer.Array[float32]
	dst = convert.ScaleInto(dst, b, 2, 1)
	want := naive(x, []int{1, 2}, func(_ int, v uint8) float32 { return float32(v)*2 + 1 })
	if !dst.Equal(want) {
		t.Errorf("ScaleInto = %v, want %v", dst, want)
	}
	if a := testing.AllocsPerRun(50, func() { dst = convert.ScaleInto(dst, b, 2, 1) }); a != 0 {
		t.Errorf("ScaleInto into a warm buffer: %v allocations, want 0", a)
	}
	oh, err := convert.OneHotInto(nil, []int{1, 0}, 2, 1.0)
	if err != nil || !cmp.Equal(oh.Data(), []float64{0, 1, 1, 0}) {
		t.Errorf("OneHotInto = %v, %v", oh, err)
	}
	if a := testing.AllocsPerRun(50, func() { oh, _ = convert.OneHotInto(oh, []int{1, 0}, 2, 1.0) }); a != 0 {
		t.Errorf("OneHotInto into a warm buffer: %v allocations, want 0", a)
	}
	if _, err := convert.OneHotInto(oh, []int{2}, 2, 1.0); !errors.Is(err, convert.ErrRange) {
		t.Errorf("OneHotInto out of range: err = %v", err)
	}
	ci, err := convert.CastInto[int32](nil, []int{1, 2})
	if err != nil || !cmp.Equal(ci, []int32{1, 2}) {
		t.Errorf("CastInto = %v, %v", ci, err)
	}
	if _, err := convert.CastInto[uint8](nil, []int{256}); !errors.Is(err, convert.ErrRange) {
		t.Errorf("CastInto out of range: err = %v", err)
	}
}

// TestNoAllocsPerBatch pins the containers at zero allocations per batch once
// their buffers are warm, on every path, as a loop uses them.
func TestNoAllocsPerBatch(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop its buffers at random")
	}
	x := pixels(300, 4)
	idx := []int{5, 200, 3, 3, 77}
	for name, src := range sources(x) {
		c := convert.Scale(src, float32(1)/255, 0)
		var buf *arraycontainer.Array[float32]
		buf = c.GetObsInto(buf, idx)
		if a := testing.AllocsPerRun(100, func() { buf = c.GetObsInto(buf, idx) }); a != 0 {
			t.Errorf("Scale over %s: %v allocations per batch, want 0", name, a)
		}
	}
	st := must(convert.MeanStd(convert.Scale(x, float32(1), 0)))
	s := must(convert.Standardize(convert.Scale(x, float32(1), 0), st))
	var buf *arraycontainer.Array[float32]
	buf = s.GetObsInto(buf, idx)
	if a := testing.AllocsPerRun(100, func() { buf = s.GetObsInto(buf, idx) }); a != 0 {
		t.Errorf("Standardize: %v allocations per batch, want 0", a)
	}
	oh := must(convert.OneHot(container.FromSlice(make([]int, 300)), 10, float32(1)))
	buf = oh.GetObsInto(buf, idx)
	if a := testing.AllocsPerRun(100, func() { buf = oh.GetObsInto(buf, idx) }); a != 0 {
		t.Errorf("OneHot: %v allocations per batch, want 0", a)
	}
	cs := must(convert.Cast[int32](container.FromSlice(make([]int, 300))))
	var ys []int32
	ys = cs.GetObsInto(ys, idx)
	if a := testing.AllocsPerRun(100, func() { ys = cs.GetObsInto(ys, idx) }); a != 0 {
		t.Errorf("Cast: %v allocations per batch, want 0", a)
	}
}

// TestInTuplesAndSplits runs conversions where they live: a member of a
// labeled tuple, split by class, the labels still typed ints.
func TestInTuplesAndSplits(t *testing.T) {
	x := pixels(40, 5)
	labels := make(container.Slice[int], 40)
	for i := range labels {
		labels[i] = i % 4
	}
	data := must(tuples.Zip2(convert.Scale(x, float32(1)/255, 0), labels))
	parts := must(subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.75))
	test := parts[1]
	b := test.GetObsInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, []int{0, 1})
	src := test.Indices()[:2]
	want := naive(x, src, func(_ int, v uint8) float32 { return float32(v) * (float32(1) / 255) })
	if !b.X.Equal(want) || !cmp.Equal(b.Y, []int{labels[src[0]], labels[src[1]]}) {
		t.Errorf("batch of a split of a converted tuple: X %v Y %v", b.X, b.Y)
	}
}

func toF64[E float32 | float64](s []E) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestInLoopsAndProviders runs conversions where the issue wants them: in an
// eachobs loop with workers (the conversion then runs in the pipeline's
// goroutines, with the same batches as a serial loop and no allocation per
// batch) and as a provider's data source.
func TestInLoopsAndProviders(t *testing.T) {
	x := pixels(64, 6)
	labels := make(container.Slice[int], 64)
	for i := range labels {
		labels[i] = i % 3
	}
	data := must(tuples.Zip2(convert.Scale(x, float32(1)/255, 0), labels))
	var serial []float32
	for b := range eachobs.Batches(data, 8, eachobs.Shuffle(1)) {
		serial = append(serial, b.Data.X.Data()...)
	}
	var parallel []float32
	for b := range eachobs.Batches(data, 8, eachobs.Shuffle(1), eachobs.Workers(2)) {
		parallel = append(parallel, b.Data.X.Data()...)
	}
	if !cmp.Equal(serial, parallel) {
		t.Error("a loop with 2 workers converted other batches than a serial loop")
	}
	// An epoch of 64 batches allocates what one of 2 batches does: nothing per
	// batch (the per-epoch allocations are the loop's own).
	epochAllocs := func(size int) float64 {
		loop := eachobs.NewLoader(data, size, eachobs.Shuffle(1))
		return testing.AllocsPerRun(20, func() {
			for range loop.Epoch(0) {
			}
		})
	}
	if many, few := epochAllocs(1), epochAllocs(32); many != few && !raceEnabled {
		t.Errorf("a loop over converted batches: %v allocations per epoch of 64 batches, %v for 2 batches", many, few)
	}

	named := must(tuples.NewNamed([]string{"pixels"}, convert.Scale(x, float32(1)/255, 0)))
	y := must(tuples.NewNamed([]string{"label"}, must(convert.OneHot(labels, 3, float32(1)))))
	p := must(provider.New(named, y, 16))
	if d := cmp.Diff([]provider.Desc{{Name: "pixels", Shape: []int{16, 4, 3}}}, p.ProvideData()); d != "" {
		t.Errorf("ProvideData mismatch (-want +got):\n%s", d)
	}
	for b := range p.Epoch(0) {
		want := naive(x, b.Indices, func(_ int, v uint8) float32 { return float32(v) * (float32(1) / 255) })
		if !p.Data(b, "pixels").Equal(want) {
			t.Fatalf("provider batch %d: converted pixels differ", b.Pos.Batch)
		}
		if oh := p.Label(b, "label"); oh.At(0, labels[b.Indices[0]]) != 1 {
			t.Fatalf("provider batch %d: one-hot label %v for label %d", b.Pos.Batch, oh.GetObs(0), labels[b.Indices[0]])
		}
	}
}
