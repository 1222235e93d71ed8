package fileio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/obsdim"
)

type celsius float32

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		got, want Kind
		name      string
	}{
		{KindOf[float32](), Kind{'f', 4}, "float32"},
		{KindOf[float64](), Kind{'f', 8}, "float64"},
		{KindOf[celsius](), Kind{'f', 4}, "float32"},
		{KindOf[int8](), Kind{'i', 1}, "int8"},
		{KindOf[int64](), Kind{'i', 8}, "int64"},
		{KindOf[uint16](), Kind{'u', 2}, "uint16"},
		{KindOf[uintptr](), Kind{'u', 8}, "uint64"},
	} {
		if tc.got != tc.want || tc.got.String() != tc.name {
			t.Errorf("KindOf = %v (%s), want %v (%s)", tc.got, tc.got, tc.want, tc.name)
		}
	}
}

func TestViewAlignment(t *testing.T) {
	buf := make([]float64, 3)
	b := Bytes(buf)
	if v, ok := View[float64](b); !ok || &v[0] != &buf[0] || len(v) != 3 {
		t.Errorf("View of aligned bytes = %v, %v; want the same memory", v, ok)
	}
	if _, ok := View[float64](b[1:9]); ok {
		t.Error("View of misaligned bytes succeeded")
	}
	if _, ok := View[float64](b[:7]); ok {
		t.Error("View of 7 bytes as float64 succeeded")
	}
	if v, ok := View[int32](nil); !ok || v == nil || len(v) != 0 {
		t.Errorf("View(nil) = %v, %v; want an empty non-nil slice", v, ok)
	}
}

func TestSwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{1, 2, 4, 8} {
		b := make([]byte, 8*size)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		want := bytes.Clone(b)
		for i := 0; i < len(want); i += size {
			for l, r := i, i+size-1; l < r; l, r = l+1, r-1 {
				want[l], want[r] = want[r], want[l]
			}
		}
		Swap(b, size)
		if !bytes.Equal(b, want) {
			t.Errorf("Swap size %d = %x, want %x", size, b, want)
		}
	}
	be := binary.BigEndian.AppendUint32(nil, math.Float32bits(-1.5))
	Swap(be, 4)
	if got := math.Float32frombits(binary.LittleEndian.Uint32(be)); got != -1.5 {
		t.Errorf("swapped big-endian -1.5 reads %v", got)
	}
}

func TestReadElems(t *testing.T) {
	want := make([]uint16, untrustedChunk+5) // two chunks and a bit (2 bytes each)
	for i := range want {
		want[i] = uint16(i * 7)
	}
	raw := Bytes(want)
	for _, avail := range []int64{int64(len(raw)), Unknown, 100, 0} {
		got, n, err := ReadElems[uint16](iotest.HalfReader(bytes.NewReader(raw)), len(want), avail)
		if err != nil || n != len(want) || !slices.Equal(want, got) {
			t.Errorf("ReadElems(avail %d) = %d elements, %v; want all %d", avail, n, err, len(want))
		}
	}
	for _, avail := range []int64{Unknown, 11} {
		_, n, err := ReadElems[uint16](bytes.NewReader(raw[:11]), 1<<40, avail)
		if !errors.Is(err, io.ErrUnexpectedEOF) || n != 5 {
			t.Errorf("short ReadElems (avail %d) = %d, %v; want 5, ErrUnexpectedEOF", avail, n, err)
		}
	}
	_, _, err := ReadElems[uint16](bytes.NewReader(nil), 3, 6)
	if err != io.EOF {
		t.Errorf("ReadElems of an empty reader = %v, want io.EOF", err)
	}
	got, _, err := ReadElems[uint16](bytes.NewReader(nil), 0, Unknown)
	if err != nil || len(got) != 0 {
		t.Errorf("ReadElems of 0 elements = %v, %v", got, err)
	}
}

