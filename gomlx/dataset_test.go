package gomlx_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// backend is the pure-Go backend every test shares, running a graph's ops one
// after another.
var backend = sync.OnceValue(func() compute.Backend {
	b, err := gobackend.New("ops_sequential")
	if err != nil {
		panic(err)
	}
	return b
})

// fast compares float slices as a whole: cmp's element-wise walk of a few
// hundred thousand pixels takes seconds under -race.
var fast = cmp.Comparer(func(a, b []float32) bool { return slices.Equal(a, b) })

// step is what one batch put into a step's tensors, read back from them.
type step struct {
	Pos    eachobs.Position
	Inputs [][]float32
	Labels [][]int64
}

// digits returns the embedded digits as labeled data: [1797 64] float32 pixels
// in [0, 1] and int labels.
func digits(t testing.TB) arraycontainer.Labeled[float32, int] {
	t.Helper()
	d := datasets.Digits()
	x, err := d.X().Reshape([]int{-1, 64}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	data, err := tuples.Zip2(convert.Scale(x, float32(1.0/16), 0), d.Y())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// loopSteps returns what the kit's loop gives from pos until epoch end
// (exclusive): the reference the datasets must reproduce.
func loopSteps[B any](t *testing.T, l *eachobs.Loader[B], pos eachobs.Position, end int, read func(B) step) []step {
	t.Helper()
	it := l.Iter()
	defer it.Close()
	state, err := pos.MarshalBinary()
	if err == nil {
		err = it.UnmarshalBinary(state)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []step
	for b := range it.All() {
		if b.Pos.Epoch >= end {
			break
		}
		s := read(b.Data)
		s.Pos = b.Pos
		out = append(out, s)
	}
	return out
}

// yieldSteps runs ds as GoMLX's train.Loop.RunEpochs does, one Iter per
// epoch, reading each batch back from its tensors (and freeing them, as the
// trainer does), until epoch end (exclusive), and returns what it read.
func yieldSteps[B any](t *testing.T, ds *gomlx.Dataset[B], end int) []step {
	t.Helper()
	var out []step
	for ds.Position().Epoch < end {
		pos := ds.Position()
		for b, err := range ds.Iter() {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, readTensors(t, pos, b.Inputs, b.Labels))
			free(t, b)
			pos = ds.Position()
		}
	}
	return out
}

// free finalizes the tensors of a batch, as GoMLX's trainer does after a step.
func free(t testing.TB, b train.Batch) {
	t.Helper()
	if err := b.Finalize(); err != nil {
		t.Fatal(err)
	}
}

// next returns the next batch of ds's Iter: the first of a new pass.
func next[B any](t testing.TB, ds *gomlx.Dataset[B]) train.Batch {
	t.Helper()
	for b, err := range ds.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Fatal("Iter yielded no batch")
	return train.Batch{}
}

func readTensors(t *testing.T, pos eachobs.Position, in, lab []*tensors.Tensor) step {
	t.Helper()
	s := step{Pos: pos}
	for _, x := range in {
		v, err := tensors.CopyFlatData[float32](x)
		if err != nil {
			t.Fatal(err)
		}
		s.Inputs = append(s.Inputs, v)
	}
	for _, y := range lab {
		v, err := tensors.CopyFlatData[int64](y)
		if err != nil {
			t.Fatal(err)
		}
		s.Labels = append(s.Labels, v)
	}
	return s
}

func readLabeled(b arraycontainer.LabeledBatch[float32, int]) step {
	y := make([]int64, len(b.Y))
	for i, v := range b.Y {
		y[i] = int64(v)
	}
	x := b.X.Clone()
	return step{Inputs: [][]float32{x.Data()}, Labels: [][]int64{y}}
}

// TestBatchesEqualLoop: the tensors of a Dataset hold the kit loop's batches,
// epoch after epoch (one Iter each, reshuffled), and a dataset resumed from a
// position saved in the middle of an epoch goes on with exactly the batches the
// uninterrupted run had, whatever the prefetching and workers of either run.
func TestBatchesEqualLoop(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := digits(t)
	const epochs = 3
	ref := eachobs.NewLoader(data, 100, eachobs.Shuffle(7), eachobs.Tail(index.Drop))
	want := loopSteps(t, ref, ref.Iter().Pos(), epochs, readLabeled)
	if len(want) != epochs*17 {
		t.Fatalf("reference: %d batches, want %d", len(want), epochs*17)
	}
	if cmp.Equal(want[0], want[17], fast) {
		t.Fatal("reference: epochs 0 and 1 start alike: not reshuffled")
	}
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(2)}, {eachobs.Workers(2), eachobs.Prefetch(1)}} {
		l := eachobs.NewLoader(data, 100, append(opts, eachobs.Shuffle(7), eachobs.Tail(index.Drop))...)
		ds, err := gomlx.Labeled(backend(), "digits", l.Iter())
		if err != nil {
			t.Fatal(err)
		}
		got := yieldSteps(t, ds, epochs)
		ds.Close()
		if diff := cmp.Diff(want, got, fast); diff != "" {
			t.Errorf("%d options: Iter's batches mismatch (-loop +dataset):\n%s", len(opts), diff)
		}

		// Interrupted in epoch 1 after batch 5 (a break, as RunSteps stops),
		// resumed by another dataset over another loader.
		ds, err = gomlx.Labeled(backend(), "digits", l.Iter())
		if err != nil {
			t.Fatal(err)
		}
		first := yieldSteps(t, ds, 1)
		n := 0
		for b, err := range ds.Iter() {
			if err != nil {
				t.Fatal(err)
			}
			free(t, b)
			if n++; n == 6 {
				break
			}
		}
		pos := ds.Position()
		ds.Close()
		if pos.Epoch != 1 || pos.Batch != 6 || pos.Seed != 7 {
			t.Fatalf("Position() = %+v, want epoch 1 batch 6 of seed 7", pos)
		}
		other := eachobs.NewLoader(data, 100, eachobs.Shuffle(7), eachobs.Tail(index.Drop), eachobs.Workers(3))
		resumed, err := gomlx.Labeled(backend(), "digits", other.Iter())
		if err != nil {
			t.Fatal(err)
		}
		if err := resumed.Resume(pos); err != nil {
			t.Fatal(err)
		}
		rest := yieldSteps(t, resumed, epochs)
		resumed.Close()
		if diff := cmp.Diff(want[:17], first, fast); diff != "" {
			t.Errorf("%d options: epoch 0 mismatch (-loop +dataset):\n%s", len(opts), diff)
		}
		if diff := cmp.Diff(want[17+6:], rest, fast); diff != "" {
			t.Errorf("%d options: resumed at %+v: mismatch (-loop +dataset):\n%s", len(opts), pos, diff)
		}
	}
}

