package recordio

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio/mmap"
)

var _ container.Encoded = (*File)(nil)

// A File is a RecordIO file opened for random access, and a container of its
// records: observation i is the payload of record i, in the order of the file,
// as a []byte; a batch is a [][]byte. It is stateless: any number of goroutines
// may read one File at once.
//
// The records are those its index lists ([Open] with an index path, [NewFile]
// with an [Index]), or else all those of the file, found by a scan when it is
// opened. Each record has a key: the index's, or its position when there is no
// index. Partition a File by records with subset.Partition, as every
// container; see the package documentation for how MXNet partitions.
//
// Reads copy the records out: a File hands out no memory of its own. It is a
// container.Encoded: [File.AppendObs] reads a record into a buffer the caller
// reuses and returns an error where GetObs panics, and [File.Where] names a
// record's file, key and offset. Several files read as one container are
// their join (transform.Join), which keeps both. A File has nothing to close:
// [Open]'s mapping is released once the File is unreachable, and [NewFile]'s
// io.ReaderAt is the caller's.
type File struct {
	name   string
	size   int64
	region *mmap.Region // the mapping of Open
	data   []byte       // region's bytes
	ra     io.ReaderAt  // the source of NewFile
	offs   []int64      // record starts, in file order
	keys   []int64      // keys of the records, nil when they are the positions
	byKey  []int32      // record numbers in key order, nil when keys is
}

// Open opens the RecordIO file at path for random access, memory-mapped: the
// operating system reads pages as records are touched and keeps them in its
// page cache, so files larger than memory work and opening costs little.
//
// When index is a path, the records are those the index lists there (see
// [ReadIndex]; [IndexPath] names the index beside a .rec); their offsets must
// lie in the file, which costs nothing to check. Whether a record starts at
// each offset is checked when the record is read. When index is "", Open scans
// the file, reading the header of every part of every record (one page a
// record for large records, the whole file for small ones), and returns an
// error wrapping [ErrFormat] naming the offset of the first bytes that are not
// a valid record; the keys are then the records' positions.
//
// The file must not be truncated or rewritten while it is open: a read of a
// lost page panics (or returns, from [File.AppendObs]) an error wrapping
// [ErrFault] that names the file, where the program would otherwise die of
// SIGBUS. On platforms without mmap support the file is read into memory.
func Open(path, index string) (*File, error) {
	var ix Index
	if index != "" {
		var err error
		if ix, err = LoadIndex(index); err != nil {
			return nil, err
		}
	}
	fl, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	defer fl.Close()
	st, err := fl.Stat()
	if err != nil {
		return nil, format.Wrap(path, err)
	}
	r, err := mmap.Map(fl, st.Size(), "recordio", ErrFault)
	if err != nil {
		return nil, format.Wrap(path, err)
	}
	f := &File{name: path, size: st.Size(), region: r, data: r.Bytes()}
	if err := f.init(ix, index != ""); err != nil {
		r.Release()
		return nil, err
	}
	return f, nil
}

// NewFile returns a File reading the size bytes of r: a file on a file system
// that cannot be mapped, a part of a larger file (io.SectionReader), bytes in
// memory. name is the name errors give it. With a nil ix, NewFile scans the
// records through r as [Open] does without an index; otherwise the records are
// those ix lists, checked as [Open] checks them. Reads are safe from several
// goroutines when r's ReadAt is, as io.ReaderAt requires.
func NewFile(r io.ReaderAt, size int64, name string, ix Index) (*File, error) {
	f := &File{name: name, size: size, ra: r}
	if err := f.init(ix, ix != nil); err != nil {
		return nil, err
	}
	return f, nil
}

