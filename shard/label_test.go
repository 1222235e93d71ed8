package shard_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/obskit/obskit/shard"
)

// npyOne returns a .npy file (format 1.0) of one element of dtype descr, its
// bytes v written in the dtype's byte order.
func npyOne(descr string, v any) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if strings.HasPrefix(descr, ">") {
		order = binary.BigEndian
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (1,), }", descr)
	pad := 64 - (10+len(dict)+1)%64
	dict += strings.Repeat(" ", pad%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(dict)))
	b.WriteString(dict)
	binary.Write(&b, order, v)
	return b.Bytes()
}

// TestParseLabelDtypes checks ParseLabel on a label of every integer dtype
// of .npy, negative values sign-extended and unsigned ones not, in both byte
// orders, and decimal text.
func TestParseLabelDtypes(t *testing.T) {
	for _, c := range []struct {
		descr string
		v     any
		want  int64
	}{
		{"|i1", int8(-3), -3}, {"|u1", uint8(250), 250}, {"|b1", uint8(1), 1},
		{"<i2", int16(-300), -300}, {">i2", int16(-300), -300}, {"<u2", uint16(65535), 65535},
		{"<i4", int32(-70000), -70000}, {">u4", uint32(1 << 31), 1 << 31},
		{"<i8", int64(-5), -5}, {">i8", int64(1) << 40, 1 << 40},
	} {
		got, err := shard.ParseLabel("label.npy", npyOne(c.descr, c.v))
		if err != nil || got != c.want {
			t.Errorf("ParseLabel of %s %v = %d, %v; want %d", c.descr, c.v, got, err, c.want)
		}
	}
	if got, err := shard.ParseLabel("cls", []byte(" -12\n")); err != nil || got != -12 {
		t.Errorf("ParseLabel of text %q = %d, %v; want -12", " -12\n", got, err)
	}
	if _, err := shard.ParseLabel("cls", []byte("7x")); err == nil || !strings.Contains(err.Error(), `"cls"`) {
		t.Errorf("ParseLabel of %q: %v, want an error naming the field", "7x", err)
	}
}
