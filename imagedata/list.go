package imagedata

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/tuples"
)

// A ListEntry is a line of an im2rec image list (.lst): the image's index,
// its labels and its path, relative to the list's root folder.
type ListEntry struct {
	Index  int64
	Labels []float32
	Path   string
}

// ReadList reads an image list as im2rec's read_list does: lines of fields
// separated by tabs, each field stripped of spaces: the index (a decimal
// integer, at least 0: it becomes an image record's id), one or more labels
// (decimal numbers as Python's float reads them, NaN and Inf included, stored
// as float32 as im2rec packs them), and the path last. Blank lines are
// skipped.
//
// Where im2rec prints a message and skips a line it cannot read, ReadList
// returns an error wrapping [ErrFormat] that names the stream and the line: a
// line with fewer than three fields, an index or a label that is not a number,
// a negative index, a label too large for a float32.
func ReadList(r io.Reader) ([]ListEntry, error) {
	name := fileio.Name(r)
	var list []ListEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		e, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("imagedata: %s: %w: line %d: %v", name, ErrFormat, line, err)
		}
		list = append(list, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("imagedata: %s: %w: line %d: longer than 1 MiB", name, ErrFormat, line+1)
		}
		return nil, fmt.Errorf("imagedata: %s: %w", name, err)
	}
	return list, nil
}

// parseLine parses one line of a list.
func parseLine(text string) (ListEntry, error) {
	fields := strings.Split(text, "\t")
	for i, f := range fields {
		fields[i] = strings.TrimSpace(f)
	}
	if len(fields) < 3 {
		return ListEntry{}, fmt.Errorf("%d fields; a line is an index, one or more labels and a path, separated by tabs", len(fields))
	}
	index, err := strconv.ParseInt(fields[0], 10, 64)
	switch {
	case err != nil:
		return ListEntry{}, fmt.Errorf("index %q is not a decimal integer", fields[0])
	case index < 0:
		return ListEntry{}, fmt.Errorf("negative index %d (an image's id is at least 0)", index)
	}
	e := ListEntry{Index: index, Path: fields[len(fields)-1], Labels: make([]float32, 0, len(fields)-2)}
	for _, f := range fields[1 : len(fields)-1] {
		l, err := parseFloat(f)
		if err != nil {
			return ListEntry{}, err
		}
		e.Labels = append(e.Labels, l)
	}
	return e, nil
}

// parseFloat reads a label as Python's float reads it (decimal, with
// underscores between digits, inf and nan in any case) and rounds it to
// float32 as struct.pack("f") does, refusing what overflows.
func parseFloat(s string) (float32, error) {
	bad := fmt.Errorf("label %q is not a number", s)
	if strings.ContainsAny(s, "xXpP") && !strings.Contains(strings.ToLower(s), "inf") {
		return 0, bad // Go's hexadecimal floats, which Python refuses
	}
	if strings.Contains(s, "_") {
		// Python allows an underscore between two digits only.
		for i := 0; i < len(s); i++ {
			if s[i] == '_' && (i == 0 || i == len(s)-1 || !isDigit(s[i-1]) || !isDigit(s[i+1])) {
				return 0, bad
			}
		}
		s = strings.ReplaceAll(s, "_", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, bad
	}
	l := float32(f)
	if math.IsInf(float64(l), 0) && !math.IsInf(f, 0) {
		return 0, fmt.Errorf("label %s is too large for a float32", s)
	}
	return l, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// WriteList writes list as im2rec's write_list does: one line per entry, the
// index, each label and the path separated by tabs. Labels are written in
// their shortest form ("3", "0.5"), as im2rec writes its class numbers.
func WriteList(w io.Writer, list []ListEntry) error {
	bw := bufio.NewWriter(w)
	for _, e := range list {
		b := bw.AvailableBuffer()
		b = strconv.AppendInt(b, e.Index, 10)
		for _, l := range e.Labels {
			b = append(b, '\t')
			b = strconv.AppendFloat(b, float64(l), 'f', -1, 32)
		}
		b = append(b, '\t')
		b = append(b, e.Path...)
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// A List is a data set of images named by an im2rec image list (.lst) with
// the folder its paths are relative to: an observation is the bytes of an
// image file and its label, of the type the label function given to
// [OpenList] returns. It is a [Labeled] container (its methods are those of
// the embedded tuple); X() is the [*Files] of the images, Y() the labels.
type List[L any] struct {
	*Labeled[*Files, L]
	// Entries are the lines of the list: observation i is Entries[i].
	Entries []ListEntry
}

// OpenList reads the image list at path (see [ReadList]) and returns its
// images, in the order of the lines, with paths relative to root, reading no
// image. label makes each image's label from its labels: [First] (float32,
// ImageRecordIter's label), [Class] (int class numbers) or [All] (every
// label), or a function of the caller's.
//
// OpenList returns the errors of ReadList, and an error wrapping [ErrLabel]
// (and label's error) that names the file, the entry, its index and its path
// when label refuses an entry's labels.
func OpenList[L any](path, root string, label func(labels []float32) (L, error)) (*List[L], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("imagedata: %w", err)
	}
	defer f.Close()
	list, err := ReadList(f)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(list))
	labels := make([]L, len(list))
	for i, e := range list {
		paths[i] = e.Path
		if labels[i], err = label(e.Labels); err != nil {
			return nil, labelError(path, fmt.Sprintf("entry %d (index %d, %s)", i+1, e.Index, e.Path), err)
		}
	}
	t, err := tuples.Zip2(NewFiles(root, paths), container.Slice[L](labels))
	if err != nil {
		return nil, err // cannot happen: one label a path
	}
	return &List[L]{Labeled: t, Entries: list}, nil
}