// init lists the records: those of ix when indexed, else those a scan finds.
func (f *File) init(ix Index, indexed bool) (err error) {
	if !indexed {
		if f.region != nil {
			defer f.region.RecoverError(f.region.Guard(), &err)
		}
		for off := int64(0); off < f.size; {
			end, _, err := f.span(off)
			if err != nil {
				return f.fail(err, -1)
			}
			f.offs = append(f.offs, off)
			off = end
		}
		return nil
	}
	if err := ix.check(); err != nil {
		return format.Errorf(f.name, ErrFormat, "index: %v", err)
	}
	for _, e := range ix {
		if e.Offset < 0 || e.Offset%4 != 0 || e.Offset > f.size-headerSize {
			return format.Errorf(f.name, ErrFormat, "index: key %d: offset %d is not the start of a record of the file (size %d)", e.Key, e.Offset, f.size)
		}
	}
	if len(ix) > 1<<31-1 {
		return format.Errorf(f.name, ErrFormat, "index: %d records: at most 2^31-1 are supported", len(ix))
	}
	s := slices.SortedFunc(slices.Values(ix), func(a, b Entry) int { return cmp.Compare(a.Offset, b.Offset) })
	f.offs = make([]int64, len(s))
	f.keys = make([]int64, len(s))
	for i, e := range s {
		f.offs[i], f.keys[i] = e.Offset, e.Key
	}
	f.byKey = make([]int32, len(s))
	for i := range f.byKey {
		f.byKey[i] = int32(i)
	}
	slices.SortFunc(f.byKey, func(a, b int32) int { return cmp.Compare(f.keys[a], f.keys[b]) })
	return nil
}

// Name returns the name of the file, as errors give it.
func (f *File) Name() string { return f.name }

// Size returns the size of the file in bytes.
func (f *File) Size() int64 { return f.size }

// Nobs returns the number of records.
func (f *File) Nobs() int { return len(f.offs) }

// Indexed reports whether the records are those of an index (rather than of a
// scan).
func (f *File) Indexed() bool { return f.keys != nil }

// Offset returns the offset of record i in the file. It panics with a
// *container.IndexError when i is out of range.
func (f *File) Offset(i int) int64 {
	container.CheckIndex("recordio.File.Offset", i, len(f.offs))
	return f.offs[i]
}

// Key returns the key of record i: its index key, or i when the File has no
// index. It panics with a *container.IndexError when i is out of range.
func (f *File) Key(i int) int64 {
	container.CheckIndex("recordio.File.Key", i, len(f.offs))
	if f.keys == nil {
		return int64(i)
	}
	return f.keys[i]
}

// Find returns the position of the record of key, and false when there is
// none: O(log n).
func (f *File) Find(key int64) (int, bool) {
	if f.keys == nil {
		if key < 0 || key >= int64(len(f.offs)) {
			return 0, false
		}
		return int(key), true
	}
	j, ok := slices.BinarySearchFunc(f.byKey, key, func(i int32, k int64) int { return cmp.Compare(f.keys[i], k) })
	if !ok {
		return 0, false
	}
	return int(f.byKey[j]), true
}

// Index returns the index of the records in file order: the File's index
// sorted by offset, or, without one, the positions as keys (an index rebuilt
// from the scan; write it with [Index.WriteTo]).
func (f *File) Index() Index {
	ix := make(Index, len(f.offs))
	for i, off := range f.offs {
		ix[i] = Entry{Key: f.Key(i), Offset: off}
	}
	return ix
}

// GetObs returns the payload of record i in new memory (an empty record is an
// empty, non-nil slice). It panics with a *container.IndexError when i is out
// of range, and with the error of [File.AppendObs] when the record cannot be
// read.
func (f *File) GetObs(i int) []byte {
	container.CheckIndex("recordio.File.GetObs", i, len(f.offs))
	b, err := f.appendObs(nil, i, MaxSize)
	if err != nil {
		panic(err)
	}
	return b
}

