package recordio

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzReader reads arbitrary bytes as RecordIO with the Reader (of a file and
// of a stream of unknown size) and with NewFile's scan: they never panic, they
// agree on the records and on whether the bytes are valid, every error wraps
// ErrFormat, and valid records written again read back the same.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"testdata/raw.rec", "testdata/images.rec"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x23, 0xd7, 0xce, 0, 0, 0, 0x20, 0x0a, 0x23, 0xd7, 0xce, 0, 0, 0, 0x60})
	f.Fuzz(func(t *testing.T, b []byte) {
		file, scanErr := NewFile(bytes.NewReader(b), int64(len(b)), "fuzz", nil)
		var want [][]byte
		if scanErr == nil {
			want = file.GetObsInto(nil, iota(file.Nobs()))
		} else if !errors.Is(scanErr, ErrFormat) {
			t.Fatalf("scan: %v, not an ErrFormat", scanErr)
		}
		for _, r := range []io.Reader{bytes.NewReader(b), onlyReader{bytes.NewReader(b)}} {
			rd := NewReader(r)
			var got [][]byte
			var offs []int64
			var err error
			for {
				var p []byte
				if p, err = rd.Next(); err != nil {
					break
				}
				got = append(got, slices.Clone(p))
				offs = append(offs, rd.Offset())
			}
			if scanErr == nil {
				if err != io.EOF {
					t.Fatalf("the scan found %d valid records, the Reader failed: %v", len(want), err)
				}
				if !slices.EqualFunc(want, got, bytes.Equal) {
					t.Fatalf("Reader and File disagree: File %x, Reader %x", want, got)
				}
				for i, off := range offs {
					if off != file.Offset(i) {
						t.Fatalf("record %d: Reader offset %d, File offset %d", i, off, file.Offset(i))
					}
				}
			} else if !errors.Is(err, ErrFormat) {
				t.Fatalf("the scan failed (%v), the Reader ended with %v", scanErr, err)
			}
		}
		if scanErr != nil {
			return
		}
		again, _ := encode(t, want)
		rd := NewReader(bytes.NewReader(again))
		for i := range want {
			p, err := rd.Next()
			if err != nil || !bytes.Equal(p, want[i]) {
				t.Fatalf("record %d written again reads back as %x, %v; want %x", i, p, err, want[i])
			}
		}
	})
}

// FuzzIndex reads arbitrary text as an index: no panic, errors wrap ErrFormat,
// and a valid index written again reads back the same.
func FuzzIndex(f *testing.F) {
	b, err := os.ReadFile("testdata/raw.idx")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("0\t0\n1\t16\n")
	f.Add("  -5\t4\r\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		ix, err := ReadIndex(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v, not an ErrFormat", err)
			}
			return
		}
		var buf bytes.Buffer
		if _, err := ix.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadIndex(&buf)
		if err != nil {
			t.Fatalf("the index written again does not read: %v", err)
		}
		if len(ix)+len(again) > 0 && !slices.Equal(ix, again) {
			t.Fatalf("the index written again reads as %v, want %v", again, ix)
		}
	})
}

// FuzzUnpack unpacks arbitrary bytes as an image record: no panic, errors
// wrap ErrFormat, and Pack of what Unpack returns gives the record again
// (with the header's unused label 0 when there are flag labels).
func FuzzUnpack(f *testing.F) {
	f.Add(Pack(nil, Header{Label: 3, ID: 7}, nil, []byte("jpeg")))
	f.Add(Pack(nil, Header{ID: 7}, []float32{1, 2}, []byte("png")))
	f.Add([]byte("short"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		h, labels, img, err := Unpack(rec, nil)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v, not an ErrFormat", err)
			}
			return
		}
		if h.Flag == 0 && len(labels) != 1 || h.Flag > 0 && len(labels) != int(h.Flag) {
			t.Fatalf("flag %d gave %d labels", h.Flag, len(labels))
		}
		var again []byte
		if h.Flag == 0 {
			again = Pack(nil, h, nil, img)
		} else {
			again = Pack(nil, h, labels, img)
			if math.Float32bits(h.Label) != 0 {
				return
			}
		}
		if !bytes.Equal(again, rec) {
			t.Fatalf("Pack(Unpack(rec)) = %x, want %x", again, rec)
		}
	})
}
