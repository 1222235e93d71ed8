package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

func init() {
	register(command{
		group: "table", name: "schema", args: "FILE",
		summary: "print the columns of an Arrow IPC file or stream or a Parquet table (a file, a directory, a glob) as JSON lines: column, type, nullable, nulls",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return dataPanics(tableSchema)
		},
	})
	register(command{
		group: "table", name: "ls", args: "FILE",
		summary: "print the record batches (Arrow) or row groups (Parquet) as JSON lines: file, index, rows, bytes, codec",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return dataPanics(tableLs)
		},
	})
	register(command{
		group: "table", name: "cat", args: "FILE",
		summary: "print the rows as JSON lines: keys the column names in schema order, lists as arrays, nulls as null, integers exact, floats in the shortest form that reads back to the same value of the column's type, NaN and infinities as \"NaN\", \"+Inf\", \"-Inf\", binary as base64, timestamps in RFC 3339",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			n := fs.Int("n", -1, "print only the first `N` rows (all when negative)")
			fs.Bool("json", true, "print JSON lines (the only output format; accepted for clarity)")
			return dataPanics(func(e *env, args []string) error { return tableCat(e, args, *n) })
		},
	})
	register(command{
		group: "table", name: "to-npy", args: "FILE",
		summary: "write numeric columns to .npy files: the features (-x, one column or several of one type side by side, or one fixed-length list column) to PREFIX-x.npy and the labels (-y) to PREFIX-y.npy",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			x := fs.String("x", "", "the feature `columns`, comma-separated")
			y := fs.String("y", "", "the label `column` (optional)")
			out := fs.String("o", "", "the output `PREFIX` (required)")
			return dataPanics(func(e *env, args []string) error { return tableToNpy(e, args, *x, *y, *out) })
		},
	})
}

// dataPanics returns run with a panic whose value is an error about the data
// of a file (a column that a container read panics about: ErrFormat, ErrFault,
// ErrNull, ErrType, naming the file) returned as its error, so that the
// command exits 1 with that message, not 2, the status of a bad command line,
// with a stack. Any other panic, a bug, goes on.
func dataPanics(run func(*env, []string) error) func(*env, []string) error {
	return func(e *env, args []string) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if p, ok := r.(error); ok && dataError(p) {
					err = p
					return
				}
				panic(r)
			}
		}()
		return run(e, args)
	}
}

