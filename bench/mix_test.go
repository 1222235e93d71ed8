package bench

import (
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/subset"
)

// mixThree mixes the first 30000, the next 20000 and the last 10000
// observations of c 3:2:1, every observation once.
func mixThree[T, B any](c container.Batched[T, B]) (*mix.Mixed[T, B], error) {
	parts := []container.IndexView[T, B]{subset.Range(c, 0, 30000), subset.Range(c, 30000, 50000), subset.Range(c, 50000, c.Nobs())}
	return mix.Views(mix.AllExhausted, []float64{3, 2, 1}, 7, parts...)
}

// BenchmarkMixEpoch moves one shuffled epoch of a mix of three containers per
// operation (issue 17): the (X, y) data cut into three sources of 30000, 20000
// and 10000 observations, mixed 3:2:1 with mix.Views under mix.AllExhausted (so
// the mix holds the 60000 observations), through eachobs.Batches(mix, 128,
// eachobs.Shuffle(seed)); beside it the same loop over the one container of the
// same 60000 observations. x-one is the mix's throughput as a multiple of the
// one container's (issue 17 asks for at least 0.95).
func BenchmarkMixEpoch(b *testing.B) {
	d, _, _ := data(b, Obs)
	m, err := mixThree(d)
	if err != nil {
		b.Fatal(err)
	}
	if m.Nobs() != Obs {
		b.Fatalf("the mix holds %d observations, want %d", m.Nobs(), Obs)
	}
	const amount = Obs * (Width*4 + 8)
	paired(b, "MB/s", false,
		epochSide("mix", eachobs.Batches(m, BatchSize, eachobs.Shuffle(2)), amount),
		epochSide("one", eachobs.Batches(d, BatchSize, eachobs.Shuffle(2)), amount),
	)
}
