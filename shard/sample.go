package shard

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/obskit/obskit/npy"
)

// A Sample is one observation of a shard set: its key and its fields, in the
// order they are stored. In a tar shard each field is the member KEY.NAME.
type Sample struct {
	Key    string
	Fields []Field
}

// A Field is one field of a sample: its name (the member's extension in a
// tar shard, such as "jpg", "cls" or "seg.png") and its bytes.
type Field struct {
	Name string
	Data []byte
}

// Get returns the bytes of the field name, and whether the sample has it.
func (s Sample) Get(name string) ([]byte, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// fieldNames yields the names of s's fields.
func (s *Sample) fieldNames(yield func(string) bool) {
	for _, f := range s.Fields {
		if !yield(f.Name) {
			return
		}
	}
}

// fieldPairs yields the names and bytes of s's fields.
func (s *Sample) fieldPairs(yield func(string, []byte) bool) {
	for _, f := range s.Fields {
		if !yield(f.Name, f.Data) {
			return
		}
	}
}

// ParseLabel reads the integer label a field holds: a .npy array of one
// integer element when the field's name ends with ".npy" (such as a label
// column written one row per sample), and otherwise decimal text, spaces
// around it allowed, as WebDataset's "cls" fields hold it ("7\n").
func ParseLabel(name string, data []byte) (int64, error) {
	if !strings.HasSuffix(name, ".npy") {
		v, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("label field %q: %q is not an integer", name, clip(data))
		}
		return v, nil
	}
	h, err := npy.ReadHeader(bytes.NewReader(data))
	if err != nil {
		return 0, fmt.Errorf("label field %q: %w", name, err)
	}
	if h.Len() != 1 || h.DataOffset+int64(h.Dtype.Size) != int64(len(data)) || (h.Dtype.Kind != 'i' && h.Dtype.Kind != 'u' && h.Dtype.Kind != 'b') {
		return 0, fmt.Errorf("label field %q: an array of shape %v and dtype %s (%d bytes), want one integer", name, h.Shape, h.Dtype, len(data))
	}
	return intAt(data[h.DataOffset:], h.Dtype)
}

// intAt reads one integer of dtype d from b.
func intAt(b []byte, d npy.Dtype) (int64, error) {
	var order binary.ByteOrder = binary.LittleEndian
	if d.BigEndian {
		order = binary.BigEndian
	}
	var u uint64
	switch d.Size {
	case 1:
		u = uint64(b[0])
		if d.Kind == 'i' {
			return int64(int8(b[0])), nil
		}
	case 2:
		u = uint64(order.Uint16(b))
		if d.Kind == 'i' {
			return int64(int16(u)), nil
		}
	case 4:
		u = uint64(order.Uint32(b))
		if d.Kind == 'i' {
			return int64(int32(u)), nil
		}
	case 8:
		u = order.Uint64(b)
		if d.Kind == 'i' {
			return int64(u), nil
		}
	default:
		return 0, fmt.Errorf("dtype %s: not an integer", d)
	}
	if u > math.MaxInt64 {
		return 0, fmt.Errorf("label %d: more than an int64 holds", u)
	}
	return int64(u), nil
}

// clip shortens b for a message.
func clip(b []byte) []byte {
	if len(b) > 32 {
		return append(b[:32:32], "..."...)
	}
	return b
}
