package recordio

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// benchFile writes n records of size bytes of random data (ImageNet's JPEGs
// average about 110 KB) and returns the file's path and bytes, its index and
// the payloads' total size.
func benchFile(b *testing.B, n, size int) (string, []byte, Index, int64) {
	rng := rand.NewChaCha8([32]byte{16})
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var ix Index
	p := make([]byte, size)
	for k := range n {
		rng.Read(p)
		off, err := w.Write(p)
		if err != nil {
			b.Fatal(err)
		}
		ix = append(ix, Entry{Key: int64(k), Offset: off})
	}
	path := filepath.Join(b.TempDir(), "bench.rec")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, buf.Bytes(), ix, int64(n * size)
}

var benchSizes = []struct {
	name    string
	n, size int
}{{"110KB", 256, 110 << 10}, {"4KB", 4096, 4 << 10}}

// BenchmarkScan reads every record in file order, MB/s of payload, beside a
// plain read of the same bytes: the Reader over the file (page cache) beside
// reads of the whole file in 1 MiB calls, and a mapped File's
// GetObsInto beside copy() of each record's bytes from the mapping.
func BenchmarkScan(b *testing.B) {
	for _, s := range benchSizes {
		path, _, _, total := benchFile(b, s.n, s.size)
		b.Run(s.name+"/Reader", func(b *testing.B) {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				f.Seek(0, io.SeekStart)
				r := NewReader(f)
				for range s.n {
					if _, err := r.Next(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(s.name+"/read", func(b *testing.B) {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.SetBytes(total)
			b.ReportAllocs()
			buf := make([]byte, 1<<20)
			for b.Loop() {
				f.Seek(0, io.SeekStart)
				for {
					if _, err := f.Read(buf); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		all := iota(s.n)
		b.Run(s.name+"/File", func(b *testing.B) {
			f, err := Open(path, "")
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(total)
			b.ReportAllocs()
			var batch [][]byte
			for b.Loop() {
				for i := 0; i < s.n; i += 64 {
					batch = f.GetObsInto(batch, all[i:min(i+64, s.n)])
				}
			}
		})
		b.Run(s.name+"/copy", func(b *testing.B) {
			f, err := Open(path, "")
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(total)
			b.ReportAllocs()
			dst := make([][]byte, 64)
			for j := range dst {
				dst[j] = make([]byte, s.size)
			}
			for b.Loop() {
				for i := range s.n {
					off := f.Offset(i) + headerSize
					copy(dst[i%64], f.data[off:off+int64(s.size)])
				}
			}
		})
	}
}

// BenchmarkRandom reads records in a random order by key, through the index,
// MB/s of payload: a mapped File (Find and AppendObs) beside copy() of the
// same byte ranges of the mapping, and a File reading an *os.File with ReadAt
// beside plain ReadAt calls of the same ranges.
func BenchmarkRandom(b *testing.B) {
	for _, s := range benchSizes {
		path, _, ix, total := benchFile(b, s.n, s.size)
		idxPath := filepath.Join(b.TempDir(), "bench.idx")
		fi, _ := os.Create(idxPath)
		ix.WriteTo(fi)
		fi.Close()
		keys := rand.New(rand.NewPCG(16, 6)).Perm(s.n)
		mapped, err := Open(path, idxPath)
		if err != nil {
			b.Fatal(err)
		}
		osf, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer osf.Close()
		st, _ := osf.Stat()
		viaReadAt, err := NewFile(osf, st.Size(), path, ix)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name string
			read func(dst []byte, key int) []byte
		}{
			{"mapped/File", func(dst []byte, key int) []byte {
				i, _ := mapped.Find(int64(key))
				dst, err := mapped.AppendObs(dst[:0], i)
				if err != nil {
					b.Fatal(err)
				}
				return dst
			}},
			{"mapped/copy", func(dst []byte, key int) []byte {
				off := ix[key].Offset + headerSize
				return append(dst[:0], mapped.data[off:off+int64(s.size)]...)
			}},
			{"ReadAt/File", func(dst []byte, key int) []byte {
				i, _ := viaReadAt.Find(int64(key))
				dst, err := viaReadAt.AppendObs(dst[:0], i)
				if err != nil {
					b.Fatal(err)
				}
				return dst
			}},
			{"ReadAt/read", func(dst []byte, key int) []byte {
				dst = dst[:s.size]
				if _, err := osf.ReadAt(dst, ix[key].Offset+headerSize); err != nil {
					b.Fatal(err)
				}
				return dst
			}},
		} {
			b.Run(fmt.Sprintf("%s/%s", s.name, side.name), func(b *testing.B) {
				b.SetBytes(total)
				b.ReportAllocs()
				dst := make([]byte, s.size)
				for b.Loop() {
					for _, k := range keys {
						dst = side.read(dst, k)
					}
				}
			})
		}
	}
}
