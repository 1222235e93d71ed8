// Package state is the one encoding of the saved state of the kit's iterators
// (container.Iterator): eachobs' loops, the providers and the stages of package
// stream all save through a [Writer] and restore through a [Reader].
//
// A saved state is
//
//	magic "obskit\x00state" | version (uvarint) | kind (string) | records | CRC-32C
//
// The kind names the iterator that saved it ("eachobs.Loader", "stream"), so a
// state is never restored into an iterator of another kind. The records are the
// iterator's own: for a stream, each stage's kind, settings and state in the
// order of a walk from the consumer to the sources. The checksum (Castagnoli, 4
// bytes little-endian) covers everything before it and is verified before
// anything is decoded, so a damaged state is refused as such rather than
// restored into another iterator. Every length read is checked against the
// bytes left, so a damaged state allocates nothing in proportion to a number it
// holds.
package state

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/obskit/obskit/container"
)

// Magic opens every saved state.
const Magic = "obskit\x00state"

// Version is the version of the encoding this package writes and reads.
const Version = 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A Writer appends the records of a state. Its zero value appends records with
// no header: an iterator that snapshots a source's records (to keep with a
// value in flight) uses one that way, and [Writer.Raw] appends such records to
// a state. The first error (a value gob cannot encode) is kept and returned by
// [Writer.Finish].
type Writer struct {
	B   []byte
	err error
}

// Begin starts a state of an iterator of kind in buf (reused from its start).
func Begin(buf []byte, kind string) Writer {
	w := Writer{B: append(buf[:0], Magic...)}
	w.Uint(Version)
	w.String(kind)
	return w
}

// Finish appends the checksum and returns the state, or the first error.
func (w *Writer) Finish() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return binary.LittleEndian.AppendUint32(w.B, crc32.Checksum(w.B, castagnoli)), nil
}

// Fail records err as the writer's error unless one is recorded.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Err returns the first error.
func (w *Writer) Err() error { return w.err }

// Uint appends v as a uvarint.
func (w *Writer) Uint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }

// Int appends v as a varint.
func (w *Writer) Int(v int) { w.B = binary.AppendVarint(w.B, int64(v)) }

// Bool appends v as 0 or 1.
func (w *Writer) Bool(v bool) {
	if v {
		w.Uint(1)
	} else {
		w.Uint(0)
	}
}

// Bytes appends p with its length.
func (w *Writer) Bytes(p []byte) { w.Uint(uint64(len(p))); w.B = append(w.B, p...) }

// String appends s with its length.
func (w *Writer) String(s string) { w.Uint(uint64(len(s))); w.B = append(w.B, s...) }

// Float appends the 8 bytes of v, little-endian.
func (w *Writer) Float(v float64) {
	w.B = binary.LittleEndian.AppendUint64(w.B, math.Float64bits(v))
}

// Raw appends records written earlier by a zero Writer.
func (w *Writer) Raw(p []byte) { w.B = append(w.B, p...) }

