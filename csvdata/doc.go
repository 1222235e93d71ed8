// Package csvdata reads CSV files with a header line into an array of numeric
// features and a column of targets.
//
//	tab, err := csvdata.Load[float32]("iris.csv", csvdata.Options{Target: "species"})
//	if err != nil { ... }
//	data, err := tuples.Zip2(tab.X, tab.Y) // features and labels, one index
//
// The first line names the columns; a file without such a line (MXNet's
// CSVIter reads those) is read with Options.NoHeader, its columns named "1",
// "2"... [Options] picks the target column (kept as
// text in [Table.Y]; [Table.IntTargets] parses integer labels and [Table.Classes]
// encodes text labels as class numbers) and, optionally, which feature columns to
// read and in what order; the delimiter and a comment character can be set.
// Every feature cell must be a number of the element type: the features become
// one row-major array with one observation per data line. Parsing uses
// encoding/csv, so quoted fields and embedded delimiters work; surrounding spaces
// in cells and a UTF-8 byte order mark (before a quoted column name too) are
// ignored.
//
// # Line ends and numbers
//
// Lines end with LF, CRLF or, as classic Mac OS and Excel for Mac's "CSV
// (Macintosh)" write them, a carriage return alone. The first line end of the
// file decides: when it is a lone CR, every CR ends a line (a line break inside a
// quoted cell then reads as "\n", as encoding/csv reads CRLF in one); otherwise
// the file is read as it is.
//
// A float cell is a decimal number as NumPy's loadtxt and pandas read it: "1.5",
// "-.5", "2.", "1e-3", "NaN", "Inf", "-Infinity" (any case). Go's own literal
// forms, which strconv.ParseFloat would accept, are errors: digit separators
// ("1_000") and hexadecimal floats ("0x1p-2"). An integer cell is decimal digits
// with an optional sign.
//
// # Errors
//
// A bad file returns an error naming the file (or "stream"), the line and the
// column: [ErrFormat] for a missing header, an empty or repeated column name, a
// ragged row (more or fewer fields than the header) and quoting errors;
// [ErrValue] for a cell that is empty, text, out of range or fractional where the
// element type is an integer; [ErrColumn] for a column named in Options that the
// header lacks. Missing values are not guessed: a file with empty cells or "NA"
// is an error, not a silent zero. A message quotes at most 40 bytes of a cell or
// a column name, followed by "..." and its length, and lists at most 8 column
// names, so that a huge bad cell makes a short error. No input makes the reader
// panic.
package csvdata
