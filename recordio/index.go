package recordio

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/obskit/obskit/fileio"
)

// An Entry is one line of an index: the key of a record and the offset of its
// first byte in the .rec file.
type Entry struct {
	Key    int64
	Offset int64
}

// An Index lists the records of a .rec file by key: the .idx file that MXNet's
// MXIndexedRecordIO and im2rec write beside it, one line "key\toffset" per
// record, in the order the records were written. im2rec's keys are the image
// indices of its .lst file, also the ID of each record's [Header].
type Index []Entry

// LoadIndex reads the index file at path (see [ReadIndex]).
func LoadIndex(path string) (Index, error) {
	f, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadIndex(f)
}

// ReadIndex reads an index: lines of a decimal key (any int64), a tab and a
// decimal offset, as MXIndexedRecordIO writes them. Spaces and a carriage
// return around a line are ignored, and so are blank lines; the last line may
// lack its newline. The entries come back in the order of the lines.
//
// ReadIndex returns an error wrapping [ErrFormat] that names the stream and the
// line for a line that is not two integers separated by a tab, a negative
// offset or one that is not a multiple of 4 (every record starts at one), and
// for two lines with the same key or the same offset. Whether the offsets are
// record starts of a particular file is checked by [Open] and [NewFile] (in
// range) and by each read (a record starts there).
func ReadIndex(r io.Reader) (Index, error) {
	name := fileio.Name(r)
	var ix Index
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<16)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		e, err := parseEntry(text)
		if err != nil {
			return nil, format.Errorf(name, ErrFormat, "line %d: %v", line, err)
		}
		ix = append(ix, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, format.Errorf(name, ErrFormat, "line %d: longer than 64 KiB: not an index", line+1)
		}
		return nil, format.Wrap(name, err)
	}
	if err := ix.check(); err != nil {
		return nil, format.Errorf(name, ErrFormat, "%v", err)
	}
	return ix, nil
}

// parseEntry parses "key\toffset".
func parseEntry(text string) (Entry, error) {
	k, o, ok := strings.Cut(text, "\t")
	if !ok {
		return Entry{}, errors.New("no tab between a key and an offset: " + strconv.Quote(text))
	}
	key, err := strconv.ParseInt(strings.TrimSpace(k), 10, 64)
	if err != nil {
		return Entry{}, errors.New("key " + strconv.Quote(k) + " is not a decimal integer")
	}
	off, err := strconv.ParseInt(strings.TrimSpace(o), 10, 64)
	switch {
	case err != nil:
		return Entry{}, errors.New("offset " + strconv.Quote(o) + " is not a decimal integer")
	case off < 0:
		return Entry{}, errors.New("negative offset " + o)
	case off%4 != 0:
		return Entry{}, errors.New("offset " + o + " is not a multiple of 4: no record starts there")
	}
	return Entry{Key: key, Offset: off}, nil
}

// check reports two entries with one key or one offset.
func (ix Index) check() error {
	for _, by := range []struct {
		what string
		f    func(Entry) int64
		g    func(Entry) int64
	}{
		{"key", func(e Entry) int64 { return e.Key }, func(e Entry) int64 { return e.Offset }},
		{"offset", func(e Entry) int64 { return e.Offset }, func(e Entry) int64 { return e.Key }},
	} {
		s := slices.SortedFunc(slices.Values(ix), func(a, b Entry) int { return cmp.Compare(by.f(a), by.f(b)) })
		for i := 1; i < len(s); i++ {
			if by.f(s[i]) == by.f(s[i-1]) {
				return errors.New(by.what + " " + strconv.FormatInt(by.f(s[i]), 10) + " is listed twice (" +
					strconv.FormatInt(by.g(s[i-1]), 10) + " and " + strconv.FormatInt(by.g(s[i]), 10) + ")")
			}
		}
	}
	return nil
}

// WriteTo writes the index to w as MXIndexedRecordIO writes it, one line
// "key\toffset\n" per entry in order, and returns the number of bytes written.
func (ix Index) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	var n int64
	for i, e := range ix {
		b.WriteString(strconv.FormatInt(e.Key, 10))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		b.WriteByte('\n')
		if b.Len() >= 32<<10 || i == len(ix)-1 {
			k, err := w.Write(b.Bytes())
			n += int64(k)
			if err != nil {
				return n, err
			}
			b.Reset()
		}
	}
	return n, nil
}

// IndexPath returns the path of the index beside the .rec file rec, as im2rec
// names it: rec with its extension replaced by ".idx" ("train.rec" gives
// "train.idx").
func IndexPath(rec string) string {
	dir, base := filepath.Split(rec)
	// The extension is the last dot's, not counting leading dots
	// (os.path.splitext).
	if i := strings.LastIndexByte(base, '.'); i > 0 && strings.TrimLeft(base[:i], ".") != "" {
		base = base[:i]
	}
	return dir + base + ".idx"
}