// shift is a random augmentation: every image moved by -1, 0 or 1 pixel in
// each direction, drawn from the image's own generator, the border filled
// with zeros.
func shift(img *arraycontainer.Array[float32], rng *rand.Rand) *arraycontainer.Array[float32] {
	dx, dy := rng.IntN(3)-1, rng.IntN(3)-1
	out, err := arraycontainer.Zeros[float32]([]int{8, 8}, obsdim.First)
	if err != nil {
		panic(err)
	}
	px, src := out.Data(), img.Data()
	for y := range 8 {
		for x := range 8 {
			if sy, sx := y-dy, x-dx; sy >= 0 && sy < 8 && sx >= 0 && sx < 8 {
				px[8*y+x] = src[8*sy+sx]
			}
		}
	}
	return out
}

// TestAugmentedEqualLoop: with a random augmentation (transform.MapRand, whose
// batches are lists of arrays, written with Stack), a dataset's tensors hold
// the draws of the kit's loop, epoch after epoch and after a resume, with any
// number of workers.
func TestAugmentedEqualLoop(t *testing.T) {
	defer goleak.VerifyNone(t)
	d := datasets.Digits()
	x := convert.Scale(d.X(), float32(1.0/16), 0) // [1797 8 8]
	data, err := tuples.Zip2(transform.MapRand(x, shift), d.Y())
	if err != nil {
		t.Fatal(err)
	}
	read := func(b tuples.Pair[[]*arraycontainer.Array[float32], []int]) step {
		var px []float32
		for _, img := range b.X {
			px = append(px, img.Data()...)
		}
		y := make([]int64, len(b.Y))
		for i, v := range b.Y {
			y[i] = int64(v)
		}
		return step{Inputs: [][]float32{px}, Labels: [][]int64{y}}
	}
	fill := func(w *gomlx.Writer, b tuples.Pair[[]*arraycontainer.Array[float32], []int]) {
		gomlx.Stack(w.Input(), b.X)
		gomlx.Values(w.Label(), b.Y)
	}
	const epochs = 2
	ref := eachobs.NewLoader(data, 256, eachobs.Shuffle(3), eachobs.Tail(index.Drop))
	want := loopSteps(t, ref, ref.Iter().Pos(), epochs, read)
	unaugmented, err := tuples.Zip2(x, d.Y())
	if err != nil {
		t.Fatal(err)
	}
	plainLoader := eachobs.NewLoader(unaugmented, 256, eachobs.Shuffle(3), eachobs.Tail(index.Drop))
	plain := loopSteps(t, plainLoader, plainLoader.Iter().Pos(), 1, readLabeled)
	if cmp.Equal(want[0].Inputs, plain[0].Inputs, fast) {
		t.Fatal("the augmentation changed nothing")
	}

	l := eachobs.NewLoader(data, 256, eachobs.Shuffle(3), eachobs.Tail(index.Drop), eachobs.Workers(2), eachobs.Prefetch(2))
	ds, err := gomlx.New(backend(), "augmented", l.Iter(), fill)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		free(t, next(t, ds))
	}
	pos := ds.Position()
	ds.Close()
	ds, err = gomlx.New(backend(), "augmented", eachobs.NewLoader(data, 256, eachobs.Shuffle(3), eachobs.Tail(index.Drop)).Iter(), fill)
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Resume(pos); err != nil {
		t.Fatal(err)
	}
	got := yieldSteps(t, ds, epochs)
	ds.Close()
	if diff := cmp.Diff(want[3:], got, fast); diff != "" {
		t.Errorf("resumed at %+v: mismatch (-loop +dataset):\n%s", pos, diff)
	}
}

