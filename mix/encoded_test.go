package mix_test

import (
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/subset"
)

// TestMixKeepsEncoded: a mix of views of an Encoded container, and a mix of
// Encoded containers (read through their join), read their sources' AppendObs.
func TestMixKeepsEncoded(t *testing.T) {
	b := containertest.NewBlobs(40)
	views, err := mix.Views(mix.AllExhausted, []float64{0.7, 0.3}, 1, subset.Range(b, 0, 28), subset.Range(b, 28, 40))
	if err != nil {
		t.Fatal(err)
	}
	at := func(m *mix.Mixed[[]byte, [][]byte]) func(k int) int {
		return func(k int) int { return m.MapIndices(nil, []int{k})[0] }
	}
	containertest.CheckPassesEncoded(t, views, b, at(views))
	containertest.Run(t, views, containertest.SliceConfig[[]byte]())

	// The sources of New are b's first 10 observations and b: observation i
	// of either source is b's observation i.
	joined, err := mix.New(mix.FirstExhausted, []float64{1, 1}, 2, container.Container[[]byte](subset.Range(b, 0, 10)), b)
	if err != nil {
		t.Fatal(err)
	}
	containertest.CheckPassesEncoded(t, joined, b, func(k int) int {
		_, i := joined.Locate(k)
		return i
	})
	containertest.Run(t, joined, containertest.SliceConfig[[]byte]())
}
