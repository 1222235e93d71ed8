package arrowipc

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"os"
	"slices"

	"github.com/obskit/obskit/columnar/internal/lru"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
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
	// first is the index of the first buffer of each column (of a record
	// batch): the schema's layout shifted by the variadic buffers of view
	// columns before it.
	first []int
}

// A layout is where a top-level column's arrays sit in every batch: the index
// of its first field node (batch.first has the index of its first buffer,
// which the variadic buffers of view columns shift from batch to batch).
type layout struct{ node int }

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
	osf, err := os.Open(path)
	if err != nil {
		return nil, pathErr(path, err)
	}
	defer osf.Close()
	st, err := osf.Stat()
	if err != nil {
		return nil, pathErr(path, err)
	}
	if st.IsDir() {
		return nil, fmtErr.Errorf(path, ErrFormat, "a directory, not an Arrow IPC file or stream")
	}
	r, err := mmap.Map(osf, st.Size(), "arrowipc", ErrFault)
	if err != nil {
		return nil, pathErr(path, err)
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

// read locates the schema, dictionaries and batches of the whole file data,
// after telling the format from its first bytes: "ARROW1" starts the file
// format, a message (the continuation marker 0xFFFFFFFF, or before Arrow 0.15
// the length of its metadata) the stream format.
func (f *File) read(data []byte) error {
	switch {
	case len(data) >= 8 && bytes.Equal(data[:6], magic):
		return f.readFile(data)
	case len(data) >= 6 && bytes.Equal(data[:5], magic[:5]):
		return f.errorf("bad magic %q", data[:6])
	case len(data) == 0:
		return f.errorf("not an Arrow IPC file or stream: the file is empty")
	case len(data) >= 4 && bytes.Equal(data[:4], []byte("PAR1")):
		return f.errorf("not an Arrow IPC file or stream but a Parquet file (package parquet reads it)")
	case !streamStart(data):
		return f.errorf("not an Arrow IPC file or stream: it starts with %q", data[:min(len(data), 8)])
	}
	f.stream = true
	return f.readStream(data)
}

// streamStart reports whether data can start an Arrow IPC stream: with the
// continuation marker, or with the length of a first message's metadata that
// fits in the file (the format before Arrow 0.15), or with an end-of-stream
// marker.
func streamStart(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	n := binary.LittleEndian.Uint32(data)
	return n == 0xFFFFFFFF || int64(n) <= int64(len(data))-4
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
	// The messages are read in the order of the file, each after the end of
	// the one before, so that a footer listing one message many times cannot
	// make Open read (and allocate for) more metadata than the file holds;
	// then recorded in the footer's order.
	all := append(append([]block{}, dicts...), batches...)
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(all[i].off, all[j].off) })
	type read struct {
		m    message
		body []byte
	}
	msgs := make([]read, len(all))
	end := int64(8)
	for _, i := range order {
		b := all[i]
		if b.off < end || b.off >= int64(n) || b.metaLen < 0 || b.bodyLen < 0 {
			return f.errorf("footer: block at byte %d (metadata %d, body %d bytes) outside the %d-byte file or overlapping the message before it, which ends at byte %d", b.off, b.metaLen, b.bodyLen, n, end)
		}
		m, meta, body, next, err := f.message(data, int(b.off))
		if err != nil {
			return err
		}
		if meta == nil || m.kind == msgSchema {
			return f.errorf("footer: block at byte %d is not a batch", b.off)
		}
		msgs[i], end = read{m, body}, int64(next)
	}
	for i, b := range all {
		if err := f.addMessage(msgs[i].m, msgs[i].body, b.off); err != nil {
			return err
		}
	}
	return f.finish()
}

func (f *File) setSchema(fields []Field, bigEnd bool) error {
	if bigEnd != !fileio.LittleEndian {
		return fmtErr.Errorf(f.name, ErrUnsupported, "the file is in the other byte order than this machine's")
	}
	f.fields = fields
	node := 0
	for _, fd := range fields {
		f.layouts = append(f.layouts, layout{node})
		node += countNodes(fd)
	}
	return nil
}

// countNodes returns the number of field nodes of a field in a batch.
func countNodes(fd Field) int {
	if fd.Dict != nil {
		return 1
	}
	n := 1
	if fd.Type.Elem != nil {
		return n + countNodes(*fd.Type.Elem)
	}
	for _, c := range fd.Type.Children {
		n += countNodes(c)
	}
	return n
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

// addMessage records a record batch or decodes a dictionary batch, after
// checking its buffers and field nodes.
func (f *File) addMessage(m message, body []byte, off int64) error {
	if err := f.checkBuffers(m.batch, body, off); err != nil {
		return err
	}
	b := batch{meta: m.batch, body: body, off: off}
	if m.kind == msgRecord {
		first, err := f.checkArrays("record batch", b, off, f.fields)
		if err != nil {
			return err
		}
		b.first = first
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
	if _, err := f.checkArrays("dictionary batch", b, off, []Field{vf}); err != nil {
		return err
	}
	bufs, err := f.decode(b)
	if err != nil {
		return err
	}
	f.dicts[m.dictID] = &dict{field: vf, b: b, bufs: bufs, rows: int(b.meta.nodes[0].length)}
	return nil
}

// checkBuffers checks that every buffer of a batch lies inside its body and,
// for a compressed batch, that the length its prefix declares is one its
// compressed bytes can hold (see maxRatio).
func (f *File) checkBuffers(m batchMeta, body []byte, off int64) error {
	for k, s := range m.buffers {
		if s.off < 0 || s.len < 0 || s.off > int64(len(body)) || s.len > int64(len(body))-s.off {
			return f.errorf("batch at byte %d: buffer %d (offset %d, %d bytes) outside its %d-byte body", off, k, s.off, s.len, len(body))
		}
		if m.codec < 0 || s.len == 0 {
			continue
		}
		if s.len < 8 {
			return f.errorf("batch at byte %d: compressed buffer %d of %d bytes, shorter than its length prefix", off, k, s.len)
		}
		n := int64(binary.LittleEndian.Uint64(body[s.off:]))
		if n != -1 && (n < 0 || n > min(maxBuffer, maxRatio(m.codec)*(s.len-8)+ratioSlack)) {
			return f.errorf("batch at byte %d: buffer %d declares %d bytes uncompressed, more than %s can make of its %d", off, k, n, codecName(m.codec), s.len-8)
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
