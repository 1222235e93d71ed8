package convert_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
)

// BenchmarkFused measures the loop path's conversion: shuffled batches of 128
// observations of 784 uint8 pixels (MNIST's 60000x784) gathered and converted to
// float32 scaled into [0, 1], by convert.Scale's one pass (kit) against the plain
// gather followed by a hand-written conversion loop (two-pass), in the same run,
// alternating batch by batch over the same shuffled index lists. x-two-pass is
// kit time / two-pass time: below 1, the fused pass is faster.
func BenchmarkFused(b *testing.B) {
	const n, width, size = 60000, 784, 128
	x, err := arraycontainer.Zeros[uint8]([]int{n, width}, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, d := 0, x.Data(); i < len(d); i++ {
		d[i] = uint8(rng.IntN(256))
	}
	perm := make([]int, n)
	index.PermInto(perm, rng)
	conv := convert.Scale(x, float32(1)/255, 0)
	var (
		fused, gathered *arraycontainer.Array[float32]
		raw             *arraycontainer.Array[uint8]
		kit, two        time.Duration
		batch           int
	)
	const scale = float32(1) / 255
	b.SetBytes(size * width) // source bytes per batch
	b.ReportAllocs()
	for b.Loop() {
		lo := batch * size % (n - size)
		idx := perm[lo : lo+size]
		batch++
		t0 := time.Now()
		fused = conv.GetObsInto(fused, idx)
		t1 := time.Now()
		raw = x.GetObsInto(raw, idx)
		gathered = arraycontainer.ResizeLike(gathered, raw)
		out := gathered.Data()
		for j, v := range raw.Data() {
			out[j] = float32(v)*scale + 0
		}
		t2 := time.Now()
		kit += t1.Sub(t0)
		two += t2.Sub(t1)
	}
	if fused.Data()[5] != gathered.Data()[5] {
		b.Fatal("the two paths disagree")
	}
	b.ReportMetric(float64(kit)/float64(two), "x-two-pass")
	b.ReportMetric(float64(kit.Nanoseconds())/float64(b.N), "kit-ns/batch")
	b.ReportMetric(float64(two.Nanoseconds())/float64(b.N), "two-pass-ns/batch")
}
