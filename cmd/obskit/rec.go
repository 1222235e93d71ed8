package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/recordio"
	"golang.org/x/term"
)

// The rec group: MXNet's RecordIO files. pack (im2rec) is in rec_pack.go.
func init() {
	register(command{
		group: "rec", name: "pack", args: "PREFIX ROOT",
		summary: "as MXNet's im2rec: with --list, write PREFIX.lst (or chunks and splits of it) listing the images under ROOT; without, pack the images of every PREFIX*.lst into .rec and .idx files of the same names; all files or, on any failure, none (nothing is replaced); one JSON object per file written",
		flags:   packFlags,
	})
	register(command{
		group: "rec", name: "ls", args: "FILE.rec",
		summary: "print one JSON object per record, in file order: key, offset, flag, label, id, id2, bytes and sha256 of the image (with --raw: key, offset, bytes and sha256 of the payload)",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			raw := fs.Bool("raw", false, "do not parse records as images: print the size and hash of the whole payload")
			idx := fs.String("idx", "", "the index to take keys from (default: FILE.idx beside the file when it exists; keys are then the records' positions otherwise)")
			return func(e *env, args []string) error { return recLs(e, args, *raw, *idx) }
		},
	})
	register(command{
		group: "rec", name: "index", args: "FILE.rec",
		summary: "rebuild the index of a .rec file from a scan of its records: keys are the image records' ids (with --raw, the records' positions); print one JSON object",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			raw := fs.Bool("raw", false, "do not parse records as images: key each record by its position")
			out := fs.String("o", "", "the index file to write (default: FILE.idx beside the file)")
			force := fs.Bool("f", false, "replace the index file when it exists")
			return func(e *env, args []string) error { return recIndex(e, args, *raw, *out, *force) }
		},
	})
}

// recRecord is the JSON line of obskit rec ls. Key is null for a record its
// index does not list; Flag, Label, ID and ID2 are left out with --raw.
type recRecord struct {
	Key    *int64      `json:"key"`
	Offset int64       `json:"offset"`
	Flag   *uint32     `json:"flag,omitempty"`
	Label  []jsonFloat `json:"label,omitempty"`
	ID     *uint64     `json:"id,omitempty"`
	ID2    *uint64     `json:"id2,omitempty"`
	Bytes  int         `json:"bytes"`
	SHA256 string      `json:"sha256"`
}

// jsonFloat is a label in JSON: a number in its shortest float32 form, or the
// string "NaN", "Infinity" or "-Infinity", which JSON numbers cannot say.
type jsonFloat float32

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	switch x := float64(f); {
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	case math.IsInf(x, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Infinity"`), nil
	}
	return json.Marshal(float32(f))
}

// openScanned opens a .rec file by scanning it (every record, in file order)
// and returns the keys of its records: from the index at idx ("" for the one
// beside it, when it exists), else their positions. Every offset of the index
// must be a record the scan found.
func openScanned(path, idx string) (*recordio.File, func(i int) *int64, error) {
	f, err := recordio.Open(path, "")
	if err != nil {
		return nil, nil, err
	}
	if idx == "" {
		idx = recordio.IndexPath(path)
		if _, err := os.Stat(idx); errors.Is(err, fs.ErrNotExist) {
			return f, func(i int) *int64 { k := int64(i); return &k }, nil
		}
	}
	ix, err := recordio.LoadIndex(idx)
	if err != nil {
		return nil, nil, err
	}
	keys := make(map[int64]int64, len(ix))
	for _, e := range ix {
		keys[e.Offset] = e.Key
	}
	found := 0
	for i := range f.Nobs() {
		if _, ok := keys[f.Offset(i)]; ok {
			found++
		}
	}
	if found < len(ix) {
		for _, e := range ix {
			if i, ok := findOffset(f, e.Offset); !ok {
				return nil, nil, fmt.Errorf("recordio: %s: %w: key %d: offset %d is not the start of a record of %s (the record before it starts at %d)", idx, recordio.ErrFormat, e.Key, e.Offset, path, f.Offset(max(i-1, 0)))
			}
		}
	}
	return f, func(i int) *int64 {
		if k, ok := keys[f.Offset(i)]; ok {
			return &k
		}
		return nil
	}, nil
}

