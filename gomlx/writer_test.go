package gomlx_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/distributed"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// tensorView is a tensor as the tests compare it: dtype, shape and values.
type tensorView struct {
	Shape string
	Data  any
}

func view(t *testing.T, x *tensors.Tensor) tensorView {
	t.Helper()
	v, err := x.ValueSafe()
	if err != nil {
		t.Fatal(err)
	}
	return tensorView{x.Shape().String(), v}
}

func views(t *testing.T, xs []*tensors.Tensor) []tensorView {
	var out []tensorView
	for _, x := range xs {
		out = append(out, view(t, x))
	}
	return out
}

func mustArray[E arraycontainer.Number](t *testing.T, data []E, shape []int, dim obsdim.Dim) *arraycontainer.Array[E] {
	t.Helper()
	a, err := arraycontainer.New(data, shape, dim)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func iota[E arraycontainer.Number](n int) []E {
	v := make([]E, n)
	for i := range v {
		v[i] = E(i)
	}
	return v
}

// firstBatch returns the inputs and labels of the first batch of ds.
func firstBatch[B any](t *testing.T, ds *gomlx.Dataset[B], err error) (in, lab []tensorView) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	b := next(t, ds)
	defer free(t, b)
	return views(t, b.Inputs), views(t, b.Labels)
}

