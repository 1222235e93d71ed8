package shard

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
)

// A Format is how a shard stores its samples.
type Format uint8

const (
	// Tar is a WebDataset tar file: each field a member KEY.FIELD (package
	// wds). Gzip-compressed tar shards are read whole.
	Tar Format = 1 + iota
	// RecordIO is a RecordIO file (package recordio): each field one record,
	// the fields of a sample consecutive. A set whose samples have one field
	// is a .rec file of those payloads, which MXNet reads.
	RecordIO
	// Npy is one .npy file per field, the field's value of every sample of
	// the shard a row of it: numeric arrays of one dtype and shape per field.
	Npy
)

var formatNames = [...]string{Tar: "tar", RecordIO: "recordio", Npy: "npy"}

// String returns "tar", "recordio" or "npy".
func (f Format) String() string {
	if int(f) < len(formatNames) && formatNames[f] != "" {
		return formatNames[f]
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// ParseFormat returns the Format of a name String returns ("rec" is
// RecordIO too).
func ParseFormat(s string) (Format, error) {
	switch s {
	case "tar":
		return Tar, nil
	case "recordio", "rec":
		return RecordIO, nil
	case "npy":
		return Npy, nil
	}
	return 0, fmt.Errorf("shard: unknown format %q (want tar, recordio or npy)", s)
}

// indexMagic starts every index file; indexVersion is the format of what
// follows.
const (
	indexMagic   = "OBSKIDX\x00"
	indexVersion = 1
)

// ErrIndex is wrapped by the error of an index file that is not one: a bad
// magic, version, checksum or length, a count its bytes cannot hold, a member
// outside its file.
var ErrIndex = errors.New("not a valid shard index")

// index is the per-shard index in memory: each sample's key, label and
// members. Every slice is sized by what the index's bytes hold.
type index struct {
	format Format
	// gzip says the shard's one file is a gzip-compressed tar stream, whose
	// decompressed size is dataSize: the members' offsets are in it.
	gzip     bool
	dataSize int64
	files    []indexFile // the shard's files: one, or one per field (Npy)
	fields   []string    // the field names, the members' field numbers index them
	keys     []byte      // the keys, one after another
	keyEnd   []uint32    // the end of key j in keys
	labels   []int64     // the label of each sample, or nil
	mstart   []uint32    // sample j's members are members[mstart[j]:mstart[j+1]]
	mem      []member
}

// indexFile is a file of a shard as its index records it.
type indexFile struct {
	name   string // relative to the shard's directory
	size   int64
	sha256 [32]byte
}

// member is where one field of a sample is stored.
type member struct {
	off   int64
	size  int64
	crc   uint32 // CRC-32C of its bytes
	field uint16
}

func (ix *index) n() int { return len(ix.keyEnd) }

func (ix *index) key(j int) string {
	start := uint32(0)
	if j > 0 {
		start = ix.keyEnd[j-1]
	}
	return string(ix.keys[start:ix.keyEnd[j]])
}

func (ix *index) members(j int) []member { return ix.mem[ix.mstart[j]:ix.mstart[j+1]] }

// file returns the file number of m: 0, or its field's file in an Npy shard.
func (ix *index) file(m member) int {
	if ix.format == Npy {
		return int(m.field)
	}
	return 0
}

// encode returns the index's bytes.
//
// The layout, integers as unsigned LEB128 varints (uv) unless said:
//
//	"OBSKIDX\0" version:uv format:byte flags:byte (bit 0: labels, bit 1: gzip)
//	files:uv   { name-len:uv name size:uv sha256:[32] }
//	[decompressed-size:uv, with gzip]
//	fields:uv  { len:uv name }
//	samples:uv { key-len:uv key [label:zigzag varint] members:uv
//	             { field:uv gap:uv size:uv crc32c:u32le } }
//	crc32c:u32le of everything before it
//
// A member's offset is its gap after the end of the previous member of its
// file (of the shard's one file, or of its field's file), so that members
// lie in order and do not overlap.
func (ix *index) encode() []byte {
	b := append([]byte(indexMagic), indexVersion, byte(ix.format))
	var flags byte
	if ix.labels != nil {
		flags |= 1
	}
	if ix.gzip {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(ix.files)))
	for _, f := range ix.files {
		b = appendString(b, f.name)
		b = binary.AppendUvarint(b, uint64(f.size))
		b = append(b, f.sha256[:]...)
	}
	if ix.gzip {
		b = binary.AppendUvarint(b, uint64(ix.dataSize))
	}
	b = binary.AppendUvarint(b, uint64(len(ix.fields)))
	for _, f := range ix.fields {
		b = appendString(b, f)
	}
	b = binary.AppendUvarint(b, uint64(ix.n()))
	ends := make([]int64, len(ix.files))
	for j := range ix.n() {
		b = appendString(b, ix.key(j))
		if ix.labels != nil {
			b = binary.AppendVarint(b, ix.labels[j])
		}
		ms := ix.members(j)
		b = binary.AppendUvarint(b, uint64(len(ms)))
		for _, m := range ms {
			f := ix.file(m)
			b = binary.AppendUvarint(b, uint64(m.field))
			b = binary.AppendUvarint(b, uint64(m.off-ends[f]))
			b = binary.AppendUvarint(b, uint64(m.size))
			b = binary.LittleEndian.AppendUint32(b, m.crc)
			ends[f] = m.off + m.size
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// decoder reads an index's bytes, refusing counts they cannot hold.
type decoder struct {
	b    []byte
	off  int
	name string
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("shard: index %s: offset %d: %w: %s", d.name, d.off, ErrIndex, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail("%s: not a varint", what)
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail("%s: not a varint", what)
		return 0
	}
	d.off += n
	return v
}

// count reads a count of items of at least min bytes each, refusing one the
// bytes left cannot hold.
func (d *decoder) count(what string, min int) int {
	v := d.uvarint(what)
	if d.err == nil && v > uint64((len(d.b)-d.off)/min) {
		d.fail("%s %d: more than the %d bytes left can hold", what, v, len(d.b)-d.off)
		return 0
	}
	return int(v)
}

func (d *decoder) bytes(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b)-d.off {
		d.fail("%s: %d bytes, %d left", what, n, len(d.b)-d.off)
		return nil
	}
	s := d.b[d.off : d.off+n]
	d.off += n
	return s
}

func (d *decoder) string(what string) string {
	return string(d.bytes(d.count(what+" length", 1), what))
}

// decodeIndex reads the index b of the shard called name in errors. Every
// count is checked against the bytes that would hold what it counts before
// anything is sized by it, so a damaged index allocates at most a few times
// its size.
func decodeIndex(b []byte, name string) (*index, error) {
	d := &decoder{b: b, name: name}
	if len(b) < len(indexMagic)+3+4 || string(b[:len(indexMagic)]) != indexMagic {
		return nil, fmt.Errorf("shard: index %s: %w: no index magic", name, ErrIndex)
	}
	if sum, want := crc32.Checksum(b[:len(b)-4], castagnoli), binary.LittleEndian.Uint32(b[len(b)-4:]); sum != want {
		return nil, fmt.Errorf("shard: index %s: %w: checksum %08x, the index says %08x", name, ErrIndex, sum, want)
	}
	d.b = b[:len(b)-4]
	d.off = len(indexMagic)
	if v := d.b[d.off]; v != indexVersion {
		d.fail("version %d, want %d", v, indexVersion)
	}
	ix := &index{format: Format(d.b[d.off+1])}
	if ix.format < Tar || ix.format > Npy {
		d.fail("format %d", ix.format)
	}
	flags := d.b[d.off+2]
	if flags&^3 != 0 {
		d.fail("flags %#x", flags)
	}
	ix.gzip = flags&2 != 0
	d.off += 3
	ix.files = make([]indexFile, d.count("files", 34))
	for k := range ix.files {
		f := &ix.files[k]
		f.name = d.string("file name")
		f.size = int64(d.uvarint("file size") & (1<<63 - 1))
		copy(f.sha256[:], d.bytes(32, "file sha256"))
	}
	if ix.gzip {
		ix.dataSize = int64(d.uvarint("decompressed size") & (1<<63 - 1))
		if d.err == nil && (ix.format != Tar || len(ix.files) != 1) {
			d.fail("gzip for a %s shard of %d files", ix.format, len(ix.files))
		}
	}
	ix.fields = make([]string, d.count("fields", 1))
	for k := range ix.fields {
		ix.fields[k] = d.string("field name")
		if d.err == nil && ix.fields[k] == "" {
			d.fail("field %d: empty name", k)
		}
		for _, f := range ix.fields[:k] {
			if d.err == nil && f == ix.fields[k] {
				d.fail("field %q twice", f)
			}
		}
	}
	if d.err == nil && len(ix.fields) > 1<<16 {
		d.fail("%d fields", len(ix.fields))
	}
	if d.err == nil && (len(ix.files) == 0 || ix.format == Npy && len(ix.files) != len(ix.fields) || ix.format != Npy && len(ix.files) != 1) {
		d.fail("%d files for %d fields of a %s shard", len(ix.files), len(ix.fields), ix.format)
	}
	// A sample takes at least 2 bytes (an empty key, no members: refused
	// below), a member 7.
	n := d.count("samples", 2)
	if d.err != nil {
		return nil, d.err
	}
	ix.keyEnd = make([]uint32, n)
	ix.mstart = make([]uint32, n+1)
	if flags&1 != 0 {
		ix.labels = make([]int64, n)
	}
	ends := make([]int64, len(ix.files))
	seen := make([]int, len(ix.fields)) // the sample each field was last seen in
	for k := range seen {
		seen[k] = -1
	}
	for j := range n {
		key := d.bytes(d.count("key length", 1), "key")
		ix.keys = append(ix.keys, key...)
		if len(ix.keys) > 1<<32-1 {
			d.fail("keys longer than 4 GiB")
		}
		ix.keyEnd[j] = uint32(len(ix.keys))
		if ix.labels != nil {
			ix.labels[j] = d.varint("label")
		}
		nm := d.count("members", 7)
		if d.err == nil && nm == 0 {
			d.fail("sample %d (%q): no members", j, key)
		}
		for range nm {
			field := d.uvarint("field")
			gap := d.uvarint("member offset")
			size := d.uvarint("member size")
			crc := d.bytes(4, "member crc")
			if d.err != nil {
				break
			}
			if field >= uint64(len(ix.fields)) {
				d.fail("sample %d (%q): field %d of %d", j, key, field, len(ix.fields))
				break
			}
			if seen[field] == j {
				d.fail("sample %d (%q): field %q twice", j, key, ix.fields[field])
				break
			}
			seen[field] = j
			m := member{field: uint16(field), crc: binary.LittleEndian.Uint32(crc)}
			f := ix.file(m)
			fsize := uint64(ix.files[f].size)
			if ix.gzip {
				fsize = uint64(ix.dataSize)
			}
			if gap > fsize || size > fsize || uint64(ends[f])+gap > fsize-size {
				d.fail("sample %d (%q): member of field %q: %d bytes at %d past the end of %s (%d bytes)", j, key, ix.fields[field], size, uint64(ends[f])+gap, ix.files[f].name, fsize)
				break
			}
			m.off = ends[f] + int64(gap)
			m.size = int64(size)
			ends[f] = m.off + m.size
			ix.mem = append(ix.mem, m)
		}
		if d.err != nil {
			return nil, d.err
		}
		ix.mstart[j+1] = uint32(len(ix.mem))
	}
	if d.err == nil && d.off != len(d.b) {
		d.fail("%d bytes after the last sample", len(d.b)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	return ix, nil
}

// crcOf returns the CRC-32C of b.
func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
