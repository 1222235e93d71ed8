package recordio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/fileio/mmap"
)

// golden returns a copy of testdata/raw.rec. Its records start at 0, 16, 32,
// 48, 64, 80 (empty), 88, 100, 116 (split), 132 (split), 152 (split in three:
// parts at 152, 164, 176), 184, 220, 236, 256, 272 (split: parts at 272, 380,
// 388, 3284) and 3292; it is 3308 bytes long.
func golden(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/raw.rec")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// setWord sets the little-endian word at off.
func setWord(b []byte, off int, w uint32) []byte {
	binary.LittleEndian.PutUint32(b[off:], w)
	return b
}

// onlyReader hides every method of a reader but Read, so that its size is
// unknown.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestCorrupt damages the golden file in every way the format can be broken
// and checks that the Reader (of a file, and of a stream of unknown size) and
// Open's scan report the first damaged record with the file's name, its
// offset and what is wrong, wrapping ErrFormat (and io.ErrUnexpectedEOF when
// the file ends too early).
func TestCorrupt(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		want   string // in every error
		eof    bool   // the file ends too early
		good   int    // records before the damage
	}{
		{"bad magic", func(b []byte) []byte { return append(b[:48], append([]byte("XXXX"), b[52:]...)...) },
			"offset 48: bad magic number 0x58585858 (want 0xced7230a)", false, 3},
		{"invalid flag", func(b []byte) []byte { return setWord(b, 84, 5<<29) }, "offset 80: invalid part flag 5", false, 5},
		{"record starts with a middle part", func(b []byte) []byte { return setWord(b, 224, 2<<29|8) }, "offset 220:", false, 12},
		{"record starts with a last part", func(b []byte) []byte { return setWord(b, 224, 3<<29|8) }, "offset 220:", false, 12},
		{"whole part inside a split record", func(b []byte) []byte { return setWord(b, 168, 0<<29|4) }, "offset 164: split record from offset 152", false, 10},
		{"first part inside a split record", func(b []byte) []byte { return setWord(b, 168, 1<<29|4) }, "offset 164: split record from offset 152", false, 10},
		{"length past the end", func(b []byte) []byte { return setWord(b, 3296, 1000) }, "offset 3292: part of 1000 bytes", true, 16},
		{"largest length", func(b []byte) []byte { return setWord(b, 3296, 1<<29-1) }, "offset 3292: part of 536870911 bytes", true, 16},
		{"cut inside a part", func(b []byte) []byte { return b[:1000] }, "offset 388: part of 2888 bytes", true, 15},
		{"split record without its last part", func(b []byte) []byte { return b[:176] }, "split record", true, 10},
		{"cut inside a part header", func(b []byte) []byte { return b[:3296] }, "offset 3292:", true, 16},
		{"trailing bytes", func(b []byte) []byte { return append(b, "abc"...) }, "offset 3308:", true, 17},
		{"trailing zeros", func(b []byte) []byte { return append(b, make([]byte, 8)...) }, "offset 3308: bad magic number 0x00000000", false, 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.damage(golden(t))
			path := writeTemp(t, "damaged.rec", b)
			check := func(what string, err error) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s: no error", what)
				}
				if !errors.Is(err, ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) != c.eof {
					t.Errorf("%s: %v: wraps ErrFormat %v, io.ErrUnexpectedEOF %v; want true, %v", what, err, errors.Is(err, ErrFormat), errors.Is(err, io.ErrUnexpectedEOF), c.eof)
				}
				if msg := err.Error(); !strings.Contains(msg, c.want) {
					t.Errorf("%s: %q does not say %q", what, msg, c.want)
				}
			}
			_, err := Open(path, "")
			check("Open", err)
			if err != nil && !strings.HasPrefix(err.Error(), "recordio: "+path+": ") {
				t.Errorf("Open: %q does not start with the package and the file", err)
			}
			for _, src := range []struct {
				name string
				r    io.Reader
			}{{"file", bytes.NewReader(b)}, {"stream", onlyReader{bytes.NewReader(b)}}} {
				r := NewReader(src.r)
				n := 0
				for {
					_, err = r.Next()
					if err != nil {
						break
					}
					n++
				}
				if n != c.good {
					t.Errorf("Reader of a %s: %d records before the error, want %d", src.name, n, c.good)
				}
				if src.name == "stream" && strings.Contains(c.want, "part of 536870911") {
					continue // the stream's reader cannot know the length runs past the end before reading
				}
				if src.name == "stream" && c.eof {
					// Without the size, the end is found by reading: the
					// message says where, not always as the file's does.
					if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) {
						t.Errorf("Reader of a stream: %v, want ErrFormat and io.ErrUnexpectedEOF", err)
					}
					continue
				}
				check("Reader of a "+src.name, err)
				if _, err2 := r.Next(); err2 != err {
					t.Errorf("Next after an error: %v, want the same error", err2)
				}
			}
		})
	}
}