// TestWriter: what each writer makes of a batch, for every layout and element
// type: the batch first, a value per observation as [batch, 1], int as Int64.
func TestWriter(t *testing.T) {
	type want struct{ in, lab []tensorView }
	cases := []struct {
		name string
		run  func(t *testing.T) ([]tensorView, []tensorView)
		want want
	}{{
		name: "observation-first float32 images and int labels",
		run: func(t *testing.T) ([]tensorView, []tensorView) {
			x := mustArray(t, iota[float32](24), []int{4, 2, 3}, obsdim.First)
			y := container.Slice[int]{7, 8, 9, 10}
			data, err := tuples.Zip2(x, y)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := gomlx.Labeled(backend(), "t", eachobs.NewLoader(data, 2).Iter())
			return firstBatch(t, ds, err)
		},
		want: want{
			in:  []tensorView{{"(Float32)[2, 2, 3]", [][][]float32{{{0, 1, 2}, {3, 4, 5}}, {{6, 7, 8}, {9, 10, 11}}}}},
			lab: []tensorView{{"(Int64)[2, 1]", [][]int64{{7}, {8}}}},
		},
	}, {
		name: "uint8 rank-1 array and float64 values",
		run: func(t *testing.T) ([]tensorView, []tensorView) {
			x := mustArray(t, []uint8{5, 6, 7}, []int{3}, obsdim.First)
			ds, err := gomlx.New(backend(), "t", eachobs.NewLoader(x, 3).Iter(), func(w *gomlx.Writer, b *arraycontainer.Array[uint8]) {
				gomlx.Array(w.Input(), b)
				gomlx.Values(w.Label(), []float64{0.5, 1, 2})
			})
			return firstBatch(t, ds, err)
		},
		want: want{
			in:  []tensorView{{"(Uint8)[3, 1]", [][]uint8{{5}, {6}, {7}}}},
			lab: []tensorView{{"(Float64)[3, 1]", [][]float64{{0.5}, {1}, {2}}}},
		},
	}, {
		name: "a list of observations (transform.Map) stacked",
		run: func(t *testing.T) ([]tensorView, []tensorView) {
			x := mustArray(t, iota[int32](12), []int{3, 2, 2}, obsdim.First)
			doubled := transform.Map(x, func(a *arraycontainer.Array[int32]) *arraycontainer.Array[int32] {
				for i, v := range a.Data() {
					a.Data()[i] = 2 * v
				}
				return a
			})
			ds, err := gomlx.New(backend(), "t", eachobs.NewLoader(doubled, 3).Iter(), func(w *gomlx.Writer, b []*arraycontainer.Array[int32]) {
				gomlx.Stack(w.Input(), b)
			})
			return firstBatch(t, ds, err)
		},
		want: want{
			in: []tensorView{{"(Int32)[3, 2, 2]", [][][]int32{{{0, 2}, {4, 6}}, {{8, 10}, {12, 14}}, {{16, 18}, {20, 22}}}}},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, lab := c.run(t)
			if diff := cmp.Diff(c.want, want{in, lab}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("tensors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestObsLastAgainstLoop: an observation-last batch reaches the tensor with
// the batch first, observation by observation as the loop gathered them.
func TestObsLastAgainstLoop(t *testing.T) {
	x := mustArray(t, iota[float64](60), []int{5, 12}, obsdim.Last) // 12 observations of 5
	l := eachobs.NewLoader(x, 4, eachobs.Shuffle(9))
	var want [][]float64
	for b := range l.Epoch(0) {
		obs := make([]float64, 0, 20)
		for j := range 4 {
			for f := range 5 {
				obs = append(obs, b.Data.At(f, j))
			}
		}
		want = append(want, obs)
	}
	ds, err := gomlx.New(backend(), "t", l.Iter(), func(w *gomlx.Writer, b *arraycontainer.Array[float64]) { gomlx.Array(w.Input(), b) })
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var got [][]float64
	for b, err := range ds.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		if s := b.Inputs[0].Shape().String(); s != "(Float64)[4, 5]" {
			t.Fatalf("tensor shape %s, want (Float64)[4, 5]", s)
		}
		got = append(got, tensors.MustCopyFlatData[float64](b.Inputs[0]))
		free(t, b)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("observation-last batches mismatch (-loop +tensors):\n%s", diff)
	}
}

// TestMaskAndPadding: with the Pad tail the last batch is full-size and the
// mask marks its real observations; a provider's constant padding likewise.
func TestMaskAndPadding(t *testing.T) {
	x := mustArray(t, iota[float32](10), []int{5, 2}, obsdim.First)
	y := container.Slice[int]{0, 1, 2, 3, 4}
	data, err := tuples.Zip2(x, y)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := gomlx.Labeled(backend(), "t", eachobs.NewLoader(data, 4, eachobs.Tail(index.Pad)).Iter(), gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var got [][]tensorView
	for b, err := range ds.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		if b.Spec != gomlx.MaskSpec {
			t.Errorf("spec %v, want %q", b.Spec, gomlx.MaskSpec)
		}
		got = append(got, views(t, b.Labels))
		free(t, b)
	}
	want := [][]tensorView{
		{{"(Int64)[4, 1]", [][]int64{{0}, {1}, {2}, {3}}}, {"(Bool)[4]", []bool{true, true, true, true}}},
		{{"(Int64)[4, 1]", [][]int64{{4}, {0}, {1}, {2}}}, {"(Bool)[4]", []bool{true, false, false, false}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("padded labels and mask mismatch (-want +got):\n%s", diff)
	}

	// A provider: two data sources, a label source, padded with -1.
	x2 := mustArray(t, iota[float32](5), []int{5}, obsdim.First)
	ys := mustArray(t, []int32{10, 11, 12, 13, 14}, []int{5}, obsdim.First)
	dataG, err := tuples.NewNamed([]string{"x", "x2"}, []arraycontainer.Batched[float32]{x, x2}...)
	if err != nil {
		t.Fatal(err)
	}
	labelG, err := tuples.NewNamed([]string{"y"}, ys)
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.New(dataG, labelG, 3, provider.PadWith(-1))
	if err != nil {
		t.Fatal(err)
	}
	pds, err := gomlx.Provided(backend(), "p", p, gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	defer pds.Close()
	var all [][]tensorView
	for b, err := range pds.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, append(views(t, b.Inputs), views(t, b.Labels)...))
		free(t, b)
	}
	wantP := [][]tensorView{{
		{"(Float32)[3, 2]", [][]float32{{0, 1}, {2, 3}, {4, 5}}},
		{"(Float32)[3, 1]", [][]float32{{0}, {1}, {2}}},
		{"(Int32)[3, 1]", [][]int32{{10}, {11}, {12}}},
		{"(Bool)[3]", []bool{true, true, true}},
	}, {
		{"(Float32)[3, 2]", [][]float32{{6, 7}, {8, 9}, {-1, -1}}},
		{"(Float32)[3, 1]", [][]float32{{3}, {4}, {-1}}},
		{"(Int32)[3, 1]", [][]int32{{13}, {14}, {-1}}},
		{"(Bool)[3]", []bool{true, true, false}},
	}}
	if diff := cmp.Diff(wantP, all); diff != "" {
		t.Errorf("provider batches mismatch (-want +got):\n%s", diff)
	}
}

// TestDistributed: a distributed dataset yields each tensor as one shard of the
// batch per device, sharded on the batch axis, whose merge is the batch; its
// Iter yields the merged batches. The pure-Go backend has one device: the
// split is checked here on the shards themselves.
func TestDistributed(t *testing.T) {
	data := digits(t)
	l := eachobs.NewLoader(data, 100, eachobs.Shuffle(2), eachobs.Tail(index.Drop))
	want := loopSteps(t, l, l.Iter().Pos(), 1, readLabeled)
	ds, err := gomlx.Labeled(backend(), "digits", l.Iter(), gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	dd, err := gomlx.Distributed(ds, distributed.AutoSharding, 0, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer dd.Close()
	if got := dd.DeviceAssignment(); !cmp.Equal(got, []compute.DeviceNum{0, 1, 2, 3}) {
		t.Errorf("DeviceAssignment() = %v", got)
	}
	k := 0
	for b, err := range dd.DistributedIter() {
		if err != nil {
			t.Fatal(err)
		}
		in, lab := b.Inputs, b.Labels
		if len(in) != 1 || len(lab) != 2 {
			t.Fatalf("batch %d: %d inputs and %d labels, want 1 and 2", k, len(in), len(lab))
		}
		if s := in[0].ShardShape().String(); s != "(Float32)[25, 64]" {
			t.Errorf("batch %d: input shard shape %s, want (Float32)[25, 64]", k, s)
		}
		if s := fmt.Sprint(in[0].ShardingSpec()); s != fmt.Sprint(lab[0].ShardingSpec()) {
			t.Errorf("batch %d: inputs sharded as %s, labels as %s", k, s, lab[0].ShardingSpec())
		}
		// Shard j holds observations [25j, 25j+25) of the batch.
		for j, shard := range in[0].Shards() {
			got := tensors.MustCopyFlatData[float32](shard)
			if !cmp.Equal(want[k].Inputs[0][j*25*64:(j+1)*25*64], got, fast) {
				t.Errorf("batch %d: shard %d is not slots %d..%d of the batch", k, j, 25*j, 25*j+24)
			}
		}
		x, err := in[0].Merge()
		if err != nil {
			t.Fatal(err)
		}
		y, err := lab[0].Merge()
		if err != nil {
			t.Fatal(err)
		}
		m, err := lab[1].Merge()
		if err != nil {
			t.Fatal(err)
		}
		got := readTensors(t, want[k].Pos, []*tensors.Tensor{x}, []*tensors.Tensor{y})
		if diff := cmp.Diff(want[k], got, fast); diff != "" {
			t.Errorf("batch %d: merged shards mismatch (-loop +dataset):\n%s", k, diff)
		}
		if v := tensors.MustCopyFlatData[bool](m); len(v) != 100 || !allTrue(v) {
			t.Errorf("batch %d: mask %v, want 100 true", k, v)
		}
		if err := b.Finalize(); err != nil {
			t.Fatal(err)
		}
		if k++; k == 3 {
			break
		}
	}
	// Iter merges the shards: the batches of the loop, from batch 3 on.
	for mb, err := range dd.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		got := readTensors(t, want[3].Pos, mb.Inputs, mb.Labels[:1])
		if diff := cmp.Diff(want[3], got, fast); diff != "" {
			t.Errorf("merged batch 3 mismatch (-loop +dataset):\n%s", diff)
		}
		free(t, mb)
		break
	}

	// 100 does not split over 3 devices.
	ds3, err := gomlx.Labeled(backend(), "digits", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	dd3, err := gomlx.Distributed(ds3, distributed.AutoSharding, 0, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer dd3.Close()
	for _, err := range dd3.DistributedIter() {
		if !errors.Is(err, gomlx.ErrShape) {
			t.Errorf("a batch of 100 over 3 devices: error %v, want ErrShape", err)
		}
		break
	}
}

func allTrue(v []bool) bool {
	for _, b := range v {
		if !b {
			return false
		}
	}
	return true
}

// TestDistributedPadded: a distributed dataset over an observation-last array
// whose last batch is padded (Tail(Pad)): each shard holds its slots of the
// batch, observation first, and the mask's shard marks as real exactly the
// slots of the shard below the batch's real count. 11 observations in batches
// of 6 over 3 devices: the second batch is 5 real and one padded slot, in the
// last shard. TestDistributed's batches have no padding and an
// observation-first array: a mask marking the padding as real after the first
// shard and shards of an observation-last array starting at the wrong element
// passed it.
func TestDistributedPadded(t *testing.T) {
	const n, size, devices = 11, 6, 3
	const q = size / devices
	// Observation i is the column (i, 100+i, 200+i), its label i.
	xs := make([]float32, 3*n)
	for r := range 3 {
		for i := range n {
			xs[r*n+i] = float32(100*r + i)
		}
	}
	x := mustArray(t, xs, []int{3, n}, obsdim.Last)
	data, err := tuples.Zip2(x, container.Slice[int](iota[int](n)))
	if err != nil {
		t.Fatal(err)
	}
	l := eachobs.NewLoader(data, size, eachobs.Tail(index.Pad))
	type batch struct {
		x    [][]float32 // the shards, observation first
		y    [][]int64
		mask [][]bool
	}
	// The reference: the loop's batches cut into shards by hand.
	var want []batch
	it := l.Iter()
	defer it.Close()
	for b := range it.All() {
		if b.Pos.Epoch > 0 {
			break
		}
		var w batch
		for j := range devices {
			var xj []float32
			var yj []int64
			var mj []bool
			for s := j * q; s < (j+1)*q; s++ {
				xj = append(xj, b.Data.X.GetObs(s).Data()...)
				yj = append(yj, int64(b.Data.Y[s]))
				mj = append(mj, s < b.Real)
			}
			w.x, w.y, w.mask = append(w.x, xj), append(w.y, yj), append(w.mask, mj)
		}
		want = append(want, w)
	}
	if len(want) != 2 || want[1].mask[2][1] || !want[1].mask[2][0] {
		t.Fatalf("the loop's batches: %+v, want 2, the last one padded in its last slot", want)
	}
	ds, err := gomlx.Labeled(backend(), "columns", l.Iter(), gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	dd, err := gomlx.Distributed(ds, distributed.AutoSharding, 0, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer dd.Close()
	var got []batch
	for b, err := range dd.DistributedIter() {
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Inputs) != 1 || len(b.Labels) != 2 {
			t.Fatalf("batch %d: %d inputs and %d labels, want 1 and 2", len(got), len(b.Inputs), len(b.Labels))
		}
		var g batch
		for j := range devices {
			g.x = append(g.x, tensors.MustCopyFlatData[float32](b.Inputs[0].Shards()[j]))
			g.y = append(g.y, tensors.MustCopyFlatData[int64](b.Labels[0].Shards()[j]))
			g.mask = append(g.mask, tensors.MustCopyFlatData[bool](b.Labels[1].Shards()[j]))
		}
		if s := b.Inputs[0].ShardShape().String(); s != "(Float32)[2, 3]" {
			t.Errorf("batch %d: input shard shape %s, want (Float32)[2, 3]", len(got), s)
		}
		got = append(got, g)
		if err := b.Finalize(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(batch{})); diff != "" {
		t.Errorf("shards mismatch (-loop +dataset):\n%s", diff)
	}
}
