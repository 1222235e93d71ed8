package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/obskit/obskit/bench/internal/cref"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/hugemem"
)

// rowBatch is the size in bytes of the experiments' batches: 128 float32
// rows of 784.
const rowBatch = BatchSize * Width * 4

// kitRows is the row kernel's side: gather.Gather of the n-byte rows of src
// (from byte off) into dst (one buffer, or the buffers it rotates through),
// every batch of a pass.
func kitRows(name string, src []byte, off, n int, batches [][]int, amount int64, dsts ...[]byte) side {
	rows := (len(src) - off) / n
	shape, strides := []int{rows, n}, []int{n, 1}
	return timed(name, amount, func() {
		for k, idx := range batches {
			d := dsts[k%len(dsts)]
			gather.Gather(d[:len(idx)*n], src, shape, strides, off, 0, idx)
		}
	})
}

// cursorSide copies the rows with the C reference's cursor at distance dist,
// requesting head bytes of each row, around routine r.
func cursorSide(name string, src []byte, n int, batches [][]int, amount int64, dist, head int, r cref.Routine) side {
	dst := make([]byte, len(batches[0])*n)
	return timed(name, amount, func() {
		for _, idx := range batches {
			cref.Cursor(dst, src, n, n, idx, dist, head, r)
		}
	})
}

