package wds

import (
	"archive/tar"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"time"
)

// A Writer writes samples into a tar shard that webdataset (and Python's
// tarfile, and tar) reads: each field of a sample is a regular file named
// KEY.FIELD, in the order given. Headers are ustar, or PAX for a name ustar
// cannot hold (long or not ASCII), with mode 0644, owner 0 and modification
// time 0, so that the same samples give the same bytes.
type Writer struct {
	cw      countWriter
	tw      *tar.Writer
	last    string
	members []Member
	err     error
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// NewWriter returns a Writer that writes a tar stream to w.
func NewWriter(w io.Writer) *Writer {
	t := &Writer{cw: countWriter{w: w}}
	t.tw = tar.NewWriter(&t.cw)
	return t
}

// Offset returns the bytes written so far, end-of-archive blocks included
// once Close has written them.
func (w *Writer) Offset() int64 { return w.cw.n }

// ErrSample is wrapped by the error of a sample that would not read back as
// written.
var ErrSample = errors.New("sample cannot be written to a tar shard")

// CheckSample returns an error wrapping [ErrSample] when the fields of a
// sample of key would not read back as that sample from a tar shard: an empty
// key or field, a field that is not lower-case, holds a slash or appears
// twice, a key whose last element holds a dot, a name webdataset skips as
// metadata or a field it reserves. Writer.WriteSample checks this, and that
// the key differs from the previous sample's, whose sample it would join.
func CheckSample(key string, fields iter.Seq[string]) error {
	if key == "" {
		return fmt.Errorf("%w: empty key", ErrSample)
	}
	var seen []string
	for f := range fields {
		name := key + "." + f
		k, ext, ok := KeyExt(name)
		switch {
		case f == "":
			return fmt.Errorf("%w: sample %q: empty field name", ErrSample, key)
		case !ok || k != key || ext != f:
			return fmt.Errorf("%w: sample %q: member %q would be read as key %q, field %q (a key's last element holds no dot, a field no slash)", ErrSample, key, name, k, ext)
		case Field(f) != f:
			return fmt.Errorf("%w: sample %q: field %q would be read as %q (fields are lower-cased)", ErrSample, key, f, Field(f))
		case Meta(name):
			return fmt.Errorf("%w: sample %q: member %q is a name webdataset skips as metadata", ErrSample, key, name)
		case Reserved(f):
			return fmt.Errorf("%w: sample %q: field %q is reserved by webdataset", ErrSample, key, f)
		}
		for _, s := range seen {
			if s == f {
				return fmt.Errorf("%w: sample %q: field %q twice", ErrSample, key, f)
			}
		}
		seen = append(seen, f)
	}
	if len(seen) == 0 {
		return fmt.Errorf("%w: sample %q has no field", ErrSample, key)
	}
	return nil
}

// WriteSample writes a sample: the fields fields yields, each a name and its
// bytes, as members KEY.NAME. It returns the members written (offsets, sizes,
// CRC-32C; valid until the next call), or an error wrapping [ErrSample] (see
// [CheckSample]; then nothing is written) or the writer's. After a write
// error the Writer fails every call.
func (w *Writer) WriteSample(key string, fields iter.Seq2[string, []byte]) ([]Member, error) {
	if w.err != nil {
		return nil, w.err
	}
	names := func(yield func(string) bool) {
		for f := range fields {
			if !yield(f) {
				return
			}
		}
	}
	if err := CheckSample(key, names); err != nil {
		return nil, err
	}
	if key == w.last {
		return nil, fmt.Errorf("%w: sample %q follows a sample of the same key, which it would join when read", ErrSample, key)
	}
	w.last = key
	w.members = w.members[:0]
	for f, data := range fields {
		if err := w.tw.Flush(); err != nil {
			w.err = err
			return nil, err
		}
		m := Member{Name: key + "." + f, Field: f, Header: w.cw.n, Size: int64(len(data))}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: m.Name, Mode: 0o644, Size: m.Size, ModTime: time.Unix(0, 0)}
		if err := w.tw.WriteHeader(hdr); err != nil {
			w.err = err
			return nil, err
		}
		m.Offset = w.cw.n
		if _, err := w.tw.Write(data); err != nil {
			w.err = err
			return nil, err
		}
		m.CRC = crc32.Checksum(data, CRC)
		w.members = append(w.members, m)
	}
	return w.members, nil
}

// Close writes the end-of-archive blocks. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	w.err = errors.New("wds: write after Close")
	return w.tw.Close()
}
