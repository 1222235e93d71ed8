package arrowipc

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/obskit/obskit/columnar/internal/lru"
	"github.com/obskit/obskit/internal/fileio"
	"github.com/obskit/obskit/internal/mmap"
)

var magic = []byte("ARROW1")

// A File is an Arrow IPC file or stream, memory-mapped: its schema, its record
// batches and its dictionaries, located when it was opened. Columns are read
// from it with [Numbers], [Lists], [Strings], [Scalars] and [Valid], which view
// the mapping without copying where the data allows it. A File is safe for
// concurrent use.
type File struct {
	name    string
	region  *mmap.Region
	stream  bool
	fields  []Field
	layouts []layout
	batches []batch
	starts  []int
	dicts   map[int64]*dict
	cache   *lru.Cache[[][]byte] // decompressed batches, nil when none is compressed
}

// A batch is one record batch of the file: its header and its body, a slice of
// the mapping.
type batch struct {
	meta batchMeta
	body []byte
	off  int64 // of the body in the file, for errors
}

// A layout is where a top-level column's arrays sit in every batch: the index
// of its first field node and of its first buffer.
type layout struct{ node, buf int }

// A dict is a decoded dictionary: the values' field and their buffers.
type dict struct {
	field Field
	b     batch
	bufs  [][]byte
	rows  int
}

// Name returns the name of the file, as given to Open.
func (f *File) Name() string { return f.name }

// Stream reports whether the file is in the stream format (no footer, as
// Hugging Face datasets caches its tables) rather than the file format.
func (f *File) Stream() bool { return f.stream }

// Fields returns the columns of the schema, in order, in a new slice.
func (f *File) Fields() []Field { return append([]Field{}, f.fields...) }

// Nobs returns the number of rows of the file: the rows of every record batch.
func (f *File) Nobs() int { return f.starts[len(f.starts)-1] }

// Batches returns the number of record batches.
func (f *File) Batches() int { return len(f.batches) }

// A BatchInfo describes one record batch of the file, for listings.
type BatchInfo struct {
	Rows  int    // rows of the batch
	Bytes int64  // size of its body in the file
	Codec string // "lz4_frame", "zstd", or "" for uncompressed buffers
}

// Batch returns the description of record batch k. It panics when k is out of
// range.
func (f *File) Batch(k int) BatchInfo {
	b := f.batches[k]
	return BatchInfo{Rows: int(b.meta.length), Bytes: int64(len(b.body)), Codec: codecName(b.meta.codec)}
}

func codecName(c int8) string {
	switch c {
	case 0:
		return "lz4_frame"
	case 1:
		return "zstd"
	}
	return ""
}

// Open memory-maps the Arrow IPC file or stream at path and reads its schema,
// the headers of its record batches and its dictionaries, which it decodes. It
// reads no column data. Both formats are recognized by their first bytes: the
// file format starts with "ARROW1", the stream format with a message.
//
// Open returns an error wrapping [ErrFormat] and naming the file for a
// malformed file (a bad magic, a truncated message, a buffer outside its body,
// a footer that points outside the file), and one wrapping [ErrUnsupported]
// for a big-endian file or delta dictionaries.
func Open(path string, opts ...Option) (*File, error) {
	o := options{cache: 4}
	for _, opt := range opts {
		opt(&o)
	}
	osf, err := fmtErr.Open(path)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	st, err := osf.Stat()
	if err != nil {
		return nil, fmtErr.Wrap(path, err)
	}
	r, err := mmap.Map(osf, st.Size(), "arrowipc", ErrFault)
	if err != nil {
		return nil, fmt.Errorf("arrowipc: %w", err)
	}
	f := &File{name: path, region: r, dicts: map[int64]*dict{}}
	err = func() (err error) {
		defer r.RecoverError(r.Guard(), &err)
		return f.read(r.Bytes())
	}()
	if err != nil {
		r.Release()
		return nil, err
	}
	for _, b := range f.batches {
		if b.meta.codec >= 0 {
			f.cache = lru.New(o.cache, func(k int) ([][]byte, error) { return f.decode(f.batches[k]) })
			break
		}
	}
	return f, nil
}

// read locates the schema, dictionaries and batches of the whole file data.
func (f *File) read(data []byte) error {
	if len(data) >= 8 && bytes.Equal(data[:6], magic) {
		return f.readFile(data)
	}
	if len(data) >= 6 && bytes.Equal(data[:5], magic[:5]) {
		return f.errorf("bad magic %q", data[:6])
	}
	f.stream = true
	return f.readStream(data)
}

