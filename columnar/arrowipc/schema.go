package arrowipc

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// A Kind is the type of a column, as the Arrow format names it.
type Kind uint8

// The kinds of Arrow columns. The kit reads the ones listed with a container in
// the package documentation; a schema may list the others, which [File.Field]
// describes and every typed accessor refuses with an error naming the column.
const (
	Null Kind = iota + 1
	Int
	Float
	Binary
	Utf8
	Bool
	Decimal
	Date
	Time
	Timestamp
	Interval
	List
	Struct
	Union
	FixedSizeBinary
	FixedSizeList
	Map
	Duration
	LargeBinary
	LargeUtf8
	LargeList
	RunEndEncoded
	BinaryView
	Utf8View
	ListView
	LargeListView
)

var kindNames = [...]string{
	Null: "null", Int: "int", Float: "float", Binary: "binary", Utf8: "utf8", Bool: "bool",
	Decimal: "decimal", Date: "date", Time: "time", Timestamp: "timestamp", Interval: "interval",
	List: "list", Struct: "struct", Union: "union", FixedSizeBinary: "fixed_size_binary",
	FixedSizeList: "fixed_size_list", Map: "map", Duration: "duration", LargeBinary: "large_binary",
	LargeUtf8: "large_utf8", LargeList: "large_list", RunEndEncoded: "run_end_encoded",
	BinaryView: "binary_view", Utf8View: "utf8_view", ListView: "list_view", LargeListView: "large_list_view",
}

// String returns the kind's name in Arrow's words, such as "fixed_size_list".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// A Type is the type of a column.
type Type struct {
	Kind Kind
	// Bits is the width of an Int (8, 16, 32, 64), Float (16, 32, 64) or
	// Time (32, 64), and the byte width times 8 of a FixedSizeBinary.
	Bits   int
	Signed bool // an Int is signed
	// Unit is the unit of a Timestamp, Time, Duration or Date: "s", "ms", "us",
	// "ns", or "day" for a Date.
	Unit string
	Zone string // the time zone of a Timestamp, "" for none
	// Size is the number of values of a FixedSizeList.
	Size int
	// Elem is the type of the values of a List, LargeList or FixedSizeList.
	Elem *Field
	// Children are the fields of a Struct, Map, Union or RunEndEncoded.
	Children []Field
	// Dense reports a dense Union (a sparse one has no offsets buffer).
	Dense bool
}

// A Field is a column (or the values of a list) of the schema.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
	// Dict is the type of the indices when the column is dictionary-encoded
	// (Type is then the type of the values), nil otherwise.
	Dict *Type
	// DictID is the id of the dictionary of a dictionary-encoded column.
	DictID int64
}

// String returns the type in Arrow's notation: "int64", "float32",
// "fixed_size_list<float32>[784]", "list<int32>", "dictionary<int32, utf8>",
// "timestamp[ms, UTC]".
func (t Type) String() string {
	switch t.Kind {
	case Int:
		if t.Signed {
			return fmt.Sprintf("int%d", t.Bits)
		}
		return fmt.Sprintf("uint%d", t.Bits)
	case Float:
		return fmt.Sprintf("float%d", t.Bits)
	case Timestamp:
		if t.Zone != "" {
			return fmt.Sprintf("timestamp[%s, %s]", t.Unit, t.Zone)
		}
		return fmt.Sprintf("timestamp[%s]", t.Unit)
	case Date, Time, Duration:
		return fmt.Sprintf("%s[%s]", t.Kind, t.Unit)
	case FixedSizeBinary:
		return fmt.Sprintf("fixed_size_binary[%d]", t.Bits/8)
	case List, LargeList:
		return fmt.Sprintf("%s<%s>", t.Kind, t.Elem.Type)
	case FixedSizeList:
		return fmt.Sprintf("fixed_size_list<%s>[%d]", t.Elem.Type, t.Size)
	case Struct, Map, Union:
		var b strings.Builder
		b.WriteString(t.Kind.String() + "<")
		for i, c := range t.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Name + ": " + c.Type.String())
		}
		return b.String() + ">"
	}
	return t.Kind.String()
}

// TypeString returns the field's type, with its dictionary encoding:
// "dictionary<int32, utf8>".
func (f Field) TypeString() string {
	if f.Dict != nil {
		return fmt.Sprintf("dictionary<%s, %s>", f.Dict, f.Type)
	}
	return f.Type.String()
}

