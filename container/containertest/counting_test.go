package containertest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container/containertest"
)

func TestCounting(t *testing.T) {
	c := containertest.NewCounting([]int{5, 6, 7})
	containertest.Run(t, c, containertest.SliceConfig[int]())
	c.Reset()
	if got := c.GetObsInto(nil, []int{2, 0}); !cmp.Equal(got, []int{7, 5}) {
		t.Errorf("GetObsInto = %v, want [7 5]", got)
	}
	c.GetObs(1)
	c.GetObs(1)
	if c.Batches() != 1 || c.Singles() != 2 || !cmp.Equal(c.Last(), []int{2, 0}) {
		t.Errorf("Batches %d Singles %d Last %v, want 1, 2, [2 0]", c.Batches(), c.Singles(), c.Last())
	}
	c.Reset()
	if c.Batches() != 0 || c.Singles() != 0 {
		t.Errorf("after Reset: Batches %d Singles %d, want 0 0", c.Batches(), c.Singles())
	}
}