// GetObsInto writes the payloads of the records at idx into dst, one []byte
// each, and returns the batch. The byte slices of dst are reused: each record
// is appended to dst[j][:0], so a batch reused step after step allocates
// nothing once its slices have grown to the records' sizes. The slices of dst
// must not share memory. It panics as [File.GetObs] does, before writing
// anything for an index out of range.
func (f *File) GetObsInto(dst [][]byte, idx []int) [][]byte {
	container.CheckIndices("recordio.File.GetObsInto", idx, len(f.offs))
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		b, err := f.appendObs(dst[j][:0], i, MaxSize)
		if err != nil {
			panic(err)
		}
		dst[j] = b
	}
	return dst
}

// AppendObs appends the payload of record i to dst and returns the extended
// slice, or dst and an error that names the file, the record's key and its
// offset: one wrapping [ErrFormat] when the bytes there are not a valid record
// (no magic number, a part flagged as the middle or end of a split record, a
// length past the end of the file, a split record cut short), one wrapping
// [ErrFault] when the mapped file lost the pages, or the error of the
// io.ReaderAt of [NewFile]. It panics with a *container.IndexError when i is
// out of range. It does not retain dst, and is safe to call from several
// goroutines at once (see container.Encoded).
func (f *File) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("recordio.File.AppendObs", i, len(f.offs))
	return f.appendObs(dst, i, MaxSize)
}

// AppendPrefix appends the first n bytes of the payload of record i to dst
// (all of it when it is shorter) and returns the extended slice: the header
// of an image record without its image, for example. It reads the headers of
// the record's parts and the n bytes only, and returns the errors of
// [File.AppendObs]. It panics with a *container.IndexError when i is out of
// range and with a *container.ArgError when n is negative.
func (f *File) AppendPrefix(dst []byte, i, n int) ([]byte, error) {
	container.CheckIndex("recordio.File.AppendPrefix", i, len(f.offs))
	container.CheckArg(n >= 0, "recordio.File.AppendPrefix", "n", n, "n >= 0")
	return f.appendObs(dst, i, n)
}

// Where returns where record i is stored, for messages: "train.rec: record of
// key 7 at offset 1024". It panics with a *container.IndexError when i is out
// of range.
func (f *File) Where(i int) string {
	container.CheckIndex("recordio.File.Where", i, len(f.offs))
	return f.name + ": " + f.record(i) + " at offset " + strconv.FormatInt(f.offs[i], 10)
}

// record names record i in errors.
func (f *File) record(i int) string { return "record of key " + strconv.FormatInt(f.Key(i), 10) }

// appendObs is AppendObs of a checked i, the first limit bytes of the
// payload: a fault of the mapping becomes an error that names the record.
func (f *File) appendObs(dst []byte, i, limit int) ([]byte, error) {
	b, err := f.guarded(dst, i, limit)
	if err == nil {
		return b, nil
	}
	if fe := (*mmap.FaultError)(nil); errors.As(err, &fe) {
		err = fmt.Errorf("%w (reading the %s at offset %d)", err, f.record(i), f.offs[i])
	}
	return b, err
}

// guarded is appendRecord with the faults of the mapping returned as errors;
// it returns dst's bytes alone after a fault.
func (f *File) guarded(dst []byte, i, limit int) (b []byte, err error) {
	if f.region != nil {
		defer f.region.RecoverError(f.region.Guard(), &err)
	}
	b = dst
	return f.appendRecord(dst, i, limit)
}

