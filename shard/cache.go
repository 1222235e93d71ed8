package shard

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"sync"
	"sync/atomic"

	"github.com/obskit/obskit/recordio"
)

// state is an open shard: its index and its files, shared by the reads of the
// shard while the set keeps it (see cache). refs counts the cache's own
// reference and each read in flight; the files close when it reaches 0, and
// the memory of the shard held whole goes back to the cache's spares.
type state struct {
	refs atomic.Int64
	used atomic.Int64 // the set's clock at the last read
	c    *cache
	k    int
	ix   *index
	objs []Object
	rec  *recordio.File // a RecordIO shard's records
	// whole holds the shard's files in memory: a gzip-compressed shard's,
	// decompressed, from its load; another's once read ahead.
	whole   atomic.Pointer[whole]
	tried   atomic.Bool // read ahead once, whatever came of it
	wantMem int64       // the bytes the shard takes whole
	// seen has a bit per sample read since the shard was opened or last read
	// whole, of which there are nseen.
	seen  []atomic.Uint64
	nseen atomic.Int64
}

// whole is a shard's files in memory.
type whole struct {
	files [][]byte       // each file, or a gzip tar's decompressed stream
	rec   *recordio.File // a RecordIO shard's records over files[0]
	// verified says every member's bytes in files have their CRC-32C.
	verified bool
}

// held is the memory w holds: its buffers' capacities.
func (w *whole) held() int64 {
	var n int64
	for _, b := range w.files {
		n += int64(cap(b))
	}
	return n
}

// tryRef takes a reference unless the state was released.
func (st *state) tryRef() bool {
	for {
		r := st.refs.Load()
		if r <= 0 {
			return false
		}
		if st.refs.CompareAndSwap(r, r+1) {
			return true
		}
	}
}

func (st *state) release() {
	if st.refs.Add(-1) == 0 {
		for _, o := range st.objs {
			o.Close()
		}
		if w := st.whole.Load(); w != nil {
			st.c.mu.Lock()
			st.c.keep(w.files...)
			st.c.mu.Unlock()
		}
	}
}

// done ends a read of sample j of st (its caller's reference). When every
// sample of a shard held whole has been read since it was read ahead (an
// epoch's pass over it, in whatever order), its memory goes back to the
// spares (or to the collector when another read is in flight, which may still
// copy from it), and its next reads read it ahead again.
func (s *Set) done(st *state, j int) {
	bit := uint64(1) << (j % 64)
	if st.seen[j/64].Or(bit)&bit == 0 && st.nseen.Add(1) == int64(st.ix.n()) && !st.ix.gzip {
		c := &s.cache
		c.mu.Lock()
		if c.slots[st.k].Load() == st {
			if w := st.whole.Swap(nil); w != nil {
				c.mem -= w.held()
				// A read that took w took its reference first: with only
				// the cache's and this one, none is left to copy from w.
				if st.refs.Load() == 2 {
					c.keep(w.files...)
				}
			}
			for i := range st.seen {
				st.seen[i].Store(0)
			}
			st.nseen.Store(0)
			st.tried.Store(false)
		}
		c.mu.Unlock()
	}
	st.release()
}

// cache keeps at most maxOpen shards open (their indexes loaded, their files
// open), and at most maxMem bytes of shards in memory whole, evicting the
// least recently read. A shard is loaded by its first read, once however
// many goroutines ask at once.
//
// The memory of a shard held whole is reused: when its state is released,
// its buffers become spares, which the next shard read whole takes (within
// maxMem, with the shards held whole), rather than the process faulting in
// and zeroing new memory for every shard of an epoch.
type cache struct {
	slots   []atomic.Pointer[state]
	locks   [64]sync.Mutex // loading shard k holds locks[k%64]
	mu      sync.Mutex     // guards live, mem and spare
	live    []*state
	spare   [][]byte // buffers no read can reach, oldest first
	mem     int64    // the bytes of the live states' whole shards and the spares
	clock   atomic.Int64
	maxOpen int
	maxMem  int64
	closed  atomic.Bool
}

// ErrClosed is wrapped by the error of a read of a closed [Set].
var ErrClosed = errors.New("shard: set closed")

// acquire returns shard k's open state with a reference the caller releases
// (with done), for a read of one of its samples: the second read of a shard
// while open reads it ahead ([ReadAhead]).
func (s *Set) acquire(k int) (*state, error) {
	st, err := s.open(k)
	if err != nil {
		return nil, err
	}
	if s.readAhead && !st.tried.Load() && st.nseen.Load() > 0 { // a read before this one
		s.readWhole(st, false)
	}
	return st, nil
}