// maxDepth bounds the nesting of fields a schema may have, so that a malformed
// schema cannot recurse without end.
const maxDepth = 32

var timeUnits = [...]string{"s", "ms", "us", "ns"}

func unit(u int16) string {
	if u < 0 || int(u) >= len(timeUnits) {
		fbFail("time unit %d", u)
	}
	return timeUnits[u]
}

// parseField reads a Field table. budget is the number of fields the
// metadata can still hold: each field of a tree takes an entry of 4 bytes in
// a vector, so a schema whose vectors point at one table many times (a
// graph, not a tree) runs out of it rather than out of memory.
func parseField(t table, depth int, budget *int) Field {
	if depth > maxDepth {
		fbFail("fields nested deeper than %d", maxDepth)
	}
	if *budget--; *budget < 0 {
		fbFail("more fields than the %d-byte metadata holds", len(t.b))
	}
	f := Field{Name: t.string(0), Nullable: t.bool(1)}
	tt, _ := t.table(3)
	kind := Kind(t.uint8(2, 0))
	f.Type = Type{Kind: kind}
	children := t.tables(5)
	ty := &f.Type
	switch kind {
	case Int:
		ty.Bits, ty.Signed = int(tt.int32(0, 0)), tt.bool(1)
		if ty.Bits != 8 && ty.Bits != 16 && ty.Bits != 32 && ty.Bits != 64 {
			fbFail("field %q: int of %d bits", f.Name, ty.Bits)
		}
	case Float:
		p := tt.int16(0, 0) // Arrow's Precision: HALF, SINGLE, DOUBLE
		if p < 0 || p > 2 {
			fbFail("field %q: floating-point precision %d", f.Name, p)
		}
		ty.Bits = 16 << p
	case Timestamp:
		ty.Unit, ty.Zone = unit(tt.int16(0, 0)), tt.string(1)
	case Time, Duration:
		ty.Unit = unit(tt.int16(0, 1))
		if kind == Time {
			if ty.Bits = int(tt.int32(1, 32)); ty.Bits != 32 && ty.Bits != 64 {
				fbFail("field %q: time of %d bits", f.Name, ty.Bits)
			}
		}
	case Date:
		ty.Unit = "day"
		if tt.int16(0, 1) == 1 {
			ty.Unit = "ms"
		}
	case FixedSizeBinary:
		ty.Bits = 8 * int(tt.int32(0, 0))
		if ty.Bits < 0 {
			fbFail("field %q: fixed_size_binary of %d bytes", f.Name, ty.Bits/8)
		}
	case FixedSizeList:
		ty.Size = int(tt.int32(0, 0))
		if ty.Size < 0 {
			fbFail("field %q: fixed_size_list of %d values", f.Name, ty.Size)
		}
	case Union:
		ty.Dense = tt.int16(0, 0) == 1
	case 0:
		fbFail("field %q has no type", f.Name)
	}
	switch kind {
	case List, LargeList, FixedSizeList, ListView, LargeListView:
		if len(children) != 1 {
			fbFail("field %q: %s with %d children, want 1", f.Name, kind, len(children))
		}
		e := parseField(children[0], depth+1, budget)
		ty.Elem = &e
	default:
		for _, c := range children {
			ty.Children = append(ty.Children, parseField(c, depth+1, budget))
		}
	}
	if d, ok := t.table(4); ok {
		f.DictID = d.int64(0, 0)
		idx := Type{Kind: Int, Bits: 32, Signed: true}
		if it, ok := d.table(1); ok {
			idx.Bits, idx.Signed = int(it.int32(0, 0)), it.bool(1)
			if idx.Bits != 8 && idx.Bits != 16 && idx.Bits != 32 && idx.Bits != 64 {
				fbFail("field %q: dictionary index of %d bits", f.Name, idx.Bits)
			}
		}
		f.Dict = &idx
	}
	return f
}

// parseSchema reads a Schema table: its fields, and whether it is big-endian.
func parseSchema(t table) (fields []Field, bigEndian bool) {
	bigEndian = t.int16(0, 0) == 1
	budget := len(t.b) / 4
	for _, ft := range t.tables(1) {
		fields = append(fields, parseField(ft, 0, &budget))
	}
	return fields, bigEndian
}

