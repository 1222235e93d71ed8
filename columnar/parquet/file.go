package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/fileio/mmap"
)

// A File is one Parquet file, or several with one schema read as one table
// (a directory, a glob, Hugging Face's shards train-00000-of-00012.parquet): its
// schema, its row groups in file order, and the readers of their column chunks.
// Columns are read from it with [Numbers], [Scalars], [Lists], [Strings] and
// [Valid], which decode row groups on demand. A File is safe for concurrent
// use.
type File struct {
	name    string // as given to Open
	parts   []*part
	columns []Column
	groups  []group
	starts  []int
	// censuses holds a *censusOnce for each leaf column whose levels were
	// counted.
	censuses sync.Map
}

// A part is one file of a File.
type part struct {
	name   string
	region *mmap.Region
	file   *pq.File
}

// A group is one row group of the table.
type group struct {
	part *part
	k    int // row group of part
	rows int
	// checked says which column chunks passed checkChunk.
	checked []atomic.Bool
}

// Name returns the name given to Open.
func (f *File) Name() string { return f.name }

// Files returns the paths of the files of the table, in order.
func (f *File) Files() []string {
	out := make([]string, len(f.parts))
	for i, p := range f.parts {
		out[i] = p.name
	}
	return out
}

// Nobs returns the number of rows of the table.
func (f *File) Nobs() int { return f.starts[len(f.starts)-1] }

// Columns returns the top-level columns of the schema, in order, in a new
// slice.
func (f *File) Columns() []Column { return append([]Column{}, f.columns...) }

// RowGroups returns the number of row groups of the table, over all its files.
func (f *File) RowGroups() int { return len(f.groups) }

// RowGroupStarts returns the first row of each row group and, last, the number
// of rows, in a new slice: the blocks of the table's containers
// ([columnar.Numbers.BlockStarts]), which eachobs.ShuffleBlocks shuffles.
func (f *File) RowGroupStarts() []int { return append([]int{}, f.starts...) }

// A RowGroupInfo describes one row group, for listings.
type RowGroupInfo struct {
	File  string // the file holding it
	Index int    // its index in that file
	Rows  int
	Bytes int64    // its size in the file (compressed)
	Codec []string // the codec of each top-level column's chunk, such as "SNAPPY"
	// Encodings lists the encodings of each top-level column's chunk, such as
	// [RLE_DICTIONARY PLAIN RLE] for dictionary-encoded text.
	Encodings [][]string
}

// RowGroup returns the description of row group k of the table. It panics
// when k is out of range.
func (f *File) RowGroup(k int) RowGroupInfo {
	g := f.groups[k]
	md := g.part.file.Metadata().RowGroups[g.k]
	info := RowGroupInfo{File: g.part.name, Index: g.k, Rows: g.rows}
	for _, c := range md.Columns {
		info.Bytes += c.MetaData.TotalCompressedSize
	}
	for _, c := range f.columns {
		cm := md.Columns[c.leaf].MetaData
		info.Codec = append(info.Codec, cm.Codec.String())
		var enc []string
		for _, e := range cm.Encoding {
			enc = append(enc, e.String())
		}
		info.Encodings = append(info.Encodings, enc)
	}
	return info
}

var shardName = regexp.MustCompile(`-(\d{5})-of-(\d{5})\.parquet$`)

