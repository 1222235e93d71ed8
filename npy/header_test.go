package npy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/fileio"
)

// expected is one entry of testdata/expected.json, written by NumPy's np.load.
type expected struct {
	Dtype   string    `json:"dtype"`
	Shape   []int     `json:"shape"`
	Fortran bool      `json:"fortran_order"`
	Values  []any     `json:"values_c_order"`
	floats  []float64 // Values as numbers (bools as 0 and 1)
}

func loadExpected(t testing.TB) map[string]*expected {
	t.Helper()
	b, err := os.ReadFile("testdata/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]*expected
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for name, e := range m {
		for _, v := range e.Values {
			switch v := v.(type) {
			case float64:
				e.floats = append(e.floats, v)
			case bool:
				e.floats = append(e.floats, map[bool]float64{false: 0, true: 1}[v])
			default:
				t.Fatalf("%s: value %v of type %T", name, v, v)
			}
		}
	}
	return m
}

func TestStatNumPyFiles(t *testing.T) {
	for name, e := range loadExpected(t) {
		t.Run(name, func(t *testing.T) {
			h, err := Stat(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			if h.Dtype.Descr != e.Dtype || h.Fortran != e.Fortran {
				t.Errorf("Stat = dtype %q fortran %v, want %q %v", h.Dtype.Descr, h.Fortran, e.Dtype, e.Fortran)
			}
			if d := cmp.Diff(e.Shape, h.Shape); d != "" && (len(e.Shape) != 0 || len(h.Shape) != 0) {
				t.Errorf("Stat shape mismatch (-want +got):\n%s", d)
			}
			if h.Dtype.GoType() == "" {
				t.Errorf("dtype %s reported as unsupported", h.Dtype)
			}
			if h.DataOffset%16 != 0 {
				t.Errorf("DataOffset = %d, NumPy aligns to 16 at least", h.DataOffset)
			}
		})
	}
}

func TestStatVersions(t *testing.T) {
	h, err := Stat("testdata/f32_v2_header.npy")
	if err != nil || h.Major != 2 || h.Minor != 0 {
		t.Fatalf("Stat(f32_v2_header.npy) = version %d.%d, %v; want 2.0", h.Major, h.Minor, err)
	}
	// Version 3.0 is 2.0 with a UTF-8 header; NumPy writes it only when a field
	// name needs it, so make one from the 2.0 file.
	b, err := os.ReadFile("testdata/f32_v2_header.npy")
	if err != nil {
		t.Fatal(err)
	}
	b[6] = 3
	h3, err := ReadHeader(bytes.NewReader(b))
	if err != nil || h3.Major != 3 || !cmp.Equal(h3.Shape, h.Shape) {
		t.Fatalf("ReadHeader(version 3.0) = %+v, %v; want version 3 shape %v", h3, err, h.Shape)
	}
}

func TestStatUnsupported(t *testing.T) {
	tests := []struct {
		file, descr string
		kind        byte
	}{
		{"unsupported_complex128.npy", "<c16", 'c'},
		{"unsupported_structured.npy", "[('a', '<i4'), ('b', '<f8')]", 'V'},
		{"unicode.npy", "<U10", 'U'},
		{"bytes.npy", "|S5", 'S'},
		{"datetime.npy", "<M8[ns]", 'M'},
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
			h, err := Stat(path)
			if err != nil {
				t.Fatalf("Stat: %v (an unsupported dtype must still be inspectable)", err)
			}
			if h.Dtype.Descr != tc.descr || h.Dtype.Kind != tc.kind || h.Dtype.GoType() != "" {
				t.Errorf("Dtype = %+v (GoType %q), want descr %q kind %q and no Go type", h.Dtype, h.Dtype.GoType(), tc.descr, tc.kind)
			}
		})
	}
}

// rawFile builds a .npy file from its parts.
func rawFile(major byte, dict string, data int) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(major)
	b.WriteByte(0)
	if major == 1 {
		binary.Write(&b, binary.LittleEndian, uint16(len(dict)))
	} else {
		binary.Write(&b, binary.LittleEndian, uint32(len(dict)))
	}
	b.WriteString(dict)
	b.Write(make([]byte, data))
	return b.Bytes()
}

