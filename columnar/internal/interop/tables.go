package interop

import (
	"fmt"
	"math"
	"time"
)

// A Table is the formula of the rows of a set of fixtures: its columns, in
// schema order, and what row i of each holds.
type Table struct {
	Name    string // "main", "edge"
	Columns []Column
}

// How the kit's containers read a column.
type Read int

const (
	// Scalar is a column of numbers: Numbers of rank-0 observations, Scalars.
	Scalar Read = iota
	// Fixed is a fixed-size list of numbers (Arrow's fixed_size_list, a list
	// of one length in Parquet): Numbers of observations of shape [Width].
	Fixed
	// List is a list of numbers: Lists.
	List
	// Text is text or bytes, dictionary-encoded or not: Strings.
	Text
	// Plain is a column only Row and Rows read (bool).
	Plain
)

// A Column is a column of a Table.
type Column struct {
	Name string
	Read Read
	// Elem is a zero value of the element type the containers read the
	// column's numbers as (int64(0) for an int64 or timestamp column), nil for
	// Text and Plain.
	Elem  any
	Width int // the values of a Fixed column's lists
	// Time says how a Scalar column of time reads as numbers: "day" for a
	// date (days since 1970), "ts" for a timestamp (in the fixture's TS
	// unit); "" for numbers.
	Time string
	// Value returns row i as File.Row (arrowipc) and File.Rows (parquet) give
	// it: nil for a null; int64 or uint64 for an int; float32 or float64;
	// bool; string for text; []byte for binary; time.Time (UTC) for a date or
	// a timestamp; []any of such values for a list.
	Value func(i int) any
}

// Col returns the column called name, and false when there is none.
func (t *Table) Col(name string) (Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// Row returns row i of every column, in schema order, as Row gives it.
func (t *Table) Row(i int) []any {
	out := make([]any, len(t.Columns))
	for j, c := range t.Columns {
		out[j] = c.Value(i)
	}
	return out
}

// list returns vs as a list value, each nil pointer a null value.
func list[E int32 | int16](vs []*E) any {
	if vs == nil {
		return nil
	}
	out := []any{}
	for _, v := range vs {
		if v == nil {
			out = append(out, nil)
		} else {
			out = append(out, int64(*v))
		}
	}
	return out
}

func null[T any](null bool, v T) any {
	if null {
		return nil
	}
	return v
}

// Main is the table of gen.mjs's first formula (Want): js.arrow and every
// fixture of Arrow and Parquet but the edge ones.
var Main = &Table{Name: "main", Columns: []Column{
	{Name: "id", Read: Scalar, Elem: int64(0), Value: func(i int) any { return Want(i).ID }},
	{Name: "label", Read: Scalar, Elem: int64(0), Value: func(i int) any { return Want(i).Label }},
	{Name: "u8", Read: Scalar, Elem: uint8(0), Value: func(i int) any { return uint64(Want(i).U8) }},
	{Name: "x", Read: Fixed, Elem: float32(0), Width: 4, Value: func(i int) any {
		x := Want(i).X
		return []any{x[0], x[1], x[2], x[3]}
	}},
	{Name: "f64", Read: Scalar, Elem: float64(0), Value: func(i int) any { return Want(i).F64 }},
	{Name: "name", Read: Text, Value: func(i int) any {
		if n := Want(i).Name; n != nil {
			return *n
		}
		return nil
	}},
	{Name: "cat", Read: Text, Value: func(i int) any { return Want(i).Cat }},
	{Name: "toks", Read: List, Elem: int32(0), Value: func(i int) any { return list(Want(i).Toks) }},
	{Name: "bin", Read: Text, Value: func(i int) any { return Want(i).Bin }},
	{Name: "ts", Read: Scalar, Elem: int64(0), Time: "ts", Value: func(i int) any { return Want(i).TS }},
	{Name: "flag", Read: Plain, Value: func(i int) any { return Want(i).Flag }},
}}

// Edge is the table of gen.mjs's edge formula: nulls in numbers, a column
// with one null, lists required or not of values required or not,
// a dictionary with nulls, unsigned integers past the signed range, dates,
// and null lists and strings that own values (in edge-go.arrows).
var Edge = &Table{Name: "edge", Columns: []Column{
	{Name: "id", Read: Scalar, Elem: int64(0), Value: func(i int) any { return int64(i) }},
	{Name: "i32n", Read: Scalar, Elem: int32(0), Value: func(i int) any { return null(i%3 == 1, int64(7*i-500)) }},
	{Name: "one", Read: Scalar, Elem: float64(0), Value: func(i int) any { return null(i == 57, float64(i)+0.5) }},
	{Name: "u16", Read: Scalar, Elem: uint16(0), Value: func(i int) any { return uint64(65535 - 300*i) }},
	{Name: "u32", Read: Scalar, Elem: uint32(0), Value: func(i int) any { return uint64(math.MaxUint32 - 1000003*i) }},
	{Name: "u64", Read: Scalar, Elem: uint64(0), Value: func(i int) any { return 1<<63 + 12345*uint64(i) }},
	{Name: "day", Read: Scalar, Elem: int32(0), Time: "day", Value: func(i int) any {
		return time.Date(1970, 1, 1+i-100, 0, 0, 0, 0, time.UTC)
	}},
	{Name: "fsl", Read: Fixed, Elem: float32(0), Width: 3, Value: func(i int) any {
		if i%5 == 2 {
			return nil
		}
		return []any{float32(i), null(i%7 == 4, -float32(i)), float32(i) / 8}
	}},
	{Name: "fse", Read: Fixed, Elem: int16(0), Width: 2, Value: func(i int) any {
		return []any{null(i%6 == 3, int64(i)), int64(1000 - 10*i)}
	}},
	{Name: "req", Read: List, Elem: int32(0), Value: func(i int) any {
		out := []any{}
		for k := range i % 4 {
			out = append(out, int64(i+k))
		}
		return out
	}},
	{Name: "reqn", Read: List, Elem: int32(0), Value: func(i int) any {
		if i%3 == 0 {
			return []any{}
		}
		return []any{null(i%5 == 1, int64(i)), int64(2 * i)}
	}},
	{Name: "optr", Read: List, Elem: int32(0), Value: func(i int) any {
		if i%3 == 0 {
			return nil
		}
		return []any{int64(i), int64(i + 100)}[:1+i%2]
	}},
	{Name: "dcat", Read: Text, Value: func(i int) any { return null(i%6 == 5, []string{"alpha", "", "gamma"}[i%3]) }},
	{Name: "own", Read: List, Elem: int32(0), Value: func(i int) any { return null(i%4 == 2, []any{int64(i), int64(-i)}) }},
	{Name: "owns", Read: Text, Value: func(i int) any { return null(i%4 == 2, fmt.Sprintf("s%d", i)) }},
}}
