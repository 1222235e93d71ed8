package npy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/obsdim"
)

// reader is one way to get an array out of a file.
type reader struct {
	name string
	read func(path string) (values []float64, shape []int, err error)
}

// readers returns Load, Read and Open instantiated with the Go type of goType.
func readers(t *testing.T, goType string) []reader {
	switch goType {
	case "float32":
		return readersOf[float32](t)
	case "float64":
		return readersOf[float64](t)
	case "int16":
		return readersOf[int16](t)
	case "int32":
		return readersOf[int32](t)
	case "int64":
		return readersOf[int64](t)
	case "uint8":
		return readersOf[uint8](t)
	}
	t.Fatalf("no reader for Go type %q", goType)
	return nil
}

func readersOf[E arraycontainer.Number](t *testing.T) []reader {
	check := func(t *testing.T, a *arraycontainer.Array[E]) {
		if a.Rank() > 0 {
			containertest.Run(t, a, filetest.ArrayConfig[E]())
		}
	}
	return []reader{
		{"Load", func(path string) ([]float64, []int, error) {
			a, err := Load[E](path, obsdim.First)
			if err != nil {
				return nil, nil, err
			}
			check(t, a)
			return filetest.Float64s(a), a.Shape(), nil
		}},
		{"Read", func(path string) ([]float64, []int, error) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			a, err := Read[E](bytes.NewReader(b), obsdim.First)
			if err != nil {
				return nil, nil, err
			}
			check(t, a)
			return filetest.Float64s(a), a.Shape(), nil
		}},
		{"Open", func(path string) ([]float64, []int, error) {
			m, err := Open[E](path, obsdim.First)
			if err != nil {
				return nil, nil, err
			}
			if m.Rank() > 0 {
				containertest.Run(t, m, filetest.ArrayConfig[E]())
			}
			return filetest.Float64s(m), m.Shape(), nil
		}},
	}
}