func TestReadHeaderMalformed(t *testing.T) {
	const ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n"
	tests := []struct {
		name string
		file []byte
		want string // in the message
	}{
		{"empty", nil, "ends before the magic"},
		{"bad magic", append([]byte("\x93NUMPX\x01\x00"), rawFile(1, ok, 0)[8:]...), `magic "\x93NUMPX"`},
		{"version 4", rawFile(4, ok, 0), "format version 4.0"},
		{"minor 1", append([]byte(magic+"\x01\x01"), rawFile(1, ok, 0)[8:]...), "format version 1.1"},
		{"truncated header", rawFile(1, ok, 0)[:30], "unexpected EOF"},
		{"huge header length", []byte(magic + "\x02\x00\xff\xff\xff\xf0"), "exceeds the limit"},
		{"not a dict", rawFile(1, "['descr']\n", 0), "does not start with '{'"},
		{"double comma", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (7,, 5), }", 0), "syntax error"},
		{"unterminated", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (7, 5)", 0), "syntax error"},
		{"reordered keys are fine but missing shape is not", rawFile(1, "{'fortran_order': False, 'descr': '<f4'}", 0), `no "shape"`},
		{"unknown key", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", 0), `unknown key "x"`},
		{"duplicate key", rawFile(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", 0), "twice"},
		{"negative dim", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}", 0), "dimension 0 is -3"},
		{"shape not a tuple", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': 3}", 0), "want a tuple"},
		{"parenthesized int", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", 0), "trailing comma"},
		{"fortran not bool", rawFile(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", 0), "want True or False"},
		{"descr an int", rawFile(1, "{'descr': 4, 'fortran_order': False, 'shape': ()}", 0), "want a string or a list"},
		{"overflow", rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 0), "is too large"},
		{"overflow hidden by a zero", rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296)}", 0), "is too large"},
		{"2^60 float64", rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976,)}", 0),
			"shape (1152921504606846976,) of <f8 is too large: its data would take more than 9223372036853727219 bytes"},
		{"2^60-1 float64: data fits an int, header and data do not", rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846975,)}", 0),
			"shape (1152921504606846975,) of <f8 is too large: its data would take more than 9223372036853727219 bytes"},
		{"huge unicode itemsize", rawFile(1, "{'descr': '<U2305843009213693952', 'fortran_order': False, 'shape': (1,)}", 0), "is too large"},
		{"int too large", rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}", 0), "out of range"},
		{"NUL byte", rawFile(1, "{'descr': '<f4',\x00 'fortran_order': False, 'shape': ()}", 0), "NUL"},
		{"deep nesting", rawFile(1, "{'descr': "+strings.Repeat("[", 100)+"}", 0), "nested deeper"},
		{"trailing junk", rawFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", 0), "after the dict"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadHeader(bytes.NewReader(tc.file))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("ReadHeader error = %v, want ErrFormat", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "npy: stream: ") {
				t.Errorf("ReadHeader error %q, want it to start with %q and contain %q", err, "npy: stream: ", tc.want)
			}
		})
	}
}

