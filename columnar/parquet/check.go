package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/klauspost/compress/snappy"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"

	"github.com/obskit/obskit/columnar/internal/zstdframe"
)

// parquet-go trusts the counts and sizes of a page: it allocates a page's
// uncompressed size and its values' levels before decoding them, its codecs
// allocate what the compressed data declares (snappy's length, a ZSTD frame's
// content size), and its LZ4 decoder doubles its output buffer for as long
// as the data does not decode. checkChunk reads every page header of a column
// chunk before parquet-go reads a page of it and checks each count against
// the bytes that hold it or against the footer: the page's sizes against the
// chunk and the codec's largest ratio; what the compressed data declares
// against the page's uncompressed size (LZ4 is decoded, as it declares
// nothing); a dictionary's values against its bytes; the data pages' values
// against the footer's count for the chunk, which they must add up to; and
// the RLE/bit-packed runs against the page's values (see runs).

// checkChunk checks the pages of column col in row group g, once. The caller
// guards reads of the mapping.
func (f *File) checkChunk(g int, col Column) error {
	gr := f.groups[g]
	if gr.checked[col.leaf].Load() {
		return nil
	}
	md := gr.part.file.Metadata().RowGroups[gr.k].Columns[col.leaf].MetaData
	leaf := leafColumn(gr.part.file, col.leaf)
	repWidth := uint(bits.Len(uint(leaf.MaxRepetitionLevel())))
	defWidth := uint(bits.Len(uint(leaf.MaxDefinitionLevel())))
	start := md.DataPageOffset
	if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
		start = md.DictionaryPageOffset
	}
	chunk := gr.part.region.Bytes()[start : start+md.TotalCompressedSize] // checked at Open
	codec := pq.LookupCompressionCodec(md.Codec)
	compressed := md.Codec != format.Uncompressed
	var values int64 // of the data pages so far
	var buf []byte
	for page, p := 0, 0; p < len(chunk); page++ {
		bad := func(msg string, args ...any) error {
			return f.chunkErr(g, col, "page %d: %s", page, fmt.Sprintf(msg, args...))
		}
		var h format.PageHeader
		n, err := decodeHeader(chunk[p:], &h)
		if err != nil {
			return bad("page header: %v", err)
		}
		p += n
		size, full := int(h.CompressedPageSize), int64(h.UncompressedPageSize)
		if size < 0 || size > len(chunk)-p || full < 0 {
			return bad("%d bytes (%d uncompressed) past the %d left in the chunk", size, full, len(chunk)-p)
		}
		data := chunk[p : p+size]
		p += size
		// unzip returns the decoded src, which decodes to n bytes, when what
		// follows reads it (need), and checks it in any case.
		unzip := func(src []byte, n int64, need bool) ([]byte, error) {
			out, err := checkCodec(md.Codec, src, n)
			if err == nil && out == nil && need {
				if out, err = codec.Decode(buf[:0], src); err == nil {
					buf = out
				}
			}
			return out, err
		}
		var nv int64
		var enc format.Encoding
		var levels [2][]byte // repetition, definition
		var body []byte      // the values, when their runs are to be read
		switch {
		case h.Type == format.DictionaryPage && h.DictionaryPageHeader.Valid:
			nv = int64(h.DictionaryPageHeader.V.NumValues)
			held := int64(size)
			if compressed {
				held = full
			}
			if nv < 0 || nv > held*8/minBits(leaf) {
				return bad("a dictionary of %d values in %d bytes", nv, held)
			}
			if compressed {
				if _, err := unzip(data, full, false); err != nil {
					return bad("%v", err)
				}
			}
			continue // a dictionary page holds no runs
		case h.Type == format.DataPage && h.DataPageHeader.Valid:
			v := h.DataPageHeader.V
			nv, enc = int64(v.NumValues), v.Encoding
			if nv < 0 || nv > md.NumValues-values {
				return bad("%d values, past the %d of the chunk the footer claims", nv, md.NumValues)
			}
			if compressed {
				if data, err = unzip(data, full, repWidth > 0 || defWidth > 0 || dictionary(enc)); err != nil {
					return bad("%v", err)
				}
			}
			for i, w := range [2]uint{repWidth, defWidth} {
				if w == 0 || data == nil {
					continue
				}
				if e := [2]format.Encoding{v.RepetitionLevelEncoding, v.DefinitionLevelEncoding}[i]; e == format.BitPacked {
					k := min((int(nv)*int(w)+7)/8, len(data)) // no runs, no length
					data = data[k:]
					continue
				}
				if len(data) < 4 || int64(binary.LittleEndian.Uint32(data)) > int64(len(data)-4) {
					return bad("levels past the page's %d bytes", len(data))
				}
				k := 4 + int(binary.LittleEndian.Uint32(data))
				levels[i], data = data[4:k], data[k:]
			}
			body = data
		case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
			v := h.DataPageHeaderV2.V
			nv, enc = int64(v.NumValues), v.Encoding
			if nv < 0 || nv > md.NumValues-values {
				return bad("%d values, past the %d of the chunk the footer claims", nv, md.NumValues)
			}
			rl, dl := int64(v.RepetitionLevelsByteLength), int64(v.DefinitionLevelsByteLength)
			if rl < 0 || dl < 0 || rl+dl > int64(size) {
				return bad("levels of %d and %d bytes in a page of %d", rl, dl, size)
			}
			if v.NumNulls < 0 || int64(v.NumNulls) > nv || v.NumRows < 0 || int64(v.NumRows) > nv {
				return bad("%d values, %d nulls, %d rows", nv, v.NumNulls, v.NumRows)
			}
			levels[0], levels[1], body = data[:rl], data[rl:rl+dl], data[rl+dl:]
			if compressed && (!v.IsCompressed.Valid || v.IsCompressed.V) {
				if full < rl+dl {
					return bad("%d bytes uncompressed, fewer than its %d bytes of levels", full, rl+dl)
				}
				if body, err = unzip(body, full-rl-dl, dictionary(enc)); err != nil {
					return bad("%v", err)
				}
			}
		default:
			continue // parquet-go skips index pages and refuses others
		}
		values += nv
		for i, what := range [2]string{"repetition", "definition"} {
			if w := [2]uint{repWidth, defWidth}[i]; w > 0 && len(levels[i]) > 0 {
				if err := runs(levels[i], w, int(nv)); err != nil {
					return bad("%s levels: %v", what, err)
				}
			}
		}
		if dictionary(enc) && len(body) > 0 {
			if err := runs(body[1:], uint(body[0]), int(nv)); err != nil {
				return bad("dictionary indices: %v", err)
			}
		}
	}
	if values != md.NumValues {
		return f.chunkErr(g, col, "its pages hold %d values, the footer claims %d", values, md.NumValues)
	}
	gr.checked[col.leaf].Store(true)
	return nil
}

