package eachobs_test

import (
	"math"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
)

// sized is a batch type that says its size with a Bytes method on a value
// (not a pointer): 8 bytes an observation.
type sized struct{ n int }

func (s sized) Bytes() int { return 8 * s.n }

// sizedData is a container of n observations gathered into sized batches.
type sizedData int

func (d sizedData) Nobs() int                           { return int(d) }
func (d sizedData) GetObs(i int) int                    { return i }
func (d sizedData) GetObsInto(_ sized, idx []int) sized { return sized{len(idx)} }

// TestMeasureBytesMethod checks that Measure counts a batch's bytes by its
// Bytes method when the batch type is a value (a struct) with one: 10
// observations in batches of 4, 80 bytes.
func TestMeasureBytesMethod(t *testing.T) {
	var st eachobs.Stats
	n := 0
	for range eachobs.Batches(sizedData(10), 4, eachobs.Measure(&st)) {
		n++
	}
	if n != 3 || st.Batches != 3 || st.Bytes != 80 {
		t.Errorf("%d batches; Stats: %d batches of %d bytes, want 3 of 80 bytes", n, st.Batches, st.Bytes)
	}
}

// span is a container of n observations that are their own indices, held
// in no memory.
type span int

func (s span) Nobs() int        { return int(s) }
func (s span) GetObs(i int) int { return i }

// TestObsPastLastEpoch checks that a range of Obs past the last epoch the
// schedule addresses panics with a *container.ArgError naming the pass: over
// MaxInt/2+1 observations only epoch 0 fits an int, so the second range
// (epoch 1) panics, after the first yields observation 0.
func TestObsPastLastEpoch(t *testing.T) {
	loop := eachobs.Obs(span(math.MaxInt/2 + 1))
	for i, x := range loop {
		if i != 0 || x != 0 {
			t.Fatalf("first observation %d, %d; want 0, 0", i, x)
		}
		break
	}
	defer func() {
		ae, ok := recover().(*container.ArgError)
		if !ok || ae.Op != "eachobs.Obs" || ae.Arg != "pass" {
			t.Errorf("second range: recovered %v, want a *container.ArgError of eachobs.Obs naming the pass", ae)
		}
	}()
	for range loop {
		break
	}
}

// TestShuffleBlocksOfOne checks that ShuffleBlocksOf takes blocks of one
// observation (a shuffle of single observations in windows): each epoch is
// a permutation, and a block of 0 panics with a *container.ArgError.
func TestShuffleBlocksOfOne(t *testing.T) {
	seen := map[int]bool{}
	for b := range eachobs.Batches(container.Slice[int]{0, 1, 2, 3, 4, 5, 6}, 7, eachobs.ShuffleBlocksOf(3, 1, 2)) {
		for _, v := range b.Data {
			seen[v] = true
		}
	}
	if len(seen) != 7 {
		t.Errorf("an epoch of blocks of one read %d of 7 observations", len(seen))
	}
	defer func() {
		if _, ok := recover().(*container.ArgError); !ok {
			t.Error("ShuffleBlocksOf with blocks of 0 did not panic with an ArgError")
		}
	}()
	eachobs.ShuffleBlocksOf(3, 0, 2)
}
