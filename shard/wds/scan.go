package wds

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strings"
)

// CRC is the CRC-32C (Castagnoli) table of the members' checksums.
var CRC = crc32.MakeTable(crc32.Castagnoli)

// A Member is a regular file of a tar shard that belongs to a sample.
type Member struct {
	Name   string   // the member's name, long names (GNU, PAX) applied
	Field  string   // its field: the extension, lower-cased ([KeyExt], [Field])
	Header int64    // the offset of its first header block (an extension header's when it has one)
	Offset int64    // the offset of its data
	Size   int64    // the size of its data
	CRC    uint32   // the CRC-32C of its data
	SHA256 [32]byte // the SHA-256 of its data, with ScanOptions.SHA256
	Data   []byte   // its data, newly allocated, with ScanOptions.Data or Keep
}

// A Sample is the run of consecutive members of a tar shard that share a key.
type Sample struct {
	Key     string
	Members []Member
}

// Skips counts the members of a shard that belong to no sample, by the rule
// webdataset skips them by.
type Skips struct {
	NotRegular int // directories, links, devices, FIFOs, PAX global headers
	Meta       int // names [Meta] reports, such as "__meta__"
	NoKey      int // names [KeyExt] finds no key and extension in
}

// ScanOptions say what a [Scanner] keeps of the members' data besides its
// CRC-32C.
type ScanOptions struct {
	SHA256 bool // compute each member's SHA-256
	Data   bool // keep each member's data
	// Keep, when not nil, keeps the data of the members whose field it
	// returns true for (with Data false), when they hold at most KeepMax
	// bytes: a label, say, not a field whose size a damaged or hostile
	// shard chooses.
	Keep func(field string) bool
}

// KeepMax is the largest member ScanOptions.Keep keeps: 1 MiB.
const KeepMax = 1 << 20

// ErrFormat is wrapped by the errors of bytes that are not a WebDataset tar
// shard: a bad header, a shard cut inside a member, a field twice in one
// sample, bytes after the end of the archive, a compression the package does
// not read.
var ErrFormat = errors.New("not a valid WebDataset tar shard")

// An Error is a shard's error: its name, the offset in the (decompressed)
// tar stream, the sample's key when there is one, what is wrong. It wraps
// [ErrFormat], and the cause when there is one (io.ErrUnexpectedEOF for a
// shard that ends too early, the reader's error).
type Error struct {
	Shard  string // the shard's name
	Offset int64  // where the problem is, in the tar stream
	Key    string // the sample's key, or ""
	Msg    string
	Err    error // the cause, or nil
}

// Error returns "wds: SHARD: offset N: sample KEY: what is wrong: the cause".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wds: %s: offset %d", e.Shard, e.Offset)
	if e.Key != "" {
		fmt.Fprintf(&b, ": sample %q", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns ErrFormat and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrFormat}
	}
	return []error{ErrFormat, e.Err}
}