// TestStreamCutShort reads damaged copies of testdata/raw.rec as streams of
// unknown size, where the end is found only by reading: each error says where
// the record or part started, how long it said it was and where the stream
// ended (the message used to give where the part would have ended, such as
// 536870919 for a length word of 2^29-1 at offset 0).
func TestStreamCutShort(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"largest length", func(b []byte) []byte { return setWord(b, 3296, 1<<29-1) },
			"offset 3292: a record of 536870911 bytes (536870912 with padding) cut short by the end of the stream at 3308, after 8 of its bytes"},
		{"largest length first", func(b []byte) []byte { return setWord(b, 4, 1<<29-1) },
			"offset 0: a record of 536870911 bytes (536870912 with padding) cut short by the end of the stream at 3308, after 3300 of its bytes"},
		{"cut inside a part", func(b []byte) []byte { return b[:1000] },
			"offset 388: a part of the split record from offset 272 of 2888 bytes (2888 with padding) cut short by the end of the stream at 1000, after 604 of its bytes"},
		{"cut inside a first part", func(b []byte) []byte { return b[:300] },
			"offset 272: the first part of a split record of 100 bytes (100 with padding) cut short by the end of the stream at 300, after 20 of its bytes"},
		{"cut inside the padding", func(b []byte) []byte { return b[:98] },
			"offset 88: a record of 1 bytes (4 with padding) cut short by the end of the stream at 98, after 2 of its bytes"},
	} {
		r := NewReader(onlyReader{bytes.NewReader(c.damage(golden(t)))})
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want ErrFormat and io.ErrUnexpectedEOF saying %q", c.name, err, c.want)
		}
	}
	// A file's reader knows its size before reading the part.
	b := golden(t)[:1000]
	r := NewReader(bytes.NewReader(b))
	var err error
	for err == nil {
		_, err = r.Next()
	}
	if want := "offset 388: part of 2888 bytes (2888 padded) of the split record from offset 272 runs past the end of the stream at 1000"; !strings.Contains(err.Error(), want) {
		t.Errorf("cut inside a part, read from a file: %v; want %q", err, want)
	}
}

