package parquet

import (
	"encoding/binary"
	"fmt"
)

// Parquet's footer and page headers are Thrift structs in the compact
// protocol, which parquet-go decodes by allocating each length it reads (a
// string's bytes, a list's elements) before reading what the length covers: a
// damaged length of 2^31 costs gigabytes before the end of the input is
// found. thriftEnd walks a struct first, checking every length against the
// bytes left, so that parquet-go only decodes structs whose lengths the bytes
// hold: a list of n elements is followed by n elements, each at least a byte.

// Compact protocol types.
const (
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

// maxThriftDepth bounds the nesting of a Thrift value, so that a damaged one
// cannot recurse without end (Parquet's metadata nests a few levels).
const maxThriftDepth = 32

// thriftEnd returns the length of the struct at the start of b, or an error
// naming the byte of the first length that runs past the end of b.
func thriftEnd(b []byte) (n int, err error) {
	w := thriftWalk{b: b}
	if err := w.value(tStruct, 0); err != nil {
		return 0, err
	}
	return w.p, nil
}

type thriftWalk struct {
	b []byte
	p int
}

func (w *thriftWalk) errorf(format string, args ...any) error {
	return fmt.Errorf("thrift at byte %d: %s", w.p, fmt.Sprintf(format, args...))
}

func (w *thriftWalk) byte() (byte, error) {
	if w.p >= len(w.b) {
		return 0, w.errorf("past the end of the %d bytes", len(w.b))
	}
	w.p++
	return w.b[w.p-1], nil
}

func (w *thriftWalk) uvarint() (uint64, error) {
	v, k := binary.Uvarint(w.b[w.p:])
	if k <= 0 {
		return 0, w.errorf("a varint that does not end")
	}
	w.p += k
	return v, nil
}

// skip moves past n bytes, when there are n left.
func (w *thriftWalk) skip(n uint64) error {
	if n > uint64(len(w.b)-w.p) {
		return w.errorf("%d bytes claimed, %d left", n, len(w.b)-w.p)
	}
	w.p += int(n)
	return nil
}

// value walks one value of type t.
func (w *thriftWalk) value(t byte, depth int) error {
	if depth > maxThriftDepth {
		return w.errorf("values nested deeper than %d", maxThriftDepth)
	}
	switch t {
	case tTrue, tFalse, tByte:
		_, err := w.byte()
		return err
	case tI16, tI32, tI64:
		_, err := w.uvarint()
		return err
	case tDouble:
		return w.skip(8)
	case tUUID:
		return w.skip(16)
	case tBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case tList, tSet:
		h, err := w.byte()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0F
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		return w.elems(n, 1, []byte{et}, depth)
	case tMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		return w.elems(n, 2, []byte{kv >> 4, kv & 0x0F}, depth)
	case tStruct:
		for {
			h, err := w.byte()
			if err != nil {
				return err
			}
			if h == 0 {
				return nil // stop
			}
			if h>>4 == 0 { // the field id follows
				if _, err := w.uvarint(); err != nil {
					return err
				}
			}
			switch ft := h & 0x0F; ft {
			case tTrue, tFalse: // the value is in the header
			default:
				if err := w.value(ft, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return w.errorf("type %d", t)
}

// elems walks n elements of the types ts, each taking at least a byte, after
// checking that the bytes left can hold them.
func (w *thriftWalk) elems(n uint64, each uint64, ts []byte, depth int) error {
	if n > uint64(len(w.b)-w.p)/each {
		return w.errorf("%d elements claimed, %d bytes left", n, len(w.b)-w.p)
	}
	for range n {
		for _, t := range ts {
			if err := w.value(t, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