// open is acquire without counting a read: the prefetch's.
func (s *Set) open(k int) (*state, error) {
	c := &s.cache
	if st := c.slots[k].Load(); st != nil && st.tryRef() {
		st.used.Store(c.clock.Add(1))
		return st, nil
	}
	lk := &c.locks[k%len(c.locks)]
	lk.Lock()
	defer lk.Unlock()
	if st := c.slots[k].Load(); st != nil && st.tryRef() {
		st.used.Store(c.clock.Add(1))
		return st, nil
	}
	if c.closed.Load() {
		return nil, ErrClosed
	}
	st, err := s.load(k)
	if err != nil {
		return nil, err
	}
	st.refs.Store(2) // the cache's and the caller's
	st.used.Store(c.clock.Add(1))
	c.slots[k].Store(st)
	var mem int64
	if w := st.whole.Load(); w != nil {
		mem = w.held()
	}
	c.mu.Lock()
	c.live = append(c.live, st)
	c.mem += mem
	evict := c.evict(st)
	c.mu.Unlock()
	for _, o := range evict {
		o.release()
	}
	return st, nil
}

// evict closes the least recently read shards other than keep while more
// than maxOpen are open, and drops the memory of the least recently read
// shards held whole while they take more than maxMem. It returns the states
// to release once c.mu is unlocked.
func (c *cache) evict(keep *state) []*state {
	var out []*state
	lru := func(ok func(*state) bool) int {
		j := -1
		for i, o := range c.live {
			if o != keep && ok(o) && (j < 0 || o.used.Load() < c.live[j].used.Load()) {
				j = i
			}
		}
		return j
	}
	for len(c.live) > c.maxOpen {
		j := lru(func(*state) bool { return true })
		if j < 0 {
			break
		}
		o := c.live[j]
		c.live[j] = c.live[len(c.live)-1]
		c.live = c.live[:len(c.live)-1]
		if w := o.whole.Load(); w != nil {
			c.mem -= w.held()
		}
		c.slots[o.k].CompareAndSwap(o, nil)
		out = append(out, o)
	}
	for c.mem > c.maxMem && len(c.spare) > 0 {
		c.mem -= int64(cap(c.spare[0]))
		c.spare = c.spare[1:]
	}
	for c.mem > c.maxMem {
		// A gzip shard cannot be read without its memory: close it; any
		// other reads on from its files.
		j := lru(func(o *state) bool { return o.whole.Load() != nil })
		if j < 0 {
			break
		}
		o := c.live[j]
		c.mem -= o.whole.Load().held()
		if o.ix.gzip {
			c.live[j] = c.live[len(c.live)-1]
			c.live = c.live[:len(c.live)-1]
			c.slots[o.k].CompareAndSwap(o, nil)
			out = append(out, o)
			continue
		}
		o.whole.Store(nil)
	}
	return out
}

// keep makes bufs spares when they fit within maxMem beside the memory
// held, and drops them otherwise. c.mu is held; no read may reach bufs.
func (c *cache) keep(bufs ...[]byte) {
	for _, b := range bufs {
		if !c.closed.Load() && cap(b) > 0 && c.mem+int64(cap(b)) <= c.maxMem {
			c.spare = append(c.spare, b)
			c.mem += int64(cap(b))
		}
	}
}

// take returns a buffer of n bytes, of unspecified contents: the smallest
// spare that holds n bytes and is at most twice as large, or new memory, with
// room for shards a little larger than n (so that the shards of a set, of
// about one size, take each other's buffers).
func (c *cache) take(n int64) []byte {
	c.mu.Lock()
	j := -1
	for i, b := range c.spare {
		if k := int64(cap(b)); k >= n && k <= 2*n && (j < 0 || k < int64(cap(c.spare[j]))) {
			j = i
		}
	}
	if j >= 0 {
		b := c.spare[j]
		c.spare = append(c.spare[:j], c.spare[j+1:]...)
		c.mem -= int64(cap(b))
		c.mu.Unlock()
		return b[:n]
	}
	c.mu.Unlock()
	return make([]byte, n, n+n/16)
}