func TestReadNumPyFiles(t *testing.T) {
	for name, e := range loadExpected(t) {
		h, err := Stat(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range readers(t, h.Dtype.GoType()) {
			t.Run(name+"/"+r.name, func(t *testing.T) {
				got, shape, err := r.read(filepath.Join("testdata", name))
				if r.name == "Open" && h.Dtype.BigEndian {
					if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "use Load") {
						t.Fatalf("Open(big-endian) error = %v, want ErrUnsupported pointing to Load", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(e.floats, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("values mismatch (-want +got):\n%s", d)
				}
				if len(e.Shape)+len(shape) > 0 {
					if d := cmp.Diff(e.Shape, shape); d != "" {
						t.Errorf("shape mismatch (-want +got):\n%s", d)
					}
				}
			})
		}
	}
}

func TestFortranIsStrided(t *testing.T) {
	for _, open := range []func() (*arraycontainer.Array[float32], error){
		func() (*arraycontainer.Array[float32], error) {
			return Load[float32]("testdata/f32_fortran_2d.npy", obsdim.First)
		},
		func() (*arraycontainer.Array[float32], error) {
			m, err := Open[float32]("testdata/f32_fortran_2d.npy", obsdim.First)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	} {
		a, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]int{1, 6}, a.Strides()); d != "" {
			t.Errorf("Fortran-ordered [6 4] array strides mismatch (-want +got):\n%s", d)
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		file   string
		read   func(string) error
		target error
		want   string
	}{
		{"unsupported_complex128.npy", func(p string) error { _, err := Load[float64](p, obsdim.First); return err }, ErrUnsupported, "dtype <c16"},
		{"unsupported_structured.npy", func(p string) error { _, err := Load[float64](p, obsdim.First); return err }, ErrUnsupported, "dtype [('a', '<i4'), ('b', '<f8')]"},
		{"unsupported_complex128.npy", func(p string) error { _, err := Open[float64](p, obsdim.First); return err }, ErrUnsupported, "dtype <c16"},
		{"f32_c_2d.npy", func(p string) error { _, err := Load[float64](p, obsdim.First); return err }, ErrType, "file holds <f4 (Go float32), not float64"},
		{"f32_c_2d.npy", func(p string) error { _, err := Open[int32](p, obsdim.First); return err }, ErrType, "file holds <f4 (Go float32), not int32"},
		{"bool_1d.npy", func(p string) error { _, err := Load[int8](p, obsdim.First); return err }, ErrType, "file holds |b1 (Go uint8), not int8"},
		{"f32_c_2d.npy", func(p string) error { _, err := Load[float32](p, obsdim.Constant(2)); return err }, obsdim.ErrAxis, "axis 2"},
		{"bad_magic.npy", func(p string) error { _, err := Open[float32](p, obsdim.First); return err }, ErrFormat, "magic"},
		{"bad_header.npy", func(p string) error { _, err := Load[float32](p, obsdim.First); return err }, ErrFormat, "syntax error"},
		{"bad_truncated.npy", func(p string) error { _, err := Open[float32](p, obsdim.First); return err }, ErrFormat, "truncated: file has 261 bytes"},
		{"bad_truncated.npy", func(p string) error {
			b, _ := os.ReadFile(p)
			_, err := Read[float32](bytes.NewReader(b), obsdim.First)
			return err
		}, io.ErrUnexpectedEOF, "truncated: 33 of the 35 elements"},
		{"unicode.npy", func(p string) error { _, err := Load[float32](p, obsdim.First); return err }, ErrUnsupported, "dtype <U10"},
		{"unicode.npy", func(p string) error { _, err := Open[uint8](p, obsdim.First); return err }, ErrUnsupported, "dtype <U10"},
		{"unicode.npy", func(p string) error {
			b, _ := os.ReadFile(p)
			_, err := Read[float64](bytes.NewReader(b), obsdim.First)
			return err
		}, ErrUnsupported, "dtype <U10"},
		{"bytes.npy", func(p string) error { _, err := Load[uint8](p, obsdim.First); return err }, ErrUnsupported, "dtype |S5"},
		{"datetime.npy", func(p string) error { _, err := Open[int64](p, obsdim.First); return err }, ErrUnsupported, "dtype <M8[ns]"},
		{"unicode_truncated.npy", func(p string) error { _, err := Load[float32](p, obsdim.First); return err }, ErrUnsupported, "dtype <U10"},
	}
	dir := t.TempDir()
	for name, file := range unsupportedFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), file, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			if _, err := os.Stat(path); err != nil {
				path = filepath.Join(dir, tc.file)
			}
			err := tc.read(path)
			if !errors.Is(err, tc.target) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %v containing %q", err, tc.target, tc.want)
			}
			if !strings.Contains(err.Error(), tc.file) && !strings.Contains(err.Error(), "stream") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestReadHugeClaim checks that a stream whose header claims far more data than it
// holds fails having allocated at most 1 MiB: the size of a seekable stream is
// checked first, and another stream's data is read in chunks that grow only as
// data arrives.
func TestReadHugeClaim(t *testing.T) {
	for _, tc := range []struct {
		name, dict string
		data       int
		read       func(io.Reader) error // with the file's own element type
	}{
		{"10^16 bytes, a 321-byte file", "{'descr': '|u1', 'fortran_order': False, 'shape': (10000000000000000,), }", 321 - 10 - 73,
			func(r io.Reader) error { _, err := Read[uint8](r, obsdim.First); return err }},
		{"8 TB", "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", 64,
			func(r io.Reader) error { _, err := Read[float64](r, obsdim.First); return err }},
	} {
		file := rawFile(1, tc.dict, tc.data)
		for _, src := range []struct {
			name  string
			r     func() io.Reader
			bound uint64 // bytes Read may allocate
		}{
			// A seekable stream is measured first: nothing beyond what it holds.
			{"seekable", func() io.Reader { return bytes.NewReader(file) }, uint64(len(file)) + 64<<10},
			// A stream without a size: at most 1 MiB before the data shows up.
			{"not seekable", func() io.Reader { return filetest.OnlyReader{R: bytes.NewReader(file)} }, 1<<20 + 64<<10},
		} {
			t.Run(tc.name+"/"+src.name, func(t *testing.T) {
				var err error
				grew := filetest.Allocated(func() { err = tc.read(src.r()) })
				if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, ErrFormat) {
					t.Fatalf("Read error = %v, want ErrFormat and ErrUnexpectedEOF", err)
				}
				if grew > src.bound {
					t.Errorf("Read of a %d-byte stream whose header claims %s allocated %d KiB, want at most %d KiB", len(file), tc.name, grew>>10, src.bound>>10)
				}
			})
		}
	}
}

// TestReadGrows reads a stream without a size through the chunked path: the data
// arrives in small reads and spans several chunks.
func TestReadGrows(t *testing.T) {
	data := make([]float32, 3<<20/4+7)
	for i := range data {
		data[i] = float32(i)
	}
	a := must(arraycontainer.New(data, []int{len(data)}, obsdim.First))
	var buf bytes.Buffer
	if err := Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	got, err := Read[float32](filetest.OnlyReader{R: iotest.HalfReader(&buf)}, obsdim.First)
	if err != nil || !got.Equal(a) {
		t.Fatalf("Read of a growing stream = %v, want the array", err)
	}
}

func TestOpenMisaligned(t *testing.T) {
	dict := "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
	dict += strings.Repeat(" ", 68-10-1-len(dict)) + "\n" // data at byte 68: not a multiple of 8
	b := rawFile(1, dict, 0)
	b = append(b, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40) // 1.0, 2.0
	path := filepath.Join(t.TempDir(), "odd.npy")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open[float64](path, obsdim.First)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "data at byte 68 is not aligned for float64") {
		t.Errorf("Open(misaligned) error = %v, want ErrUnsupported naming the offset", err)
	}
	a, err := Load[float64](path, obsdim.First)
	if err != nil || a.At(0) != 1 || a.At(1) != 2 {
		t.Errorf("Load(misaligned) = %v, %v; want [1 2]", a, err)
	}
}