// BenchmarkKernel measures where a shuffled gather's time goes on the machine
// at hand, in each regime: rows copied from random places of a source of the
// regime's size (cache: a quarter of the last-level cache; dram: at least
// four times it) into batches of about 400 KB, a pass every batch of a permutation of
// the source's rows, the kernel (gather.Gather on bytes, the first side)
// alternating with its alternatives:
//
//   - rows/<bytes>, 64 B to 16 KiB: the copy routine by row size: "go", a
//     copy() (Go's memmove) per row; each routine of cref (C's memcpy, REP
//     MOVSB, 16-, 32- and 64-byte vector moves) with the kernel's prefetch
//     cursor (8 KiB ahead, the first gather.PrefetchHead bytes of each row)
//     ("<routine>") and without prefetch ("<routine>-0");
//   - distance/<bytes>: the prefetch distance, C's memcpy with the cursor at
//     none and 1 to 32 KiB;
//   - head/<bytes>, from DRAM: how much of each row the cursor requests, C's
//     cursor 8 KiB ahead around the kernel's routine for the row size (32-byte
//     moves below 2 KiB, REP MOVSB from), requesting none, the first 64, 128
//     or 256 bytes of each row, or all of it;
//   - dst: the destination of 3136-byte rows reused (the kernel), rotating
//     among 2 and 8 buffers (as a prefetching loop does), among buffers twice
//     the last-level cache ("cold": written from memory every time), and a
//     new one per batch ("fresh", as NumPy's X[idx] gets);
//   - harness: the kernel's loop in the suite's harness (a turn of cacheTurn
//     of passes) against the harnesses before: a turn of 8 passes ("turn8",
//     until issue 15's change) and its batches alternating with copy() and
//     two C loops, each into a buffer of its own, its batches alone timed
//     ("batchwise", before issue 15); between their turns another side
//     gathers from another source of the same size ("other", as a peer or
//     the relaid copy does in BenchmarkGather);
//   - place: the destination 4 and 32 bytes off a cache line, the source rows
//     4 bytes off ("src+4"), and the source in the Go heap's 4 KiB pages
//     instead of huge pages ("4k");
//   - last: the observation-last gather of the source as float32 stored
//     [784 rows], 32 batches of 128 picks a pass, the kernel (its column loop)
//     against C loops going row by row without prefetch ("none"), prefetching
//     each pick one and two rows ahead beside it ("next", "ahead2"),
//     prefetching all of the next row's picks before each row ("burst": the
//     kernel's way before issue 15), and pick by pick down the rows
//     ("pickwise": PyTorch's index_select(dim=1)).
func BenchmarkKernel(b *testing.B) {
	for _, r := range regimes {
		src := hugemem.Make[byte](r.rows(rowBatch/BatchSize) * rowBatch / BatchSize)
		for i := range src {
			src[i] = byte(i)
		}
		warm := r.name == "cache"
		for _, n := range []int{64, 256, 784, 3136, 6272, 16384} {
			b.Run(fmt.Sprintf("%s/rows/%d", r.name, n), func(b *testing.B) {
				bs := rowBatches(len(src), n)
				amount := int64(len(bs) * len(bs[0]) * n)
				sides := []side{kitRows("kit", src, 0, n, bs, amount, make([]byte, len(bs[0])*n)),
					timed("go", amount, func() {
						dst := make([]byte, len(bs[0])*n)
						for _, idx := range bs {
							for j, i := range idx {
								copy(dst[j*n:(j+1)*n], src[i*n:(i+1)*n])
							}
						}
					})}
				for _, rt := range cref.Routines {
					if rt.Available() {
						sides = append(sides, cursorSide(rt.String(), src, n, bs, amount, 8<<10, gather.PrefetchHead, rt),
							cursorSide(rt.String()+"-0", src, n, bs, amount, 0, 0, rt))
					}
				}
				paired(b, "MB/s", warm, sides...)
			})
		}
		for _, n := range []int{784, 3136} {
			b.Run(fmt.Sprintf("%s/distance/%d", r.name, n), func(b *testing.B) {
				if !cref.Available {
					b.Skip("the distances are the C cursor's: built without cgo")
				}
				bs := rowBatches(len(src), n)
				amount := int64(len(bs) * len(bs[0]) * n)
				sides := []side{kitRows("kit", src, 0, n, bs, amount, make([]byte, len(bs[0])*n))}
				for _, d := range []int{0, 1, 2, 4, 8, 16, 32} {
					sides = append(sides, cursorSide(fmt.Sprintf("%dKiB", d), src, n, bs, amount, d<<10, gather.PrefetchHead, cref.Memcpy))
				}
				paired(b, "MB/s", warm, sides...)
			})
		}
		for _, n := range []int{784, 3136} {
			if warm {
				break // the kernel prefetches nothing from an array the cache holds
			}
			b.Run(fmt.Sprintf("%s/head/%d", r.name, n), func(b *testing.B) {
				if !cref.Available {
					b.Skip("the heads are the C cursor's: built without cgo")
				}
				rt := cref.AVX2 // the kernel's routine for the row size
				if n >= 2<<10 {
					rt = cref.Movsb
				}
				if !rt.Available() {
					b.Skip("the CPU lacks the kernel's routine, " + rt.String())
				}
				bs := rowBatches(len(src), n)
				amount := int64(len(bs) * len(bs[0]) * n)
				paired(b, "MB/s", warm, kitRows("kit", src, 0, n, bs, amount, make([]byte, len(bs[0])*n)),
					cursorSide("none", src, n, bs, amount, 0, 0, rt),
					cursorSide("head64", src, n, bs, amount, 8<<10, 64, rt),
					cursorSide("head128", src, n, bs, amount, 8<<10, 128, rt),
					cursorSide("head256", src, n, bs, amount, 8<<10, 256, rt),
					cursorSide("all", src, n, bs, amount, 8<<10, n, rt))
			})
		}
		const n = Width * 4
		bs := rowBatches(len(src), n)
		amount := int64(len(bs) * rowBatch)
		buffers := func(k int) [][]byte {
			d := make([][]byte, k)
			for i := range d {
				d[i] = hugemem.Make[byte](rowBatch)
			}
			return d
		}
		b.Run(r.name+"/dst", func(b *testing.B) {
			paired(b, "MB/s", warm,
				kitRows("kit", src, 0, n, bs, amount, buffers(1)...),
				kitRows("rotate2", src, 0, n, bs, amount, buffers(2)...),
				kitRows("rotate8", src, 0, n, bs, amount, buffers(8)...),
				kitRows("cold", src, 0, n, bs, amount, buffers(2*llc()/rowBatch)...),
				timed("fresh", amount, func() {
					for _, idx := range bs {
						gather.Gather(make([]byte, rowBatch), src, []int{len(src) / n, n}, []int{n, 1}, 0, 0, idx)
					}
				}))
		})
		b.Run(r.name+"/harness", func(b *testing.B) {
			shape, strides := []int{len(src) / n, n}, []int{n, 1}
			dst, other := make([]byte, rowBatch), buffers(3)
			pos := 0
			batchwise := func() (t time.Duration) { // the kit's time only
				for k, idx := range bs {
					t0 := threadTime()
					gather.Gather(dst[:len(idx)*n], src, shape, strides, 0, 0, idx)
					t += threadTime() - t0
					copy(other[0], src[pos:pos+rowBatch])
					pos = (pos + rowBatch) % (len(src) - rowBatch)
					if cref.Available {
						cref.Rows(other[1], src, n, n, bs[(k+len(bs)/3)%len(bs)], 0)
						cref.Rows(other[2], src, n, n, bs[(k+2*len(bs)/3)%len(bs)], 2)
					}
				}
				return t
			}
			kit := kitRows("kit", src, 0, n, bs, amount, dst)
			rival := slices.Clone(src)
			paired(b, "MB/s", warm, kit, side{"turn8", amount, func(warm bool) time.Duration {
				best := time.Duration(1 << 62)
				for range map[bool]int{true: 8, false: 1}[warm] {
					best = min(best, kit.run(false))
				}
				return best
			}}, side{"batchwise", amount, func(warm bool) time.Duration {
				return turn(warm, batchwise)
			}}, kitRows("other", rival, 0, n, bs, amount, make([]byte, rowBatch)))
		})
		b.Run(r.name+"/place", func(b *testing.B) {
			small := make([]byte, len(src))
			copy(small, src)
			off := hugemem.Make[byte](rowBatch + 64)
			paired(b, "MB/s", warm,
				kitRows("kit", src, 0, n, bs, amount, off[:rowBatch]),
				kitRows("dst+4", src, 0, n, bs, amount, off[4:]),
				kitRows("dst+32", src, 0, n, bs, amount, off[32:]),
				kitRows("src+4", src, 4, n, rowBatches(len(src)-4, n), amount, off[:rowBatch]),
				kitRows("4k", small, 0, n, bs, amount, off[:rowBatch]))
		})
		b.Run(r.name+"/last", func(b *testing.B) {
			if !cref.Available {
				b.Skip("the alternatives are C loops: built without cgo")
			}
			rows := len(src) / 4 / Width
			el := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), rows*Width)
			bs := permBatches(rows)
			bs = bs[:min(lastPass, len(bs))]
			amount := int64(len(bs) * rowBatch)
			dst := make([]uint32, BatchSize*Width)
			sides := []side{timed("kit", amount, func() {
				for _, idx := range bs {
					gather.Gather(dst, el, []int{Width, rows}, []int{rows, 1}, 0, 1, idx)
				}
			})}
			for _, c := range []struct {
				name  string
				ahead int
				o     cref.ColumnOrder
			}{{"none", 0, cref.RowByRow}, {"next", 1, cref.RowByRow}, {"ahead2", 2, cref.RowByRow}, {"burst", 0, cref.RowBurst}, {"pickwise", 0, cref.PickByPick}} {
				sides = append(sides, timed(c.name, amount, func() {
					for _, idx := range bs {
						cref.Columns(dst, el, rows, idx, c.ahead, c.o)
					}
				}))
			}
			paired(b, "MB/s", warm, sides...)
		})
	}
}

// rowBatches cuts a seeded permutation of the n-byte rows of a source of size
// bytes into batches of about rowBatch bytes.
func rowBatches(size, n int) [][]int {
	return cutBatches(rand.New(rand.NewPCG(42, uint64(n))).Perm(size/n), max(1, rowBatch/n))
}
