package gomlx_test

import (
	"io"
	"testing"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
)

// TestYieldAllocs pins the steady state of a dataset at zero allocations per
// batch: the loop reuses its buffer, the writer its tensors, and the epoch
// boundary (io.EOF, Reset) allocates nothing either.
func TestYieldAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data := digits(t)
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(1)}} {
		l := eachobs.NewLoader(data, 100, append(opts, eachobs.Shuffle(1), eachobs.Tail(index.Drop))...)
		ds, err := gomlx.Labeled("digits", l.Iter())
		if err != nil {
			t.Fatal(err)
		}
		yield := func() {
			if _, _, _, err := ds.Yield(); err == io.EOF {
				ds.Reset()
			} else if err != nil {
				t.Fatal(err)
			}
		}
		for range 40 { // past the first epoch: the loop's buffers are made
			yield()
		}
		if n := testing.AllocsPerRun(100, yield); n != 0 {
			t.Errorf("%d options: %.2f allocations per Yield, want 0", len(opts), n)
		}
		ds.Close()
	}
}
