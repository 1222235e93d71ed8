package shard

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomIndex returns an index of n samples with members in order.
func randomIndex(rng *rand.Rand, n int, format Format, labels bool) *index {
	ix := &index{format: format, fields: []string{"jpg", "cls", "seg.png"}, mstart: []uint32{0}}
	if format == Npy {
		ix.fields = []string{"x.npy", "y.npy"}
	}
	nf := 1
	if format == Npy {
		nf = len(ix.fields)
	}
	ends := make([]int64, nf)
	for k := range nf {
		ix.files = append(ix.files, indexFile{name: fmt.Sprintf("f%d", k)})
	}
	if labels {
		ix.labels = []int64{}
	}
	for j := range n {
		ix.keys = append(ix.keys, fmt.Sprintf("k%d", j)...)
		ix.keyEnd = append(ix.keyEnd, uint32(len(ix.keys)))
		if labels {
			ix.labels = append(ix.labels, rng.Int64N(100)-50)
		}
		for f := range ix.fields {
			if rng.IntN(3) == 0 && f > 0 {
				continue
			}
			file := 0
			if format == Npy {
				file = f
			}
			m := member{off: ends[file] + rng.Int64N(1000), size: rng.Int64N(5000), crc: rng.Uint32(), field: uint16(f)}
			ends[file] = m.off + m.size
			ix.mem = append(ix.mem, m)
		}
		ix.mstart = append(ix.mstart, uint32(len(ix.mem)))
	}
	for k := range ix.files {
		ix.files[k].size = ends[k] + rng.Int64N(10)
		ix.files[k].sha256[0] = byte(k)
	}
	return ix
}

// TestIndexRoundTrip: an index decodes to itself, for each format, with and
// without labels, empty or not; every byte flipped or cut off is refused.
func TestIndexRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, format := range []Format{Tar, RecordIO, Npy} {
		for _, n := range []int{0, 1, 50} {
			for _, labels := range []bool{false, true} {
				ix := randomIndex(rng, n, format, labels)
				b := ix.encode()
				got, err := decodeIndex(b, "x.index")
				if err != nil {
					t.Fatalf("%s, %d samples: %v", format, n, err)
				}
				if got.n() != n || !reflect.DeepEqual(got.mem, ix.mem) && len(ix.mem) > 0 || !bytes.Equal(got.keys, ix.keys) || !reflect.DeepEqual(got.files, ix.files) || labels && !reflect.DeepEqual(got.labels, ix.labels) {
					t.Fatalf("%s, %d samples: decoded %+v, encoded %+v", format, n, got, ix)
				}
				if n != 50 {
					continue
				}
				for k := range b {
					bad := bytes.Clone(b)
					bad[k] ^= 0x10
					if _, err := decodeIndex(bad, "x.index"); !errors.Is(err, ErrIndex) {
						t.Fatalf("%s: byte %d flipped: %v", format, k, err)
					}
				}
				for _, cut := range []int{0, 5, len(b) / 2, len(b) - 1} {
					if _, err := decodeIndex(b[:cut], "x.index"); !errors.Is(err, ErrIndex) {
						t.Fatalf("%s: cut at %d: %v", format, cut, err)
					}
				}
			}
		}
	}
}

// FuzzIndex: any bytes decode without a panic, into an index whose slices
// agree, or an error wrapping ErrIndex; the checksum is recomputed over the
// fuzzed bytes so that the decoder behind it is reached. Nothing a count
// claims is allocated before the bytes that would hold it are seen.
func FuzzIndex(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, format := range []Format{Tar, RecordIO, Npy} {
		b := randomIndex(rng, 5, format, format == Tar).encode()
		f.Add(b[:len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		b := append(bytes.Clone(body), 0, 0, 0, 0)
		sum := crc32c(body)
		b[len(body)], b[len(body)+1], b[len(body)+2], b[len(body)+3] = byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24)
		ix, err := decodeIndex(b, "fuzz.index")
		if err != nil {
			if !errors.Is(err, ErrIndex) {
				t.Fatalf("error %v does not wrap ErrIndex", err)
			}
			return
		}
		if len(ix.mstart) != ix.n()+1 || int(ix.mstart[ix.n()]) != len(ix.mem) || ix.labels != nil && len(ix.labels) != ix.n() {
			t.Fatalf("inconsistent index %+v", ix)
		}
		if len(ix.mem)*7 > len(b) || ix.n()*2 > len(b) {
			t.Fatalf("%d members and %d samples from %d bytes", len(ix.mem), ix.n(), len(b))
		}
		for _, m := range ix.mem {
			if int(m.field) >= len(ix.fields) || m.off < 0 || m.size < 0 {
				t.Fatalf("member %+v of %d fields", m, len(ix.fields))
			}
		}
		if again, err := decodeIndex(ix.encode(), "again"); err != nil || again.n() != ix.n() {
			t.Fatalf("encode of a decoded index: %v", err)
		}
	})
}

func crc32c(b []byte) uint32 { return crcOf(b) }
