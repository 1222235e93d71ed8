package eachobs_test

import (
	"testing"

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