// appendRecord is AppendObs without the checks of i and of faults: it
// appends the first limit bytes of the payload of record i (all of it when
// limit >= MaxSize).
func (f *File) appendRecord(dst []byte, i, limit int) ([]byte, error) {
	off := f.offs[i]
	// A record in one part, the common case, is one copy from the mapping or
	// one ReadAt; split records and errors take the general path below.
	switch {
	case f.data != nil:
		if flag, k, err := f.header(off); err == nil && flag == whole {
			n := int64(min(int(k), limit))
			if dst == nil {
				dst = make([]byte, 0, n)
			}
			dst = append(dst, f.data[off+headerSize:off+headerSize+n]...)
			runtime.KeepAlive(f.region) // the mapping outlives the copy
			return dst, nil
		}
	case f.ra != nil && limit >= MaxSize:
		var ok bool
		var err error
		if dst, ok, err = f.readWhole(dst, i); ok {
			return dst, nil
		}
		if err != nil {
			return dst, f.fail(err, i)
		}
	}
	end, n, err := f.span(off)
	if err != nil {
		return dst, f.fail(err, i)
	}
	start := len(dst)
	dst = slices.Grow(dst, min(int(n), limit))
	if dst == nil {
		dst = []byte{}
	}
	for left := limit; off < end && left > 0; {
		flag, k, err := f.header(off)
		if err != nil {
			return dst[:start], f.fail(err, i)
		}
		if flag == middle || flag == last {
			m := min(4, left)
			dst = append(dst, magicBytes[:m]...)
			left -= m
		}
		at, m := len(dst), min(int(k), left)
		dst = dst[:at+m]
		if err := f.read(dst[at:], off+headerSize); err != nil {
			return dst[:start], f.fail(err, i)
		}
		left -= m
		off += headerSize + pad4(int64(k))
	}
	return dst, nil
}

// wholeMax bounds the bytes readWhole reads at once.
const wholeMax = 256 << 10

// readWhole reads record i through the io.ReaderAt in one call when the bytes
// up to the next record (or the end of the file) are at most wholeMax: it
// reads them all into dst's spare room, then moves the payload of each part
// down over the part headers, putting back the magic numbers between parts.
// When the bytes are not a valid record that ends there, it reports false and
// leaves the record to the general path, which reads part by part and says
// what is wrong.
func (f *File) readWhole(dst []byte, i int) ([]byte, bool, error) {
	off, next := f.offs[i], f.size
	if i+1 < len(f.offs) {
		next = f.offs[i+1]
	}
	span := int(next - off)
	if span < headerSize || span > wholeMax {
		return dst, false, nil
	}
	at := len(dst)
	dst = slices.Grow(dst, span)
	b := dst[at : at+span]
	if err := f.read(b, off); err != nil {
		return dst[:at], false, err
	}
	w := 0 // bytes of payload so far, moved to the front of b; always <= r
	for r, k := 0, 0; ; k++ {
		if r+headerSize > span || binary.LittleEndian.Uint32(b[r:]) != Magic {
			return dst[:at], false, nil
		}
		word := binary.LittleEndian.Uint32(b[r+4:])
		flag, n := partFlag(word), int(partLen(word))
		if (k == 0) != (flag == whole || flag == first) || flag > last || r+headerSize+n > span {
			return dst[:at], false, nil
		}
		w += copy(b[w:], b[r+headerSize:r+headerSize+n])
		if flag == whole || flag == last {
			return dst[:at+w], true, nil
		}
		r += headerSize + int(pad4(int64(n)))
		binary.LittleEndian.PutUint32(b[w:], Magic) // w+4 <= r: the next header is intact
		w += 4
	}
}

// A badBytes is a problem with the bytes at an offset of a file, found by
// span or header; fail reports it with the file's name.
type badBytes struct {
	msg string
	eof bool // the file ends too early
}

func (e *badBytes) Error() string { return e.msg }

func bad(eof bool, msg string, args ...any) error {
	return &badBytes{msg: fmt.Sprintf(msg, args...), eof: eof}
}

// fail reports an error of reading record i (-1 during a scan) with the name
// of the file and the record: a badBytes becomes an error wrapping ErrFormat
// (and io.ErrUnexpectedEOF for a file that ends too early); an error of the
// io.ReaderAt is wrapped as it is. The message names the record's offset or
// the offset of the bytes read.
func (f *File) fail(err error, i int) error {
	var b *badBytes
	if !errors.As(err, &b) {
		if i >= 0 {
			return fmt.Errorf("recordio: %s: %s: %w", f.name, f.record(i), err)
		}
		return format.Wrap(f.name, err)
	}
	msg := b.msg
	if i >= 0 {
		msg = f.record(i) + ": " + msg
	}
	if b.eof {
		return truncated(f.name, "%s", msg)
	}
	return format.Errorf(f.name, ErrFormat, "%s", msg)
}