// Message header types.
const (
	msgSchema     = 1
	msgDictionary = 2
	msgRecord     = 3
)

// A node is a FieldNode: the length and null count of one array of a batch.
type node struct{ length, nulls int64 }

// A bufSpan is a Buffer: a range of a message body.
type bufSpan struct{ off, len int64 }

// A batchMeta is a RecordBatch header.
type batchMeta struct {
	length  int64
	nodes   []node
	buffers []bufSpan
	codec   int8 // -1: none, 0: LZ4 frame, 1: ZSTD
	// variadic counts the data buffers of each view column (BinaryView,
	// Utf8View), in schema order.
	variadic []int64
}

func parseBatch(t table) batchMeta {
	m := batchMeta{length: t.int64(0, 0), codec: -1}
	for _, s := range t.structs(1, 16) {
		m.nodes = append(m.nodes, node{int64(binary.LittleEndian.Uint64(s)), int64(binary.LittleEndian.Uint64(s[8:]))})
	}
	for _, s := range t.structs(2, 16) {
		m.buffers = append(m.buffers, bufSpan{int64(binary.LittleEndian.Uint64(s)), int64(binary.LittleEndian.Uint64(s[8:]))})
	}
	if c, ok := t.table(3); ok {
		m.codec = int8(c.uint8(0, 0))
		if m.codec != 0 && m.codec != 1 {
			fbFail("compression codec %d", m.codec)
		}
		if c.uint8(1, 0) != 0 {
			fbFail("compression method %d", c.uint8(1, 0))
		}
	}
	start, n := t.vector(4, 8)
	for i := range n {
		v := int64(binary.LittleEndian.Uint64(t.b[start+8*i:]))
		if v < 0 || v > 1<<20 {
			fbFail("%d variadic buffers", v)
		}
		m.variadic = append(m.variadic, v)
	}
	if m.length < 0 {
		fbFail("record batch of %d rows", m.length)
	}
	return m
}

// A message is a parsed encapsulated message header.
type message struct {
	kind     uint8
	bodyLen  int64
	fields   []Field // msgSchema
	bigEnd   bool    // msgSchema
	batch    batchMeta
	dictID   int64 // msgDictionary
	isDelta  bool  // msgDictionary
	hasBatch bool
}

// parseMessage reads a Message flatbuffer.
func parseMessage(b []byte) (m message, err error) {
	defer fbRecover(&err)
	t := root(b)
	m.kind = t.uint8(1, 0)
	m.bodyLen = t.int64(3, 0)
	if m.bodyLen < 0 {
		fbFail("body of %d bytes", m.bodyLen)
	}
	h, ok := t.table(2)
	if !ok {
		fbFail("message without a header")
	}
	switch m.kind {
	case msgSchema:
		m.fields, m.bigEnd = parseSchema(h)
	case msgRecord:
		m.batch, m.hasBatch = parseBatch(h), true
	case msgDictionary:
		m.dictID, m.isDelta = h.int64(0, 0), h.bool(2)
		bt, ok := h.table(1)
		if !ok {
			fbFail("dictionary batch without data")
		}
		m.batch, m.hasBatch = parseBatch(bt), true
	default:
		fbFail("message of type %d (not a schema, dictionary or record batch)", m.kind)
	}
	return m, nil
}

// A block is a footer's pointer to a message of the file.
type block struct {
	off     int64
	metaLen int32
	bodyLen int64
}

// parseFooter reads the Footer flatbuffer of the file format.
func parseFooter(b []byte) (fields []Field, bigEnd bool, dicts, batches []block, err error) {
	defer fbRecover(&err)
	t := root(b)
	st, ok := t.table(1)
	if !ok {
		fbFail("footer without a schema")
	}
	fields, bigEnd = parseSchema(st)
	blocks := func(k int) []block {
		var out []block
		for _, s := range t.structs(k, 24) {
			out = append(out, block{int64(binary.LittleEndian.Uint64(s)), int32(binary.LittleEndian.Uint32(s[8:])), int64(binary.LittleEndian.Uint64(s[16:]))})
		}
		return out
	}
	return fields, bigEnd, blocks(2), blocks(3), nil
}
