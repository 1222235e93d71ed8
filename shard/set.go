package shard

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"sort"
	"sync/atomic"
	"unsafe"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/npy"
)

// ErrCorrupt is wrapped by the error of a shard whose bytes are not what its
// manifest and index say: a file or index of another size or SHA-256, a
// member whose CRC-32C fails, an index that disagrees with the manifest.
var ErrCorrupt = errors.New("shard does not match its manifest")

// ErrGzip is wrapped by the error of a gzip-compressed shard larger,
// decompressed, than the set may hold in memory ([MaxMemory]).
var ErrGzip = errors.New("gzip shard too large to hold")

// ErrNoField is wrapped by the error of a read of a field a sample does not
// have.
var ErrNoField = errors.New("sample has no such field")

// A Set is the container of the samples of a shard set: observation i is
// sample i in the manifest's order (its shards in order, each shard's
// samples in order), a [Sample]. See [Open].
type Set struct {
	store  Store
	name   string // the manifest's name
	dir    string // its directory, "" for the store's top
	m      *Manifest
	starts []int // the first sample of each shard, then Nobs
	cache  cache
	npyHdr map[string][]byte // an Npy set's fields' .npy header of one row
	npyRow map[string]int64  // and the bytes of one row
	// readAhead prefetches a shard's files at its second read ([ReadAhead]).
	readAhead bool
	ahead     atomic.Pointer[Prefetch] // the running Prefetch, if any
}

// An Option configures [Open].
type Option func(*Set)

// MaxOpen keeps at most n shards open at once (their indexes in memory,
// their files open), evicting the least recently read beyond (default 64).
// A loop in the two-level order of eachobs.ShuffleBlocks reads a window of
// shards at a time: keep n above the window, with a few more for its
// workers. It panics with a *container.ArgError when n < 1.
func MaxOpen(n int) Option {
	container.CheckArg(n >= 1, "shard.MaxOpen", "n", n, ">= 1")
	return func(s *Set) { s.cache.maxOpen = n }
}

// ReadAhead says whether a shard is read whole ahead of its samples
// (default true): when a second sample of a shard is read while the shard is
// open, the set reads its files whole into memory, within [MaxMemory], and
// its samples are then copied from memory. A loop in the two-level order of
// eachobs.ShuffleBlocks reads every sample of a window of shards, in random
// order within the window: read ahead, each shard is read once,
// sequentially, as a disk or an object store serves reads fastest, rather
// than with a seek or a request per sample. Keep MaxMemory above the window's
// shards. Turn it off for sparse random access.
func ReadAhead(on bool) Option {
	return func(s *Set) { s.readAhead = on }
}

// MaxMemory bounds the memory of the shards a set holds whole (default
// 1 GiB): shards read ahead ([ReadAhead], [Set.Prefetch]), whose memory is
// dropped, least recently read first, beyond the bound (they are then read
// from their files), the memory of shards read before, which the next shard
// read whole reuses, and gzip-compressed shards, which are decompressed
// whole, once, when first read, since a gzip stream cannot be read at an
// offset, and are closed beyond the bound. A gzip shard larger than bytes decompressed cannot
// be read: its reads fail with an error wrapping [ErrGzip]. It panics with a
// *container.ArgError when bytes < 0.
func MaxMemory(bytes int64) Option {
	container.CheckArg(bytes >= 0, "shard.MaxMemory", "bytes", bytes, ">= 0")
	return func(s *Set) { s.cache.maxMem = bytes }
}

// Open opens the shard set whose manifest is the object name of store,
// reading the manifest and nothing else: it costs O(shards), not O(samples).
// A shard's index is read when one of its samples is first read, and checked
// then against the manifest. Open returns the errors of [ReadManifest].
func Open(store Store, name string, opts ...Option) (*Set, error) {
	m, err := ReadManifest(store, name)
	if err != nil {
		return nil, err
	}
	return newSet(store, name, m, opts)
}

func newSet(store Store, name string, m *Manifest, opts []Option) (*Set, error) {
	s := &Set{store: store, name: name, m: m, dir: path.Dir(name)}
	if s.dir == "." {
		s.dir = ""
	}
	s.starts = make([]int, len(m.Shards)+1)
	for k, sh := range m.Shards {
		s.starts[k+1] = s.starts[k] + sh.Samples
	}
	s.cache.slots = make([]atomic.Pointer[state], len(m.Shards))
	s.cache.maxOpen, s.cache.maxMem = 64, 1<<30
	s.readAhead = true
	for _, o := range opts {
		o(s)
	}
	if m.Kind == Npy {
		s.npyHdr, s.npyRow = map[string][]byte{}, map[string]int64{}
		for _, f := range m.Fields {
			d, err := parseDtype(f.Dtype)
			if err != nil {
				return nil, fmt.Errorf("shard: manifest %s: %w: field %q: %w", name, ErrManifest, f.Name, err)
			}
			h := npy.Header{Dtype: d, Shape: f.Shape}
			s.npyHdr[f.Name] = npy.AppendHeader(nil, h)
			if s.npyRow[f.Name] = h.DataSize(); h.DataSize() < 0 {
				return nil, fmt.Errorf("shard: manifest %s: %w: field %q: shape %v too large", name, ErrManifest, f.Name, f.Shape)
			}
		}
	}
	return s, nil
}