// TestCorruptIndex checks the errors of index files: lines that do not parse,
// offsets outside the file, and offsets where no record starts, found when the
// record is read.
func TestCorruptIndex(t *testing.T) {
	rec := "testdata/raw.rec"
	for _, c := range []struct {
		name, idx string
		want      string // "" for a valid index
	}{
		{"no tab", "0 0\n", "line 1: no tab"},
		{"key not a number", "0\t0\nx\t16\n", `line 2: key "x" is not a decimal integer`},
		{"offset not a number", "0\t0x10\n", `line 1: offset "0x10" is not a decimal integer`},
		{"three fields", "0\t0\t7\n", `line 1: offset "0\t7" is not a decimal integer`},
		{"negative offset", "0\t-16\n", "line 1: negative offset -16"},
		{"unaligned offset", "0\t0\n1\t17\n", "line 2: offset 17 is not a multiple of 4"},
		{"key twice", "0\t0\n1\t16\n0\t32\n", "key 0 is listed twice (0 and 32)"},
		{"offset twice", "0\t0\n1\t16\n2\t16\n", "offset 16 is listed twice (1 and 2)"},
		{"offset past the end", "0\t0\n1\t3308\n", "key 1: offset 3308 is not the start of a record of the file (size 3308)"},
		{"long line", strings.Repeat("1", 70000), "line 1: longer than 64 KiB"},
		{"blank lines and CRLF", "\n0\t0\r\n\n  1\t16  \n\n", ""},
		{"no final newline", "0\t0\n1\t16", ""},
		{"empty", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			idx := writeTemp(t, "x.idx", []byte(c.idx))
			f, err := Open(rec, idx)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open: %v, want an ErrFormat saying %q", err, c.want)
			}
			if f != nil {
				t.Fatalf("Open returned a File with an error")
			}
			if !strings.Contains(err.Error(), "x.idx") && !strings.Contains(err.Error(), "raw.rec") {
				t.Errorf("Open: %q names no file", err)
			}
		})
	}

	// Offsets inside the file where no record starts: the error comes with the
	// read of that record.
	for _, c := range []struct {
		off  int64
		want string
	}{
		{164, "record of key 7: offset 164: no record starts here: a part flagged 2 (middle part)"},
		{176, "record of key 7: offset 176: no record starts here: a part flagged 3 (last part)"},
		{172, "record of key 7: offset 172: bad magic number 0x68676665"},
		{3300, "record of key 7: offset 3300: bad magic number 0x64636261"},
	} {
		idx := writeTemp(t, "x.idx", fmt.Appendf(nil, "3\t48\n7\t%d\n", c.off))
		f, err := Open(rec, idx)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.GetObs(0); string(got) != "record_3" {
			t.Errorf("GetObs(0) = %q, want record_3", got)
		}
		_, err = f.AppendObs(nil, 1)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "recordio: "+rec) {
			t.Errorf("offset %d: AppendObs: %v, want an ErrFormat naming %s and saying %q", c.off, err, rec, c.want)
		}
		p := recovered(func() { f.GetObs(1) })
		if e, ok := p.(error); !ok || e.Error() != err.Error() {
			t.Errorf("offset %d: GetObs panicked with %v, want the error of AppendObs", c.off, p)
		}
		p = recovered(func() { f.GetObsInto(nil, []int{0, 1}) })
		if e, ok := p.(error); !ok || !errors.Is(e, ErrFormat) {
			t.Errorf("offset %d: GetObsInto panicked with %v, want the error of AppendObs", c.off, p)
		}
	}
}

func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestUnpackErrors checks the image records too short for their header and
// labels.
func TestUnpackErrors(t *testing.T) {
	full := Pack(nil, Header{ID: 9}, []float32{1, 2, 3}, []byte("img"))
	for _, c := range []struct {
		rec  []byte
		want string
	}{
		{nil, "image record of 0 bytes, shorter than the 24-byte header"},
		{full[:23], "image record of 23 bytes"},
		{full[:24+11], "flag 3 announces 3 labels (12 bytes) after the header, but 11 bytes follow it"},
		{setWord(Pack(nil, Header{}, nil, nil), 0, 1<<32-1), "flag 4294967295 announces"},
	} {
		labels := []float32{42}
		_, got, img, err := Unpack(c.rec, labels)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unpack(%d bytes): %v, want ErrFormat saying %q", len(c.rec), err, c.want)
		}
		if d := cmp.Diff([]float32{42}, got); d != "" || img != nil {
			t.Errorf("Unpack(%d bytes) changed the labels or returned an image on error: %s", len(c.rec), d)
		}
	}
	h, labels, img, err := Unpack(full, nil)
	if err != nil || h.Flag != 3 || h.ID != 9 || string(img) != "img" || !cmp.Equal(labels, []float32{1, 2, 3}) {
		t.Errorf("Unpack of a full record: %+v %v %q %v", h, labels, img, err)
	}
}

// TestMappingReleased checks that a mapped File's mapping is released once
// the File is unreachable, and that records read from it stay valid.
func TestMappingReleased(t *testing.T) {
	for range 50 { // release the mappings of earlier tests first
		runtime.GC()
		runtime.Gosched()
	}
	before := mmap.Live()
	f, err := Open("testdata/raw.rec", "")
	if err != nil {
		t.Fatal(err)
	}
	rec := f.GetObs(0)
	if mmap.Live() != before+1 {
		t.Fatalf("%d live mappings after Open, want %d", mmap.Live(), before+1)
	}
	f = nil
	for range 200 {
		if mmap.Live() <= before {
			break
		}
		runtime.GC()
		runtime.Gosched()
	}
	if mmap.Live() != before {
		t.Errorf("the mapping of an unreachable File is still live")
	}
	if string(rec) != "record_0" {
		t.Errorf("a record read before changed: %q", rec)
	}
}
