package shard

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"path"
	"sync"
	"sync/atomic"

	"github.com/obskit/obskit/recordio"
)

// state is an open shard: its index and its files, shared by the reads of the
// shard while the set keeps it (see cache). refs counts the cache's own
// reference and each read in flight; the files close when it reaches 0.
type state struct {
	refs  atomic.Int64
	used  atomic.Int64 // the set's clock at the last read
	reads atomic.Int64 // reads of the shard while open
	k     int
	ix    *index
	objs  []Object
	rec   *recordio.File // a RecordIO shard's records
	// whole holds the shard's files in memory: a gzip-compressed shard's,
	// decompressed, from its load; another's once read ahead.
	whole   atomic.Pointer[whole]
	tried   atomic.Bool // read ahead once, whatever came of it
	wantMem int64       // the bytes the shard takes whole
}

// whole is a shard's files in memory.
type whole struct {
	files [][]byte       // each file, or a gzip tar's decompressed stream
	rec   *recordio.File // a RecordIO shard's records over files[0]
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
	}
}

// cache keeps at most maxOpen shards open (their indexes loaded, their files
// open), and at most maxMem bytes of shards in memory whole, evicting the
// least recently read. A shard is loaded by its first read, once however
// many goroutines ask at once.
type cache struct {
	slots   []atomic.Pointer[state]
	locks   [64]sync.Mutex // loading shard k holds locks[k%64]
	mu      sync.Mutex     // guards live and mem
	live    []*state
	mem     int64 // the bytes of the live states' whole shards
	clock   atomic.Int64
	maxOpen int
	maxMem  int64
	closed  atomic.Bool
}

// ErrClosed is wrapped by the error of a read of a closed [Set].
var ErrClosed = errors.New("shard: set closed")

// acquire returns shard k's open state with a reference the caller releases.
func (s *Set) acquire(k int) (*state, error) {
	c := &s.cache
	if st := c.slots[k].Load(); st != nil && st.tryRef() {
		st.used.Store(c.clock.Add(1))
		if st.reads.Add(1) == 2 && s.readAhead {
			s.readWhole(st)
		}
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
	st.reads.Store(1)
	c.slots[k].Store(st)
	var mem int64
	if st.whole.Load() != nil {
		mem = st.wantMem
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
		if o.whole.Load() != nil {
			c.mem -= o.wantMem
		}
		c.slots[o.k].CompareAndSwap(o, nil)
		out = append(out, o)
	}
	for c.mem > c.maxMem {
		// A gzip shard cannot be read without its memory: close it; any
		// other reads on from its files.
		j := lru(func(o *state) bool { return o.whole.Load() != nil })
		if j < 0 {
			break
		}
		o := c.live[j]
		c.mem -= o.wantMem
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

// readWhole reads st's files into memory, once per open shard, when they fit
// the memory bound; reads then copy from memory. It is the read-ahead of a
// shard whose samples are read one after another: one sequential read of each
// file rather than a seek per sample. Its failure leaves the shard read from
// its files, which report the error.
func (s *Set) readWhole(st *state) {
	if !st.tried.CompareAndSwap(false, true) || st.wantMem > s.cache.maxMem || st.whole.Load() != nil {
		return
	}
	w := &whole{files: make([][]byte, len(st.objs))}
	for f, o := range st.objs {
		w.files[f] = make([]byte, o.Size())
		if n, err := o.ReadAt(w.files[f], 0); n != len(w.files[f]) {
			_ = err
			return
		}
	}
	if st.rec != nil {
		rec, err := recordio.NewFile(bytes.NewReader(w.files[0]), int64(len(w.files[0])), st.rec.Name(), st.rec.Index())
		if err != nil {
			return
		}
		w.rec = rec
	}
	c := &s.cache
	c.mu.Lock()
	var evict []*state
	if c.slots[st.k].Load() == st { // still open
		st.whole.Store(w)
		c.mem += st.wantMem
		evict = c.evict(st)
	}
	c.mu.Unlock()
	for _, o := range evict {
		o.release()
	}
}

// closeAll releases every open shard.
func (c *cache) closeAll() {
	c.closed.Store(true)
	c.mu.Lock()
	live := c.live
	c.live, c.mem = nil, 0
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
	st := &state{k: k, ix: ix}
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
		data := make([]byte, ix.dataSize)
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
