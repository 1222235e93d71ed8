package gomlx_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/tensors"
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
		if b.Pos.Epoch == end {
			break
		}
		s := read(b.Data)
		s.Pos = b.Pos
		out = append(out, s)
	}
	return out
}

// yieldSteps runs ds as GoMLX's train.Loop.RunEpochs does, reading each batch
// back from its tensors, until epoch end (exclusive), and returns what it read.
func yieldSteps[B any](t *testing.T, ds *gomlx.Dataset[B], end int) []step {
	t.Helper()
	var out []step
	for ds.Epoch() < end {
		pos := ds.Position()
		_, in, lab, err := ds.Yield()
		if err == io.EOF {
			ds.Reset()
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readTensors(t, pos, in, lab))
	}
	return out
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
// epoch after epoch (reshuffled on Reset), and a dataset resumed from a
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
		ds, err := gomlx.Labeled("digits", l.Iter())
		if err != nil {
			t.Fatal(err)
		}
		got := yieldSteps(t, ds, epochs)
		ds.Close()
		if diff := cmp.Diff(want, got, fast); diff != "" {
			t.Errorf("%d options: Yield's batches mismatch (-loop +dataset):\n%s", len(opts), diff)
		}

		// Interrupted in epoch 1 after batch 5, resumed by another dataset
		// over another loader.
		ds, err = gomlx.Labeled("digits", l.Iter())
		if err != nil {
			t.Fatal(err)
		}
		first := yieldSteps(t, ds, 1)
		for range 6 {
			if _, _, _, err := ds.Yield(); err != nil {
				t.Fatal(err)
			}
		}
		pos := ds.Position()
		ds.Close()
		if pos.Epoch != 1 || pos.Batch != 6 || pos.Seed != 7 {
			t.Fatalf("Position() = %+v, want epoch 1 batch 6 of seed 7", pos)
		}
		other := eachobs.NewLoader(data, 100, eachobs.Shuffle(7), eachobs.Tail(index.Drop), eachobs.Workers(3))
		resumed, err := gomlx.Labeled("digits", other.Iter())
		if err != nil {
			t.Fatal(err)
		}
		if err := resumed.Resume(pos); err != nil {
			t.Fatal(err)
		}
		resumed.Reset() // GoMLX's evaluation resets first: no batch is skipped
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
	ds, err := gomlx.New("augmented", l.Iter(), fill)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, _, err := ds.Yield(); err != nil {
			t.Fatal(err)
		}
	}
	pos := ds.Position()
	ds.Close()
	ds, err = gomlx.New("augmented", eachobs.NewLoader(data, 256, eachobs.Shuffle(3), eachobs.Tail(index.Drop)).Iter(), fill)
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

// TestResetAndEOF: io.EOF ends each epoch until Reset; Reset before any Yield
// (as Trainer.Eval does) skips nothing, Reset in the middle of an epoch skips
// to the next; Endless runs on without io.EOF.
func TestResetAndEOF(t *testing.T) {
	defer goleak.VerifyNone(t)
	data := digits(t)
	l := eachobs.NewLoader(data, 500, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
	ds, err := gomlx.Labeled("digits", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var got []string
	yield := func() {
		p := ds.Position()
		if _, _, _, err := ds.Yield(); err == io.EOF {
			got = append(got, "EOF")
		} else if err != nil {
			t.Fatal(err)
		} else {
			got = append(got, posString(p))
		}
	}
	ds.Reset()
	yield()
	yield()
	yield()
	yield()
	yield() // EOF again until Reset
	ds.Reset()
	yield()
	ds.Reset() // mid-epoch: epoch 1's last batch is skipped
	yield()
	want := []string{"0/0", "0/1", "0/2", "EOF", "EOF", "1/0", "2/0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Yield sequence mismatch (-want +got):\n%s", diff)
	}

	endless, err := gomlx.Labeled("digits", l.Iter(), gomlx.Endless())
	if err != nil {
		t.Fatal(err)
	}
	defer endless.Close()
	got = nil
	for range 6 {
		p := endless.Position()
		if _, _, _, err := endless.Yield(); err != nil {
			t.Fatal(err)
		}
		got = append(got, posString(p))
	}
	endless.Reset() // at an epoch's start: nothing skipped
	p := endless.Position()
	if _, _, _, err := endless.Yield(); err != nil {
		t.Fatal(err)
	}
	got = append(got, posString(p))
	want = []string{"0/0", "0/1", "0/2", "1/0", "1/1", "1/2", "2/0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Endless sequence mismatch (-want +got):\n%s", diff)
	}
	if endless.Epoch() != 2 {
		t.Errorf("Endless Epoch() = %d, want 2", endless.Epoch())
	}
}

func posString(p eachobs.Position) string {
	return string(rune('0'+p.Epoch)) + "/" + string(rune('0'+p.Batch))
}