func TestReadHeaderAccepts(t *testing.T) {
	tests := []struct {
		name, dict string
		want       Header
	}{
		{"reordered keys, double quotes", `{"shape": (3, 4), "fortran_order": True, "descr": ">i8"}`,
			Header{Dtype: Dtype{Descr: ">i8", Kind: 'i', Size: 8, BigEndian: true}, Fortran: true, Shape: []int{3, 4}}},
		{"python 2 longs", "{'descr': '|u1', 'fortran_order': False, 'shape': (3L, 4L), }  \n",
			Header{Dtype: Dtype{Descr: "|u1", Kind: 'u', Size: 1}, Shape: []int{3, 4}}},
		{"0-d", "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
			Header{Dtype: Dtype{Descr: "<f8", Kind: 'f', Size: 8}, Shape: []int{}}},
		{"datetime is parsed, refused later", "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,), }",
			Header{Dtype: Dtype{Descr: "<M8[ns]", Kind: 'M', Size: 8}, Shape: []int{1}}},
		{"unicode: 4 bytes a character", "{'descr': '>U10', 'fortran_order': False, 'shape': (3,), }",
			Header{Dtype: Dtype{Descr: ">U10", Kind: 'U', Size: 40, BigEndian: true}, Shape: []int{3}}},
		{"bytes", "{'descr': '|S5', 'fortran_order': False, 'shape': (3,), }",
			Header{Dtype: Dtype{Descr: "|S5", Kind: 'S', Size: 5}, Shape: []int{3}}},
		{"object: size unknown", "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }",
			Header{Dtype: Dtype{Descr: "|O", Kind: 'O'}, Shape: []int{3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := rawFile(1, tc.dict, 0)
			h, err := ReadHeader(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Major, tc.want.DataOffset = 1, int64(len(file))
			if d := cmp.Diff(tc.want, h); d != "" {
				t.Errorf("ReadHeader mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestStatSize(t *testing.T) {
	b, err := os.ReadFile("testdata/f32_c_2d.npy")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"truncated", b[:len(b)-4], "truncated: file has 264 bytes, header {'descr': '<f4', 'fortran_order': False, 'shape': (7, 5), } says 268"},
		{"trailing", append(b[:len(b):len(b)], 0), "trailing bytes after the data: file has 269 bytes"},
		{"header past end", b[:100], "runs past the end of the 100-byte file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".npy")
			if err := os.WriteFile(path, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Stat(path)
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Stat error = %v, want ErrFormat naming %s and %q", err, path, tc.want)
			}
		})
	}
}

func TestStatSharedBadFiles(t *testing.T) {
	for file, want := range map[string]string{
		"bad_magic.npy":     `magic "\x93NUMPX"`,
		"bad_header.npy":    "syntax error",
		"bad_truncated.npy": "truncated: file has 261 bytes",
	} {
		t.Run(file, func(t *testing.T) {
			_, err := Stat(filepath.Join("testdata", file))
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file) {
				t.Errorf("Stat error = %v, want ErrFormat naming the file and %q", err, want)
			}
		})
	}
}

func TestEncodeHeaderRoundTrip(t *testing.T) {
	for _, h := range []Header{
		{Dtype: dtypeOf(fileio.Kind{Class: 'f', Size: 4}), Shape: []int{7, 5}},
		{Dtype: Dtype{Descr: "|u1", Kind: 'u', Size: 1}, Fortran: true, Shape: []int{1}},
		{Dtype: Dtype{Descr: ">f8", Kind: 'f', Size: 8, BigEndian: true}, Shape: []int{}},
		{Dtype: Dtype{Descr: "<i2", Kind: 'i', Size: 2}, Shape: make([]int, 10000)}, // needs version 2.0
	} {
		b := encodeHeader(h)
		if len(b)%dataAlign != 0 {
			t.Errorf("encodeHeader(%v): %d bytes, want a multiple of %d", h, len(b), dataAlign)
		}
		got, err := ReadHeader(io.MultiReader(bytes.NewReader(b), strings.NewReader("data")))
		if err != nil {
			t.Fatalf("ReadHeader(encodeHeader(%v)): %v", h, err)
		}
		h.Major, h.DataOffset = got.Major, int64(len(b))
		if d := cmp.Diff(h, got); d != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", d)
		}
	}
}

// FuzzReadHeader feeds arbitrary bytes to the header reader: it must return a
// header or an error, never panic, and a header it returns must survive being
// written and read again.
func FuzzReadHeader(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.npy")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(rawFile(2, "{'descr': [('a', '<i4')], 'fortran_order': True, 'shape': (0, 3L,), }", 0))
	for _, b := range unsupportedFiles() {
		f.Add(b)
	}
	f.Add(rawFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846975,)}", 8))
	f.Add(rawFile(1, "{'descr': '<U4611686018427387904', 'fortran_order': False, 'shape': (2,)}", 8))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadHeader(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		if h.DataOffset > int64(len(b)) {
			t.Fatalf("DataOffset %d beyond the %d input bytes", h.DataOffset, len(b))
		}
		if h.Dtype.Kind == 'V' && !strings.HasPrefix(h.Dtype.Descr, "[") {
			return // a descr string naming 'V' cannot be quoted back losslessly
		}
		if strings.ContainsAny(h.Dtype.Descr, `'\`+"\n") {
			return // not representable in a single-quoted Python string without escapes
		}
		again, err := ReadHeader(bytes.NewReader(encodeHeader(h)))
		if err != nil {
			t.Fatalf("re-reading the written header %v: %v", h, err)
		}
		h.Major, h.DataOffset = again.Major, again.DataOffset
		if d := cmp.Diff(h, again); d != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", d)
		}
	})
}