func (f *File) errorf(format string, args ...any) error {
	return fmtErr.Errorf(f.name, ErrFormat, format, args...)
}

// readStream walks the messages of the stream format from the start of data.
func (f *File) readStream(data []byte) error {
	pos := 0
	schema := false
	for {
		if pos == len(data) {
			break // a stream may end without an end-of-stream marker
		}
		m, meta, body, next, err := f.message(data, pos)
		if err != nil {
			return err
		}
		if meta == nil {
			break // end of stream
		}
		switch {
		case m.kind == msgSchema && !schema:
			if err := f.setSchema(m.fields, m.bigEnd); err != nil {
				return err
			}
			schema = true
		case !schema:
			return f.errorf("message at byte %d before the schema", pos)
		case m.kind == msgSchema:
			return f.errorf("second schema at byte %d", pos)
		default:
			if err := f.addMessage(m, body, int64(pos)); err != nil {
				return err
			}
		}
		pos = next
	}
	if !schema {
		return f.errorf("no schema message")
	}
	return f.finish()
}

// message reads the encapsulated message at pos: its header, its metadata and
// its body, and the position after it. meta is nil at an end-of-stream marker.
func (f *File) message(data []byte, pos int) (m message, meta, body []byte, next int, err error) {
	if pos+4 > len(data) {
		return m, nil, nil, 0, f.errorf("truncated message at byte %d", pos)
	}
	n := int64(int32(binary.LittleEndian.Uint32(data[pos:])))
	hdr := 4
	if uint32(n) == 0xFFFFFFFF {
		if pos+8 > len(data) {
			return m, nil, nil, 0, f.errorf("truncated message at byte %d", pos)
		}
		n = int64(int32(binary.LittleEndian.Uint32(data[pos+4:])))
		hdr = 8
	}
	if n == 0 {
		return m, nil, nil, pos + hdr, nil
	}
	start := int64(pos + hdr)
	if n < 0 || start+n > int64(len(data)) {
		return m, nil, nil, 0, f.errorf("message at byte %d: metadata of %d bytes past the end of the %d-byte file", pos, n, len(data))
	}
	meta = data[start : start+n]
	m, err = parseMessage(meta)
	if err != nil {
		return m, nil, nil, 0, f.errorf("message at byte %d: %v", pos, err)
	}
	end := start + n + m.bodyLen
	if m.bodyLen > int64(len(data)) || end > int64(len(data)) {
		return m, nil, nil, 0, f.errorf("message at byte %d: body of %d bytes past the end of the %d-byte file", pos, m.bodyLen, len(data))
	}
	return m, meta, data[start+n : end], int(end), nil
}

// readFile reads the file format: the footer at the end, then each block it
// lists.
func (f *File) readFile(data []byte) error {
	n := len(data)
	if n < 8+10 || !bytes.Equal(data[n-6:], magic) {
		return f.errorf("no Arrow footer: the file does not end with %q (truncated?)", magic)
	}
	flen := int64(int32(binary.LittleEndian.Uint32(data[n-10:])))
	if flen <= 0 || flen > int64(n-18) {
		return f.errorf("footer of %d bytes in a %d-byte file", flen, n)
	}
	fields, bigEnd, dicts, batches, err := parseFooter(data[int64(n-10)-flen : n-10])
	if err != nil {
		return f.errorf("footer: %v", err)
	}
	if err := f.setSchema(fields, bigEnd); err != nil {
		return err
	}
	for _, blocks := range [][]block{dicts, batches} {
		for _, b := range blocks {
			if b.off < 8 || b.off >= int64(n) || b.metaLen < 0 || b.bodyLen < 0 {
				return f.errorf("footer: block at byte %d (metadata %d, body %d bytes) outside the %d-byte file", b.off, b.metaLen, b.bodyLen, n)
			}
			m, meta, body, _, err := f.message(data, int(b.off))
			if err != nil {
				return err
			}
			if meta == nil || m.kind == msgSchema {
				return f.errorf("footer: block at byte %d is not a batch", b.off)
			}
			if err := f.addMessage(m, body, b.off); err != nil {
				return err
			}
		}
	}
	return f.finish()
}