// SaveValues appends vs, encoded with encoding/gob; op names the saving function
// in the error for values gob cannot encode.
func SaveValues[T any](w *Writer, op string, vs []T) {
	if w.err != nil {
		return
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(vs); err != nil {
		w.err = fmt.Errorf("%s: saving %d values of type %T: %w", op, len(vs), vs, err)
		return
	}
	w.Bytes(buf.Bytes())
}

// A Reader reads the records of a state back, keeping the first error, which
// names the operation, the record being read (counted from 0 in the order they
// were written) and its kind, and wraps container.ErrState.
type Reader struct {
	op   string
	b    []byte
	node int
	kind string
	err  error
}

// Open checks the magic, the version, the checksum and the kind of a state
// saved by an iterator of kind, and returns a Reader of its records. op names
// the restoring function in errors. A state that fails a check gives a Reader
// whose Err says which.
func Open(op string, data []byte, kind string) *Reader {
	r := &Reader{op: op, node: -1, kind: "header"}
	switch {
	case len(data) < len(Magic) || string(data[:len(Magic)]) != Magic:
		r.Fail("not a saved state of the kit (%d bytes)", len(data))
		return r
	case len(data) < len(Magic)+4:
		r.Fail("cut short (%d bytes)", len(data))
		return r
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		r.Fail("checksum %08x, the state says %08x: damaged or cut short", got, sum)
		return r
	}
	r.b = body[len(Magic):]
	if v := r.Uint(); r.err == nil && v != Version {
		r.Fail("version %d, this version of the kit reads version %d", v, Version)
	}
	if got := string(r.Bytes()); r.err == nil && got != kind {
		r.Fail("a state of %s, not of %s", got, kind)
	}
	return r
}

// Records returns a Reader of records written by a zero Writer (a snapshot),
// for op.
func Records(op string, p []byte) *Reader { return &Reader{op: op, b: p, node: -1, kind: "records"} }

// Err returns the first error.
func (r *Reader) Err() error { return r.err }

// Fail records the first error, naming the record being read.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		where := ""
		if r.node >= 0 {
			where = fmt.Sprintf("stage %d (%s): ", r.node, r.kind)
		} else if r.kind != "header" && r.kind != "records" {
			where = r.kind + ": "
		}
		r.err = fmt.Errorf("%s: %s%s: %w", r.op, where, fmt.Sprintf(format, args...), container.ErrState)
	}
}

// Wrap records err, a failure of something the state restores (a source that
// ends before the saved position), as the reader's error.
func (r *Reader) Wrap(what string, err error) {
	r.Fail("%s: %v", what, err)
}

// End checks that every byte was read.
func (r *Reader) End() error {
	if r.err == nil && len(r.b) > 0 {
		r.node, r.kind = -1, "end"
		r.Fail("%d bytes after the last record", len(r.b))
	}
	return r.err
}

// Left returns the bytes not yet read.
func (r *Reader) Left() []byte { return r.b }

// Uint reads a uvarint.
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.Fail("truncated or malformed number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Count reads a non-negative int.
func (r *Reader) Count() int {
	v := r.Uint()
	if v > math.MaxInt {
		r.Fail("count %d out of range", v)
		return 0
	}
	return int(v)
}

// Int reads a varint that fits an int.
func (r *Reader) Int() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || v > math.MaxInt || v < math.MinInt {
		r.Fail("truncated or malformed number")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// Bool reads a flag written by [Writer.Bool].
func (r *Reader) Bool() bool {
	switch r.Uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.Fail("malformed flag")
	return false
}

// Float reads a float written by [Writer.Float].
func (r *Reader) Float() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.Fail("truncated number")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// Bytes reads a length-prefixed byte string, aliasing the state; the length is
// checked against what is left, so a damaged length allocates nothing.
func (r *Reader) Bytes() []byte {
	n := r.Uint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.Fail("a field of %d bytes where %d are left", n, len(r.b))
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// String reads a length-prefixed string.
func (r *Reader) String() string { return string(r.Bytes()) }

// Enter starts reading the record of the next stage, whose kind must be kind.
func (r *Reader) Enter(kind string) {
	if r.err != nil {
		return
	}
	r.node++
	got := r.String()
	r.kind = kind
	if r.err == nil && got != kind {
		r.Fail("the state holds a %s here", got)
	}
}

// Setting checks that a setting saved with the state equals the iterator's.
func (r *Reader) Setting(name string, want int) {
	if got := r.Int(); r.err == nil && got != want {
		r.Fail("%s is %d in the state and %d here", name, got, want)
	}
}

// LoadValues reads values saved by [SaveValues]; at most limit of them.
func LoadValues[T any](r *Reader, limit int) []T {
	p := r.Bytes()
	if r.err != nil {
		return nil
	}
	var vs []T
	if err := gob.NewDecoder(bytes.NewReader(p)).Decode(&vs); err != nil {
		r.Fail("values of type %T: %v", vs, err)
		return nil
	}
	if len(vs) > limit {
		r.Fail("%d values where at most %d fit", len(vs), limit)
		return nil
	}
	return vs
}
