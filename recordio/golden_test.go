package recordio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goldenRecord is a record of testdata/golden.json, written by
// testdata/golden.py from the format's definition.
type goldenRecord struct {
	Key         int64     `json:"key"`
	Offset      int64     `json:"offset"`
	Bytes       int       `json:"bytes"`
	SHA256      string    `json:"sha256"`
	Parts       []uint32  `json:"parts"`
	Hex         string    `json:"hex"`
	Image       string    `json:"image"`
	ImageHex    string    `json:"image_hex"`
	ImageSHA256 string    `json:"image_sha256"`
	Flag        uint32    `json:"flag"`
	Label       []float32 `json:"label"`
	ID          uint64    `json:"id"`
	ID2         uint64    `json:"id2"`
}

func readGolden(t testing.TB) map[string][]goldenRecord {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string][]goldenRecord
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// payload returns the payload of a golden record, built with Pack for image
// records.
func (g goldenRecord) payload(t testing.TB) []byte {
	t.Helper()
	if g.Label == nil {
		b, err := hex.DecodeString(g.Hex)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	img, err := hex.DecodeString(g.ImageHex)
	if err != nil {
		t.Fatal(err)
	}
	if g.Image != "" {
		if img, err = os.ReadFile(filepath.Join("testdata", g.Image)); err != nil {
			t.Fatal(err)
		}
	}
	h := Header{ID: g.ID, ID2: g.ID2}
	var labels []float32
	if g.Flag == 0 {
		h.Label = g.Label[0]
	} else {
		labels = g.Label
	}
	return Pack(nil, h, labels, img)
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestWriteGolden writes the golden records with Writer and Index.WriteTo and
// compares the bytes with the files the independent Python writer made.
func TestWriteGolden(t *testing.T) {
	for name, recs := range readGolden(t) {
		t.Run(name, func(t *testing.T) {
			var rec, idx bytes.Buffer
			w := NewWriter(&rec)
			var ix Index
			for _, g := range recs {
				p := g.payload(t)
				if sum(p) != g.SHA256 {
					t.Fatalf("key %d: payload built in Go differs from the manifest's (sha256 %s, want %s)", g.Key, sum(p), g.SHA256)
				}
				if w.Offset() != g.Offset {
					t.Fatalf("key %d: Offset() = %d before writing, want %d", g.Key, w.Offset(), g.Offset)
				}
				off, err := w.Write(p)
				if err != nil {
					t.Fatal(err)
				}
				if off != g.Offset {
					t.Errorf("key %d: Write returned offset %d, want %d", g.Key, off, g.Offset)
				}
				ix = append(ix, Entry{Key: g.Key, Offset: off})
			}
			if _, err := ix.WriteTo(&idx); err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				path string
				got  []byte
			}{{name + ".rec", rec.Bytes()}, {name + ".idx", idx.Bytes()}} {
				want, err := os.ReadFile(filepath.Join("testdata", f.path))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(f.got, want) {
					i := 0
					for i < min(len(want), len(f.got)) && want[i] == f.got[i] {
						i++
					}
					t.Errorf("%s written in Go differs from the golden file: %d bytes, want %d; first difference at byte %d", f.path, len(f.got), len(want), i)
				}
			}
		})
	}
}

// TestReadGolden reads the golden files with the Reader, and with Open with
// and without the index.
func TestReadGolden(t *testing.T) {
	for name, recs := range readGolden(t) {
		path := filepath.Join("testdata", name+".rec")
		t.Run(name+"/Reader", func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r := NewReader(f)
			for _, g := range recs {
				p, err := r.Next()
				if err != nil {
					t.Fatalf("key %d: %v", g.Key, err)
				}
				if r.Offset() != g.Offset || len(p) != g.Bytes || sum(p) != g.SHA256 {
					t.Errorf("record at offset %d (%d bytes, sha256 %.12s), want offset %d (%d bytes, %.12s)", r.Offset(), len(p), sum(p), g.Offset, g.Bytes, g.SHA256)
				}
			}
			if p, err := r.Next(); err != io.EOF {
				t.Errorf("after the last record: Next() = %d bytes, %v; want io.EOF", len(p), err)
			}
		})
		for _, index := range []string{"", IndexPath(path)} {
			t.Run(name+"/Open/index="+index, func(t *testing.T) {
				f, err := Open(path, index)
				if err != nil {
					t.Fatal(err)
				}
				if f.Nobs() != len(recs) || f.Indexed() != (index != "") {
					t.Fatalf("Nobs() = %d, Indexed() = %v; want %d, %v", f.Nobs(), f.Indexed(), len(recs), index != "")
				}
				for i, g := range recs {
					key := int64(i)
					if index != "" {
						key = g.Key
					}
					if f.Key(i) != key || f.Offset(i) != g.Offset {
						t.Errorf("record %d: key %d at offset %d, want key %d at %d", i, f.Key(i), f.Offset(i), key, g.Offset)
					}
					if j, ok := f.Find(key); !ok || j != i {
						t.Errorf("Find(%d) = %d, %v; want %d, true", key, j, ok, i)
					}
					p := f.GetObs(i)
					if sum(p) != g.SHA256 {
						t.Errorf("record %d: GetObs gives %d bytes (sha256 %.12s), want %d (%.12s)", i, len(p), sum(p), g.Bytes, g.SHA256)
					}
					if g.Label == nil {
						continue
					}
					h, labels, img, err := Unpack(p, nil)
					if err != nil {
						t.Fatalf("record %d: %v", i, err)
					}
					want := Header{Flag: g.Flag, ID: g.ID, ID2: g.ID2}
					if g.Flag == 0 {
						want.Label = g.Label[0]
					}
					if d := cmp.Diff(want, h); d != "" {
						t.Errorf("record %d: header mismatch (-want +got):\n%s", i, d)
					}
					if d := cmp.Diff(g.Label, labels); d != "" {
						t.Errorf("record %d: labels mismatch (-want +got):\n%s", i, d)
					}
					if sum(img) != g.ImageSHA256 {
						t.Errorf("record %d: image of %d bytes, sha256 %.12s; want %.12s", i, len(img), sum(img), g.ImageSHA256)
					}
				}
				if _, ok := f.Find(1 << 40); ok {
					t.Errorf("Find(1<<40) found a record")
				}
			})
		}
	}
}

