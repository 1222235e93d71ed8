package csvdata

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// Options says which columns to read and how the file is delimited. The zero
// Options reads every column as a feature from a comma-separated file.
type Options struct {
	// Target is the header name of the column holding the targets (labels),
	// kept as text in [Table.Y]; "" means no target column.
	Target string
	// Features lists the header names of the feature columns in the order
	// wanted; nil means every column except Target, in file order. Columns
	// named in neither are skipped.
	Features []string
	// Comma is the field delimiter; 0 means ','.
	Comma rune
	// Comment, when not 0, starts lines that are skipped.
	Comment rune
	// NoHeader reads the first line as data, as MXNet's CSVIter and NumPy's
	// loadtxt do: the columns are then named by their positions from 1 ("1",
	// "2", ...), the names Target and Features take, and every line must have
	// as many fields as the first.
	NoHeader bool
}

// A Table is a CSV file read as features and targets, ready to link with
// tuples.Zip2(t.X, t.Y).
type Table[E arraycontainer.Number] struct {
	// Features holds the names of the feature columns, in the order of X's
	// second axis.
	Features []string
	// X holds the features: one row per data line, observations along the first
	// axis, shape [rows, len(Features)].
	X *arraycontainer.Array[E]
	// Target is the name of the target column, "" when there is none.
	Target string
	// Y holds the target cells as written (surrounding spaces removed), one per
	// row; nil when there is no target column. See [Table.IntTargets] and
	// [Table.Classes] for integer targets.
	Y container.Slice[string]

	name  string
	lines []int // line of each row, for errors
	col   int   // 1-based field number of the target column
}

// Load reads the CSV file at path with [Read].
func Load[E arraycontainer.Number](path string, opts Options) (*Table[E], error) {
	f, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read[E](f, opts)
}

// Read reads a CSV stream whose first line is a header of column names (or,
// with Options.NoHeader, data). Every
// feature cell must parse as an E (surrounding spaces are ignored; floats are
// decimal and accept NaN and Inf, but not "1_000" or "0x1p-2"; integers must be
// whole, decimal and in range); the target column is kept as text. A UTF-8 byte
// order mark before the header is ignored. Lines end with LF, CRLF or a lone CR,
// as the first line end of the stream shows (see the package documentation).
//
// Errors name the stream (r.Name() when r has that method, an *os.File, and
// "stream" otherwise) with the line and the column (1-based, with its name): they wrap [ErrFormat] for a
// missing header, an empty or repeated column name and a row with a different
// number of fields than the header (a ragged row); [ErrValue] for a cell that is
// not a number of type E; [ErrColumn] for a column in opts the header lacks.
func Read[E arraycontainer.Number](r io.Reader, opts Options) (*Table[E], error) {
	name := fileio.Name(r)
	cr := csv.NewReader(input(r))
	if opts.Comma != 0 {
		cr.Comma = opts.Comma
	}
	cr.Comment = opts.Comment
	cr.FieldsPerRecord = -1 // checked here, with a clearer message
	cr.ReuseRecord = true

	first, err := cr.Read()
	switch {
	case err == io.EOF && opts.NoHeader:
		first = nil
	case err == io.EOF:
		return nil, format.Errorf(name, ErrFormat, "empty file, want a header line of column names")
	case err != nil:
		return nil, csvError(name, err)
	}
	header, pending := slices.Clone(first), false
	if opts.NoHeader {
		// The first line is data, read first in the loop below.
		for i := range header {
			header[i] = strconv.Itoa(i + 1)
		}
		pending = first != nil
	}
	t := &Table[E]{name: name, Target: opts.Target}
	cols, err := t.columns(header, opts)
	if err != nil {
		return nil, err
	}
	parse := parser[E]()
	var data []E
	for {
		rec := first
		if !pending {
			if rec, err = cr.Read(); err == io.EOF {
				break
			} else if err != nil {
				return nil, csvError(name, err)
			}
		}
		pending = false
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			of := "the header"
			if opts.NoHeader {
				of = "the first line"
			}
			return nil, format.Errorf(name, ErrFormat, "line %d: %d fields, %s has %d (a ragged row)", line, len(rec), of, len(header))
		}
		for _, c := range cols {
			cell := strings.TrimSpace(rec[c])
			v, err := parse(cell)
			if err != nil {
				return nil, format.Errorf(name, ErrValue, "line %d, column %d (%s): %s", line, c+1, quote(header[c]), err)
			}
			data = append(data, v)
		}
		if t.col > 0 {
			// A clone: the cells of a record are slices of one string holding
			// the whole line, which Y would otherwise keep alive.
			t.Y = append(t.Y, strings.Clone(strings.TrimSpace(rec[t.col-1])))
		}
		t.lines = append(t.lines, line)
	}
	if t.col > 0 && t.Y == nil {
		t.Y = container.Slice[string]{}
	}
	if data == nil {
		data = []E{}
	}
	t.X, err = arraycontainer.New(data, []int{len(t.lines), len(cols)}, obsdim.First)
	if err != nil {
		return nil, format.Wrap(name, err) // unreachable: the shape matches the data
	}
	return t, nil
}

