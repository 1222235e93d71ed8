package arrowipc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// decode returns the buffers of a batch: slices of the mapping for an
// uncompressed batch, decompressed copies otherwise.
func (f *File) decode(b batch) ([][]byte, error) {
	out := make([][]byte, len(b.meta.buffers))
	for k, s := range b.meta.buffers {
		raw := b.body[s.off : s.off+s.len]
		if b.meta.codec < 0 || len(raw) == 0 {
			out[k] = raw
			continue
		}
		if len(raw) < 8 {
			return nil, f.errorf("batch at byte %d: compressed buffer %d of %d bytes, shorter than its length prefix", b.off, k, len(raw))
		}
		n := int64(binary.LittleEndian.Uint64(raw))
		if n == -1 {
			out[k] = raw[8:]
			continue
		}
		d, err := decompress(b.meta.codec, raw[8:], n)
		if err != nil {
			return nil, f.errorf("batch at byte %d: buffer %d: %s: %v", b.off, k, codecName(b.meta.codec), err)
		}
		out[k] = d
	}
	return out, nil
}

var lz4Readers = sync.Pool{New: func() any { return lz4.NewReader(nil) }}

var zstdDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		panic(err)
	}
	return d
}}

// decompress decompresses src, which must hold exactly n bytes. The output
// grows only as data arrives, so a length prefix that lies costs no more memory
// than the data holds.
func decompress(codec int8, src []byte, n int64) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("uncompressed length %d", n)
	}
	var r io.Reader
	switch codec {
	case 0:
		l := lz4Readers.Get().(*lz4.Reader)
		defer lz4Readers.Put(l)
		l.Reset(bytes.NewReader(src))
		r = l
	default:
		d := zstdDecoders.Get().(*zstd.Decoder)
		defer zstdDecoders.Put(d)
		if err := d.Reset(bytes.NewReader(src)); err != nil {
			return nil, err
		}
		r = d
	}
	var out bytes.Buffer
	if n <= 1<<20 {
		out.Grow(int(n))
	}
	got, err := io.Copy(&out, io.LimitReader(r, n+1))
	if err != nil {
		return nil, err
	}
	if got != n {
		return nil, fmt.Errorf("%d bytes decompressed, the length prefix says %d", got, n)
	}
	return out.Bytes(), nil
}