// TestReadElemsAllocates checks what ReadElems allocates: the full slice once when
// avail covers it, and otherwise at most 1 MiB (or avail) before the data shows
// more.
func TestReadElemsAllocates(t *testing.T) {
	raw := make([]byte, 3<<20)
	tests := []struct {
		name  string
		n     int
		data  int
		avail int64
		most  uint64 // bytes allocated, at most
	}{
		{"trusted", len(raw) / 8, len(raw), int64(len(raw)), 3<<20 + 2<<20}, // + hugemem's alignment
		{"claim of 8 TB, unknown size", 1 << 40, 1000, Unknown, 1 << 20},
		{"claim of 8 TB, 1000 bytes known", 1 << 40, 1000, 1000, 2 << 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			grew := filetest.Allocated(func() { ReadElems[float64](bytes.NewReader(raw[:tc.data]), tc.n, tc.avail) })
			if grew > tc.most+16<<10 {
				t.Errorf("ReadElems allocated %d KiB, want at most %d KiB", grew>>10, tc.most>>10)
			}
		})
	}
}

func TestExtent(t *testing.T) {
	const maxInt = math.MaxInt
	tests := []struct {
		shape  []int
		size   int
		offset int64
		want   int64
		ok     bool
	}{
		{[]int{7, 5}, 4, 128, 128 + 140, true},
		{nil, 8, 64, 72, true},
		{[]int{0, 3}, 2, 0, 6, true}, // zeros count as ones
		{[]int{1 << 60}, 8, 0, 0, false},
		{[]int{1<<60 - 1}, 8, 0, 1<<63 - 8, true},
		{[]int{1<<60 - 1}, 8, 128, 0, false}, // the data fits, header and data do not
		{[]int{maxInt, 2}, 1, 0, 0, false},
		{[]int{0, 1 << 32, 1 << 32}, 1, 0, 0, false},
		{[]int{-1}, 1, 0, 0, false},
		{[]int{3}, 1, maxInt - 3, maxInt, true},
		{[]int{3}, 1, maxInt - 2, 0, false},
	}
	for _, tc := range tests {
		got, ok := Extent(tc.shape, tc.size, tc.offset)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Extent(%v, %d, %d) = %d, %v; want %d, %v", tc.shape, tc.size, tc.offset, got, ok, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		shape []int
		size  int
		n     int
		bytes int64
	}{
		{[]int{7, 5}, 4, 35, 140},
		{nil, 8, 1, 8},
		{[]int{0, 1 << 62, 1 << 62}, 8, 0, 0},
		{[]int{1 << 62, 4}, 1, -1, -1},
		{[]int{1 << 61, 2}, 8, 1 << 62, -1},
		{[]int{-2, 0}, 1, -1, -1},
	} {
		if n, b := Len(tc.shape), DataSize(tc.shape, tc.size); n != tc.n || b != tc.bytes {
			t.Errorf("Len, DataSize(%v, %d) = %d, %d; want %d, %d", tc.shape, tc.size, n, b, tc.n, tc.bytes)
		}
	}
}

