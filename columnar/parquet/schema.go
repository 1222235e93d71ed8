package parquet

import (
	"fmt"
	"strings"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/fileio"
)

// A Column is a top-level column of a Parquet schema, described in the words
// of Arrow (the words of package arrowipc and of obskit table schema): a
// scalar ("float32", "int64", "uint8", "bool", "utf8", "binary",
// "timestamp[us, UTC]", "date32"), or a list of scalars ("list<int32>") in any
// of the layouts writers use (three-level LIST groups whatever their inner
// names, arrow-rs's "item" included, and legacy repeated fields).
type Column struct {
	Name string
	Type string
	// Nullable reports whether a row may be null (for a list, the list itself).
	Nullable bool
	// ElemNullable reports whether a value inside a list may be null.
	ElemNullable bool
	// Supported is false for the columns the package has no container for
	// (structs, maps, nested lists, decimals, INT96): Type then says what the
	// column is, and every accessor refuses it with an error naming it.
	Supported bool

	leaf    int    // the leaf column's index among the file's leaves
	group   bool   // a group the package cannot read (a struct, a map, nested lists): no one leaf
	scalar  scalar // the leaf's type
	list    bool
	listDef int // definition level from which the list is not null
	maxDef  int // definition level of a present value
}

// A scalar is the type of a leaf column.
type scalar struct {
	phys  pq.Kind
	kind  fileio.Kind // the Go element of a number, zero otherwise
	name  string      // in Arrow's words
	unit  string      // of a timestamp: "ms", "us", "ns"; "day" for a date
	utc   bool
	text  bool // utf8
	bytes bool // utf8 or binary
	ok    bool // readable
}

func scalarOf(t pq.Type) scalar {
	kind, ok := kindOf(t)
	if !ok {
		// A leaf annotated as a LIST or a MAP, which only a damaged or a
		// wrong schema has.
		return scalar{name: "a leaf of " + t.String()}
	}
	s := scalar{phys: kind, ok: true}
	lt := t.LogicalType()
	var lv any
	if lt != nil {
		lv = lt.Value
	}
	var ct deprecated.ConvertedType = -1
	if c := t.ConvertedType(); c != nil {
		ct = *c
	}
	num := func(class byte, size int) {
		s.kind = fileio.Kind{Class: class, Size: size}
		s.name = s.kind.String()
	}
	switch s.phys {
	case pq.Boolean:
		s.name = "bool"
	case pq.Float:
		num('f', 4)
	case pq.Double:
		num('f', 8)
	case pq.Int32, pq.Int64:
		size := 4
		if s.phys == pq.Int64 {
			size = 8
		}
		num('i', size)
		switch v := lv.(type) {
		case *format.IntType:
			class := byte('u')
			if v.IsSigned {
				class = 'i'
			}
			num(class, int(v.BitWidth)/8)
		case *format.TimestampType:
			s.unit, s.utc = timeUnit(&v.Unit), v.IsAdjustedToUTC
		case *format.DateType:
			s.unit = "day"
		case *format.TimeType:
			s.name = fmt.Sprintf("time%d[%s]", size*8, timeUnit(&v.Unit))
			return s
		case *format.DecimalType:
			s.name, s.ok = fmt.Sprintf("decimal(%d, %d)", v.Precision, v.Scale), false
			return s
		case nil:
			switch ct {
			case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
				num('u', 1<<(ct-deprecated.Uint8))
			case deprecated.Int8, deprecated.Int16, deprecated.Int32, deprecated.Int64:
				num('i', 1<<(ct-deprecated.Int8))
			case deprecated.TimestampMillis:
				s.unit = "ms"
			case deprecated.TimestampMicros:
				s.unit = "us"
			case deprecated.Date:
				s.unit = "day"
			case deprecated.Decimal:
				s.name, s.ok = "decimal", false
				return s
			}
		}
		switch {
		case s.unit == "day":
			s.name = "date32"
		case s.unit != "" && s.utc:
			s.name = fmt.Sprintf("timestamp[%s, UTC]", s.unit)
		case s.unit != "":
			s.name = fmt.Sprintf("timestamp[%s]", s.unit)
		}
	case pq.ByteArray:
		s.bytes, s.name = true, "binary"
		switch lv.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			s.text, s.name = true, "utf8"
		case nil:
			if ct == deprecated.UTF8 || ct == deprecated.Enum || ct == deprecated.Json {
				s.text, s.name = true, "utf8"
			}
		}
	case pq.FixedLenByteArray:
		s.bytes, s.name = true, fmt.Sprintf("fixed_size_binary[%d]", t.Length())
	default:
		s.name, s.ok = strings.ToLower(s.phys.String()), false
	}
	return s
}

// kindOf returns the physical type of a leaf's type, and false for a type
// that has none: parquet-go's types of a LIST, a MAP or a group panic when
// asked.
func kindOf(t pq.Type) (k pq.Kind, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return t.Kind(), true
}

func timeUnit(u *format.TimeUnit) string {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return "ms"
	case *format.NanoSeconds:
		return "ns"
	}
	return "us"
}

// columnsOf returns the top-level columns of a file.
func columnsOf(p *part) ([]Column, error) {
	var cols []Column
	for _, c := range p.file.Root().Columns() {
		cols = append(cols, columnOf(c))
	}
	return cols, nil
}

func columnOf(c *pq.Column) Column {
	col := Column{Name: c.Name(), Nullable: c.Optional()}
	if c.Leaf() {
		col.leaf, col.scalar, col.maxDef = c.Index(), scalarOf(c.Type()), c.MaxDefinitionLevel()
		col.Type, col.Supported = col.scalar.name, col.scalar.ok
		if c.Repeated() { // a legacy list: repeated int32 x
			col.list, col.Nullable = true, false
			col.listDef = 0
			col.Type = "list<" + col.Type + ">"
		}
		return col
	}
	// A list: a group whose one child is repeated, holding the element
	// (two-level) or a group holding it (three-level), whatever the names.
	kids := c.Columns()
	if len(kids) == 1 && kids[0].Repeated() {
		rep := kids[0]
		elem := rep
		if !rep.Leaf() {
			if gk := rep.Columns(); len(gk) == 1 && gk[0].Leaf() {
				elem = gk[0]
			} else {
				elem = nil
			}
		}
		if elem != nil {
			col.list, col.leaf, col.scalar = true, elem.Index(), scalarOf(elem.Type())
			col.maxDef, col.ElemNullable = elem.MaxDefinitionLevel(), elem.Optional()
			if c.Optional() {
				col.listDef = 1
			}
			col.Type, col.Supported = "list<"+col.scalar.name+">", col.scalar.ok
			return col
		}
	}
	var b strings.Builder
	b.WriteString("struct<")
	for i, k := range kids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Name() + ": " + columnOf(k).Type)
	}
	b.WriteString(">")
	col.Type, col.group = b.String(), true
	return col
}
