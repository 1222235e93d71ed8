package arrowipc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/obskit/obskit/columnar/internal/zstdframe"
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

// zstdDecoder decodes whole ZSTD buffers, synchronously (DecodeAll starts no
// goroutine and keeps no stream state between buffers, so a corrupt buffer
// cannot leave it stuck for the next one), refusing frames that would need
// more than maxBuffer bytes.
var zstdDecoder = func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBuffer))
	if err != nil {
		panic(err)
	}
	return d
}()

// maxBuffer bounds the decompressed size of one buffer, 1 GiB.
const maxBuffer = 1 << 30

// maxRatio returns the most bytes a codec can make of one compressed byte,
// which bounds the length a compressed buffer may declare: an LZ4 sequence
// adds at most 255 bytes of match a byte; a ZSTD block of 3 header bytes and
// one byte repeats it up to 128 KiB. ratioSlack covers the frames' headers.
func maxRatio(codec int8) int64 {
	if codec == 1 {
		return 128 << 10 / 4
	}
	return 256
}

const ratioSlack = 1 << 10

var lz4Readers = sync.Pool{New: func() any { return lz4.NewReader(nil) }}

// decompress decompresses src, which must hold exactly n bytes. A length
// prefix that lies costs no more memory than the data holds (LZ4's output
// grows as data arrives; ZSTD's is bounded by maxBuffer).
func decompress(codec int8, src []byte, n int64) ([]byte, error) {
	if n < 0 || n > maxBuffer {
		return nil, fmt.Errorf("uncompressed length %d outside [0, %d]", n, maxBuffer)
	}
	if codec == 1 {
		// DecodeAll allocates the content size a frame header declares.
		if err := zstdframe.Check(src, uint64(n)); err != nil {
			return nil, err
		}
		out, err := zstdDecoder.DecodeAll(src, make([]byte, 0, min(n, 1<<20)))
		if err != nil {
			return nil, err
		}
		if int64(len(out)) != n {
			return nil, fmt.Errorf("%d bytes decompressed, the length prefix says %d", len(out), n)
		}
		return out, nil
	}
	l := lz4Readers.Get().(*lz4.Reader)
	defer lz4Readers.Put(l)
	l.Reset(bytes.NewReader(src))
	var out bytes.Buffer
	out.Grow(int(min(n, 1<<20)))
	got, err := io.Copy(&out, io.LimitReader(l, n+1))
	if err != nil {
		return nil, err
	}
	if got != n {
		return nil, fmt.Errorf("%d bytes decompressed, the length prefix says %d", got, n)
	}
	return out.Bytes(), nil
}
