package arrowipc

import (
	"encoding/binary"
	"fmt"
)

// Arrow's metadata (the schema, the record batch and dictionary batch headers,
// the file footer) are FlatBuffers tables. This file reads the few tables the
// format defines, with every offset checked against the buffer: a table is a
// position whose first 4 bytes point back to its vtable, the vtable lists the
// position of each field in the table (0 when the field is absent), and a vector
// or string is an offset to a 4-byte length followed by its elements.
//
// A bad offset panics with a fbError, which the one function that reads a
// message (parseMessage, parseFooter) recovers into an error: the readers stay
// short, and no malformed buffer can read outside itself.

type fbError struct{ msg string }

func fbFail(format string, args ...any) {
	panic(fbError{fmt.Sprintf(format, args...)})
}

// fbRecover turns a fbError panic into *err; other panics go on.
func fbRecover(err *error) {
	if r := recover(); r != nil {
		e, ok := r.(fbError)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("%s", e.msg)
	}
}

// A table is a FlatBuffers table: the buffer and the table's position.
type table struct {
	b   []byte
	pos int
}

func u32(b []byte, at int) uint32 {
	if at < 0 || at+4 > len(b) {
		fbFail("offset %d outside the %d-byte metadata", at, len(b))
	}
	return binary.LittleEndian.Uint32(b[at:])
}

func u16(b []byte, at int) uint16 {
	if at < 0 || at+2 > len(b) {
		fbFail("offset %d outside the %d-byte metadata", at, len(b))
	}
	return binary.LittleEndian.Uint16(b[at:])
}

// root returns the table a buffer's first offset points to.
func root(b []byte) table {
	return table{b, int(u32(b, 0))}
}

// field returns the position of field k of t, or 0 when it is absent.
func (t table) field(k int) int {
	vt := t.pos - int(int32(u32(t.b, t.pos)))
	vlen := int(u16(t.b, vt))
	if vlen < 4 || vlen%2 != 0 {
		fbFail("vtable of %d bytes", vlen)
	}
	at := 4 + 2*k
	if at+2 > vlen {
		return 0
	}
	off := int(u16(t.b, vt+at))
	if off == 0 {
		return 0
	}
	return t.pos + off
}

func (t table) int64(k int, def int64) int64 {
	p := t.field(k)
	if p == 0 {
		return def
	}
	if p+8 > len(t.b) {
		fbFail("field at %d outside the metadata", p)
	}
	return int64(binary.LittleEndian.Uint64(t.b[p:]))
}

func (t table) int32(k int, def int32) int32 {
	p := t.field(k)
	if p == 0 {
		return def
	}
	return int32(u32(t.b, p))
}

func (t table) int16(k int, def int16) int16 {
	p := t.field(k)
	if p == 0 {
		return def
	}
	return int16(u16(t.b, p))
}

func (t table) uint8(k int, def uint8) uint8 {
	p := t.field(k)
	if p == 0 {
		return def
	}
	if p >= len(t.b) {
		fbFail("field at %d outside the metadata", p)
	}
	return t.b[p]
}

func (t table) bool(k int) bool { return t.uint8(k, 0) != 0 }

// ref returns the position an offset field points to, or 0 when absent.
func (t table) ref(k int) int {
	p := t.field(k)
	if p == 0 {
		return 0
	}
	return p + int(u32(t.b, p))
}

// table returns the table field k points to; ok is false when it is absent.
func (t table) table(k int) (table, bool) {
	p := t.ref(k)
	if p == 0 {
		return table{}, false
	}
	return table{t.b, p}, true
}

func (t table) string(k int) string {
	p := t.ref(k)
	if p == 0 {
		return ""
	}
	n := int(u32(t.b, p))
	if n < 0 || p+4+n > len(t.b) {
		fbFail("string of %d bytes at %d outside the metadata", n, p)
	}
	return string(t.b[p+4 : p+4+n])
}

// vector returns the start and length of the vector field k points to, each
// element of elem bytes.
func (t table) vector(k, elem int) (start, n int) {
	p := t.ref(k)
	if p == 0 {
		return 0, 0
	}
	n = int(u32(t.b, p))
	if n < 0 || n > (len(t.b)-p-4)/elem {
		fbFail("vector of %d elements at %d outside the metadata", n, p)
	}
	return p + 4, n
}

// tables returns the tables of the vector of tables at field k.
func (t table) tables(k int) []table {
	start, n := t.vector(k, 4)
	out := make([]table, n)
	for i := range out {
		at := start + 4*i
		out[i] = table{t.b, at + int(u32(t.b, at))}
	}
	return out
}

// structs returns the raw bytes of each struct of the vector at field k.
func (t table) structs(k, size int) [][]byte {
	start, n := t.vector(k, size)
	out := make([][]byte, n)
	for i := range out {
		out[i] = t.b[start+size*i : start+size*(i+1)]
	}
	return out
}
