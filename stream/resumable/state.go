package resumable

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
)

// ErrState is wrapped by the error [Stream.Start] returns for a state it cannot
// resume from: not a state of this package, a version it does not read, a state
// cut short or damaged (its checksum does not match), or the state of another
// pipeline (a node of another kind, or with another setting, such as a buffer
// size). The message says which check failed; for another pipeline, it names
// the node, counted from the consumer's end, and what differs.
var ErrState = errors.New("state does not fit the stream")

// The saved form of a pass, inside the envelope of envelope.go: each node's
// record in the order of a walk from the consumer's end to the sources: its
// kind, its settings (checked on resume), its state, its sources' records.

// A writer appends the records of a pass's nodes.
type writer struct {
	b   []byte
	err error
}

func (w *writer) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) int(v int)     { w.b = binary.AppendVarint(w.b, int64(v)) }
func (w *writer) bool(v bool) {
	if v {
		w.uint(1)
	} else {
		w.uint(0)
	}
}
func (w *writer) bytes(p []byte) { w.uint(uint64(len(p))); w.b = append(w.b, p...) }
func (w *writer) str(s string)   { w.uint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *writer) float(v float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

// saveValues appends vs, encoded with encoding/gob.
func saveValues[T any](w *writer, vs []T) {
	if w.err != nil {
		return
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(vs); err != nil {
		w.err = fmt.Errorf("resumable.Pass.Save: saving %d values of type %T: %w", len(vs), vs, err)
		return
	}
	w.bytes(buf.Bytes())
}

// A reader reads the records of a pass's nodes back, keeping the first error.
type reader struct {
	b    []byte
	node int    // the number of the node being read, from 0 at the consumer's end
	kind string // its kind
	err  error
}

// fail records the first error, naming the node being read.
func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("resumable.Stream.Start: node %d (%s): %s: %w", r.node, r.kind, fmt.Sprintf(format, args...), ErrState)
	}
}

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("truncated or malformed number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a non-negative int.
func (r *reader) count() int {
	v := r.uint()
	if v > math.MaxInt {
		r.fail("count %d out of range", v)
		return 0
	}
	return int(v)
}

func (r *reader) int() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || v > math.MaxInt || v < math.MinInt {
		r.fail("truncated or malformed number")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("malformed flag")
	return false
}

func (r *reader) float() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.fail("truncated number")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// bytes reads a length-prefixed byte string; the length is checked against what
// is left, so a damaged length allocates nothing.
func (r *reader) bytes() []byte {
	n := r.uint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail("a field of %d bytes where %d are left", n, len(r.b))
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// enter starts reading the record of the next node, whose kind must be kind.
func (r *reader) enter(kind string) {
	if r.err != nil {
		return
	}
	r.node++
	got := string(r.bytes())
	r.kind = kind
	if r.err == nil && got != kind {
		r.fail("the state holds a %s here", got)
	}
}

// setting checks that a setting saved with the state equals the stream's.
func (r *reader) setting(name string, want int) {
	if got := r.int(); r.err == nil && got != want {
		r.fail("%s is %d in the state and %d in the stream", name, got, want)
	}
}

// loadValues reads values saved by saveValues; at most limit of them.
func loadValues[T any](r *reader, limit int) []T {
	p := r.bytes()
	if r.err != nil {
		return nil
	}
	var vs []T
	if err := gob.NewDecoder(bytes.NewReader(p)).Decode(&vs); err != nil {
		r.fail("values of type %T: %v", vs, err)
		return nil
	}
	if len(vs) > limit {
		r.fail("%d values where at most %d fit", len(vs), limit)
		return nil
	}
	return vs
}
