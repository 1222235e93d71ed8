package subset_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/subset"
)

// TestViewPassesRandomnessThrough: a view of a random container hands the
// randomness to its source, each observation drawn by its source index.
func TestViewPassesRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(50)
	v := subset.Of(d, []int{7, 3, 49, 3})
	r := container.NewObsRand(11, 4)
	want := []int{d.Want(49, r), d.Want(3, r), d.Want(7, r)}
	if got := v.GetObsRandInto(nil, []int{2, 1, 0}, r); !cmp.Equal(got, want) {
		t.Errorf("GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got := v.GetObsRand(3, r); got != d.Want(3, r) {
		t.Errorf("GetObsRand(3) = %d, want %d", got, d.Want(3, r))
	}
	if d.Calls() != 2 {
		t.Errorf("the source received randomness %d times, want 2", d.Calls())
	}
	containertest.Run(t, v, containertest.SliceConfig[int]())
	containertest.Run(t, subset.Range(d, 10, 40), containertest.SliceConfig[int]())
}
