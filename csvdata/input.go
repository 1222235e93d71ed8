package csvdata

import (
	"bufio"
	"bytes"
	"io"
)

// bom is the UTF-8 encoding of U+FEFF, which Excel and Notepad write before the
// first byte of a UTF-8 CSV file.
var bom = []byte("\ufeff")

// input returns the bytes of r as encoding/csv should see them: without a UTF-8
// byte order mark at the start (so that a quoted first column name is still a
// quoted field), and, when the first line ends with a carriage return alone (the
// line ends of classic Mac OS, which Excel for Mac still writes as "CSV
// (Macintosh)"), with every carriage return turned into a newline. encoding/csv
// ends lines at "\n" and "\r\n" only; it would read such a file as one line.
//
// The line end is decided once, at the first "\r" or "\n" of the stream: a file
// with LF or CRLF line ends passes through unchanged, so that a lone "\r" inside
// one of its quoted cells is kept.
func input(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
	}
	return &lineEnds{r: br}
}

// lineEnds turns carriage returns into newlines once the first line end of the
// stream has shown to be a carriage return alone.
type lineEnds struct {
	r    *bufio.Reader
	mode byte // 0 until the first line end; then 'n' (LF or CRLF: unchanged) or 'r' (CR)
}

func (l *lineEnds) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if l.mode == 'n' {
		return n, err
	}
	from := 0
	if l.mode == 0 {
		i := bytes.IndexAny(p[:n], "\r\n")
		if i < 0 {
			return n, err
		}
		if p[i] == '\n' || l.followedByLF(p[:n], i) {
			l.mode = 'n'
			return n, err
		}
		l.mode, from = 'r', i
	}
	for i := from; i < n; i++ {
		if p[i] == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// followedByLF reports whether the "\r" at p[i] is followed by "\n", looking
// ahead in the stream when p ends at the "\r".
func (l *lineEnds) followedByLF(p []byte, i int) bool {
	if i+1 < len(p) {
		return p[i+1] == '\n'
	}
	next, _ := l.r.Peek(1)
	return len(next) == 1 && next[0] == '\n'
}