// readWhole reads st's files into memory, once per open shard, when they fit
// the memory bound; reads then copy from memory. It is the read-ahead of a
// shard whose samples are read one after another: one sequential read of each
// file rather than a seek per sample. Its failure leaves the shard read from
// its files, which report the error.
//
// With verify, it checks every member's CRC-32C as its bytes land, and when
// all match, reads copy from memory without checking them again: the
// read-ahead of [Set.Prefetch], whose goroutine takes the checksums off the
// readers' path. (A RecordIO member's checksum is of its payload, which the
// record framing interleaves: its reads check it.)
func (s *Set) readWhole(st *state, verify bool) {
	if !st.tried.CompareAndSwap(false, true) || st.wantMem > s.cache.maxMem || st.whole.Load() != nil {
		return
	}
	c := &s.cache
	w := &whole{files: make([][]byte, len(st.objs))}
	ok := true
	w.verified = verify && st.rec == nil
	for f, o := range st.objs {
		w.files[f] = c.take(o.Size())
		var good bool
		if ok, good = readFile(o, w.files[f], st.ix, f, w.verified); !ok {
			break
		}
		w.verified = w.verified && good
	}
	if ok && st.rec != nil {
		rec, err := recordio.NewFile(bytes.NewReader(w.files[0]), int64(len(w.files[0])), st.rec.Name(), st.rec.Index())
		w.rec, ok = rec, err == nil
	}
	c.mu.Lock()
	var evict []*state
	if ok && c.slots[st.k].Load() == st { // still open
		st.whole.Store(w)
		c.mem += w.held()
		evict = c.evict(st)
	} else {
		c.keep(w.files...)
	}
	c.mu.Unlock()
	for _, o := range evict {
		o.release()
	}
}

// readFile fills p with the bytes of o, file f of the shard of ix, and reports
// whether it could, and with verify whether every member of the file has its
// CRC-32C. A local file is read in chunks of fileChunk, each member checked
// once its last chunk is in, while its bytes are in the processor's cache:
// the kernel reads the next chunks from the disk meanwhile (its read-ahead
// of a file read in order). Another store's object is read in one request.
func readFile(o Object, p []byte, ix *index, f int, verify bool) (ok, verified bool) {
	chunk := len(p)
	if _, local := o.(*fileObject); local {
		chunk = fileChunk
	}
	verified = verify
	m := 0 // the next member to check
	check := func(end int64) {
		for ; verified && m < len(ix.mem); m++ {
			mb := ix.mem[m]
			if ix.file(mb) != f {
				continue
			}
			if mb.off+mb.size > end {
				return
			}
			verified = crc32.Checksum(p[mb.off:mb.off+mb.size], castagnoli) == mb.crc
		}
	}
	for off := 0; off < len(p); off += chunk {
		c := p[off:min(off+chunk, len(p))]
		if n, _ := o.ReadAt(c, int64(off)); n != len(c) {
			return false, false
		}
		check(int64(off + len(c)))
	}
	check(int64(len(p)))
	return true, verified
}

// fileChunk is the size of the reads of a local file read whole.
const fileChunk = 1 << 20

// closeAll releases every open shard.
func (c *cache) closeAll() {
	c.closed.Store(true)
	c.mu.Lock()
	live := c.live
	c.live, c.spare, c.mem = nil, nil, 0
	for _, o := range live {
		c.slots[o.k].CompareAndSwap(o, nil)
	}
	c.mu.Unlock()
	for _, o := range live {
		o.release()
	}
}

// load reads shard k's index and opens its files, checking both against the
// manifest: the index's size and SHA-256, its sample count, its files' names
// and sizes; the files' sizes.
func (s *Set) load(k int) (_ *state, err error) {
	info := &s.m.Shards[k]
	ix, err := s.readIndex(k)
	if err != nil {
		return nil, err
	}
	st := &state{c: &s.cache, k: k, ix: ix, seen: make([]atomic.Uint64, (ix.n()+63)/64)}
	defer func() {
		if err != nil {
			for _, o := range st.objs {
				o.Close()
			}
		}
	}()
	for _, f := range info.Files {
		o, err := s.store.Open(s.path(f.Name))
		if err != nil {
			return nil, s.shardError(k, "opening "+f.Name, err)
		}
		st.objs = append(st.objs, o)
		if o.Size() != f.Bytes {
			return nil, s.shardError(k, fmt.Sprintf("%s: %d bytes, the manifest says %d", f.Name, o.Size(), f.Bytes), ErrCorrupt)
		}
	}
	for _, o := range st.objs {
		st.wantMem += o.Size()
	}
	switch {
	case ix.gzip:
		st.wantMem = ix.dataSize
		if ix.dataSize > s.cache.maxMem {
			return nil, s.shardError(k, fmt.Sprintf("a gzip-compressed shard of %d bytes decompressed, more than the %d bytes the set may hold (shard.MaxMemory)", ix.dataSize, s.cache.maxMem), ErrGzip)
		}
		zr, err := gzip.NewReader(io.NewSectionReader(st.objs[0], 0, st.objs[0].Size()))
		if err != nil {
			return nil, s.shardError(k, "gzip", err)
		}
		data := s.cache.take(ix.dataSize)
		if _, err := io.ReadFull(zr, data); err != nil {
			return nil, s.shardError(k, fmt.Sprintf("decompressing: the index says %d bytes", ix.dataSize), err)
		}
		st.whole.Store(&whole{files: [][]byte{data}})
		st.tried.Store(true)
	case s.m.Kind == RecordIO:
		ents := make(recordio.Index, len(ix.mem))
		for j, m := range ix.mem {
			ents[j] = recordio.Entry{Key: int64(j), Offset: m.off}
		}
		st.rec, err = recordio.NewFile(st.objs[0], st.objs[0].Size(), info.Files[0].Name, ents)
		if err != nil {
			return nil, s.shardError(k, "", err)
		}
	}
	return st, nil
}

