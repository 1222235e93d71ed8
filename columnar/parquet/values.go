package parquet

import (
	"math"
	"time"

	pq "github.com/parquet-go/parquet-go"
)

// Printable returns nil when [File.Rows] can read every column, and otherwise
// the error it would give, wrapping [ErrUnsupported] and naming the first
// column it cannot read.
func (f *File) Printable() error {
	for _, c := range f.columns {
		if !c.Supported {
			return f.colErr(c.Name, ErrUnsupported, "%s values cannot be read as plain values", c.Type)
		}
	}
	return nil
}

// Rows returns the rows of row group g, each the values of every column in
// schema order as plain Go values: nil for a null; int64 or uint64 for an
// int; float32 or float64; bool; string for utf8; []byte for binary;
// time.Time (UTC) for a timestamp or a date; []any for a list. It is the slow,
// general path that obskit table cat prints from; the containers are the fast
// one. It returns the error of [File.Printable] for a column it cannot read,
// and one wrapping [ErrFormat] naming the file, the row group and the column
// for data that does not decode.
func (f *File) Rows(g int) ([][]any, error) {
	if err := f.Printable(); err != nil {
		return nil, err
	}
	rows := make([][]any, f.groups[g].rows)
	for i := range rows {
		rows[i] = make([]any, len(f.columns))
	}
	var scratch census
	for j, c := range f.columns {
		w := levelWalk{f: f, g: g, c: c, rows: len(rows), row: -1}
		err := f.values(g, c, func(vs []pq.Value) error {
			for _, v := range vs {
				rep, def := v.RepetitionLevel(), v.DefinitionLevel()
				if err := w.step(byte(rep), byte(def), &scratch); err != nil {
					return err
				}
				if w.skip {
					continue
				}
				row := rows[w.row]
				switch {
				case !c.list:
					if !v.IsNull() {
						row[j] = plain(c.scalar, v)
					}
					continue
				case rep == 0 && def < c.listDef:
					continue // a null list
				case rep == 0:
					row[j] = []any{}
					if def == c.listDef {
						continue // an empty list
					}
				}
				var x any
				if def == c.maxDef {
					x = plain(c.scalar, v)
				}
				row[j] = append(row[j].([]any), x) // levelWalk saw a list here
			}
			return nil
		})
		if err == nil {
			err = w.end(&scratch)
		}
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// plain returns a present value of type s as a plain Go value.
func plain(s scalar, v pq.Value) any {
	switch s.phys {
	case pq.Boolean:
		return v.Boolean()
	case pq.Float:
		return v.Float()
	case pq.Double:
		return v.Double()
	case pq.ByteArray, pq.FixedLenByteArray:
		if s.text {
			return string(v.ByteArray())
		}
		return append([]byte{}, v.ByteArray()...)
	}
	var x int64
	if s.phys == pq.Int32 {
		x = int64(v.Int32())
		if s.kind.Class == 'u' {
			x = int64(uint32(v.Int32()))
		}
	} else {
		x = v.Int64()
	}
	switch s.unit {
	case "day":
		return time.Unix(x*86400, 0).UTC()
	case "ms":
		return time.UnixMilli(x).UTC()
	case "us":
		return time.UnixMicro(x).UTC()
	case "ns":
		return time.Unix(0, x).UTC()
	}
	if s.kind.Class == 'u' {
		u := uint64(x)
		if s.kind.Size < 8 {
			u &= math.MaxUint64 >> (64 - 8*s.kind.Size)
		}
		return u
	}
	return x
}
