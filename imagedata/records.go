package imagedata

import (
	"encoding/binary"
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/tuples"
)

var _ container.Encoded = (*RecordImages)(nil)

// RecordImages is a container of the images of a RecordIO file of image
// records (im2rec's output): observation i is the encoded image of record i,
// its payload without the header and labels; a batch is a [][]byte. It is
// stateless: any number of goroutines may read it at once. It is a
// container.Encoded: [RecordImages.AppendObs] reads an image into a buffer the
// caller reuses, from the file's mapping, and returns the error GetObs panics
// with; [RecordImages.Where] names the record's file, key and offset.
type RecordImages struct {
	file *recordio.File
}

// NewRecordImages returns the container of the images of the records of f.
func NewRecordImages(f *recordio.File) *RecordImages { return &RecordImages{file: f} }

// File returns the RecordIO file.
func (r *RecordImages) File() *recordio.File { return r.file }

// Nobs returns the number of records.
func (r *RecordImages) Nobs() int { return r.file.Nobs() }

// GetObs returns the image of record i in new memory. It panics with a
// *container.IndexError when i is out of range, and with an error wrapping
// [ErrRead] and the cause (recordio.ErrFormat, recordio.ErrFault) that names
// the file, the record's key and its offset when the record cannot be read or
// is not an image record.
func (r *RecordImages) GetObs(i int) []byte {
	container.CheckIndex("imagedata.RecordImages.GetObs", i, r.file.Nobs())
	b, err := r.appendImage(nil, i)
	if err != nil {
		panic(err)
	}
	return b
}

// GetObsInto writes the images of the records at idx into dst, one []byte
// each, and returns the batch. The byte slices of dst are reused: each record
// is read into dst[j][:0] and its image moved to the front, so a batch reused
// step after step allocates nothing once its slices have grown. The slices of
// dst must not share memory. It panics as [RecordImages.GetObs] does, before
// reading anything for an index out of range.
func (r *RecordImages) GetObsInto(dst [][]byte, idx []int) [][]byte {
	container.CheckIndices("imagedata.RecordImages.GetObsInto", idx, r.file.Nobs())
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		b, err := r.appendImage(dst[j][:0], i)
		if err != nil {
			panic(err)
		}
		dst[j] = b
	}
	return dst
}

// AppendObs appends the image of record i to dst and returns the extended
// slice, or dst's bytes alone and the error GetObs panics with. It panics with
// a *container.IndexError when i is out of range. It does not retain dst, and
// is safe to call from several goroutines at once (see container.Encoded).
func (r *RecordImages) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("imagedata.RecordImages.AppendObs", i, r.file.Nobs())
	return r.appendImage(dst, i)
}

// Where returns where the image of record i is stored, for messages: the
// record's file, key and offset (recordio.File.Where). It panics with a
// *container.IndexError when i is out of range.
func (r *RecordImages) Where(i int) string {
	container.CheckIndex("imagedata.RecordImages.Where", i, r.file.Nobs())
	return r.file.Where(i)
}

// appendImage is AppendObs of a checked i.
func (r *RecordImages) appendImage(dst []byte, i int) ([]byte, error) {
	at := len(dst)
	b, err := r.file.AppendObs(dst, i)
	if err != nil {
		return dst, fmt.Errorf("imagedata: %w: %w", ErrRead, err) // err names the file, key and offset
	}
	h, err := recordio.ReadHeader(b[at:])
	if err != nil {
		return b[:at], readError(r.file.Name(), r.where(i), err)
	}
	n := copy(b[at:], b[at+int(h.Size()):])
	return b[:at+n], nil
}

// where names record i in errors.
func (r *RecordImages) where(i int) string {
	return fmt.Sprintf("record of key %d at offset %d", r.file.Key(i), r.file.Offset(i))
}

// Records is a data set of images packed in a RecordIO file of image records
// (im2rec's output, ImageRecordIter's input): an observation is the encoded
// image of a record and its label, of the type the label function given to
// [OpenRecords] returns. It is a [Labeled] container (its methods are those
// of the embedded tuple); X() is the [*RecordImages], Y() the labels.
type Records[L any] struct {
	*Labeled[*RecordImages, L]
	// Headers are the headers of the records: observation i has Headers[i].
	Headers []recordio.Header
}

// OpenRecords opens the RecordIO file at path with its index (index "" scans
// the file; see recordio.Open) and reads the header and labels of every record,
// but no image: a page of the file per record. label makes each image's label
// from the record's labels (its flag labels, or its header's one label when
// the flag is 0): [First] (float32, ImageRecordIter's label), [Class] (int
// class numbers) or [All] (every label), or a function of the caller's.
//
// OpenRecords returns the errors of recordio.Open, an error wrapping
// recordio.ErrFormat that names the file, the record's key and its offset for a
// record that is not an image record (shorter than its header and labels), and
// one wrapping [ErrLabel] when label refuses a record's labels.
func OpenRecords[L any](path, index string, label func(labels []float32) (L, error)) (*Records[L], error) {
	f, err := recordio.Open(path, index)
	if err != nil {
		return nil, err
	}
	imgs := NewRecordImages(f)
	headers := make([]recordio.Header, f.Nobs())
	labels := make([]L, f.Nobs())
	var buf []byte
	var ls []float32
	for i := range headers {
		// The header, then the flag labels it announces.
		if buf, err = f.AppendPrefix(buf[:0], i, recordio.HeaderSize); err == nil && len(buf) == recordio.HeaderSize {
			if flag := int64(binary.LittleEndian.Uint32(buf)); flag > 0 {
				buf, err = f.AppendPrefix(buf[:0], i, int(min(recordio.HeaderSize+4*flag, recordio.MaxSize+1)))
			}
		}
		if err == nil {
			headers[i], ls, _, err = recordio.Unpack(buf, ls[:0])
			if err != nil {
				err = fmt.Errorf("imagedata: %s: %s: %w", path, imgs.where(i), err)
			}
		}
		if err != nil {
			return nil, err
		}
		if labels[i], err = label(ls); err != nil {
			return nil, labelError(path, imgs.where(i), err)
		}
	}
	t, err := tuples.Zip2(imgs, container.Slice[L](labels))
	if err != nil {
		return nil, err // cannot happen: one label a record
	}
	return &Records[L]{Labeled: t, Headers: headers}, nil
}
