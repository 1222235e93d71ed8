package idx

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/obsdim"
)

const (
	images = "../datasets/data/digits-images-idx3-ubyte"
	labels = "../datasets/data/digits-labels-idx1-ubyte"
)

// file builds an IDX file: magic, big-endian dimensions, then data.
func file(typ byte, shape []uint32, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(shape))}
	for _, d := range shape {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

// gzTrunc compresses b and drops the last n bytes.
func gzTrunc(b []byte, n int) []byte {
	z := gz(b)
	return z[:len(z)-n]
}

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestDigits(t *testing.T) {
	h, err := Stat(images)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.String(); got != "0x00000803 uint8 [1797 8 8]" {
		t.Errorf("Stat(images) = %s", got)
	}
	x, err := Open[uint8](images, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Load[uint8](labels, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	if x.Nobs() != 1797 || y.Nobs() != 1797 {
		t.Fatalf("Nobs = %d images, %d labels; want 1797", x.Nobs(), y.Nobs())
	}
	counts := make([]int, 10)
	for _, l := range filetest.Float64s(y) {
		counts[int(l)]++
	}
	if d := cmp.Diff([]int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}, counts); d != "" {
		t.Errorf("class counts mismatch (-want +got):\n%s", d)
	}
	pixels := filetest.Float64s(x)
	for _, p := range pixels {
		if p > 16 {
			t.Fatalf("pixel value %v, want 0..16", p)
		}
	}
	if d := cmp.Diff([]float64{0, 0, 5, 13, 9, 1, 0, 0}, pixels[:8]); d != "" {
		t.Errorf("first row of the first image mismatch (-want +got):\n%s", d)
	}
	loaded, err := Load[uint8](images, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Equal(x) {
		t.Error("Load and Open of the images differ")
	}
	t.Run("Open", func(t *testing.T) { containertest.Run(t, x, filetest.ArrayConfig[uint8]()) })
	t.Run("Load", func(t *testing.T) { containertest.Run(t, y, filetest.ArrayConfig[uint8]()) })
}

func TestGzip(t *testing.T) {
	raw, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "labels.gz", gz(raw))
	want, _ := Load[uint8](labels, obsdim.First)
	got, err := Load[uint8](path, obsdim.First)
	if err != nil || !got.Equal(want) {
		t.Fatalf("Load(gzip) = %v, want the labels", err)
	}
	fromStream, err := Read[uint8](bytes.NewReader(gz(raw)), obsdim.First)
	if err != nil || !fromStream.Equal(want) {
		t.Fatalf("Read(gzip) = %v, want the labels", err)
	}
	if h, err := Stat(path); err != nil || !h.Gzip || h.Len() != 1797 {
		t.Errorf("Stat(gzip) = %v, %v; want gzip, 1797 elements", h, err)
	}
	if _, err := Open[uint8](path, obsdim.First); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "use Load") {
		t.Errorf("Open(gzip) error = %v, want ErrUnsupported pointing to Load", err)
	}
}

// TestElementTypes writes one file per IDX element type and reads it back.
func TestElementTypes(t *testing.T) {
	vals := []float64{-2, 0, 1, 100, -128, 127}
	shape := []uint32{3, 2}
	tests := []struct {
		typ  byte
		enc  func(float64) []byte
		read func(path string) (values []float64, mapped bool, err error)
		maps bool // Open maps it on a little-endian machine
	}{
		{Uint8, func(v float64) []byte { return []byte{byte(int8(v))} }, readAs[uint8], true},
		{Int8, func(v float64) []byte { return []byte{byte(int8(v))} }, readAs[int8], true},
		{Int16, func(v float64) []byte { return binary.BigEndian.AppendUint16(nil, uint16(int16(v))) }, readAs[int16], false},
		{Int32, func(v float64) []byte { return binary.BigEndian.AppendUint32(nil, uint32(int32(v))) }, readAs[int32], false},
		{Float32, func(v float64) []byte { return binary.BigEndian.AppendUint32(nil, math.Float32bits(float32(v))) }, readAs[float32], false},
		{Float64, func(v float64) []byte { return binary.BigEndian.AppendUint64(nil, math.Float64bits(v)) }, readAs[float64], false},
	}
	for _, tc := range tests {
		var data []byte
		for _, v := range vals {
			data = append(data, tc.enc(v)...)
		}
		path := writeTemp(t, "x", file(tc.typ, shape, data))
		h, err := Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(h.GoType(), func(t *testing.T) {
			got, mapped, err := tc.read(path)
			if err != nil {
				t.Fatal(err)
			}
			if fileio.LittleEndian && mapped != tc.maps {
				t.Errorf("Open mapped the file: %v, want %v", mapped, tc.maps)
			}
			want := vals
			if tc.typ == Uint8 {
				want = []float64{254, 0, 1, 100, 128, 127}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("values mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// readAs reads path with Load, Read and (when it can map) Open, checks that they
// agree, and returns the values and whether Open mapped the file.
func readAs[E arraycontainer.Number](path string) ([]float64, bool, error) {
	a, err := Load[E](path, obsdim.First)
	if err != nil {
		return nil, false, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := Read[E](f, obsdim.First)
	if err != nil {
		return nil, false, err
	}
	if !a.Equal(b) {
		return nil, false, errors.New("Load and Read differ")
	}
	m, err := Open[E](path, obsdim.First)
	switch {
	case errors.Is(err, ErrUnsupported) && filetest.Size[E]() > 1:
		// Big-endian multi-byte data cannot be mapped (TestErrors checks the message).
		return filetest.Float64s(a), false, nil
	case err != nil:
		return nil, false, err
	}
	if !m.Equal(a) {
		return nil, false, errors.New("Open and Load differ")
	}
	return filetest.Float64s(a), true, nil
}

func TestErrors(t *testing.T) {
	labelBytes, _ := os.ReadFile(labels)
	tests := []struct {
		name   string
		file   []byte
		read   func(string) error
		target error
		want   string
	}{
		{"not IDX", []byte("\x93NUMPY\x01\x00"), loadU8, ErrFormat, "does not start with two zero bytes"},
		{"unknown type", file(0x0A, []uint32{1}, []byte{0}), loadU8, ErrFormat, "element type 0x0a"},
		{"rank 0", file(Uint8, nil, []byte{0}), loadU8, ErrFormat, "rank 0"},
		{"short magic", []byte{0, 0}, loadU8, ErrFormat, "ends before the 4-byte magic"},
		{"short dims", file(Uint8, []uint32{3, 4}, nil)[:9], loadU8, ErrFormat, "2 dimensions need 12 header bytes, the file has 9"},
		{"truncated data", file(Uint8, []uint32{3, 4}, make([]byte, 11)), loadU8, ErrFormat, "truncated: file has 23 bytes"},
		{"trailing bytes", file(Uint8, []uint32{3}, make([]byte, 4)), loadU8, ErrFormat, "trailing bytes"},
		{"overflow", file(Float64, []uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}, nil), loadU8, ErrFormat, "shape [4294967295 4294967295 4294967295] of float64 is too large"},
		// 7*7*73*127*337*92737*649657 = 2^63-1: the data fits an int, a header and the data do not.
		{"too large with the header", file(Uint8, []uint32{7, 7, 73, 127, 337, 92737, 649657}, nil), loadU8, ErrFormat, "is too large: its data would take more than 9223372036854774783 bytes"},
		{"wrong type", file(Uint8, []uint32{1}, []byte{7}), func(p string) error { _, err := Load[float32](p, obsdim.First); return err }, ErrType, "file holds uint8, not float32"},
		{"wrong type mapped", file(Float32, []uint32{1}, make([]byte, 4)), openU8, ErrType, "file holds float32, not uint8"},
		{"map big-endian", file(Int16, []uint32{1}, make([]byte, 2)), func(p string) error { _, err := Open[int16](p, obsdim.First); return err }, ErrUnsupported, "big-endian int16"},
		{"bad axis", file(Uint8, []uint32{1}, []byte{7}), func(p string) error { _, err := Load[uint8](p, obsdim.Constant(1)); return err }, obsdim.ErrAxis, "axis 1"},
		{"gzip without its trailer", gzTrunc(labelBytes, 4), loadU8, ErrFormat, "gzip stream after the data: unexpected EOF"},
		{"gzip cut in the data", gzTrunc(labelBytes, 60), loadU8, ErrFormat, "truncated: "},
		{"gzip trailing", gz(append(bytes.Clone(labelBytes), 1)), loadU8, ErrFormat, "trailing bytes"},
		{"not gzip after magic", []byte{0x1f, 0x8b, 0, 0}, loadU8, ErrFormat, "gzip"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "bad-idx", tc.file)
			err := tc.read(path)
			if !errors.Is(err, tc.target) || !strings.Contains(strings.ReplaceAll(err.Error(), path, ""), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error = %v, want %v naming %s and containing %q", err, tc.target, path, tc.want)
			}
		})
	}
}

func loadU8(p string) error { _, err := Load[uint8](p, obsdim.First); return err }
func openU8(p string) error { _, err := Open[uint8](p, obsdim.First); return err }

// TestReadHugeClaim checks that a plain stream whose header claims far more data
// than it holds fails having allocated no more than it holds when it can be
// measured (seekable), and at most 1 MiB when it cannot.
func TestReadHugeClaim(t *testing.T) {
	b := file(Float64, []uint32{1 << 20, 1 << 20}, make([]byte, 100))
	for name, tc := range map[string]struct {
		r     func() io.Reader
		bound uint64
	}{
		"seekable":     {func() io.Reader { return bytes.NewReader(b) }, uint64(len(b)) + 64<<10},
		"not seekable": {func() io.Reader { return filetest.OnlyReader{R: bytes.NewReader(b)} }, 1<<20 + 64<<10},
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			grew := filetest.Allocated(func() { _, err = Read[float64](tc.r(), obsdim.First) })
			if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("Read error = %v, want ErrFormat and io.ErrUnexpectedEOF", err)
			}
			if grew > tc.bound {
				t.Errorf("Read of a stream claiming 8 TiB allocated %d KiB, want at most %d KiB", grew>>10, tc.bound>>10)
			}
		})
	}
}

// gzFile returns a gzip stream of an IDX uint8 file with the given shape, whose
// data is zeros bytes of zeros (gzip compresses them about 1000:1) followed by
// random bytes (which it cannot compress, to make the file as large as a real
// one holding the data would be). The stream is built on the fly: the test
// files never exist uncompressed.
func gzFile(t testing.TB, shape []uint32, zeros, random int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(file(Uint8, shape, nil))
	zero := make([]byte, 1<<20)
	for n := zeros; n > 0; n -= len(zero) {
		w.Write(zero[:min(n, len(zero))])
	}
	rng := rand.New(rand.NewPCG(7, 8))
	noise := make([]byte, random)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	w.Write(noise)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGzipBomb checks the decompressed size a gzip header claims before anything
// is allocated: against what a compressed file of that size can hold at all
// (deflate compresses at most 1032:1) and against Options.Limit. Data within both
// is read into one slice of the claimed size, never more.
func TestGzipBomb(t *testing.T) {
	const (
		KiB = 1 << 10
		MiB = 1 << 20
		GiB = 1 << 30
	)
	overLimit := gzFile(t, []uint32{2, 32768, 32768}, 0, 2*MiB+100*KiB) // claims 2 GiB, 2.1 MB of gzip
	overBound := gzFile(t, []uint32{2, 65536, 65536}, 16*MiB, 0)        // claims 8 GiB, holds 16 MiB in 16 KB
	real32 := gzFile(t, []uint32{32, 1024, 1024}, 32*MiB, 0)            // 32 MiB of data, all there
	lying := gzFile(t, []uint32{64, 1024, 1024}, 8*MiB, 100*KiB)        // claims 64 MiB, holds 8.1 MiB in 110 KB

	type source struct {
		name string
		read func(b []byte, opts Options) error
	}
	load := source{"LoadWith", func(b []byte, opts Options) error {
		path := writeTemp(t, "x.gz", b)
		_, err := LoadWith[uint8](path, obsdim.First, opts)
		return err
	}}
	seekable := source{"ReadWith seekable", func(b []byte, opts Options) error {
		_, err := ReadWith[uint8](bytes.NewReader(b), obsdim.First, opts)
		return err
	}}
	stream := source{"ReadWith stream", func(b []byte, opts Options) error {
		_, err := ReadWith[uint8](filetest.OnlyReader{R: bytes.NewReader(b)}, obsdim.First, opts)
		return err
	}}
	tests := []struct {
		name    string
		file    []byte
		opts    Options
		sources []source
		target  error
		want    string
		most    uint64 // bytes allocated, at most
	}{
		{"claim over the default limit", overLimit, Options{}, []source{load, seekable, stream}, ErrTooLarge,
			"header 0x00000803 uint8 [2 32768 32768] (gzip) claims 2147483648 bytes of data, over the limit of 1073741824 bytes (Options.Limit;", MiB},
		{"claim over a raised limit", real32, Options{Limit: 16 * MiB}, []source{load, seekable, stream}, ErrTooLarge,
			"claims 33554432 bytes of data, over the limit of 16777216 bytes", MiB},
		{"claim more than the file can hold", overBound, Options{Limit: 16 * GiB}, []source{load, seekable}, ErrFormat,
			"bytes of data, more than a 16", MiB},
		{"claim more than the stream holds, within the limit", lying, Options{}, []source{load, seekable, stream}, io.ErrUnexpectedEOF,
			"truncated: 8491008 of the 67108864 elements", 64*MiB + 3*MiB},
		{"real data", real32, Options{}, []source{load, seekable, stream}, nil, "", 32*MiB + 3*MiB},
	}
	for _, tc := range tests {
		for _, src := range tc.sources {
			t.Run(tc.name+"/"+src.name, func(t *testing.T) {
				var err error
				grew := filetest.Allocated(func() { err = src.read(tc.file, tc.opts) })
				switch {
				case tc.target == nil && err != nil:
					t.Fatal(err)
				case tc.target != nil && (!errors.Is(err, tc.target) || !strings.Contains(err.Error(), tc.want)):
					t.Fatalf("error = %v, want %v containing %q", err, tc.target, tc.want)
				}
				if grew > tc.most {
					t.Errorf("allocated %d KiB, want at most %d KiB", grew>>10, tc.most>>10)
				}
			})
		}
	}
	if _, err := Read[uint8](bytes.NewReader(overLimit), obsdim.First); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read applies no limit: %v", err)
	}
	if _, err := Load[uint8](writeTemp(t, "x.gz", overLimit), obsdim.First); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Load applies no limit: %v", err)
	}
	if _, err := Stat(writeTemp(t, "x.gz", overBound)); !errors.Is(err, ErrFormat) {
		t.Errorf("Stat of a gzip file that cannot hold its data: %v, want ErrFormat", err)
	}
}

func TestReadLeavesStreamAfterData(t *testing.T) {
	one := file(Uint8, []uint32{2}, []byte{1, 2})
	two := file(Int8, []uint32{1}, []byte{0xff})
	r := bytes.NewReader(append(one, two...))
	a, err := Read[uint8](r, obsdim.First)
	if err != nil || a.Len() != 2 {
		t.Fatalf("first Read = %v, %v", a, err)
	}
	b, err := Read[int8](r, obsdim.First)
	if err != nil || b.At(0) != -1 {
		t.Fatalf("second Read = %v, %v; want [-1]", b, err)
	}
}

// FuzzRead feeds arbitrary bytes to the header reader and to the typed readers:
// they return an array or an error, never panic, and an array holds exactly the
// elements its header describes.
func FuzzRead(f *testing.F) {
	raw, _ := os.ReadFile(labels)
	f.Add(raw[:40])
	f.Add(file(Float32, []uint32{2, 1}, make([]byte, 8)))
	f.Add(file(Int16, []uint32{0, 5}, nil))
	f.Add(gz(file(Uint8, []uint32{3}, []byte{1, 2, 3})))
	f.Add(gz(file(Uint8, []uint32{2, 65536, 65536}, make([]byte, 1000))))
	f.Add(gz(file(Uint8, []uint32{1 << 31, 1 << 31, 2}, nil)))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, herr := ReadHeader(bytes.NewReader(b))
		if herr != nil && !errors.Is(herr, ErrFormat) {
			t.Fatalf("ReadHeader error %v does not wrap ErrFormat", herr)
		}
		check := func(a interface{ Len() int }, err error) {
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrType) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, arraycontainer.ErrShape) {
					t.Fatalf("error %v wraps none of the sentinels", err)
				}
				return
			}
			if herr == nil && a.Len() != h.Len() {
				t.Fatalf("array of %d elements for header %v", a.Len(), h)
			}
		}
		check(Read[uint8](bytes.NewReader(b), obsdim.First))
		check(Read[float32](bytes.NewReader(b), obsdim.First))
		check(Read[int16](bytes.NewReader(b), obsdim.Last))
	})
}