// A Scanner reads the samples of a tar shard in order, as a stream, the way
// webdataset groups a tar file's members (tariterators.py): members that are
// not regular files are skipped, and so are names [Meta] reports and names
// [KeyExt] finds no key in; consecutive members with one key are a sample,
// whose fields are their lower-cased extensions. A shard may be compressed
// with gzip or bzip2 (recognised by its first bytes); offsets are then those
// of the decompressed tar stream. It reads ustar, GNU and PAX tar files (GNU
// and PAX long names, PAX size records; PAX global headers are skipped, as
// they apply to no member of its own) through archive/tar, counting the bytes
// to give each member's offsets.
//
// A shard may end after a member without the two zero blocks that close an
// archive, as tar readers accept. Everything else that is not a whole archive
// is an [*Error] naming the shard and the offset: a header whose checksum
// fails, a shard cut inside a header or a member's data, a field that appears
// twice in one sample (naming the key, as webdataset raises), a field
// webdataset reserves ("__key__", "__url__"), a sparse member (whose data is
// not one run of bytes), bytes other than zeros after the end-of-archive
// blocks (a second archive appended, which tar readers ignore), a compressed
// stream that is damaged, or compressed with xz or zstd. Nothing is skipped
// silently: [Scanner.Skips] counts what webdataset's rules skip.
type Scanner struct {
	shard string
	opts  ScanOptions
	src   *bufio.Reader
	cnt   counter
	tr    *tar.Reader
	init  bool
	comp  string

	cur, next Sample
	pending   bool  // next holds a member read ahead
	hdrStart  int64 // where the next header starts
	skips     Skips
	buf       []byte
	sha       hash.Hash
	err       error
	done      bool
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// NewScanner returns a Scanner of the tar shard r, called shard in errors.
func NewScanner(r io.Reader, shard string, opts ScanOptions) *Scanner {
	s := &Scanner{shard: shard, opts: opts, src: bufio.NewReaderSize(r, 1<<16)}
	if opts.SHA256 {
		s.sha = sha256.New()
	}
	return s
}

// Compression returns "gzip", "bzip2" or "" (none), once Next was called.
func (s *Scanner) Compression() string { return s.comp }

// Skips returns the members skipped so far.
func (s *Scanner) Skips() Skips { return s.skips }

// Offset returns the bytes of the tar stream read so far (decompressed).
func (s *Scanner) Offset() int64 { return s.cnt.n }

// Err returns the error that ended the scan, or nil at the end of the shard.
// The samples before the error are returned by Next first; the last of them
// may lack the member the error is about.
func (s *Scanner) Err() error { return s.err }

// Sample returns the sample Next found. It and its members are valid until
// the next call of Next, except each member's Data, which is the caller's.
func (s *Scanner) Sample() *Sample { return &s.cur }

func (s *Scanner) fail(off int64, key, msg string, err error) bool {
	s.err = &Error{Shard: s.shard, Offset: off, Key: key, Msg: msg, Err: err}
	s.done = true
	return false
}

// start detects the compression and sets up the tar reader.
func (s *Scanner) start() bool {
	s.init = true
	magic, _ := s.src.Peek(6)
	var r io.Reader = s.src
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(s.src)
		if err != nil {
			return s.fail(0, "", "gzip header", err)
		}
		s.comp, r = "gzip", zr
	case bytes.HasPrefix(magic, []byte("BZh")):
		s.comp, r = "bzip2", bzip2.NewReader(s.src)
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return s.fail(0, "", "compressed with xz, which this package does not read: decompress it (xz -d)", nil)
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return s.fail(0, "", "compressed with zstd, which this package does not read: decompress it (zstd -d)", nil)
	}
	s.cnt.r = r
	s.tr = tar.NewReader(&s.cnt)
	return true
}

// Next reads the next sample, and returns false at the end of the shard or
// at an error, which Err returns.
func (s *Scanner) Next() bool {
	if s.done {
		s.cur.Key, s.cur.Members = "", s.cur.Members[:0]
		return false
	}
	if !s.init && !s.start() {
		return false
	}
	// The member read ahead starts this sample.
	s.cur, s.next = s.next, s.cur
	s.next.Key, s.next.Members = "", s.next.Members[:0]
	if !s.pending {
		s.cur.Key, s.cur.Members = "", s.cur.Members[:0]
	}
	s.pending = false
	for {
		m, key, ok := s.member()
		if !ok {
			// The sample read so far comes first, then the error or the
			// end (it may lack the member whose header is bad).
			return len(s.cur.Members) > 0
		}
		if len(s.cur.Members) > 0 && key != s.cur.Key {
			s.next.Key = key
			s.next.Members = append(s.next.Members, m)
			s.pending = true
			return true
		}
		for _, o := range s.cur.Members {
			if o.Field == m.Field {
				return s.fail(m.Header, key, fmt.Sprintf("field %q twice: members %q at offset %d and %q at offset %d", m.Field, o.Name, o.Header, m.Name, m.Header), nil)
			}
		}
		s.cur.Key = key
		s.cur.Members = append(s.cur.Members, m)
	}
}

