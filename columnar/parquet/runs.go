package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// parquet-go's decoder of the RLE/bit-packed hybrid encoding (dictionary
// indices, repetition and definition levels) sizes its output from each run
// header before checking the run against the page: 32 bytes per value a
// header claims, up to 2^31 values. checkChunk reads the run headers of every
// page of a chunk first and refuses a run that claims more values than its
// page has left, so that a damaged page is ErrFormat instead of gigabytes.

// checkChunk checks the run headers of the pages of column col in row group
// g (see runs). The caller guards reads of the mapping.
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
	var buf []byte
	for page, r := 0, bytes.NewReader(chunk); r.Len() > 0; page++ {
		bad := func(msg string, args ...any) error {
			return f.chunkErr(g, col, "page %d: %s", page, fmt.Sprintf(msg, args...))
		}
		var h format.PageHeader
		if err := decodeHeader(r, &h); err != nil {
			return bad("page header: %v", err)
		}
		at := len(chunk) - r.Len()
		if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > r.Len() || h.UncompressedPageSize < 0 {
			return bad("%d bytes (%d uncompressed) past the %d left in the chunk", h.CompressedPageSize, h.UncompressedPageSize, r.Len())
		}
		data := chunk[at : at+int(h.CompressedPageSize)]
		r.Reset(chunk[at+len(data):])
		var n int
		var enc format.Encoding
		var levels [2][]byte // repetition, definition
		compressed := md.Codec != format.Uncompressed
		switch {
		case h.Type == format.DataPage && h.DataPageHeader.Valid:
			v := h.DataPageHeader.V
			n, enc = int(v.NumValues), v.Encoding
			if (repWidth == 0 && defWidth == 0 && !dictionary(enc)) || n < 0 {
				continue // no runs (parquet-go refuses n < 0)
			}
			if compressed {
				var err error
				if buf, err = codec.Decode(buf[:0], data); err != nil {
					return bad("%v", err)
				}
				data = buf
			}
			for i, w := range [2]uint{repWidth, defWidth} {
				if w == 0 {
					continue
				}
				if e := [2]format.Encoding{v.RepetitionLevelEncoding, v.DefinitionLevelEncoding}[i]; e == format.BitPacked {
					k := min((n*int(w)+7)/8, len(data)) // no runs, no length
					data = data[k:]
					continue
				}
				if len(data) < 4 || int64(binary.LittleEndian.Uint32(data)) > int64(len(data)-4) {
					return bad("levels past the page's %d bytes", len(data))
				}
				k := 4 + int(binary.LittleEndian.Uint32(data))
				levels[i], data = data[4:k], data[k:]
			}
		case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
			v := h.DataPageHeaderV2.V
			n, enc = int(v.NumValues), v.Encoding
			rl, dl := int64(v.RepetitionLevelsByteLength), int64(v.DefinitionLevelsByteLength)
			if n < 0 || rl < 0 || dl < 0 || rl+dl > int64(len(data)) {
				continue // parquet-go refuses them
			}
			levels[0], levels[1], data = data[:rl], data[rl:rl+dl], data[rl+dl:]
			if !dictionary(enc) {
				data = nil
			} else if compressed && (!v.IsCompressed.Valid || v.IsCompressed.V) {
				var err error
				if buf, err = codec.Decode(buf[:0], data); err != nil {
					return bad("%v", err)
				}
				data = buf
			}
		default:
			continue // dictionary pages hold no runs; parquet-go refuses others
		}
		for i, what := range [2]string{"repetition", "definition"} {
			if w := [2]uint{repWidth, defWidth}[i]; w > 0 && len(levels[i]) > 0 {
				if err := runs(levels[i], w, n); err != nil {
					return bad("%s levels: %v", what, err)
				}
			}
		}
		if dictionary(enc) && len(data) > 0 {
			if err := runs(data[1:], uint(data[0]), n); err != nil {
				return bad("dictionary indices: %v", err)
			}
		}
	}
	gr.checked[col.leaf].Store(true)
	return nil
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

// decodeHeader decodes a page header from r.
func decodeHeader(r *bytes.Reader, h *format.PageHeader) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p != errPastChunk {
				panic(p)
			}
			err = errPastChunk
		}
	}()
	return thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(pastEnd{r})).Decode(h)
}

// dictionary reports whether e encodes dictionary indices.
func dictionary(e format.Encoding) bool {
	//lint:ignore SA1019 old writers still mark data pages PLAIN_DICTIONARY, as parquet-go reads them
	return e == format.RLEDictionary || e == format.PlainDictionary
}

// runs checks the run headers of RLE/bit-packed hybrid data b of values of
// width bits, of which the page holds n: no run may claim more values than
// are left, nor run past b. A bit-packed run may end in a partial group of 8,
// and the last may claim more groups (DuckDB pads it): its bytes bound it.
func runs(b []byte, width uint, n int) error {
	if width > 32 {
		return fmt.Errorf("bit width %d", width)
	}
	for i := 0; i < len(b); {
		h, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return fmt.Errorf("run header at byte %d does not decode", i)
		}
		i += k
		count, size := h>>1, (uint64(width)+7)/8
		if h&1 == 1 {
			size = count * uint64(width)
			last := width > 0 && size == uint64(len(b)-i) // bounded by its bytes
			if count > uint64(n+7)/8 && !last {
				return fmt.Errorf("run at byte %d: %d bit-packed values, %d left in the page", i-k, count*8, n)
			}
			count *= 8
		} else if count > uint64(n) {
			return fmt.Errorf("run at byte %d: %d repeated values, %d left in the page", i-k, count, n)
		}
		if size > uint64(len(b)-i) {
			return fmt.Errorf("run at byte %d: %d bytes past the %d left", i-k, size, len(b)-i)
		}
		i += int(size)
		n = max(0, n-int(count))
	}
	return nil
}

// leafColumn returns leaf column leaf of pf's schema.
func leafColumn(pf *pq.File, leaf int) *pq.Column {
	var found *pq.Column
	var walk func(c *pq.Column)
	walk = func(c *pq.Column) {
		if c.Leaf() {
			if c.Index() == leaf {
				found = c
			}
			return
		}
		for _, ch := range c.Columns() {
			walk(ch)
		}
	}
	walk(pf.Root())
	return found
}