// TestMappedViewAndTruncation checks idx's mapped arrays as npy's tests do: a
// view read after its array was dropped sees the file's values, and once the file shrinks,
// reading a page it lost panics with an error wrapping ErrFault that names the
// file, and the program goes on.
func TestMappedViewAndTruncation(t *testing.T) {
	data := make([]byte, 16*4096) // 16 images of 64x64, one page each
	for i := range data {
		data[i] = byte(i / 4096)
	}
	path := writeTemp(t, "pages-idx3-ubyte", file(Uint8, []uint32{16, 64, 64}, data))
	want, err := Load[uint8](path, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Open[uint8](path, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	view := m.ObsRange(10, 16)
	m = nil
	runtime.GC()
	runtime.GC()
	if !view.Equal(want.ObsRange(10, 16)) {
		t.Fatal("a view read after its array was dropped differs from the file")
	}
	if !mmap.Mapping {
		return // files are read into memory on this platform: nothing faults
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	var got any
	func() {
		defer func() { got = recover() }()
		view.GetObsInto(nil, []int{5})
	}()
	err, _ = got.(error)
	if !errors.Is(err, ErrFault) || !strings.Contains(fmt.Sprint(err), path) {
		t.Errorf("GetObsInto of a page the file lost panicked with %v, want an error wrapping ErrFault naming %s", got, path)
	}
}
