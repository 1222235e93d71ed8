package arrowipc

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestCheckArrays: Open's check of a record batch against the schema refuses
// a validity bitmap or an offset buffer shorter than the rows need, of a
// column and of a list's values, with an ErrFormat naming the file, the
// batch's byte, the column and the sizes; the same batches with buffers of
// the right size pass. (The accessors check again, TestAccessorChecks: each
// check is tested alone, since either one keeps a damaged file from
// panicking.)
func TestCheckArrays(t *testing.T) {
	f := &File{name: "t.arrow"}
	i32 := Type{Kind: Int, Bits: 32, Signed: true}
	item := Field{Name: "item", Type: i32, Nullable: true}
	for _, tc := range []struct {
		name    string
		fd      Field
		nodes   []node
		buffers []int64 // lengths
		want    string  // "" for a batch that passes
	}{
		{"int32 with nulls", Field{Name: "x", Type: i32, Nullable: true}, []node{{10, 2}}, []int64{2, 40}, ""},
		{"short bitmap", Field{Name: "x", Type: i32, Nullable: true}, []node{{10, 2}}, []int64{1, 40}, `column "x": validity bitmap of 1 bytes for 10 rows`},
		{"short data", Field{Name: "x", Type: i32}, []node{{10, 0}}, []int64{0, 39}, `column "x": data buffer of 39 bytes for 10 rows`},
		{"utf8", Field{Name: "s", Type: Type{Kind: Utf8}}, []node{{10, 0}}, []int64{0, 44, 5}, ""},
		{"short offsets", Field{Name: "s", Type: Type{Kind: Utf8}}, []node{{10, 0}}, []int64{0, 40, 5}, `column "s": offset buffer of 40 bytes for 10 rows`},
		{"large_utf8 offsets", Field{Name: "s", Type: Type{Kind: LargeUtf8}}, []node{{10, 0}}, []int64{0, 87, 5}, `column "s": offset buffer of 87 bytes for 10 rows`},
		{"list", Field{Name: "l", Type: Type{Kind: List, Elem: &item}}, []node{{10, 0}, {30, 3}}, []int64{0, 44, 4, 120}, ""},
		{"list values' bitmap", Field{Name: "l", Type: Type{Kind: List, Elem: &item}}, []node{{10, 0}, {30, 3}}, []int64{0, 44, 3, 120}, `column "l.item": validity bitmap of 3 bytes for 30 rows`},
		{"list offsets", Field{Name: "l", Type: Type{Kind: List, Elem: &item}}, []node{{10, 0}, {30, 0}}, []int64{0, 43, 0, 120}, `column "l": offset buffer of 43 bytes for 10 rows`},
	} {
		b := batch{meta: batchMeta{length: 10, nodes: tc.nodes, codec: -1}}
		for _, n := range tc.buffers {
			b.meta.buffers = append(b.meta.buffers, bufSpan{len: n})
		}
		_, err := f.checkArrays("record batch", b, 64, []Field{tc.fd})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (!errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "t.arrow") || !strings.Contains(err.Error(), "record batch at byte 64: "+tc.want)):
			t.Errorf("%s: error %v, want ErrFormat naming t.arrow and saying %q", tc.name, err, tc.want)
		}
	}
}

// TestAccessorChecks: the accessors' own checks of the buffers of a batch
// they read: a validity bitmap shorter than its rows, offsets too few,
// negative, decreasing or past the values, are an ErrFormat naming the
// file, the column and the batch, never a panic; good offsets are returned.
func TestAccessorChecks(t *testing.T) {
	f := &File{name: "t.arrow"}
	if _, err := f.bitmap("x", 3, make([]byte, 2), 17, 1); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `column "x", batch 3: validity bitmap of 2 bytes for 17 rows`) {
		t.Errorf("bitmap of 2 bytes for 17 rows: %v, want ErrFormat", err)
	}
	if bits, err := f.bitmap("x", 3, make([]byte, 3), 17, 1); err != nil || len(bits) != 3 {
		t.Errorf("bitmap of 3 bytes for 17 rows: %v, %v; want the bitmap", bits, err)
	}
	if bits, err := f.bitmap("x", 3, nil, 17, 0); err != nil || bits != nil {
		t.Errorf("bitmap of no nulls: %v, %v; want nil, nil", bits, err)
	}
	offs := func(vs ...int32) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
		return b
	}
	for _, tc := range []struct {
		name string
		buf  []byte
		want string
	}{
		{"too few", offs(0, 2, 5), "offsets buffer"},
		{"negative", offs(-1, 2, 5, 5), "offset -1 of row 0"},
		{"decreasing", offs(0, 4, 3, 5), "offset 3 of row 2 (previous 4"},
		{"past the values", offs(0, 2, 5, 6), "offset 6 of row 3 (previous 5, 5 values)"},
	} {
		_, _, err := f.offsets("s", 1, tc.buf, 3, false, 5)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `column "s", batch 1`) || tc.name != "too few" && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("offsets %s: %v, want ErrFormat naming the column and batch, saying %q", tc.name, err, tc.want)
		}
	}
	if o32, _, err := f.offsets("s", 1, offs(0, 2, 2, 5), 3, false, 5); err != nil || len(o32) != 4 || o32[3] != 5 {
		t.Errorf("good offsets: %v, %v", o32, err)
	}
	large := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 0), 1<<40)
	if _, _, err := f.offsets("s", 1, large, 1, true, 5); !errors.Is(err, ErrFormat) {
		t.Errorf("a 64-bit offset past the values: %v, want ErrFormat", err)
	}
}