// passes returns the positions of the batches of n passes of ds's Iter, one
// line each, a pass broken after stop batches when stop > 0.
func passes[B any](t *testing.T, ds *gomlx.Dataset[B], n, stop int) []string {
	t.Helper()
	var out []string
	for range n {
		var line []string
		pos := ds.Position()
		for b, err := range ds.Iter() {
			if err != nil {
				t.Fatal(err)
			}
			free(t, b)
			line = append(line, posString(pos))
			pos = ds.Position()
			if len(line) == stop {
				break
			}
		}
		out = append(out, strings.Join(line, " "))
	}
	return out
}

// TestIterEpochs: each Iter is the rest of the epoch of the dataset's
// position, so that RunEpochs gets one epoch a call; after a break the next
// Iter continues, never goes back; Endless runs on through the epochs.
func TestIterEpochs(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := digits(t)
	l := eachobs.NewLoader(data, 500, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
	ds, err := gomlx.Labeled(backend(), "digits", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	got := passes(t, ds, 2, 0)
	got = append(got, passes(t, ds, 1, 2)...) // broken after 2 batches
	got = append(got, passes(t, ds, 2, 0)...)
	want := []string{"0/0 0/1 0/2", "1/0 1/1 1/2", "2/0 2/1", "2/2", "3/0 3/1 3/2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Iter passes mismatch (-want +got):\n%s", diff)
	}

	endless, err := gomlx.Labeled(backend(), "digits", l.Iter(), gomlx.Endless())
	if err != nil {
		t.Fatal(err)
	}
	defer endless.Close()
	got = passes(t, endless, 2, 4)
	want = []string{"0/0 0/1 0/2 1/0", "1/1 1/2 2/0 2/1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Endless passes mismatch (-want +got):\n%s", diff)
	}
}

