package arrowipc_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/arrowtest"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// BenchmarkEpoch is issue 18's Arrow target: a shuffled epoch of 60000x784
// float32 (a fixed_size_list column) and an int64 label in batches of 128, from
// a memory-mapped Arrow IPC file, beside the same epoch from memory-mapped
// .npy files, alternating in one run. Each iteration runs both epochs with the
// same order, in turn first (after one untimed epoch of each that faults the
// mappings in); arrow-ms and npy-ms are their times, and x-npy is npy time over
// Arrow time (the target: at least 0.95). The Arrow file is written in one
// record batch (batches=1: the array kernel) or in batches of 1000 rows
// (batches=60, as Hugging Face writes them: the chunk cursor).
func BenchmarkEpoch(b *testing.B) {
	const n, w, size = 60000, 784, 128
	cols := table(n, w)
	dir := b.TempDir()
	xa, _ := arraycontainer.New(cols[0].Float32, []int{n, w}, obsdim.First)
	ya, _ := arraycontainer.New(cols[1].Int64, []int{n}, obsdim.First)
	if err := npy.Save(filepath.Join(dir, "x.npy"), xa); err != nil {
		b.Fatal(err)
	}
	if err := npy.Save(filepath.Join(dir, "y.npy"), ya); err != nil {
		b.Fatal(err)
	}
	nx, err := npy.Open[float32](filepath.Join(dir, "x.npy"), obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	ny, err := npy.Open[int64](filepath.Join(dir, "y.npy"), obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	for _, batch := range []int{0, 1000} {
		name := "batches=1"
		if batch > 0 {
			name = "batches=60"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(dir, "t.arrow")
			if err := os.WriteFile(path, arrowtest.Write(cols, arrowtest.Options{Batch: batch, Codec: arrowtest.None}), 0o644); err != nil {
				b.Fatal(err)
			}
			f, err := arrowipc.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			ax, err := arrowipc.Numbers[float32](f, "x")
			if err != nil {
				b.Fatal(err)
			}
			ay, err := arrowipc.Numbers[int64](f, "y")
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var bx, nbx *arraycontainer.Array[float32]
			var by, nby *arraycontainer.Array[int64]
			npyEpoch := func(perm []int) time.Duration {
				t0 := time.Now()
				for lo := 0; lo < n; lo += size {
					idx := perm[lo:min(n, lo+size)]
					nbx = nx.GetObsInto(nbx, idx)
					nby = ny.GetObsInto(nby, idx)
				}
				return time.Since(t0)
			}
			arrowEpoch := func(perm []int) time.Duration {
				t0 := time.Now()
				for lo := 0; lo < n; lo += size {
					idx := perm[lo:min(n, lo+size)]
					bx = ax.GetObsInto(bx, idx)
					by = ay.GetObsInto(by, idx)
				}
				return time.Since(t0)
			}
			// One untimed epoch of each faults the mappings in.
			npyEpoch(rng.Perm(n))
			arrowEpoch(rng.Perm(n))
			var arrowT, npyT time.Duration
			b.SetBytes(int64(n * (w*4 + 8)))
			b.ReportAllocs()
			turn := 0
			for b.Loop() {
				perm := rng.Perm(n)
				if turn++; turn%2 == 0 {
					npyT += npyEpoch(perm)
					arrowT += arrowEpoch(perm)
				} else {
					arrowT += arrowEpoch(perm)
					npyT += npyEpoch(perm)
				}
			}
			k := float64(b.N)
			b.ReportMetric(float64(arrowT.Milliseconds())/k, "arrow-ms")
			b.ReportMetric(float64(npyT.Milliseconds())/k, "npy-ms")
			b.ReportMetric(npyT.Seconds()/arrowT.Seconds(), "x-npy")
		})
	}
}
