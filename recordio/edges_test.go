package recordio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestMaxSizeFitsLengthWord checks that MaxSize is the largest length a
// part's 29-bit length field holds: it survives the length word beside any
// flag, and one byte more does not.
func TestMaxSizeFitsLengthWord(t *testing.T) {
	for _, flag := range []uint32{whole, first, middle, last} {
		w := lengthWord(flag, MaxSize)
		if partLen(w) != MaxSize || partFlag(w) != flag {
			t.Errorf("length word of flag %d and length MaxSize decodes as flag %d length %d", flag, partFlag(w), partLen(w))
		}
		if w := lengthWord(flag, MaxSize+1); partLen(w) == MaxSize+1 && partFlag(w) == flag {
			t.Errorf("length word of flag %d and length MaxSize+1 decodes as written: MaxSize is not the largest", flag)
		}
	}
}

// TestTruncatedSplitRecord checks the error of a stream that ends inside a
// split record, after its first part: it names the offset where the part
// header was cut and the offset where the record starts, after a whole
// record before it.
func TestTruncatedSplitRecord(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if _, err := w.Write([]byte("a first record")); err != nil {
		t.Fatal(err)
	}
	// The magic at an aligned offset of the payload splits the record there.
	split := binary.LittleEndian.AppendUint32([]byte("abcd"), Magic)
	split = append(split, "tail"...)
	start, err := w.Write(split)
	if err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if got := partFlag(binary.LittleEndian.Uint32(b[start+4:])); got != first {
		t.Fatalf("the record at %d has flag %d, want %d (split)", start, got, first)
	}
	// Cut three bytes into the second part's header.
	cut := start + headerSize + pad4(int64(partLen(binary.LittleEndian.Uint32(b[start+4:])))) + 3
	r := NewReader(bytes.NewReader(b[:cut]))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	want := fmt.Sprintf("offset %d: the split record from offset %d ends after 3 of the 8 bytes", cut-3, start)
	if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Next of a stream cut in a split record: %v, want ErrFormat and io.ErrUnexpectedEOF saying %q", err, want)
	}
}