func TestRemaining(t *testing.T) {
	r := bytes.NewReader([]byte("0123456789"))
	r.Seek(3, io.SeekStart)
	if got := Remaining(r); got != 7 {
		t.Errorf("Remaining(bytes.Reader at 3 of 10) = %d, want 7", got)
	}
	if b, _ := io.ReadAll(r); string(b) != "3456789" {
		t.Errorf("Remaining moved the reader: %q left", b)
	}
	if got := Remaining(iotest.HalfReader(r)); got != Unknown {
		t.Errorf("Remaining(not a Seeker) = %d, want %d", got, Unknown)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if got := Remaining(pr); got != Unknown {
		t.Errorf("Remaining(pipe) = %d, want %d", got, Unknown)
	}
}

func TestMapElems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	b := binary.NativeEndian.AppendUint64(make([]byte, 8), math.Float64bits(2.5))
	if err := os.WriteFile(path, append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fm := Format{Pkg: "pkg", Malformed: errors.New("malformed")}
	live := mmap.Live()
	r, got, err := MapElems[float64](fm, f, 17, 8, 1)
	if err != nil || len(got) != 1 || got[0] != 2.5 {
		t.Fatalf("MapElems at byte 8 = %v, %v; want [2.5]", got, err)
	}
	r.Release()
	_, _, err = MapElems[float64](fm, f, 17, 9, 1)
	if mmap.Live() != live {
		t.Errorf("%d mappings left after MapElems failed, want %d", mmap.Live(), live)
	}
	want := "pkg: " + path + ": unsupported file: data at byte 9 is not aligned for float64 and cannot be memory-mapped; use Load"
	if !errors.Is(err, ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) || err.Error() != want {
		t.Errorf("MapElems at byte 9 = %v, want %q", err, want)
	}
}

// TestMapArray: the array built over the mapped elements holds the mapping; a
// build that fails releases it and its error comes back as it is; a mapping
// that fails calls no build.
func TestMapArray(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	b := binary.NativeEndian.AppendUint64(make([]byte, 8), math.Float64bits(2.5))
	if err := os.WriteFile(path, append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fm := Format{Pkg: "pkg", Malformed: errors.New("malformed")}
	build := func(data []float64) (*arraycontainer.Array[float64], error) {
		return arraycontainer.New(data, []int{1}, obsdim.First)
	}
	a, err := MapArray(fm, f, 17, 8, 1, build)
	if err != nil || a.At(0) != 2.5 || mmap.Of(a) == nil {
		t.Fatalf("MapArray at byte 8 = %v (mapping %v), %v; want [2.5] holding its mapping", a, mmap.Of(a), err)
	}
	defer runtime.KeepAlive(a) // its mapping counts in live below

	live := mmap.Live()
	refused := errors.New("refused")
	_, err = MapArray(fm, f, 17, 8, 1, func([]float64) (*arraycontainer.Array[float64], error) { return nil, refused })
	if err != refused || mmap.Live() != live {
		t.Errorf("MapArray with a failing build = %v with %d mappings, want %v with %d", err, mmap.Live(), refused, live)
	}
	called := false
	_, err = MapArray(fm, f, 17, 9, 1, func(data []float64) (*arraycontainer.Array[float64], error) { called = true; return build(data) })
	if !errors.Is(err, ErrUnsupported) || called || mmap.Live() != live {
		t.Errorf("MapArray of misaligned data = %v (build called: %v, %d mappings), want ErrUnsupported, no build, %d mappings", err, called, mmap.Live(), live)
	}
}

// TestByteOrderError: the refusal names the file and the data and wraps
// ErrUnsupported.
func TestByteOrderError(t *testing.T) {
	err := Format{Pkg: "npy"}.ByteOrderError("x.npy", ">f4")
	order := "little"
	if !LittleEndian {
		order = "big"
	}
	want := "npy: x.npy: unsupported file: >f4 data cannot be memory-mapped on this " + order + "-endian machine (a mapping is the file's bytes and cannot be converted in place); use Load, which converts"
	if !errors.Is(err, ErrUnsupported) || err.Error() != want {
		t.Errorf("ByteOrderError = %v, want %q", err, want)
	}
}

func TestName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "named")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := Name(f); got != path {
		t.Errorf("Name(*os.File) = %q, want %q", got, path)
	}
	if got := Name(bytes.NewReader(nil)); got != "stream" {
		t.Errorf("Name(*bytes.Reader) = %q, want \"stream\"", got)
	}
}

// TestOpenError: a file that cannot be opened keeps the *os.PathError's own
// words, which name the file, behind the package's prefix.
func TestOpenError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.npy")
	_, err := Format{Pkg: "npy"}.Open(path)
	want := "npy: open " + path + ": no such file or directory"
	if !errors.Is(err, fs.ErrNotExist) || err == nil || err.Error() != want {
		t.Errorf("Open of a missing file = %v, want %q wrapping fs.ErrNotExist", err, want)
	}
}

// TestIntLabels: integers of every sign and width become ints, and the first
// unsigned value beyond int's range is reported by its row.
func TestIntLabels(t *testing.T) {
	if got, bad := IntLabels([]int8{-128, 0, 127}); bad != -1 || !slices.Equal(got, []int{-128, 0, 127}) {
		t.Errorf("int8: %v, %d", got, bad)
	}
	if got, bad := IntLabels([]uint64{0, math.MaxInt, math.MaxInt + 1, 3}); bad != 2 || got != nil {
		t.Errorf("uint64 beyond int: %v, %d; want nil, 2", got, bad)
	}
	if got, bad := IntLabels([]uint32{math.MaxUint32}); bad != -1 || got[0] != math.MaxUint32 {
		t.Errorf("uint32: %v, %d", got, bad)
	}
}