// parseDtype returns the npy.Dtype of a descr, as a .npy header gives it.
func parseDtype(descr string) (npy.Dtype, error) {
	if len(descr) < 2 || descr[0] == '[' {
		return npy.Dtype{}, fmt.Errorf("dtype %q: not a simple dtype", descr)
	}
	h, err := npy.ReadHeader(bytes.NewReader(npy.AppendHeader(nil, npy.Header{Dtype: npy.Dtype{Descr: descr, Kind: descr[1]}})))
	if err != nil {
		return npy.Dtype{}, err
	}
	if h.Dtype.Size <= 0 {
		return npy.Dtype{}, fmt.Errorf("dtype %q: no size", descr)
	}
	return h.Dtype, nil
}

// Manifest returns the set's manifest. The caller must not modify it.
func (s *Set) Manifest() *Manifest { return s.m }

// Nobs returns the number of samples.
func (s *Set) Nobs() int { return s.starts[len(s.starts)-1] }

// BlockStarts returns the first sample of each shard, then Nobs: the set's
// blocks are its shards (container.Blocked), so eachobs.ShuffleBlocks reads
// a window of shards at a time. The caller must not modify the slice.
func (s *Set) BlockStarts() []int { return s.starts }

// Locate returns the shard that holds sample i and i's position in it. It
// panics with a *container.IndexError when i is outside [0, Nobs()).
func (s *Set) Locate(i int) (shard, j int) {
	container.CheckIndex("shard.Set.Locate", i, s.Nobs())
	return s.locate(i)
}

func (s *Set) locate(i int) (int, int) {
	// The last shard whose first sample is at or before i: empty shards
	// share their start with the next one.
	k := sort.Search(len(s.starts)-1, func(k int) bool { return s.starts[k+1] > i })
	return k, i - s.starts[k]
}

// path returns the store's name of a name relative to the manifest.
func (s *Set) path(name string) string {
	if s.dir == "" {
		return name
	}
	return s.dir + "/" + name
}

// shardError returns an error about shard k naming its first file.
func (s *Set) shardError(k int, msg string, err error) error {
	name := s.path(s.m.Shards[k].Files[0].Name)
	switch {
	case msg == "":
		return fmt.Errorf("shard: %s: %w", name, err)
	case err == nil:
		return fmt.Errorf("shard: %s: %s", name, msg)
	}
	return fmt.Errorf("shard: %s: %s: %w", name, msg, err)
}

// Where returns where sample i is stored, for messages: its shard, key and
// position in the shard. It loads the shard's index (returning its error's
// text if that fails). It panics with a *container.IndexError when i is
// outside [0, Nobs()).
func (s *Set) Where(i int) string {
	container.CheckIndex("shard.Set.Where", i, s.Nobs())
	k, j := s.locate(i)
	st, err := s.open(k)
	if err != nil {
		return err.Error()
	}
	defer st.release()
	return s.where(st, j, -1)
}

// where names sample j of st, and its field f's member when f >= 0.
func (s *Set) where(st *state, j, f int) string {
	w := fmt.Sprintf("%s: sample %q (%d of the shard)", s.path(s.m.Shards[st.k].Files[0].Name), st.ix.key(j), j)
	if f >= 0 {
		m := st.ix.members(j)[f]
		file := ""
		if s.m.Kind == Npy {
			file = " of " + st.ix.files[m.field].name
		}
		w += fmt.Sprintf(": field %q at offset %d%s", st.ix.fields[m.field], m.off, file)
	}
	return w
}

// GetObs returns sample i, newly allocated. A sample that cannot be read (a
// store's error, a checksum that fails, a damaged index) panics with the
// error [Set.ReadSample] returns; the kit's loops deliver it as a
// *container.PanicError. It panics with a *container.IndexError when i is
// outside [0, Nobs()).
func (s *Set) GetObs(i int) Sample {
	var out Sample
	if err := s.ReadSample(&out, i); err != nil {
		panic(err)
	}
	return out
}