// TestEmptyEpochs: with the RollOver tail and fewer observations than a batch,
// some epochs hold no batch: each answers io.EOF at once, and the batch that
// ends the next one waits for its epoch.
func TestEmptyEpochs(t *testing.T) {
	data := digits(t)
	small := subsetFirst(data, 5) // 5 observations, batches of 8: epochs 0, 2, 4 are empty
	l := eachobs.NewLoader(small, 8, eachobs.Tail(index.RollOver))
	ds, err := gomlx.Labeled("small", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var got []string
	for range 8 {
		p := ds.Position()
		_, _, _, err := ds.Yield()
		switch {
		case err == io.EOF:
			got = append(got, "EOF")
			ds.Reset()
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, posString(p))
		}
	}
	want := []string{"EOF", "1/0", "EOF", "EOF", "3/0", "EOF", "4/0", "EOF"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Yield sequence mismatch (-want +got):\n%s", diff)
	}
}

func subsetFirst(d arraycontainer.Labeled[float32, int], n int) arraycontainer.Labeled[float32, int] {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return subset.Of(d, idx)
}

// TestOwnership: by default every Yield rewrites the same tensors (GoMLX must
// not finalize them); with Owned each Yield gives new ones.
func TestOwnership(t *testing.T) {
	data := digits(t)
	l := eachobs.NewLoader(data, 100, eachobs.Tail(index.Drop))
	for _, owned := range []bool{false, true} {
		var opts []gomlx.Option
		if owned {
			opts = append(opts, gomlx.Owned())
		}
		ds, err := gomlx.Labeled("digits", l.Iter(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if ds.IsOwnershipTransferred() != owned {
			t.Errorf("Owned %v: IsOwnershipTransferred() = %v", owned, !owned)
		}
		_, in1, lab1, err := ds.Yield()
		if err != nil {
			t.Fatal(err)
		}
		first := tensors.MustCopyFlatData[float32](in1[0])
		_, in2, lab2, err := ds.Yield()
		if err != nil {
			t.Fatal(err)
		}
		if same := in1[0] == in2[0] && lab1[0] == lab2[0]; same == owned {
			t.Errorf("Owned %v: the second Yield's tensors are the first's: %v", owned, same)
		}
		if owned && !cmp.Equal(first, tensors.MustCopyFlatData[float32](in1[0])) {
			t.Errorf("Owned: the first batch's tensor changed after the second Yield")
		}
		ds.Close()
	}
}

// TestShapeErrors: a loop that would change the batch size is refused, and a
// fill function that changes a tensor's shape, or the number of tensors, gets
// an error from Yield that names the tensor.
func TestShapeErrors(t *testing.T) {
	data := digits(t)
	if _, err := gomlx.Labeled("digits", eachobs.NewLoader(data, 100).Iter()); !errors.Is(err, gomlx.ErrShape) {
		t.Errorf("Labeled over the Keep tail, 1797 in batches of 100: error %v, want ErrShape", err)
	}
	if _, err := gomlx.Labeled("digits", eachobs.NewLoader(subsetFirst(data, 1700), 100).Iter()); err != nil {
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
	for _, c := range cases {
		n = 0
		ds, err := gomlx.New("digits", l.Iter(), c.fill)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, err = ds.Yield()
		if c.want == nil { // an error from the first batch on
			if err == nil {
				t.Errorf("%s: the first Yield returned no error", c.name)
			}
			ds.Close()
			continue
		}
		if err != nil {
			t.Fatalf("%s: first Yield: %v", c.name, err)
		}
		n = 1
		_, _, _, err = ds.Yield()
		if !errors.Is(err, c.want) {
			t.Errorf("%s: second Yield: error %v, want %v", c.name, err, c.want)
		}
		if _, _, _, again := ds.Yield(); again != err {
			t.Errorf("%s: the Yield after an error returned %v, want the same error", c.name, again)
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
// goroutine) is Yield's error, wrapping the container's, until Reset, which
// goes on with the next epoch.
func TestReadError(t *testing.T) {
	defer goleak.VerifyNone(t)
	l := eachobs.NewLoader(broken{digits(t)}, 100, eachobs.Tail(index.Drop), eachobs.Prefetch(2))
	ds, err := gomlx.Labeled("broken", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	_, _, _, err = ds.Yield() // batch 0 holds observation 13
	var pe *container.PanicError
	if !errors.Is(err, errBroken) || !errors.As(err, &pe) {
		t.Fatalf("Yield of the broken batch: error %v, want one wrapping a *container.PanicError of errBroken", err)
	}
	if _, _, _, again := ds.Yield(); !errors.Is(again, errBroken) {
		t.Errorf("the Yield after the error: %v, want the error again", again)
	}
	ds.Reset()
	if p := ds.Position(); p.Epoch != 1 || p.Batch != 0 {
		t.Errorf("Position after Reset = %+v, want epoch 1 batch 0", p)
	}
	if _, _, _, err := ds.Yield(); !errors.Is(err, errBroken) {
		t.Errorf("epoch 1 starts with observation 13 again (no shuffle): error %v", err)
	}
}