// TestIndexGolden checks that the index rebuilt from a scan lists the golden
// offsets, and that the golden index reads back as written.
func TestIndexGolden(t *testing.T) {
	for name, recs := range readGolden(t) {
		ix, err := LoadIndex(filepath.Join("testdata", name+".idx"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(filepath.Join("testdata", name+".rec"), "")
		if err != nil {
			t.Fatal(err)
		}
		scanned := f.Index()
		for i, g := range recs {
			if ix[i] != (Entry{g.Key, g.Offset}) || scanned[i] != (Entry{int64(i), g.Offset}) {
				t.Errorf("%s line %d: index %v, scan %v; want key %d at %d", name, i+1, ix[i], scanned[i], g.Key, g.Offset)
			}
		}
	}
}

func TestWriteTooLarge(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	// 2^29 bytes: one more than the 29 bits of a part's length hold.
	if _, err := w.Write(make([]byte, 1<<29)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Write of 2^29 bytes: %v, want ErrTooLarge", err)
	}
	if buf.Len() != 0 || w.Offset() != 0 {
		t.Fatalf("a refused record wrote %d bytes", buf.Len())
	}
	if off, err := w.Write([]byte("ok")); err != nil || off != 0 {
		t.Fatalf("Write after a refused record: %d, %v", off, err)
	}
}

// failing fails every write after n bytes.
type failing struct{ n int }

var errDisk = errors.New("disk full")

func (f *failing) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errDisk
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	w := NewWriter(&failing{n: 20})
	if _, err := w.Write([]byte("first record")); err != nil {
		t.Fatal(err)
	}
	_, err := w.Write([]byte("second record"))
	if !errors.Is(err, errDisk) {
		t.Fatalf("Write to a failing writer: %v, want the writer's error", err)
	}
	if _, err2 := w.Write([]byte("third")); err2 != err {
		t.Fatalf("Write after an error: %v, want the same error %v", err2, err)
	}
}
