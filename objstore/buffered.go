package objstore

import (
	"io"
	"iter"
	"sync"

	"github.com/obskit/obskit/shard"
)

// Buffered returns src with objects that read ahead in chunks: a ReadAt of
// bytes the object's last chunk does not hold reads the chunk of at least
// chunk bytes that starts there (one request to an object store), and the
// reads that follow come from it. A reader that streams an object in small
// reads (a tar reader, a gzip reader, io.NewSectionReader under a
// bufio.Reader) then sends one request per chunk instead of one per read; a
// reader at random offsets should read src itself. Create and List are
// src's. It panics with an error when chunk is below 1.
func Buffered(src shard.Store, chunk int) shard.Store {
	if chunk < 1 {
		panic("objstore.Buffered: chunk below 1")
	}
	return buffered{src, chunk}
}

type buffered struct {
	shard.Store
	chunk int
}

func (b buffered) Open(name string) (shard.Object, error) {
	o, err := b.Store.Open(name)
	if err != nil {
		return nil, err
	}
	return &bufObject{Object: o, chunk: b.chunk}, nil
}

func (b buffered) List(prefix string) iter.Seq2[string, error] { return b.Store.List(prefix) }

// A bufObject keeps the last chunk it read.
type bufObject struct {
	shard.Object
	chunk int
	mu    sync.Mutex
	buf   []byte
	off   int64 // the offset of buf
}

func (o *bufObject) ReadAt(p []byte, off int64) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for n < len(p) {
		at := off + int64(n)
		if at < o.off || at >= o.off+int64(len(o.buf)) {
			if at >= o.Size() {
				return n, io.EOF
			}
			if len(p)-n >= o.chunk {
				// A read as large as a chunk: no copy.
				m, err := o.Object.ReadAt(p[n:], at)
				return n + m, err
			}
			size := int(min(int64(o.chunk), o.Size()-at))
			if cap(o.buf) < size {
				o.buf = make([]byte, size)
			}
			o.buf = o.buf[:size]
			m, err := o.Object.ReadAt(o.buf, at)
			o.buf, o.off = o.buf[:m], at
			if m == 0 && err != nil {
				return n, err
			}
			if err != nil && err != io.EOF {
				return n, err
			}
		}
		n += copy(p[n:], o.buf[at-o.off:])
	}
	return n, nil
}
