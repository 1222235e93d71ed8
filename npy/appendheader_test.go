package npy_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// TestAppendHeader: AppendHeader's bytes after what dst held, then an
// array's data, are a .npy file that reads back that array, for a matrix, a
// vector and a 0-d array.
func TestAppendHeader(t *testing.T) {
	f32 := npy.Dtype{Descr: "<f4", Kind: 'f', Size: 4}
	for _, shape := range [][]int{{2, 3}, {5}, nil} {
		n := 1
		for _, d := range shape {
			n *= d
		}
		var data []byte
		want := make([]float32, n)
		for i := range want {
			want[i] = float32(i) + 0.5
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(want[i]))
		}
		b := npy.AppendHeader([]byte("prefix"), npy.Header{Dtype: f32, Shape: shape})
		if !bytes.HasPrefix(b, []byte("prefix")) || (len(b)-6)%64 != 0 {
			t.Fatalf("shape %v: AppendHeader = %q, want the prefix then a multiple of 64 bytes", shape, b)
		}
		file := append(b[6:], data...)
		h, err := npy.ReadHeader(bytes.NewReader(file))
		if err != nil || h.Dtype != f32 || !slices.Equal(h.Shape, shape) || h.DataOffset != int64(len(b)-6) {
			t.Fatalf("shape %v: header read back %+v, %v", shape, h, err)
		}
		a, err := npy.Read[float32](bytes.NewReader(file), obsdim.First)
		if err != nil || !slices.Equal(a.Clone().Data(), want) {
			t.Fatalf("shape %v: read %v, %v, want %v", shape, a, err, want)
		}
	}
}