func (f *File) setSchema(fields []Field, bigEnd bool) error {
	if bigEnd != !fileio.LittleEndian {
		return fmtErr.Errorf(f.name, ErrUnsupported, "the file is in the other byte order than this machine's")
	}
	f.fields = fields
	node, buf := 0, 0
	for _, fd := range fields {
		f.layouts = append(f.layouts, layout{node, buf})
		dn, db := countArrays(fd)
		node, buf = node+dn, buf+db
	}
	return nil
}

// countArrays returns the number of field nodes and buffers of a field in a
// record batch (not counting view columns' variadic buffers).
func countArrays(fd Field) (nodes, bufs int) {
	if fd.Dict != nil {
		return 1, 2
	}
	nodes, bufs = 1, buffersOf(fd.Type)
	var kids []Field
	if fd.Type.Elem != nil {
		kids = []Field{*fd.Type.Elem}
	} else {
		kids = fd.Type.Children
	}
	for _, c := range kids {
		n, b := countArrays(c)
		nodes, bufs = nodes+n, bufs+b
	}
	return nodes, bufs
}

func buffersOf(t Type) int {
	switch t.Kind {
	case Null, RunEndEncoded:
		return 0
	case Struct, FixedSizeList:
		return 1
	case Binary, Utf8, LargeBinary, LargeUtf8, ListView, LargeListView:
		return 3
	case Union:
		if t.Dense {
			return 2
		}
		return 1
	}
	return 2
}

// addMessage records a record batch or decodes a dictionary batch.
func (f *File) addMessage(m message, body []byte, off int64) error {
	if err := f.checkBuffers(m.batch, body, off); err != nil {
		return err
	}
	b := batch{meta: m.batch, body: body, off: off}
	if m.kind == msgRecord {
		if err := f.checkArrays("record batch", b, off, f.fields); err != nil {
			return err
		}
		f.batches = append(f.batches, b)
		return nil
	}
	if m.isDelta {
		return fmtErr.Errorf(f.name, ErrUnsupported, "delta dictionary batch at byte %d", off)
	}
	var fd *Field
	for i := range f.fields {
		if f.fields[i].Dict != nil && f.fields[i].DictID == m.dictID {
			fd = &f.fields[i]
		}
	}
	if fd == nil {
		return f.errorf("dictionary batch at byte %d has id %d, which no column uses", off, m.dictID)
	}
	vf := Field{Name: fd.Name, Type: fd.Type, Nullable: fd.Nullable}
	if err := f.checkArrays("dictionary batch", b, off, []Field{vf}); err != nil {
		return err
	}
	bufs, err := f.decode(b)
	if err != nil {
		return err
	}
	f.dicts[m.dictID] = &dict{field: vf, b: b, bufs: bufs, rows: int(b.meta.nodes[0].length)}
	return nil
}

// checkArrays checks that batch b (a "record batch" or a "dictionary batch" at
// byte off) has the field nodes and buffers that fields need, so that readers
// index them without checking.
func (f *File) checkArrays(what string, b batch, off int64, fields []Field) error {
	nodes, bufs := 0, 0
	for _, fd := range fields {
		dn, db := countArrays(fd)
		nodes, bufs = nodes+dn, bufs+db
	}
	if len(b.meta.nodes) < nodes || len(b.meta.buffers) < bufs {
		return f.errorf("%s at byte %d has %d field nodes and %d buffers, the schema needs %d and %d", what, off, len(b.meta.nodes), len(b.meta.buffers), nodes, bufs)
	}
	return nil
}

// checkBuffers checks that every buffer of a batch lies inside its body.
func (f *File) checkBuffers(m batchMeta, body []byte, off int64) error {
	for k, s := range m.buffers {
		if s.off < 0 || s.len < 0 || s.off > int64(len(body)) || s.len > int64(len(body))-s.off {
			return f.errorf("batch at byte %d: buffer %d (offset %d, %d bytes) outside its %d-byte body", off, k, s.off, s.len, len(body))
		}
	}
	return nil
}

// finish computes the row starts of the batches.
func (f *File) finish() error {
	f.starts = make([]int, len(f.batches)+1)
	for k, b := range f.batches {
		if b.meta.length > maxRows-int64(f.starts[k]) {
			return f.errorf("more than %d rows", maxRows)
		}
		f.starts[k+1] = f.starts[k] + int(b.meta.length)
	}
	return nil
}

// maxRows bounds the rows of a file, so that no count from a header overflows.
const maxRows = 1 << 48
