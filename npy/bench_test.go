package npy

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// sparseFile writes the header of a [rows, 1024] float32 array and extends the
// file to its full size without writing the data, so the file is sparse: it takes
// no disk space and its pages read as zeros.
func sparseFile(tb testing.TB, dir string, rows int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("sparse-%d.npy", rows))
	h := Header{Dtype: dtypeOf(fileio.Kind{Class: 'f', Size: 4}), Shape: []int{rows, 1024}}
	head := encodeHeader(h)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(head); err != nil {
		tb.Fatal(err)
	}
	if err := f.Truncate(int64(len(head)) + h.DataSize()); err != nil {
		tb.Fatal(err)
	}
	return path
}

// randomFile saves a [rows, cols] float32 array of random values (so that no page
// of it in memory is the kernel's shared zero page) and returns its path and the
// array.
func randomFile(b *testing.B, rows, cols int) (string, *arraycontainer.Array[float32]) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]float32, rows*cols)
	for i := range data {
		data[i] = rng.Float32()
	}
	a, err := arraycontainer.New(data, []int{rows, cols}, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "x.npy")
	if err := Save(path, a); err != nil {
		b.Fatal(err)
	}
	return path, a
}

// BenchmarkOpen measures Open followed by Close of sparse .npy files from 1 MiB
// to 64 GiB (larger than this machine's memory): the cost must not grow with the
// file size, since opening reads the header only and maps without reading.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	for _, size := range []struct {
		name string
		rows int // of 1024 float32 (4 KiB)
	}{{"1MiB", 1 << 8}, {"1GiB", 1 << 18}, {"16GiB", 1 << 22}, {"64GiB", 1 << 24}} {
		path := sparseFile(b, dir, size.rows)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := Open[float32](path, obsdim.First)
				if err != nil {
					b.Fatal(err)
				}
				if m.Nobs() != size.rows {
					b.Fatalf("Nobs = %d, want %d", m.Nobs(), size.rows)
				}
			}
		})
	}
}

// BenchmarkFirstEpoch measures one shuffled epoch (batches of 128) over a file
// just opened: the mapping starts empty, so every page is faulted in from the page
// cache during the epoch. The baseline is the same epoch over the array in memory.
func BenchmarkFirstEpoch(b *testing.B) {
	const rows, cols, batch = 60000, 784, 128
	path, a := randomFile(b, rows, cols)
	perm := rand.New(rand.NewPCG(5, 6)).Perm(rows)
	epoch := func(x *arraycontainer.Array[float32]) {
		var buf *arraycontainer.Array[float32]
		for lo := 0; lo < rows; lo += batch {
			buf = x.GetObsInto(buf, perm[lo:min(lo+batch, rows)])
		}
	}
	b.Run("memory", func(b *testing.B) {
		b.SetBytes(rows * cols * 4)
		for b.Loop() {
			epoch(a)
		}
	})
	b.Run("open+mapped", func(b *testing.B) {
		b.SetBytes(rows * cols * 4)
		for b.Loop() {
			m, err := Open[float32](path, obsdim.First)
			if err != nil {
				b.Fatal(err)
			}
			epoch(m)
		}
	})
}