// findOffset returns the position of the record at off, or where it would be.
func findOffset(f *recordio.File, off int64) (int, bool) {
	lo, hi := 0, f.Nobs()
	for lo < hi {
		m := (lo + hi) / 2
		if f.Offset(m) < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < f.Nobs() && f.Offset(lo) == off
}

func recLs(e *env, args []string, raw bool, idx string) error {
	if len(args) != 1 {
		return usageErrorf("want one FILE.rec, got %d arguments", len(args))
	}
	f, keyOf, err := openScanned(args[0], idx)
	if err != nil {
		return err
	}
	// The bar only when the JSON lines go elsewhere than the terminal.
	p := progress.New(progress.Output(e.stderr, !terminal(e.stdout)))
	defer p.Stop()
	bar := p.Bar(filepath.Base(args[0]), int64(f.Nobs()), "records")
	defer bar.Done()
	enc := json.NewEncoder(e.stdout)
	var buf []byte
	var labels []float32
	for i := range f.Nobs() {
		bar.Add(1)
		if buf, err = f.AppendObs(buf[:0], i); err != nil {
			return err
		}
		r := recRecord{Key: keyOf(i), Offset: f.Offset(i)}
		data := buf
		if !raw {
			var h recordio.Header
			h, labels, data, err = recordio.Unpack(buf, labels[:0])
			if err != nil {
				return fmt.Errorf("recordio: %s: record %d at offset %d: %w (--raw lists records that are not image records)", args[0], i, f.Offset(i), err)
			}
			r.Flag, r.ID, r.ID2 = &h.Flag, &h.ID, &h.ID2
			r.Label = make([]jsonFloat, len(labels))
			for j, l := range labels {
				r.Label[j] = jsonFloat(l)
			}
		}
		sum := sha256.Sum256(data)
		r.Bytes, r.SHA256 = len(data), hex.EncodeToString(sum[:])
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// terminal says whether w is a terminal.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// recIndexed is the JSON line of obskit rec index.
type recIndexed struct {
	Rec     string `json:"rec"`
	Idx     string `json:"idx"`
	Records int    `json:"records"`
}

func recIndex(e *env, args []string, raw bool, out string, force bool) error {
	if len(args) != 1 {
		return usageErrorf("want one FILE.rec, got %d arguments", len(args))
	}
	path := args[0]
	if out == "" {
		out = recordio.IndexPath(path)
	}
	if _, err := os.Stat(out); err == nil && !force {
		return fmt.Errorf("%s exists: -f replaces it", out)
	}
	f, err := recordio.Open(path, "")
	if err != nil {
		return err
	}
	ix := f.Index() // keys are the positions
	if !raw {
		p := progress.New(progress.Output(e.stderr, true))
		defer p.Stop()
		bar := p.Bar(filepath.Base(path), int64(len(ix)), "records")
		defer bar.Done()
		seen := make(map[int64]int, len(ix))
		var buf []byte
		for i := range ix {
			bar.Add(1)
			if buf, err = f.AppendPrefix(buf[:0], i, recordio.HeaderSize); err != nil {
				return err
			}
			if len(buf) < recordio.HeaderSize {
				return fmt.Errorf("recordio: %s: record %d at offset %d: %w: %d bytes, shorter than an image header (--raw keys records by position)", path, i, ix[i].Offset, recordio.ErrFormat, len(buf))
			}
			id := binary.LittleEndian.Uint64(buf[8:])
			if id > math.MaxInt64 {
				return fmt.Errorf("recordio: %s: record %d at offset %d: id %d is too large for a key (--raw keys records by position)", path, i, ix[i].Offset, id)
			}
			if j, ok := seen[int64(id)]; ok {
				return fmt.Errorf("recordio: %s: records %d and %d (offsets %d and %d) have the same id %d, which cannot key both (--raw keys records by position)", path, j, i, ix[j].Offset, ix[i].Offset, id)
			}
			seen[int64(id)] = i
			ix[i].Key = int64(id)
		}
	}
	if err := writeFileAtomic(out, func(w io.Writer) error { _, err := ix.WriteTo(w); return err }); err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(recIndexed{Rec: path, Idx: out, Records: len(ix)})
}
