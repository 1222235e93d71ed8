package batchview_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/batchview"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
)

// TestViewPassesRandomnessThrough: a batch of a random source draws each of its
// observations by its source index, padding slots included.
func TestViewPassesRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(10)
	v := batchview.New(d, 4, index.Pad)
	r := container.NewObsRand(7, 0)
	got := v.GetObsRandInto(nil, []int{2, 0}, r)
	want := [][]int{
		{d.Want(8, r), d.Want(9, r), d.Want(0, r), d.Want(1, r)},
		{d.Want(0, r), d.Want(1, r), d.Want(2, r), d.Want(3, r)},
	}
	if !cmp.Equal(got, want) {
		t.Errorf("GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if b := v.GetObsRand(2, r); !cmp.Equal(b, want[0]) {
		t.Errorf("GetObsRand(2) = %v, want %v", b, want[0])
	}
	if d.Calls() != 3 {
		t.Errorf("the source received randomness %d times, want 3", d.Calls())
	}
	containertest.Run(t, v, containertest.SliceConfig[[]int]())
}
