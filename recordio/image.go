package recordio

import (
	"encoding/binary"
	"fmt"
	"math"
)

// HeaderSize is the size of an image record's [Header]: 24 bytes.
const HeaderSize = 24

// A Header is the header of an image record, MXNet's IRHeader (the C++
// ImageRecordIO::Header): 24 bytes in little-endian order at the start of the
// record's payload, the struct format "IfQQ" of mxnet.recordio.
//
// Flag is the number of float32 labels that follow the header. When it is 0,
// the record has one label, Label; otherwise Label is not used (MXNet writes
// 0) and the Flag labels are the record's labels. ID is the image's id, the
// index of its line in an im2rec .lst file and its key in the .idx; ID2 is kept
// for 128-bit ids and is 0 in practice.
type Header struct {
	Flag  uint32
	Label float32
	ID    uint64
	ID2   uint64
}

// Pack appends to dst an image record of h, labels and the encoded image img,
// as mxnet.recordio.pack does, and returns the extended slice.
//
// With no labels the record has one label, h.Label, and flag 0 (pack given a
// number); with labels (pack given an array, even of one label) the flag is
// len(labels), the header's label 0, and the labels follow the header as
// float32. h.Flag is not used: the labels set it.
func Pack(dst []byte, h Header, labels []float32, img []byte) []byte {
	if len(labels) > 0 {
		h.Flag, h.Label = uint32(len(labels)), 0
	} else {
		h.Flag = 0
	}
	dst = binary.LittleEndian.AppendUint32(dst, h.Flag)
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(h.Label))
	dst = binary.LittleEndian.AppendUint64(dst, h.ID)
	dst = binary.LittleEndian.AppendUint64(dst, h.ID2)
	for _, l := range labels {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(l))
	}
	return append(dst, img...)
}

// ReadHeader reads the header at the start of the payload rec of an image
// record and checks that rec holds the labels it announces: the image starts
// at h.Size(). It returns the errors of [Unpack], and allocates nothing.
func ReadHeader(rec []byte) (Header, error) { return readHeader("recordio.ReadHeader", rec) }

func readHeader(op string, rec []byte) (Header, error) {
	if len(rec) < HeaderSize {
		return Header{}, fmt.Errorf("%s: image record of %d bytes, shorter than the %d-byte header: %w", op, len(rec), HeaderSize, ErrFormat)
	}
	h := Header{
		Flag:  binary.LittleEndian.Uint32(rec[0:]),
		Label: math.Float32frombits(binary.LittleEndian.Uint32(rec[4:])),
		ID:    binary.LittleEndian.Uint64(rec[8:]),
		ID2:   binary.LittleEndian.Uint64(rec[16:]),
	}
	if rest := len(rec) - HeaderSize; uint64(h.Flag)*4 > uint64(rest) {
		return h, fmt.Errorf("%s: image record of %d bytes: flag %d announces %d labels (%d bytes) after the header, but %d bytes follow it: %w", op, len(rec), h.Flag, h.Flag, uint64(h.Flag)*4, rest, ErrFormat)
	}
	return h, nil
}

// Size returns the bytes the header and its flag labels take at the start of
// an image record: where the image starts.
func (h Header) Size() int64 { return HeaderSize + 4*int64(h.Flag) }

// Unpack splits the payload rec of an image record as mxnet.recordio.unpack
// does: it returns the header, labels with the record's labels appended, and
// the encoded image, which aliases rec. The labels are the Flag labels after
// the header, or the header's one Label when Flag is 0: the labels MXNet's
// ImageRecordIter reads.
//
// A payload shorter than the header, or than the header and the Flag labels
// it announces, is an error wrapping [ErrFormat] that says so (without a file
// name: the caller knows where rec came from). Unpack allocates only when labels must
// grow.
func Unpack(rec []byte, labels []float32) (Header, []float32, []byte, error) {
	h, err := readHeader("recordio.Unpack", rec)
	if err != nil {
		return h, labels, nil, err
	}
	if h.Flag == 0 {
		return h, append(labels, h.Label), rec[HeaderSize:], nil
	}
	for i := range int(h.Flag) {
		labels = append(labels, math.Float32frombits(binary.LittleEndian.Uint32(rec[HeaderSize+4*i:])))
	}
	return h, labels, rec[h.Size():], nil
}