// readIndex reads and checks shard k's index.
func (s *Set) readIndex(k int) (*index, error) {
	info := &s.m.Shards[k]
	o, err := s.store.Open(s.path(info.Index.Name))
	if err != nil {
		return nil, s.shardError(k, "opening its index", err)
	}
	size := o.Size()
	if size != info.Index.Bytes {
		o.Close()
		return nil, s.shardError(k, fmt.Sprintf("index %s: %d bytes, the manifest says %d", info.Index.Name, size, info.Index.Bytes), ErrCorrupt)
	}
	b := make([]byte, size)
	_, err = o.ReadAt(b, 0)
	o.Close()
	if err != nil && err != io.EOF {
		return nil, s.shardError(k, "reading its index "+info.Index.Name, err)
	}
	if sum := sha256.Sum256(b); Digest(sum) != info.Index.SHA256 {
		return nil, s.shardError(k, fmt.Sprintf("index %s: SHA-256 %x, the manifest says %s", info.Index.Name, sum, info.Index.SHA256), ErrCorrupt)
	}
	ix, err := decodeIndex(b, info.Index.Name)
	if err != nil {
		return nil, s.shardError(k, "", err)
	}
	if err := s.checkIndex(k, ix); err != nil {
		return nil, err
	}
	return ix, nil
}

// checkIndex checks shard k's index against the manifest.
func (s *Set) checkIndex(k int, ix *index) error {
	info := &s.m.Shards[k]
	switch {
	case ix.format != s.m.Kind:
		return s.shardError(k, fmt.Sprintf("its index is of a %s shard, the manifest's are %s", ix.format, s.m.Kind), ErrCorrupt)
	case ix.n() != info.Samples:
		return s.shardError(k, fmt.Sprintf("its index lists %d samples, the manifest %d", ix.n(), info.Samples), ErrCorrupt)
	case (ix.labels != nil) != (s.m.Label != ""):
		return s.shardError(k, "its index and the manifest disagree on labels", ErrCorrupt)
	case len(ix.files) != len(info.Files):
		return s.shardError(k, fmt.Sprintf("its index lists %d files, the manifest %d", len(ix.files), len(info.Files)), ErrCorrupt)
	}
	for j, f := range ix.files {
		mf := info.Files[j]
		if f.name != path.Base(mf.Name) || f.size != mf.Bytes || Digest(f.sha256) != mf.SHA256 {
			return s.shardError(k, fmt.Sprintf("its index lists file %s of %d bytes, the manifest %s of %d bytes (or another SHA-256)", f.name, f.size, mf.Name, mf.Bytes), ErrCorrupt)
		}
	}
	if s.m.Kind == Npy {
		for j, name := range ix.fields {
			if path.Base(info.Files[j].Name) != path.Base(ix.files[j].name) || !bytes.HasSuffix([]byte(ix.files[j].name), []byte("."+name)) {
				return s.shardError(k, fmt.Sprintf("field %q's file is %s", name, ix.files[j].name), ErrCorrupt)
			}
			if _, ok := s.m.Field(name); !ok {
				return s.shardError(k, fmt.Sprintf("field %q is not in the manifest", name), ErrCorrupt)
			}
			row := s.npyRow[name]
			for _, m := range ix.mem {
				if int(m.field) == j && m.size != row {
					return s.shardError(k, fmt.Sprintf("field %q: a row of %d bytes, the manifest's dtype and shape make %d", name, m.size, row), ErrCorrupt)
				}
			}
		}
	}
	return nil
}