func dataError(err error) bool {
	for _, s := range []error{arrowipc.ErrFormat, parquet.ErrFormat, arrowipc.ErrFault, columnar.ErrNull, columnar.ErrType} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// A table is an open Arrow or Parquet file, seen the same way by the commands.
type table struct {
	arrow *arrowipc.File
	pq    *parquet.File
}

// openTable opens path in the format its first bytes say: Parquet ("PAR1",
// and a directory or a glob, read as one Parquet table) or Arrow IPC (the file
// format's "ARROW1", or a stream's first message). Anything else is an error
// naming the file; a missing file is the file system's error, which does.
func openTable(path string) (*table, error) {
	kind, err := sniff(path)
	if err != nil {
		return nil, err
	}
	if kind == "parquet" {
		t, err := parquet.Open(path)
		if err != nil {
			return nil, err
		}
		return &table{pq: t}, nil
	}
	f, err := arrowipc.Open(path)
	if err != nil {
		return nil, err
	}
	return &table{arrow: f}, nil
}

// sniff returns "parquet" or "arrow" for the table at path, or an error.
func sniff(path string) (string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil && strings.ContainsAny(path, "*?["):
		return "parquet", nil // a glob, which parquet.Open expands
	case err != nil:
		return "", err
	case st.IsDir():
		return "parquet", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var buf [8]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	head := buf[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "parquet", nil
	case bytes.HasPrefix(head, []byte("ARROW1")):
		return "arrow", nil
	case n >= 4 && binary.LittleEndian.Uint32(head) == 0xFFFFFFFF:
		return "arrow", nil // a stream's continuation marker
	case n >= 4 && legacyStream(binary.LittleEndian.Uint32(head), st.Size()):
		return "arrow", nil
	}
	return "", fmt.Errorf("%s: not an Arrow or Parquet file (it starts with %q)", path, head)
}

// legacyStream reports whether a stream written before Arrow 0.15 can start
// with m: the length of the first message's metadata, padded to 8 bytes, that
// fits in the file.
func legacyStream(m uint32, size int64) bool {
	return m > 0 && m%8 == 0 && int64(m) <= size-4
}

func oneFile(args []string) (string, error) {
	if len(args) != 1 {
		return "", usageErrorf("want one FILE, got %d arguments", len(args))
	}
	return args[0], nil
}

type schemaLine struct {
	Column   string `json:"column"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
	Nulls    *int64 `json:"nulls"` // null rows (for a list column, null lists); null for a struct, whose nulls are not counted
}

func tableSchema(e *env, args []string) error {
	path, err := oneFile(args)
	if err != nil {
		return err
	}
	t, err := openTable(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	if t.arrow != nil {
		for _, fd := range t.arrow.Fields() {
			n := t.arrow.Nulls(fd.Name)
			if err := enc.Encode(schemaLine{fd.Name, fd.TypeString(), fd.Nullable, &n}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range t.pq.Columns() {
		line := schemaLine{c.Name, c.Type, c.Nullable, nil}
		n, err := t.pq.Nulls(c.Name)
		switch {
		case err == nil:
			line.Nulls = &n
		case !errors.Is(err, parquet.ErrUnsupported):
			return err
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

type lsLine struct {
	File      string     `json:"file"`
	Index     int        `json:"index"`
	Rows      int        `json:"rows"`
	Bytes     int64      `json:"bytes"`
	Codec     any        `json:"codec"`               // a string (Arrow: one per batch) or one per column (Parquet)
	Encodings [][]string `json:"encodings,omitempty"` // Parquet: per column
}

func tableLs(e *env, args []string) error {
	path, err := oneFile(args)
	if err != nil {
		return err
	}
	t, err := openTable(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	if t.arrow != nil {
		for k := range t.arrow.Batches() {
			b := t.arrow.Batch(k)
			codec := b.Codec
			if codec == "" {
				codec = "uncompressed"
			}
			if err := enc.Encode(lsLine{File: path, Index: k, Rows: b.Rows, Bytes: b.Bytes, Codec: codec}); err != nil {
				return err
			}
		}
		return nil
	}
	for k := range t.pq.RowGroups() {
		g := t.pq.RowGroup(k)
		if err := enc.Encode(lsLine{File: g.File, Index: g.Index, Rows: g.Rows, Bytes: g.Bytes, Codec: g.Codec, Encodings: g.Encodings}); err != nil {
			return err
		}
	}
	return nil
}

func tableCat(e *env, args []string, n int) error {
	path, err := oneFile(args)
	if err != nil {
		return err
	}
	t, err := openTable(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	var names []string
	if t.arrow != nil {
		if err := t.arrow.Printable(); err != nil {
			return err
		}
		for _, fd := range t.arrow.Fields() {
			names = append(names, fd.Name)
		}
		total := t.arrow.Nobs()
		if n >= 0 && n < total {
			total = n
		}
		var row []any
		var line []byte
		for i := range total {
			if row, err = t.arrow.Row(i, row); err != nil {
				return err
			}
			line = appendRow(line[:0], names, row)
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	}
	if err := t.pq.Printable(); err != nil {
		return err
	}
	for _, c := range t.pq.Columns() {
		names = append(names, c.Name)
	}
	printed := 0
	var line []byte
	for g := range t.pq.RowGroups() {
		if n >= 0 && printed >= n {
			break
		}
		rows, err := t.pq.Rows(g)
		if err != nil {
			return err
		}
		for _, row := range rows {
			if n >= 0 && printed >= n {
				break
			}
			line = appendRow(line[:0], names, row)
			if _, err := w.Write(line); err != nil {
				return err
			}
			printed++
		}
	}
	return nil
}

// appendRow appends one JSON object of a row and a newline.
func appendRow(b []byte, names []string, row []any) []byte {
	b = append(b, '{')
	for j, name := range names {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, name)
		b = append(b, ':')
		b = appendValue(b, row[j])
	}
	return append(b, '}', '\n')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// appendValue appends v as JSON, by the rules of obskit table cat.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float32:
		return appendFloat(b, float64(x), 32)
	case float64:
		return appendFloat(b, x, 64)
	case string:
		return appendJSONString(b, x)
	case []byte:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, x)
		return append(b, '"')
	case time.Time:
		b = append(b, '"')
		b = x.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	}
	panic(fmt.Sprintf("obskit table: no JSON form for %T", v))
}

// appendFloat appends the shortest decimal that reads back to the same value
// of a float of the given bits, or NaN and the infinities as strings.
func appendFloat(b []byte, x float64, bits int) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, `"NaN"`...)
	case math.IsInf(x, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(x, -1):
		return append(b, `"-Inf"`...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, bits)
}

func tableToNpy(e *env, args []string, xs, y, prefix string) error {
	path, err := oneFile(args)
	if err != nil {
		return err
	}
	if xs == "" || prefix == "" {
		return usageErrorf("-x and -o are required")
	}
	t, err := openTable(path)
	if err != nil {
		return err
	}
	names := strings.Split(xs, ",")
	// Both files or neither (see outputs).
	var out outputs
	defer out.abort()
	tmp, err := out.createName(prefix + "-x.npy")
	if err != nil {
		return err
	}
	if err := writeColumns(t, names, tmp); err != nil {
		return err
	}
	if y != "" {
		if tmp, err = out.createName(prefix + "-y.npy"); err != nil {
			return err
		}
		if err := writeColumns(t, []string{y}, tmp); err != nil {
			return err
		}
	}
	if err := out.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s\n", mustJSON(map[string]any{"path": prefix + "-x.npy", "columns": names}))
	if y != "" {
		fmt.Fprintf(e.stdout, "%s\n", mustJSON(map[string]any{"path": prefix + "-y.npy", "columns": []string{y}}))
	}
	return nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// writeColumns writes the columns as one array to a .npy file, in the type of
// the first column.
func writeColumns(t *table, names []string, out string) error {
	typ, err := t.typeOf(names[0])
	if err != nil {
		return err
	}
	elem := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(typ, "list<"), "fixed_size_list<"), ">")
	if i := strings.Index(elem, ">"); i >= 0 {
		elem = elem[:i]
	}
	switch elem {
	case "float32":
		return writeNpy[float32](t, names, out)
	case "float64":
		return writeNpy[float64](t, names, out)
	case "int8":
		return writeNpy[int8](t, names, out)
	case "int16":
		return writeNpy[int16](t, names, out)
	case "int32":
		return writeNpy[int32](t, names, out)
	case "int64":
		return writeNpy[int64](t, names, out)
	case "uint8":
		return writeNpy[uint8](t, names, out)
	case "uint16":
		return writeNpy[uint16](t, names, out)
	case "uint32":
		return writeNpy[uint32](t, names, out)
	case "uint64":
		return writeNpy[uint64](t, names, out)
	}
	return fmt.Errorf("%s: column %q of type %s is not numeric", t.name(), names[0], typ)
}

func (t *table) name() string {
	if t.arrow != nil {
		return t.arrow.Name()
	}
	return t.pq.Name()
}

func (t *table) typeOf(name string) (string, error) {
	if t.arrow != nil {
		fd, ok := t.arrow.Field(name)
		if !ok {
			return "", fmt.Errorf("arrowipc: %s: %w: no column %q", t.name(), columnar.ErrColumn, name)
		}
		return fd.TypeString(), nil
	}
	for _, c := range t.pq.Columns() {
		if c.Name == name {
			return c.Type, nil
		}
	}
	return "", fmt.Errorf("parquet: %s: %w: no column %q", t.name(), columnar.ErrColumn, name)
}

func writeNpy[E arraycontainer.Number](t *table, names []string, out string) error {
	var c *columnar.Numbers[E]
	var err error
	if t.arrow != nil {
		if len(names) == 1 {
			c, err = arrowipc.Numbers[E](t.arrow, names[0])
		} else {
			return writeArrowColumns[E](t.arrow, names, out)
		}
	} else {
		c, err = parquet.Numbers[E](t.pq, names)
	}
	if err != nil {
		return err
	}
	a, err := gatherAll(c)
	if err != nil {
		return err
	}
	return npy.Save(out, a)
}

// gatherAll returns every row of c in one array, recovering a decoding panic.
func gatherAll[E arraycontainer.Number](c *columnar.Numbers[E]) (a *arraycontainer.Array[E], err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	idx := make([]int, c.Nobs())
	for i := range idx {
		idx[i] = i
	}
	return c.GetObsInto(nil, idx), nil
}

// writeArrowColumns writes several scalar Arrow columns side by side.
func writeArrowColumns[E arraycontainer.Number](f *arrowipc.File, names []string, out string) error {
	n, k := f.Nobs(), len(names)
	data := make([]E, n*k)
	for j, name := range names {
		s, err := arrowipc.Scalars[E](f, name)
		if err != nil {
			return err
		}
		for i, v := range s {
			data[i*k+j] = v
		}
	}
	a, err := arraycontainer.New(data, []int{n, k}, obsdim.First)
	if err != nil {
		return err
	}
	return npy.Save(out, a)
}