// TestMappedGatherAllocs pins the hot path of a training loop over a mapped file:
// gathering a batch into a reused buffer allocates nothing.
func TestMappedGatherAllocs(t *testing.T) {
	m, err := Open[uint8]("testdata/u8_3d.npy", obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{4, 1, 1, 0}
	buf := m.GetObsInto(nil, idx)
	if a := testing.AllocsPerRun(100, func() { buf = m.GetObsInto(buf, idx) }); a != 0 {
		t.Errorf("GetObsInto of a mapped array with a reused buffer: %v allocs, want 0", a)
	}
}

// unsupportedFiles returns valid .npy files of dtypes the readers refuse, as
// NumPy writes them: the data size is the dtype's itemsize times the count
// (4 bytes per character for '<U'), so that only the dtype can be the problem.
func unsupportedFiles() map[string][]byte {
	file := func(descr string, count, itemsize int) []byte {
		h := Header{Dtype: Dtype{Descr: descr}, Shape: []int{count}}
		return append(encodeHeader(h), make([]byte, count*itemsize)...)
	}
	unicode := file("<U10", 3, 40)
	return map[string][]byte{
		"unicode.npy":           unicode,
		"unicode_truncated.npy": unicode[:len(unicode)-1],
		"bytes.npy":             file("|S5", 2, 5),
		"datetime.npy":          file("<M8[ns]", 4, 8),
	}
}

// TestSharedSentinels: the file-format packages share ErrType, ErrUnsupported
// and ErrFault, so one errors.Is covers them all, and ErrUnsupported is also
// errors.ErrUnsupported.
func TestSharedSentinels(t *testing.T) {
	_, err := idx.Load[float32]("../datasets/data/digits-labels-idx1-ubyte", obsdim.First)
	if !errors.Is(err, ErrType) {
		t.Errorf("idx.Load of a uint8 file as float32 = %v, want an error wrapping npy.ErrType", err)
	}
	_, err = Open[float32]("testdata/f32_bigendian.npy", obsdim.First)
	if !errors.Is(err, idx.ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Open of a big-endian file = %v, want an error wrapping idx.ErrUnsupported and errors.ErrUnsupported", err)
	}
	if ErrFault != idx.ErrFault {
		t.Error("npy.ErrFault and idx.ErrFault differ")
	}
}
