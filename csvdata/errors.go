package csvdata

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by errors about the structure of the file: no header,
	// an empty or repeated column name, a row with more or fewer fields than the
	// header, a quoting error.
	ErrFormat = errors.New("malformed CSV")
	// ErrValue is wrapped by errors about a cell: a feature cell that is not a
	// number of the element type (empty, text, out of range, a fraction for an
	// integer type), or a target that is not an integer for [Table.IntTargets].
	ErrValue = errors.New("bad CSV value")
	// ErrColumn is wrapped by the error for a column named in [Options] that the
	// header does not have.
	ErrColumn = errors.New("no such CSV column")
)

// format reports errors in this package's words.
var format = fileio.Format{Pkg: "csvdata", Malformed: ErrFormat}

// quoteMax is the number of bytes of a cell or a column name an error quotes.
const quoteMax = 40

// quote returns s quoted for an error message. A value longer than quoteMax bytes
// is cut to at most that many (at a character boundary) and followed by an
// ellipsis and its length, as in "1e3e3e3..." (10485760 bytes), so that a bad
// 10 MB cell makes a short message.
func quote(s string) string {
	if len(s) <= quoteMax {
		return strconv.Quote(s)
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s (%d bytes)", strconv.Quote(s[:cut]+"..."), len(s))
}

// listMax is the number of column names an error lists.
const listMax = 8

// quoteList returns names as a bracketed list of quoted names for an error
// message: at most listMax of them, each cut by quote, then the count.
func quoteList(names []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range names {
		if i == listMax {
			fmt.Fprintf(&b, " ... (%d columns)", len(names))
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quote(n))
	}
	b.WriteByte(']')
	return b.String()
}
