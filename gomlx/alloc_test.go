package gomlx_test

import (
	"iter"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
)

// TestIterAllocs pins what a batch costs in allocations. GoMLX's trainer takes
// the ownership of every batch's tensors, so each batch has new ones; the
// steady state of a dataset allocates what GoMLX's own constructor
// (tensors.FromShapeForBackend) allocates for those tensors and nothing more:
// the loop reuses its buffer and the writer its slots, across epochs too.
func TestIterAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data := digits(t)
	// GoMLX's cost of the tensors of a batch: an input of [100 64] float32
	// and a label of [100 1] int64, made on the device, freed after the step.
	in, lab := shapes.Make(dtypes.Float32, 100, 64), shapes.Make(dtypes.Int64, 100, 1)
	gomlxCost := testing.AllocsPerRun(100, func() {
		for _, s := range []shapes.Shape{in, lab} {
			x, err := tensors.FromShapeForBackend(backend(), 0, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := x.FinalizeAll(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if gomlxCost == 0 {
		t.Fatal("GoMLX's tensors allocate nothing: the reference measures nothing")
	}
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(1)}} {
		l := eachobs.NewLoader(data, 100, append(opts, eachobs.Shuffle(1), eachobs.Tail(index.Drop))...)
		ds, err := gomlx.Labeled(backend(), "digits", l.Iter(), gomlx.Endless())
		if err != nil {
			t.Fatal(err)
		}
		next, stop := iter.Pull2(ds.Iter())
		step := func() {
			b, err, ok := next()
			if !ok || err != nil {
				t.Fatalf("no batch: %v", err)
			}
			if err := b.Finalize(); err != nil { // the trainer's
				t.Fatal(err)
			}
		}
		for range 40 { // past the first epochs: the loop's buffers are made
			step()
		}
		if got := testing.AllocsPerRun(100, step); got > gomlxCost {
			t.Errorf("%d options: %.2f allocations per batch, GoMLX's tensors alone %.2f: the adapter allocates %.2f", len(opts), got, gomlxCost, got-gomlxCost)
		}
		stop()
		ds.Close()
	}
}