// span checks the record that starts at off and returns the offset after it
// (its padding included) and the size of its payload. It reads the headers of
// its parts only.
func (f *File) span(off int64) (end, n int64, err error) {
	start := off
	flag, k, err := f.header(off)
	if err != nil {
		return 0, 0, err
	}
	if flag != whole && flag != first {
		return 0, 0, bad(false, "offset %d: no record starts here: a part flagged %d (%s); a record starts with flag 0 (whole) or 1 (first part)", off, flag, flagName(flag))
	}
	for {
		n += int64(k)
		off += headerSize + pad4(int64(k))
		if flag == whole || flag == last {
			return off, n, nil
		}
		if off+headerSize > f.size {
			return 0, 0, bad(true, "offset %d: split record cut short at offset %d by the end of the file, its last part missing", start, off)
		}
		at := off
		if flag, k, err = f.header(off); err != nil {
			return 0, 0, err
		}
		if flag != middle && flag != last {
			return 0, 0, bad(false, "offset %d: split record from offset %d: part flagged %d (%s) where a middle or last part belongs", at, start, flag, flagName(flag))
		}
		n += 4 // the magic number between parts
	}
}

// header reads and checks the header of the part at off and returns its flag
// and length, which lies within the file.
func (f *File) header(off int64) (flag, n uint32, err error) {
	if off+headerSize > f.size {
		return 0, 0, bad(true, "offset %d: a part header of 8 bytes does not fit before the end of the file at %d", off, f.size)
	}
	var m, w uint32
	if data := f.data; data != nil {
		m, w = binary.LittleEndian.Uint32(data[off:]), binary.LittleEndian.Uint32(data[off+4:])
	} else {
		// A buffer given to an io.ReaderAt escapes: take one from a pool
		// rather than allocate one a part.
		h := headers.Get().(*[headerSize]byte)
		err := f.read(h[:], off)
		m, w = binary.LittleEndian.Uint32(h[0:]), binary.LittleEndian.Uint32(h[4:])
		headers.Put(h)
		if err != nil {
			return 0, 0, err
		}
	}
	if m != Magic {
		return 0, 0, bad(false, "offset %d: bad magic number 0x%08x (want 0x%08x)", off, m, Magic)
	}
	flag, n = partFlag(w), partLen(w)
	if flag > last {
		return 0, 0, bad(false, "offset %d: invalid part flag %d (length word 0x%08x)", off, flag, w)
	}
	if end := off + headerSize + pad4(int64(n)); end > f.size {
		return 0, 0, bad(true, "offset %d: part of %d bytes (%d padded) runs past the end of the file at %d", off, n, pad4(int64(n)), f.size)
	}
	return flag, n, nil
}

// magicBytes is the magic number as it is stored; it is never written to.
var magicBytes = binary.LittleEndian.AppendUint32(nil, Magic)

// headers are the buffers of part headers read through an io.ReaderAt.
var headers = sync.Pool{New: func() any { return new([headerSize]byte) }}

// read fills p from the file at off, which the caller has checked lies within
// it. Its error names the offset; [File.fail] adds the file and the record.
func (f *File) read(p []byte, off int64) error {
	switch {
	case f.data != nil:
		copy(p, f.data[off:])
		runtime.KeepAlive(f.region) // the mapping outlives the copy
		return nil
	case f.ra != nil:
		if len(p) == 0 {
			return nil
		}
		n, err := f.ra.ReadAt(p, off)
		switch {
		case n == len(p):
			return nil // io.ReaderAt may return io.EOF with the last bytes
		case err == nil || err == io.EOF:
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("reading %d bytes at offset %d: %w", len(p), off, err) // named by fail
	}
	panic("recordio: File without a source") // cannot happen: Open and NewFile set one
}