// minBits returns the fewest bits a value of a leaf column takes in a plain
// encoded dictionary: a bit for a bool, a length of 4 bytes for a byte array.
func minBits(leaf *pq.Column) int64 {
	t := leaf.Type()
	kind, _ := kindOf(t)
	switch kind {
	case pq.Boolean:
		return 1
	case pq.Int32, pq.Float, pq.ByteArray:
		return 32
	case pq.Int64, pq.Double:
		return 64
	case pq.Int96:
		return 96
	default:
		return max(8*int64(t.Length()), 1)
	}
}

// Compressed data a page may declare: the largest ratio of each codec's
// output to its input (snappy copies at most 64 bytes for a 3-byte tag; an
// LZ4 sequence adds at most 255 bytes of match a byte; a ZSTD block of 3
// header bytes and one repeats it up to 128 KiB; DEFLATE's longest match is
// 258 bytes for about a quarter of a byte; brotli, whose ratio is not as
// plainly bounded, is given 65536), and slack for the headers.
func maxRatio(c format.CompressionCodec) int64 {
	switch c {
	case format.Snappy:
		return 32
	case format.Lz4Raw:
		return 256
	case format.Gzip:
		return 1 << 11
	case format.Zstd:
		return 128 << 10 / 4
	}
	return 1 << 16
}

const ratioSlack = 1 << 10

// checkCodec checks that src, compressed with codec c, declares n bytes
// decoded, and returns the decoded bytes when it had to decode them to know
// (LZ4, which declares nothing: parquet-go's decoder doubles its buffer for
// as long as the data does not decode), nil otherwise.
func checkCodec(c format.CompressionCodec, src []byte, n int64) ([]byte, error) {
	if n > maxRatio(c)*int64(len(src))+ratioSlack {
		return nil, fmt.Errorf("%d bytes uncompressed from %d of %s", n, len(src), c)
	}
	switch c {
	case format.Snappy:
		m, err := snappy.DecodedLen(src)
		if err != nil {
			return nil, fmt.Errorf("snappy: %v", err)
		}
		if int64(m) != n {
			return nil, fmt.Errorf("snappy data of %d bytes decoded, the page says %d", m, n)
		}
	case format.Zstd:
		if err := zstdframe.Check(src, uint64(n)); err != nil {
			return nil, fmt.Errorf("zstd: %v", err)
		}
	case format.Lz4Raw:
		out := make([]byte, n)
		m, err := lz4.UncompressBlock(src, out)
		if err != nil {
			return nil, fmt.Errorf("lz4: %v", err)
		}
		if int64(m) != n {
			return nil, fmt.Errorf("lz4 data of %d bytes decoded, the page says %d", m, n)
		}
		return out, nil
	}
	return nil, nil
}

// errPastChunk is raised by a read past the end of a chunk's bytes.
var errPastChunk = errors.New("runs past the chunk")

// pastEnd panics with errPastChunk on a read at the end: parquet-go's thrift
// reader drops the EOF of a double, and skipping a map of 2^31 doubles that a
// damaged header claims would then take seconds.
type pastEnd struct{ *bytes.Reader }

func (r pastEnd) Read(p []byte) (int, error) {
	if r.Len() == 0 && len(p) > 0 {
		panic(errPastChunk)
	}
	return r.Reader.Read(p)
}

// decodeHeader decodes the page header at the start of b and returns its
// length, after checking every length inside it against b (see thriftEnd).
func decodeHeader(b []byte, h *format.PageHeader) (n int, err error) {
	if n, err = thriftEnd(b); err != nil {
		return 0, err
	}
	defer func() {
		if p := recover(); p != nil {
			if p != errPastChunk {
				panic(p)
			}
			err = errPastChunk
		}
	}()
	return n, thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(pastEnd{bytes.NewReader(b[:n])})).Decode(h)
}

// dictionary reports whether e encodes dictionary indices.
func dictionary(e format.Encoding) bool {
	//lint:ignore SA1019 old writers still mark data pages PLAIN_DICTIONARY, as parquet-go reads them
	return e == format.RLEDictionary || e == format.PlainDictionary
}
