package bench

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/obskit/obskit/bench/internal/cref"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/hugemem"
)

// The row kernel's experiments: what a shuffled gather's time is made of on
// the machine at hand. Each copies shuffled rows of one size from a source of
// rowSource bytes (as large as the float32 array of BenchmarkGather, 188 MB,
// so that rows come from memory, not cache) into a reused batch of about
// rowBatch bytes, beside other ways of copying the same rows.
const (
	rowSource = Obs * Width * 4
	rowBatch  = BatchSize * Width * 4
)

// rowSources are the experiments' sources: one in huge pages (hugemem.Make, as
// the kit allocates its arrays) and one in the Go heap's ordinary pages.
var rowSources = sync.OnceValue(func() (s struct{ huge, small []byte }) {
	s.huge = hugemem.Make[byte](rowSource)
	s.small = make([]byte, rowSource)
	for i := range s.huge {
		s.huge[i] = byte(i)
		s.small[i] = byte(i)
	}
	return s
})

// rowBatches cuts a seeded permutation of the rows of size n of the source
// into batches of count rows.
func rowBatches(n, count int) [][]int {
	return cutBatches(rand.New(rand.NewPCG(42, uint64(n))).Perm(rowSource/n), count)
}

// rowSide copies batch k+phase of batches, rows of n bytes from src, into its
// own batch buffer with f.
func rowSide(name string, n int, batches [][]int, phase int, f func(dst []byte, idx []int)) side {
	dst := make([]byte, n*len(batches[0]))
	return side{name, int64(len(dst)), func(k int) { f(dst, batches[(k+phase)%len(batches)]) }}
}

// kernelSide is a rowSide that runs the row kernel with strategy s.
func kernelSide(name string, src []byte, n int, batches [][]int, phase int, s gather.Strategy) side {
	return rowSide(name, n, batches, phase, func(dst []byte, idx []int) { gather.Rows(dst, src, 0, n, n, idx, s) })
}

// BenchmarkKernel measures the row kernel against its alternatives; each
// sub-benchmark alternates its sides as the suite's benchmarks do, and reports
// every side's throughput and x-<side>, that side's time over the kit's (the
// kernel's own choice, always the first side).
//
//   - rows/<bytes>: the cost of a row against its size, 64 B to 64 KiB: the
//     kernel; "go", a copy() per row with no prefetch (the kernel before
//     prefetch); "noprefetch", the kernel's copy without its prefetch; and the C
//     reference: memcpy per row ("c-memcpy"), prefetching two rows ahead
//     ("c-prefetch"), and with the kernel's 8 KiB cursor ("c-kernel").
//   - distance/<bytes>: the prefetch distance, how many bytes of the batch are
//     in flight ahead of the copy: 8 KiB (the kernel's) against none, 1, 2, 4,
//     16 and 32 KiB, and "touch", plain loads of every line of the next row
//     before copying the current one (no prefetch instruction).
//   - copy/<rows>: the copy routine, for batches of 128, 1024 and 8192 rows of
//     3136 bytes (401 KB, in the per-core cache; 3.2 MB, in the last-level
//     cache; 25.7 MB, about the size of that cache): the kernel's choice
//     against 16-byte moves ("vector"), REP MOVSB ("movs"), and vector moves
//     with non-temporal stores, which bypass the caches ("stream").
//   - pages: the kernel and copy() from a source in 2 MiB huge pages (as the
//     kit allocates arrays) and from the Go heap's 4 KiB pages.
func BenchmarkKernel(b *testing.B) {
	src := rowSources()
	for _, n := range []int{64, 256, 784, 1024, 3136, 6272, 16384, 65536} {
		b.Run(fmt.Sprintf("rows/%d", n), func(b *testing.B) {
			bs := rowBatches(n, max(1, rowBatch/n))
			nb := len(bs)
			sides := []side{
				kernelSide("kit", src.huge, n, bs, 0, gather.Strategy{}),
				kernelSide("go", src.huge, n, bs, nb/6, gather.Strategy{Copy: gather.CopyGo}),
				kernelSide("noprefetch", src.huge, n, bs, 2*nb/6, gather.Strategy{Distance: -1}),
			}
			if cref.Available {
				sides = append(sides,
					rowSide(CMemcpy, n, bs, 3*nb/6, func(d []byte, idx []int) { cref.Rows(d, src.huge, n, n, idx, 0) }),
					rowSide(CPrefetch, n, bs, 4*nb/6, func(d []byte, idx []int) { cref.Rows(d, src.huge, n, n, idx, 2) }),
					rowSide(CKernel, n, bs, 5*nb/6, func(d []byte, idx []int) {
						cref.RowsDist(d, src.huge, n, n, idx, gather.PrefetchDistance)
					}),
				)
			}
			paired(b, sides...)
		})
	}
	for _, n := range []int{784, 3136} {
		b.Run(fmt.Sprintf("distance/%d", n), func(b *testing.B) {
			bs := rowBatches(n, rowBatch/n)
			nb := len(bs)
			dists := []struct {
				name string
				d    int
			}{{"none", -1}, {"1KiB", 1 << 10}, {"2KiB", 2 << 10}, {"4KiB", 4 << 10}, {"16KiB", 16 << 10}, {"32KiB", 32 << 10}}
			sides := []side{kernelSide("kit", src.huge, n, bs, 0, gather.Strategy{})}
			for i, d := range dists {
				sides = append(sides, kernelSide(d.name, src.huge, n, bs, (i+1)*nb/8, gather.Strategy{Distance: d.d}))
			}
			sides = append(sides, rowSide("touch", n, bs, 7*nb/8, func(dst []byte, idx []int) { touchCopy(dst, src.huge, n, idx) }))
			paired(b, sides...)
		})
	}
	for _, rows := range []int{128, 1024, 8192} {
		b.Run(fmt.Sprintf("copy/%d", rows), func(b *testing.B) {
			const n = Width * 4
			bs := rowBatches(n, rows)
			nb := len(bs)
			paired(b,
				kernelSide("kit", src.huge, n, bs, 0, gather.Strategy{}),
				kernelSide("vector", src.huge, n, bs, nb/4, gather.Strategy{Copy: gather.CopyVector}),
				kernelSide("movs", src.huge, n, bs, nb/2, gather.Strategy{Copy: gather.CopyMovs}),
				kernelSide("stream", src.huge, n, bs, 3*nb/4, gather.Strategy{Copy: gather.CopyStream}),
			)
		})
	}
	b.Run("pages", func(b *testing.B) {
		const n = Width * 4
		bs := rowBatches(n, BatchSize)
		nb := len(bs)
		cs := func(name string, src []byte) side {
			s := copySide(src, rowBatch)
			s.name = name
			return s
		}
		paired(b,
			kernelSide("kit", src.huge, n, bs, 0, gather.Strategy{}),
			kernelSide("kit-4k", src.small, n, bs, nb/2, gather.Strategy{}),
			cs("copy", src.huge),
			cs("copy-4k", src.small),
		)
	})
}

var touched byte

// touchCopy copies the rows of idx with copy(), after reading one byte of
// every line of the next row: software prefetch without a prefetch
// instruction, which Go has no way to emit.
func touchCopy(dst, src []byte, n int, idx []int) {
	var t byte
	for j, i := range idx {
		if j+1 < len(idx) {
			next := src[idx[j+1]*n : idx[j+1]*n+n]
			for o := 0; o < n; o += 64 {
				t += next[o]
			}
		}
		copy(dst[j*n:(j+1)*n], src[i*n:i*n+n])
	}
	touched += t
}