// columns resolves opts against the header: the field indices of the features
// and, in t.col, the 1-based field number of the target.
func (t *Table[E]) columns(header []string, opts Options) ([]int, error) {
	index := make(map[string]int, len(header))
	for i, h := range header {
		if h == "" {
			return nil, format.Errorf(t.name, ErrFormat, "line 1: column %d has no name", i+1)
		}
		if j, dup := index[h]; dup {
			return nil, format.Errorf(t.name, ErrFormat, "line 1: columns %d and %d are both named %s", j+1, i+1, quote(h))
		}
		index[h] = i
	}
	if opts.Target != "" {
		i, ok := index[opts.Target]
		if !ok {
			return nil, format.Errorf(t.name, ErrColumn, "target column %s is not in the header %s", quote(opts.Target), quoteList(header))
		}
		t.col = i + 1
	}
	var cols []int
	if opts.Features == nil {
		for i, h := range header {
			if i != t.col-1 {
				cols = append(cols, i)
				t.Features = append(t.Features, h)
			}
		}
		return cols, nil
	}
	for _, f := range opts.Features {
		i, ok := index[f]
		if !ok {
			return nil, format.Errorf(t.name, ErrColumn, "feature column %s is not in the header %s", quote(f), quoteList(header))
		}
		cols = append(cols, i)
		t.Features = append(t.Features, f)
	}
	return cols, nil
}

// csvError reports an encoding/csv error (such as a bare quote) with its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return format.Errorf(name, ErrFormat, "line %d, character %d: %v", pe.Line, pe.Column, pe.Err)
	}
	return format.Wrap(name, err)
}

// parser returns the function that parses a cell as an E.
func parser[E arraycontainer.Number]() func(string) (E, error) {
	k := fileio.KindOf[E]()
	bits := 8 * k.Size
	what := "a number of type " + fileio.TypeName[E]()
	switch k.Class {
	case 'f':
		return func(s string) (E, error) {
			v, err := strconv.ParseFloat(s, bits)
			if err != nil {
				return 0, cellError(s, what, err)
			}
			// strconv.ParseFloat also reads Go's literals, which CSV files do
			// not hold and NumPy and pandas refuse: "1_000" (digit separators)
			// and "0x1p-2" (hexadecimal floats). No decimal number, Inf or NaN
			// has an '_', 'x' or 'X'; a cell that does not parse at all is
			// plain text, whatever letters it has.
			if i := strings.IndexAny(s, "_xX"); i >= 0 {
				why := "digit separators are not accepted"
				if s[i] != '_' {
					why = "hexadecimal floats are not accepted"
				}
				return 0, fmt.Errorf("%s is not %s (%s)", quote(s), what, why)
			}
			return E(v), nil
		}
	case 'i':
		what = "an integer of type " + fileio.TypeName[E]()
		return func(s string) (E, error) {
			v, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				return 0, cellError(s, what, err)
			}
			return E(v), nil
		}
	default:
		what = "an integer of type " + fileio.TypeName[E]()
		return func(s string) (E, error) {
			v, err := strconv.ParseUint(s, 10, bits)
			if err != nil {
				return 0, cellError(s, what, err)
			}
			return E(v), nil
		}
	}
}

func cellError(s, what string, err error) error {
	if s == "" {
		return fmt.Errorf("empty cell, want %s", what)
	}
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%s is out of range for %s", quote(s), what)
	}
	return fmt.Errorf("%s is not %s", quote(s), what)
}