// Open opens the Parquet table at path: a file; a directory, whose *.parquet
// files are the table in name order; or a glob pattern (path/train-*.parquet).
// It maps each file and reads its footer only, so opening costs O(files) and
// no column data is read. Files named as Hugging Face shards
// (train-00003-of-00012.parquet) must all be there: a missing shard is an
// error naming it. Every file must have the schema of the first.
//
// Open returns an error wrapping [ErrFormat] and naming the file for a file
// that is not Parquet (a bad magic), a truncated footer, or a footer whose row
// counts disagree; one wrapping [ErrSchema] for files whose schemas differ;
// and the error of the file system otherwise.
func Open(path string) (*File, error) {
	paths, err := expand(path)
	if err != nil {
		return nil, err
	}
	f := &File{name: path}
	for _, p := range paths {
		pt, err := openPart(p)
		if err != nil {
			return nil, err
		}
		cols, err := columnsOf(pt)
		if err != nil {
			return nil, err
		}
		if f.parts == nil {
			f.columns = cols
		} else if err := sameSchema(f.parts[0].name, f.columns, p, cols); err != nil {
			return nil, err
		}
		f.parts = append(f.parts, pt)
		for k, rg := range pt.file.Metadata().RowGroups {
			f.groups = append(f.groups, group{part: pt, k: k, rows: int(rg.NumRows), checked: make([]atomic.Bool, len(rg.Columns))})
		}
	}
	f.starts = make([]int, len(f.groups)+1)
	for k, g := range f.groups {
		f.starts[k+1] = f.starts[k] + g.rows
	}
	return f, nil
}

// expand returns the files a path names.
func expand(path string) ([]string, error) {
	var paths []string
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		paths, err = filepath.Glob(filepath.Join(path, "*.parquet"))
		if err == nil && len(paths) == 0 {
			return nil, fmt.Errorf("parquet: %s: %w: no *.parquet file in the directory", path, ErrFormat)
		}
	case err == nil:
		return []string{path}, nil
	case strings.ContainsAny(path, "*?["):
		paths, err = filepath.Glob(path)
		if err == nil && len(paths) == 0 {
			return nil, fmt.Errorf("parquet: %s: no file matches the pattern: %w", path, os.ErrNotExist)
		}
	}
	if err != nil {
		return nil, pathErr(path, err)
	}
	slices.Sort(paths)
	return paths, checkShards(paths)
}

// checkShards checks that files named as shards k-of-n come as all n of them.
func checkShards(paths []string) error {
	seen := map[string]map[int]bool{}
	total := map[string]int{}
	for _, p := range paths {
		m := shardName.FindStringSubmatchIndex(p)
		if m == nil {
			continue
		}
		prefix := p[:m[0]]
		k, _ := strconv.Atoi(p[m[2]:m[3]])
		n, _ := strconv.Atoi(p[m[4]:m[5]])
		if seen[prefix] == nil {
			seen[prefix], total[prefix] = map[int]bool{}, n
		}
		if n != total[prefix] || k >= n {
			return fmt.Errorf("parquet: %s: %w: shard %d of %d among shards of %d", p, ErrFormat, k, n, total[prefix])
		}
		seen[prefix][k] = true
	}
	for prefix, ks := range seen {
		for k := range total[prefix] {
			if !ks[k] {
				return fmt.Errorf("parquet: %s-%05d-of-%05d.parquet: shard missing: %w", prefix, k, total[prefix], os.ErrNotExist)
			}
		}
	}
	return nil
}

var magic = []byte("PAR1")

