package subset_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
)

type array = arraycontainer.Array[float32]

func newArray(tb testing.TB, n, d int, dim obsdim.Dim) *array {
	tb.Helper()
	data := make([]float32, n*d)
	for i := range data {
		data[i] = float32(i)
	}
	shape := []int{n, d}
	if dim == obsdim.Last {
		shape = []int{d, n}
	}
	a, err := arraycontainer.New(data, shape, dim)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

func arrayConfig() containertest.Config[*array, *array] {
	return containertest.Config[*array, *array]{
		Obs: func(b *array, j int) *array { return b.GetObs(j) },
		Len: func(b *array) int { return b.Nobs() },
	}
}

// TestArrayViews checks views of arrays against the contract: a view's batch is an
// array batch gathered by the array's kernel.
func TestArrayViews(t *testing.T) {
	for _, n := range []int{0, 1, 40} {
		for _, dim := range []obsdim.Dim{obsdim.First, obsdim.Last} {
			a := newArray(t, n, 3, dim)
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			// Counts, not a fraction: 0.5 of no observations is an empty part.
			parts, err := subset.SplitCounts(a, rng, n/2)
			if err != nil {
				t.Fatal(err)
			}
			for name, v := range map[string]*subset.View[*array, *array]{
				"Of":      subset.Of(a, rng.Perm(n)),
				"Shuffle": subset.Shuffle(a, rng),
				"Range":   subset.Range(a, n/4, n),
				"Split":   parts[len(parts)-1],
			} {
				t.Run(name+"/"+dim.String()+"/"+strconv.Itoa(n), func(t *testing.T) {
					containertest.Run(t, v, arrayConfig())
				})
			}
		}
	}
}

// BenchmarkArrayView gathers batches of 128 observations of a 60000x784 float32
// array through a shuffled view and through a range view, beside the array's own
// GetObsInto on the same (pre-mapped) indices. The two run alternately in every
// iteration, so both see the same machine load, and the benchmark reports each
// one's time per batch and their ratio (view/array; 1 means no overhead).
func BenchmarkArrayView(b *testing.B) {
	const n, d, batch = 60_000, 784, 128
	a := newArray(b, n, d, obsdim.First)
	for _, bc := range []struct {
		name string
		view *subset.View[*array, *array]
	}{
		{"shuffled", subset.Shuffle(a, rand.New(rand.NewPCG(1, 2)))},
		{"range", subset.Range(a, 1000, 50_000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// Successive batches of the view's positions, so that each
			// iteration reads rows neither side has read lately; the two
			// sides gather the same rows and take turns going first.
			nb := bc.view.Nobs() / batch
			pos := make([]int, batch)
			var mapped []int
			var buf, vbuf *array
			var direct, viewed time.Duration
			b.SetBytes(2 * batch * d * 4)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				for i := range pos {
					pos[i] = k%nb*batch + i
				}
				mapped = bc.view.MapIndices(mapped, pos)
				array := func() { t := time.Now(); buf = a.GetObsInto(buf, mapped); direct += time.Since(t) }
				view := func() { t := time.Now(); vbuf = bc.view.GetObsInto(vbuf, pos); viewed += time.Since(t) }
				if k%2 == 0 {
					array()
					view()
				} else {
					view()
					array()
				}
				k++
			}
			b.ReportMetric(float64(direct.Nanoseconds())/float64(b.N), "array-ns/batch")
			b.ReportMetric(float64(viewed.Nanoseconds())/float64(b.N), "view-ns/batch")
			b.ReportMetric(float64(viewed)/float64(direct), "view/array")
		})
	}
}