// GetObsInto reads the samples idx names into dst, reusing its samples'
// field buffers, and returns it. It panics as GetObs does.
func (s *Set) GetObsInto(dst []Sample, idx []int) []Sample {
	for _, i := range idx {
		container.CheckIndex("shard.Set.GetObsInto", i, s.Nobs())
	}
	if cap(dst) < len(idx) {
		dst = append(dst[:cap(dst)], make([]Sample, len(idx)-cap(dst))...)
	}
	dst = dst[:len(idx)]
	for j, i := range idx {
		if err := s.ReadSample(&dst[j], i); err != nil {
			panic(err)
		}
	}
	return dst
}

// ReadSample reads sample i into dst, reusing the memory of dst.Fields and
// their Data, and returns the error GetObs panics with: the store's (wrapped
// with the shard's name), or one wrapping [ErrCorrupt] naming the shard, the
// sample's key, the field and the offset of a member whose bytes fail their
// CRC-32C, or an index that does not match the manifest. dst.Key and the
// fields' names are the index's strings, not copies (strings are immutable).
// It panics with a *container.IndexError when i is outside [0, Nobs()).
func (s *Set) ReadSample(dst *Sample, i int) error {
	container.CheckIndex("shard.Set.ReadSample", i, s.Nobs())
	k, j := s.locate(i)
	s.reach(k)
	st, err := s.acquire(k)
	if err != nil {
		return err
	}
	defer s.done(st, j)
	ms := st.ix.members(j)
	dst.Key = st.ix.stringKey(j)
	if cap(dst.Fields) < len(ms) {
		dst.Fields = append(dst.Fields[:cap(dst.Fields)], make([]Field, len(ms)-cap(dst.Fields))...)
	}
	dst.Fields = dst.Fields[:len(ms)]
	for f := range ms {
		fd := &dst.Fields[f]
		fd.Name = st.ix.fields[ms[f].field]
		fd.Data, err = s.appendMember(fd.Data[:0], st, j, f)
		if err != nil {
			return err
		}
	}
	return nil
}

// stringKey returns key j as a string sharing the index's memory, which
// nothing modifies.
func (ix *index) stringKey(j int) string {
	start := uint32(0)
	if j > 0 {
		start = ix.keyEnd[j-1]
	}
	if ix.keyEnd[j] == start {
		return ""
	}
	return unsafe.String(&ix.keys[start], int(ix.keyEnd[j]-start))
}

// appendMember appends the bytes of member f of sample j of st to dst: for
// an Npy set, a .npy file of the one row.
func (s *Set) appendMember(dst []byte, st *state, j, f int) ([]byte, error) {
	m := st.ix.members(j)[f]
	base := len(dst)
	if s.npyHdr != nil {
		dst = append(dst, s.npyHdr[st.ix.fields[m.field]]...)
	}
	start := len(dst)
	var err error
	w := st.whole.Load()
	switch {
	case w != nil && w.rec != nil:
		dst, err = w.rec.AppendObs(dst, int(st.ix.mstart[j])+f)
	case w != nil:
		dst = append(dst, w.files[st.ix.file(m)][m.off:m.off+m.size]...)
	case st.rec != nil:
		dst, err = st.rec.AppendObs(dst, int(st.ix.mstart[j])+f)
	default:
		dst = grow(dst, int(m.size))
		var n int
		n, err = st.objs[st.ix.file(m)].ReadAt(dst[start:], m.off)
		if n == int(m.size) && err == io.EOF {
			err = nil
		}
	}
	if err != nil {
		return dst[:base], fmt.Errorf("shard: %s: %w", s.where(st, j, f), err)
	}
	if int64(len(dst)-start) != m.size {
		return dst[:base], fmt.Errorf("shard: %s: %w: %d bytes, the index says %d", s.where(st, j, f), ErrCorrupt, len(dst)-start, m.size)
	}
	if w != nil && w.verified {
		return dst, nil // checked when read whole
	}
	if sum := crc32.Checksum(dst[start:], castagnoli); sum != m.crc {
		return dst[:base], fmt.Errorf("shard: %s: %w: CRC-32C %08x, the index says %08x", s.where(st, j, f), ErrCorrupt, sum, m.crc)
	}
	return dst, nil
}

// grow extends b by n bytes, keeping its contents.
func grow(b []byte, n int) []byte {
	want := len(b) + n
	if cap(b) < want {
		b = append(b[:cap(b)], make([]byte, want-cap(b))...)
	}
	return b[:want]
}

// Close stops the set's [Prefetch] and releases its open shards. Reads after
// Close fail with an error wrapping [ErrClosed]. It returns the prefetch's
// panic (a *container.PanicError) when no read raised it, and nil otherwise.
func (s *Set) Close() error {
	if p := s.ahead.Load(); p != nil {
		p.task.Stop()
	}
	s.cache.closeAll()
	if p := s.ahead.Load(); p != nil {
		if f := p.unraised(); f != nil {
			return f
		}
	}
	return nil
}