func posString(p eachobs.Position) string {
	return string(rune('0'+p.Epoch)) + "/" + string(rune('0'+p.Batch))
}

// TestEmptyEpochs: with the RollOver tail and fewer observations than a batch,
// some epochs hold no batch: each Iter is the next epoch that has one.
func TestEmptyEpochs(t *testing.T) {
	data := digits(t)
	small := subsetFirst(data, 5) // 5 observations, batches of 8: epochs 0, 2, 5, 8 are empty
	l := eachobs.NewLoader(small, 8, eachobs.Tail(index.RollOver))
	ref := loopSteps(t, l, l.Iter().Pos(), 10, readLabeled)
	var at []string
	for _, s := range ref {
		at = append(at, posString(s.Pos))
	}
	if want := []string{"1/0", "3/0", "4/0", "6/0", "7/0", "9/0"}; !cmp.Equal(at, want) {
		t.Fatalf("reference: batches at %v, want %v", at, want)
	}
	ds, err := gomlx.Labeled(backend(), "small", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for k, want := range ref {
		var got []step
		for b, err := range ds.Iter() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, readTensors(t, want.Pos, b.Inputs, b.Labels))
			free(t, b)
		}
		if diff := cmp.Diff([]step{want}, got, fast); diff != "" {
			t.Errorf("pass %d mismatch (-loop +dataset):\n%s", k, diff)
		}
	}
}

func subsetFirst(d arraycontainer.Labeled[float32, int], n int) arraycontainer.Labeled[float32, int] {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return subset.Of(d, idx)
}

// TestOwnership: every batch has new tensors, on the backend's device (shared
// with the pure-Go backend: the graph reads them where the writer wrote), and
// the caller owns them: they keep their values after the next batch.
func TestOwnership(t *testing.T) {
	data := digits(t)
	l := eachobs.NewLoader(data, 100, eachobs.Tail(index.Drop))
	ds, err := gomlx.Labeled(backend(), "digits", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var kept []train.Batch
	var firsts [][]float32
	for b, err := range ds.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		if !b.Inputs[0].IsShared() || !b.Labels[0].IsShared() {
			t.Errorf("batch %d: tensors not on the device (shared buffers)", len(kept))
		}
		for _, k := range kept {
			if k.Inputs[0] == b.Inputs[0] || k.Labels[0] == b.Labels[0] {
				t.Fatalf("batch %d reuses the tensors of an earlier batch", len(kept))
			}
		}
		kept = append(kept, train.Batch{Inputs: slices.Clone(b.Inputs), Labels: slices.Clone(b.Labels)})
		firsts = append(firsts, tensors.MustCopyFlatData[float32](b.Inputs[0]))
		if len(kept) == 3 {
			break
		}
	}
	for k, b := range kept {
		if !cmp.Equal(firsts[k], tensors.MustCopyFlatData[float32](b.Inputs[0]), fast) {
			t.Errorf("batch %d's tensor changed after the next batches", k)
		}
		free(t, b)
	}
}