// openPart maps one file and reads its footer.
func openPart(path string) (p *part, err error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, pathErr(path, err)
	}
	defer osf.Close()
	st, err := osf.Stat()
	if err != nil {
		return nil, pathErr(path, err)
	}
	size := st.Size()
	r, err := mmap.Map(osf, size, "parquet", ErrFault)
	if err != nil {
		return nil, pathErr(path, err)
	}
	defer func() {
		if err != nil {
			r.Release()
		}
	}()
	defer r.RecoverError(r.Guard(), &err)
	defer recoverFooter(path, &err)
	b := r.Bytes()
	switch {
	case len(b) >= 6 && bytes.Equal(b[:6], []byte("ARROW1")),
		len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0xFFFFFFFF:
		return nil, fmtErr.Errorf(path, ErrFormat, "not a Parquet file but an Arrow IPC file or stream (package arrowipc reads it)")
	case len(b) < 4 || !bytes.Equal(b[:4], magic):
		return nil, fmtErr.Errorf(path, ErrFormat, "not a Parquet file: it starts with %q, not %q", b[:min(len(b), 8)], magic)
	case size < 12:
		return nil, fmtErr.Errorf(path, ErrFormat, "a file of %d bytes, too short for a footer", size)
	case !bytes.Equal(b[size-4:], magic):
		return nil, fmtErr.Errorf(path, ErrFormat, "no footer: the file does not end with %q (truncated?)", magic)
	}
	n := int64(binary.LittleEndian.Uint32(b[size-8:]))
	if n > size-12 {
		// parquet-go allocates the length it reads before reading the footer.
		return nil, fmtErr.Errorf(path, ErrFormat, "footer of %d bytes in a %d-byte file", n, size)
	}
	// parquet-go allocates every length inside the footer before reading it.
	if _, err := thriftEnd(b[size-8-n : size-8]); err != nil {
		return nil, fmtErr.Errorf(path, ErrFormat, "footer: %v", err)
	}
	pf, err := pq.OpenFile(bytes.NewReader(b), size, pq.SkipPageIndex(true), pq.SkipBloomFilters(true))
	if err != nil {
		return nil, fmtErr.Errorf(path, ErrFormat, "footer: %v", err)
	}
	if err := checkFooter(path, pf, size); err != nil {
		return nil, err
	}
	return &part{name: path, region: r, file: pf}, nil
}

// checkFooter checks the row counts and chunk positions the footer claims.
func checkFooter(path string, pf *pq.File, size int64) error {
	md := pf.Metadata()
	var rows int64
	for k, rg := range md.RowGroups {
		if rg.NumRows < 0 {
			return fmtErr.Errorf(path, ErrFormat, "row group %d has %d rows", k, rg.NumRows)
		}
		rows += rg.NumRows
		for j, c := range rg.Columns {
			start := c.MetaData.DataPageOffset
			if c.MetaData.DictionaryPageOffset > 0 && c.MetaData.DictionaryPageOffset < start {
				start = c.MetaData.DictionaryPageOffset
			}
			if start < 4 || c.MetaData.TotalCompressedSize < 0 || start+c.MetaData.TotalCompressedSize > size {
				return fmtErr.Errorf(path, ErrFormat, "row group %d, column %d: chunk at byte %d of %d bytes outside the %d-byte file", k, j, start, c.MetaData.TotalCompressedSize, size)
			}
			if c.MetaData.NumValues < rg.NumRows && !repeatedLeaf(pf, j) {
				return fmtErr.Errorf(path, ErrFormat, "row group %d, column %d: %d values for %d rows", k, j, c.MetaData.NumValues, rg.NumRows)
			}
		}
	}
	if rows != md.NumRows {
		return fmtErr.Errorf(path, ErrFormat, "the footer says %d rows, its row groups hold %d", md.NumRows, rows)
	}
	if rows > maxRows {
		return fmtErr.Errorf(path, ErrFormat, "%d rows, more than %d", rows, int64(maxRows))
	}
	return nil
}

func repeatedLeaf(pf *pq.File, leaf int) bool {
	c := leafColumn(pf, leaf)
	return c != nil && c.MaxRepetitionLevel() > 0
}

// maxRows bounds the rows of a table, so that no count from a footer overflows.
const maxRows = 1 << 48

// sameSchema checks that the columns of a later file are those of the first.
func sameSchema(first string, want []Column, path string, got []Column) error {
	if len(got) != len(want) {
		return fmtErr.Errorf(path, ErrSchema, "%d columns, %s has %d", len(got), first, len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Type != want[i].Type {
			return fmtErr.Errorf(path, ErrSchema, "column %d is %s %s, in %s it is %s %s", i, got[i].Name, got[i].Type, first, want[i].Name, want[i].Type)
		}
	}
	return nil
}