// member reads the next member of a sample, skipping the others; ok is false
// at the end or an error.
func (s *Scanner) member() (m Member, key string, ok bool) {
	for {
		hdr, err := s.tr.Next()
		if err == io.EOF {
			s.end()
			return m, "", false
		}
		if err != nil {
			s.headerError(err)
			return m, "", false
		}
		dataOff := s.cnt.n
		start := s.hdrStart
		size := hdr.Size
		switch hdr.Typeflag {
		case tar.TypeLink, tar.TypeSymlink, tar.TypeChar, tar.TypeBlock, tar.TypeDir, tar.TypeFifo:
			size = 0
		}
		s.hdrStart = dataOff + (size+511)&^511
		if hdr.Typeflag == tar.TypeGNUSparse || sparsePAX(hdr) {
			s.fail(start, "", fmt.Sprintf("member %q is a sparse file, whose data is not one run of bytes: not supported", hdr.Name), nil)
			return m, "", false
		}
		if hdr.Typeflag != tar.TypeReg && hdr.Typeflag != tar.TypeCont {
			s.skips.NotRegular++
			continue
		}
		if Meta(hdr.Name) {
			s.skips.Meta++
			continue
		}
		k, ext, found := KeyExt(hdr.Name)
		if !found {
			s.skips.NoKey++
			continue
		}
		field := Field(ext)
		if Reserved(field) {
			s.fail(start, k, fmt.Sprintf("member %q: field %q is a name webdataset gives every sample, which it refuses as a duplicate", hdr.Name, field), nil)
			return m, "", false
		}
		m = Member{Name: hdr.Name, Field: field, Header: start, Offset: dataOff, Size: size}
		if !s.data(&m, k) {
			return m, "", false
		}
		return m, k, true
	}
}

// sparsePAX reports whether hdr is a PAX sparse file (GNU's 0.0, 0.1 or 1.0
// formats), whose data archive/tar expands.
func sparsePAX(hdr *tar.Header) bool {
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// data reads m's data, computing its checksums.
func (s *Scanner) data(m *Member, key string) bool {
	if s.buf == nil {
		s.buf = make([]byte, 1<<16)
	}
	if s.sha != nil {
		s.sha.Reset()
	}
	var crc uint32
	var got int64
	keep := s.opts.Data || s.opts.Keep != nil && m.Size <= KeepMax && s.opts.Keep(m.Field)
	for {
		n, err := s.tr.Read(s.buf)
		p := s.buf[:n]
		crc = crc32.Update(crc, CRC, p)
		if s.sha != nil {
			s.sha.Write(p)
		}
		if keep {
			m.Data = append(m.Data, p...)
		}
		got += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return s.fail(m.Offset+got, key, fmt.Sprintf("the shard ends inside member %q (header at offset %d, %d bytes of data at offset %d): %d bytes missing", m.Name, m.Header, m.Size, m.Offset, m.Size-got), err)
			}
			return s.fail(m.Offset+got, key, fmt.Sprintf("reading member %q", m.Name), err)
		}
	}
	m.CRC = crc
	if s.sha != nil {
		s.sha.Sum(m.SHA256[:0])
	}
	if keep && m.Data == nil {
		m.Data = []byte{}
	}
	return true
}

// headerError turns an error of tar.Reader.Next into the shard's error.
func (s *Scanner) headerError(err error) {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		if s.cnt.n < s.hdrStart {
			s.fail(s.cnt.n, "", fmt.Sprintf("the shard ends inside the data of the member whose header ends before offset %d", s.hdrStart), err)
			return
		}
		s.fail(s.hdrStart, "", fmt.Sprintf("the shard ends inside the header at offset %d, after %d bytes", s.hdrStart, s.cnt.n-s.hdrStart), err)
	case errors.Is(err, tar.ErrHeader):
		// The bad block is the one just read, an extension header's or
		// the member's own.
		off := max(s.cnt.n-512, s.hdrStart)
		s.fail(off, "", "bad tar header (its checksum fails, or it is no tar header)", err)
	default:
		s.fail(s.hdrStart, "", "reading the header", err)
	}
}

// end checks what follows the end of the archive: nothing, or zeros.
func (s *Scanner) end() {
	s.done = true
	if s.cnt.n == s.hdrStart {
		return // the stream ended after a member: no end blocks, nothing after
	}
	// Zero blocks were read: the rest must be zeros too (padding to a
	// record), read to the end so that a compressed stream's checksum is
	// checked.
	off := s.cnt.n
	if s.buf == nil {
		s.buf = make([]byte, 1<<16)
	}
	for {
		n, err := s.cnt.Read(s.buf)
		for i, c := range s.buf[:n] {
			if c != 0 {
				s.fail(off+int64(i), "", "bytes after the end-of-archive blocks (a second archive appended, which tar readers ignore)", nil)
				return
			}
		}
		off += int64(n)
		if err == io.EOF {
			return
		}
		if err != nil {
			s.fail(off, "", "reading after the end-of-archive blocks", err)
			return
		}
	}
}