// TestShapeErrors: a loop that would change the batch size is refused, and a
// fill function that changes a tensor's shape, or the number of tensors, gets
// an error from Iter that names the tensor; the next Iter reads that batch
// again.
func TestShapeErrors(t *testing.T) {
	data := digits(t)
	if _, err := gomlx.Labeled(backend(), "digits", eachobs.NewLoader(data, 100).Iter()); !errors.Is(err, gomlx.ErrShape) {
		t.Errorf("Labeled over the Keep tail, 1797 in batches of 100: error %v, want ErrShape", err)
	}
	if _, err := gomlx.Labeled(backend(), "digits", eachobs.NewLoader(subsetFirst(data, 1700), 100).Iter()); err != nil {
		t.Errorf("Labeled over the Keep tail, 1700 in batches of 100: %v", err)
	}
	l := eachobs.NewLoader(data, 100, eachobs.Tail(index.Drop))
	n := 0
	cases := []struct {
		name string
		fill func(w *gomlx.Writer, b arraycontainer.LabeledBatch[float32, int])
		want error
	}{
		{"shape", func(w *gomlx.Writer, b arraycontainer.LabeledBatch[float32, int]) {
			gomlx.Array(w.Input(), b.X.ObsRange(0, 100-n)) // 100, then 99 observations
		}, gomlx.ErrShape},
		{"count", func(w *gomlx.Writer, b arraycontainer.LabeledBatch[float32, int]) {
			gomlx.Array(w.Input(), b.X)
			if n > 0 {
				gomlx.Values(w.Label(), b.Y)
			}
		}, gomlx.ErrShape},
		{"type", func(w *gomlx.Writer, b arraycontainer.LabeledBatch[float32, int]) {
			if n == 0 {
				gomlx.Values(w.Input(), b.Y)
			} else {
				gomlx.Values(w.Input(), b.X.Data()[:100])
			}
		}, gomlx.ErrShape},
		{"no input", func(w *gomlx.Writer, b arraycontainer.LabeledBatch[float32, int]) {
			if n > 0 {
				gomlx.Values(w.Label(), b.Y)
			}
		}, nil},
	}
	iterErr := func(ds *gomlx.Dataset[arraycontainer.LabeledBatch[float32, int]]) error {
		for b, err := range ds.Iter() {
			if err != nil {
				return err
			}
			free(t, b)
			return nil
		}
		return errors.New("no batch")
	}
	for _, c := range cases {
		n = 0
		ds, err := gomlx.New(backend(), "digits", l.Iter(), c.fill)
		if err != nil {
			t.Fatal(err)
		}
		err = iterErr(ds)
		if c.want == nil { // an error from the first batch on
			if err == nil {
				t.Errorf("%s: the first batch gave no error", c.name)
			}
			ds.Close()
			continue
		}
		if err != nil {
			t.Fatalf("%s: first batch: %v", c.name, err)
		}
		n = 1
		err = iterErr(ds)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "epoch 0 batch 1") {
			t.Errorf("%s: second batch: error %v, want %v at epoch 0 batch 1", c.name, err, c.want)
		}
		if p := ds.Position(); p.Batch != 1 {
			t.Errorf("%s: Position after the error: %+v, want batch 1, the failed one", c.name, p)
		}
		ds.Close()
	}
}

// errBroken is the sentinel of broken, a container whose observation 13 fails
// to read.
var errBroken = errors.New("broken record")

type broken struct {
	arraycontainer.Labeled[float32, int]
}

func (b broken) GetObsInto(dst arraycontainer.LabeledBatch[float32, int], idx []int) arraycontainer.LabeledBatch[float32, int] {
	for _, i := range idx {
		if i == 13 {
			panic(errBroken)
		}
	}
	return b.Labeled.GetObsInto(dst, idx)
}

// TestReadError: a read that fails in the loop (here in a prefetching
// goroutine) is Iter's error, wrapping the container's, and ends the pass; the
// next Iter reads the batch again (and fails again), and a resume past it goes
// on.
func TestReadError(t *testing.T) {
	defer goleak.VerifyNone(t)
	l := eachobs.NewLoader(broken{digits(t)}, 100, eachobs.Tail(index.Drop), eachobs.Prefetch(2))
	ds, err := gomlx.Labeled(backend(), "broken", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	errOf := func() error {
		for b, err := range ds.Iter() { // batch 0 holds observation 13
			if err != nil {
				return err
			}
			free(t, b)
		}
		return nil
	}
	err = errOf()
	var pe *container.PanicError
	if !errors.Is(err, errBroken) || !errors.As(err, &pe) {
		t.Fatalf("Iter over the broken batch: error %v, want one wrapping a *container.PanicError of errBroken", err)
	}
	if again := errOf(); !errors.Is(again, errBroken) {
		t.Errorf("the Iter after the error: %v, want the error again", again)
	}
	at := ds.Position()
	at.Epoch, at.Consumed, at.Batch = l.Steps().After(0, 0)
	if err := ds.Resume(at); err != nil {
		t.Fatal(err)
	}
	if b := next(t, ds); b.Inputs[0].Shape().Dimensions[0] != 100 {
		t.Errorf("the batch after the broken one: %s", b.Inputs[0].Shape())
	} else {
		free(t, b)
	}
}
