package arrowipc

import (
	"math"
	"testing"
)

// TestTypeString: every kind prints in Arrow's notation, as File.Field and
// obskit table's schema show it, with its width, unit, zone, element and
// children; a dictionary with its index type; an unknown kind by number.
func TestTypeString(t *testing.T) {
	i32 := Field{Name: "item", Type: Type{Kind: Int, Bits: 32, Signed: true}}
	utf8 := Type{Kind: Utf8}
	for _, tc := range []struct {
		f    Field
		want string
	}{
		{Field{Type: Type{Kind: Int, Bits: 16}}, "uint16"},
		{Field{Type: Type{Kind: Int, Bits: 8, Signed: true}}, "int8"},
		{Field{Type: Type{Kind: Float, Bits: 16}}, "float16"},
		{Field{Type: Type{Kind: Timestamp, Unit: "us", Zone: "UTC"}}, "timestamp[us, UTC]"},
		{Field{Type: Type{Kind: Timestamp, Unit: "ns"}}, "timestamp[ns]"},
		{Field{Type: Type{Kind: Date, Unit: "day"}}, "date[day]"},
		{Field{Type: Type{Kind: Time, Bits: 64, Unit: "ns"}}, "time[ns]"},
		{Field{Type: Type{Kind: Duration, Unit: "s"}}, "duration[s]"},
		{Field{Type: Type{Kind: FixedSizeBinary, Bits: 128}}, "fixed_size_binary[16]"},
		{Field{Type: Type{Kind: LargeList, Elem: &i32}}, "large_list<int32>"},
		{Field{Type: Type{Kind: FixedSizeList, Size: 3, Elem: &i32}}, "fixed_size_list<int32>[3]"},
		{Field{Type: Type{Kind: Struct, Children: []Field{i32, {Name: "s", Type: utf8}}}}, "struct<item: int32, s: utf8>"},
		{Field{Type: Type{Kind: Map, Children: []Field{{Name: "entries", Type: Type{Kind: Struct, Children: []Field{{Name: "key", Type: utf8}, i32}}}}}}, "map<entries: struct<key: utf8, item: int32>>"},
		{Field{Type: Type{Kind: Union}}, "union<>"},
		{Field{Type: Type{Kind: BinaryView}}, "binary_view"},
		{Field{Type: Type{Kind: Kind(200)}}, "kind(200)"},
		{Field{Type: utf8, Dict: &Type{Kind: Int, Bits: 8, Signed: true}}, "dictionary<int8, utf8>"},
	} {
		if got := tc.f.TypeString(); got != tc.want {
			t.Errorf("TypeString of %+v = %q, want %q", tc.f.Type, got, tc.want)
		}
	}
}

// TestSizes: the bytes a row of each fixed-width type takes at least, the
// buffers of each kind, which columns take bytes for every row (only those
// bound a row count by the file's size), and the product that refuses to
// overflow.
func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		want int64
	}{
		{Type{Kind: Int, Bits: 64}, 8}, {Type{Kind: Float, Bits: 16}, 2}, {Type{Kind: Time, Bits: 32}, 4},
		{Type{Kind: FixedSizeBinary, Bits: 24}, 3}, {Type{Kind: Date, Unit: "day"}, 4}, {Type{Kind: Date, Unit: "ms"}, 8},
		{Type{Kind: Timestamp}, 8}, {Type{Kind: Duration}, 8}, {Type{Kind: Decimal}, 4}, {Type{Kind: Interval}, 4},
	} {
		if got := fixedWidth(tc.t); got != tc.want {
			t.Errorf("fixedWidth(%s) = %d, want %d", tc.t, got, tc.want)
		}
	}
	for k, want := range map[Kind]int{
		Null: 0, RunEndEncoded: 0, Struct: 1, FixedSizeList: 1, Binary: 3, LargeUtf8: 3, ListView: 3,
		LargeListView: 3, Int: 2, List: 2, BinaryView: 2, Bool: 2,
	} {
		if got := buffersOf(Type{Kind: k}); got != want {
			t.Errorf("buffersOf(%s) = %d, want %d", k, got, want)
		}
	}
	if buffersOf(Type{Kind: Union}) != 1 || buffersOf(Type{Kind: Union, Dense: true}) != 2 {
		t.Errorf("buffersOf a sparse and a dense union = %d, %d, want 1, 2", buffersOf(Type{Kind: Union}), buffersOf(Type{Kind: Union, Dense: true}))
	}
	null := Field{Type: Type{Kind: Null}}
	i8 := Field{Type: Type{Kind: Int, Bits: 8}}
	for _, tc := range []struct {
		f    Field
		want bool
	}{
		{i8, true},
		{null, false},
		{Field{Type: Type{Kind: RunEndEncoded}}, false},
		{Field{Type: null.Type, Dict: &i8.Type}, true},
		{Field{Type: Type{Kind: FixedSizeBinary, Bits: 0}}, false},
		{Field{Type: Type{Kind: FixedSizeBinary, Bits: 8}}, true},
		{Field{Type: Type{Kind: FixedSizeList, Size: 0, Elem: &i8}}, false},
		{Field{Type: Type{Kind: FixedSizeList, Size: 2, Elem: &null}}, false},
		{Field{Type: Type{Kind: FixedSizeList, Size: 2, Elem: &i8}}, true},
		{Field{Type: Type{Kind: Struct, Children: []Field{null, null}}}, false},
		{Field{Type: Type{Kind: Struct, Children: []Field{null, i8}}}, true},
	} {
		if got := backed(tc.f); got != tc.want {
			t.Errorf("backed(%s) = %v, want %v", tc.f.TypeString(), got, tc.want)
		}
	}
	if mul(3, 5) != 15 || mul(math.MaxInt64/2+1, 2) != -1 || mul(math.MaxInt64, 0) != 0 {
		t.Errorf("mul: 3*5 = %d, overflow %d, n*0 = %d; want 15, -1, 0", mul(3, 5), mul(math.MaxInt64/2+1, 2), mul(math.MaxInt64, 0))
	}
}
