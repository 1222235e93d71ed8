package mxnet

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// ImageRecordIter is MXNet's ImageRecordIter: its parameters, with MXNet's
// names and meanings, and [ImageRecordIter.Provider], which opens the
// RecordIO file and returns the provider of its decoded, augmented batches.
// [NewImageRecordIter] fills in MXNet's defaults, which are not all zero,
// and [ImageRecordIter.Set] sets a parameter by MXNet's name from a string,
// as MXNet's keyword arguments do:
//
//	it := mxnet.NewImageRecordIter("train.rec", [3]int{3, 224, 224}, 64)
//	it.Decoder = turbo.New(imagecodec.Options{})
//	it.Shuffle, it.Aug.RandCrop, it.Aug.RandMirror = true, true, true
//	p, err := it.Provider()
//	for b := range p.Epoch(epoch) {
//		x, y := p.Data(b, "data"), p.Label(b, "softmax_label") // [64 3 224 224], [64]
//	}
//
// The provider is the kit's (package provider) over an imagedata.Images
// container of the records: its batches come from the loops of package
// eachobs, gathered by preprocess_threads workers, prefetch_buffer batches
// ahead, with one buffer reused per batch in flight. The guide's
// docs/from-mxnet.md maps every parameter, with where the kit differs.
type ImageRecordIter struct {
	// PathImgrec is path_imgrec, the RecordIO file of image records.
	PathImgrec string
	// PathImgidx is path_imgidx, its index; "" takes the .idx beside the file
	// when there is one (recordio.IndexPath) and scans the file otherwise.
	// Unlike MXNet's, the kit's partitions and shuffles need no index.
	PathImgidx string
	// PathImglist is path_imglist: when set, an image's labels are the
	// LabelWidth labels after the index on the list line whose index is the
	// record's id, not the record's own.
	PathImglist string
	// BatchSize is batch_size.
	BatchSize int
	// LabelWidth is label_width (1): the number of labels of each image. With
	// 1 the label source has shape [batch], otherwise [batch, label_width],
	// as MXNet's provide_label says.
	LabelWidth int
	// Shuffle and Seed are shuffle and seed: a fresh order every epoch, from
	// the seed (eachobs.Shuffle). The augmentations draw from the seed too.
	Shuffle bool
	Seed    uint64
	// NumParts and PartIndex are num_parts (1) and part_index (0): the
	// provider serves part PartIndex of NumParts parts of the records, in
	// file order, every record in exactly one part (index.Part's contiguous
	// parts, whose sizes differ by at most one).
	NumParts, PartIndex int
	// RoundBatch is round_batch (true): the last batch of an epoch is filled
	// from the start of the epoch's data and its Pad() counts the filled
	// slots. Without it, the missing slots of the last batch hold zeros and
	// Pad() counts them.
	RoundBatch bool
	// PrefetchBuffer is prefetch_buffer (4): batches prepared ahead
	// (eachobs.Prefetch).
	PrefetchBuffer int
	// PreprocessThreads is preprocess_threads (4): goroutines decoding
	// batches at once (eachobs.Workers).
	PreprocessThreads int
	// DataName and LabelName are data_name ("data") and label_name
	// ("softmax_label"), the names of the provider's two sources.
	DataName, LabelName string
	// Verbose is verbose (true): Provider writes a line saying what it
	// opened to Log (os.Stderr when nil).
	Verbose bool
	Log     io.Writer
	// Aug is the augmentation and normalization: data_shape, resize,
	// rand_crop, the mean and std, and the rest of MXNet's set (an
	// [Augmenter], whose fields Set reaches by MXNet's names). The images are
	// decoded as RGB, so data_shape has 3 channels.
	Aug Augmenter
	// Decoder decodes the images: turbo.New for libjpeg-turbo, or
	// imagecodec.New. It must be set.
	Decoder imagecodec.Decoder
	// Skip, when not nil, makes the provider skip images that cannot be
	// decoded (imagedata.SkipBad, an image replaced by one of the same
	// labels) and records them there; by default such an image stops the
	// loop with a *container.PanicError wrapping imagedata.ErrRead.
	Skip *imagedata.Skips
}

// NewImageRecordIter returns MXNet's defaults for an ImageRecordIter over the
// file path_imgrec in batches of batch_size of images of data_shape
// (channels, height, width).
func NewImageRecordIter(pathImgrec string, dataShape [3]int, batchSize int) ImageRecordIter {
	return ImageRecordIter{
		PathImgrec: pathImgrec,
		BatchSize:  batchSize,
		LabelWidth: 1,
		NumParts:   1, RoundBatch: true,
		PrefetchBuffer: 4, PreprocessThreads: 4,
		DataName: "data", LabelName: "softmax_label",
		Verbose: true,
		Aug:     NewAugmenter(dataShape[0], dataShape[1], dataShape[2]),
	}
}

// Check returns an error wrapping [ErrParam] that names the first parameter
// out of range or of values that do not fit together (a batch_size below 1, a
// part_index outside [0, num_parts), two sources of one name, the
// augmentation's of [Augmenter.Check], no Decoder...), and nil when
// [ImageRecordIter.Provider] takes c. A program that takes the parameters
// from its users calls it, so that their mistakes are errors it reports.
func (c ImageRecordIter) Check() error { return c.check().err("mxnet.ImageRecordIter.Check") }

// check returns the first parameter out of range, or nil.
func (c *ImageRecordIter) check() *problem {
	switch {
	case c.PathImgrec == "":
		return &problem{"path_imgrec", `""`, "the path of a RecordIO file"}
	case c.BatchSize < 1:
		return &problem{"batch_size", c.BatchSize, ">= 1"}
	case c.LabelWidth < 1:
		return &problem{"label_width", c.LabelWidth, ">= 1"}
	case c.NumParts < 1:
		return &problem{"num_parts", c.NumParts, ">= 1"}
	case c.PartIndex < 0 || c.PartIndex >= c.NumParts:
		return &problem{"part_index", c.PartIndex, fmt.Sprintf("in [0, num_parts %d)", c.NumParts)}
	case c.PrefetchBuffer < 0:
		return &problem{"prefetch_buffer", c.PrefetchBuffer, ">= 0"}
	case c.PreprocessThreads < 1:
		return &problem{"preprocess_threads", c.PreprocessThreads, ">= 1"}
	case c.DataName == "" || c.LabelName == "" || c.DataName == c.LabelName:
		return &problem{"data_name, label_name", fmt.Sprintf("%q, %q", c.DataName, c.LabelName), "two names"}
	case c.Decoder == nil:
		return &problem{"Decoder", "nil", "an imagecodec.Decoder: turbo.New(imagecodec.Options{}) (libjpeg-turbo) or imagecodec.New(...)"}
	}
	return c.Aug.check()
}

// Provider opens the RecordIO file and returns the provider of its images,
// decoded and augmented into float32 batches of shape [batch_size, 3, height,
// width] called DataName, with their labels called LabelName. It reads the
// header of every record (for the labels), and the first image (for the
// batches' shape).
//
// Provider panics with a *container.ArgError naming the parameter when a
// value is out of range, what [ImageRecordIter.Check] returns as an error. It
// returns the errors of imagedata.OpenRecords and imagedata.ReadList, which
// name the file; an error wrapping [ErrParam] when the records' labels are
// not label_width wide (without an image list); one naming the record whose
// id the image list lacks; and, without Skip, the error of a first image
// that cannot be read (wrapping imagedata.ErrRead).
func (c ImageRecordIter) Provider() (*provider.Provider[float32, float32], error) {
	const op = "mxnet.ImageRecordIter.Provider"
	c.check().panicAt(op)
	pipeline := augment.New(augment.CHW, c.Aug.Step())
	idx := c.PathImgidx
	if idx == "" {
		if _, err := os.Stat(recordio.IndexPath(c.PathImgrec)); err == nil {
			idx = recordio.IndexPath(c.PathImgrec)
		}
	}
	recs, err := imagedata.OpenRecords(c.PathImgrec, idx, imagedata.All)
	if err != nil {
		return nil, err
	}
	rows, err := c.labels(recs)
	if err != nil {
		return nil, err
	}
	var images arraycontainer.Batched[float32]
	if c.Skip != nil {
		// Decode: a skipped image is replaced by one of the same labels.
		labeled, err := tuples.Zip2(recs.X(), container.Slice[[]float32](rows))
		if err != nil {
			return nil, err
		}
		images = imagedata.Decode(labeled, pipeline, c.Decoder, imagedata.SkipBad(c.Skip)).X()
	} else {
		images = imagedata.NewImages(recs.X(), pipeline, c.Decoder)
	}
	n := recs.Nobs()
	shape := []int{n}
	if c.LabelWidth > 1 {
		shape = append(shape, c.LabelWidth)
	}
	labels, err := arraycontainer.New(flatten(rows, c.LabelWidth), shape, obsdim.First)
	if err != nil {
		return nil, err
	}
	var ys arraycontainer.Batched[float32] = labels
	if c.NumParts > 1 {
		part := index.Part{Index: c.PartIndex, Parts: c.NumParts}.Positions(n)
		images, ys = subset.Of(images, part), subset.Of(ys, part)
	}
	data, err := tuples.NewNamed([]string{c.DataName}, images)
	if err != nil {
		return nil, err
	}
	label, err := tuples.NewNamed([]string{c.LabelName}, ys)
	if err != nil {
		return nil, err
	}
	loop := []eachobs.Option{eachobs.Workers(c.PreprocessThreads)}
	if c.Shuffle {
		loop = append(loop, eachobs.Shuffle(c.Seed))
	}
	if c.PrefetchBuffer > 0 {
		loop = append(loop, eachobs.Prefetch(c.PrefetchBuffer))
	}
	popts := []provider.Option{provider.Loop(loop...)}
	if c.RoundBatch {
		popts = append(popts, provider.Loop(eachobs.Tail(index.Pad)))
	} else {
		popts = append(popts, provider.PadWith(0))
	}
	p, err := newProvider(data, label, c.BatchSize, popts)
	if err != nil {
		return nil, err
	}
	if c.Verbose {
		w := c.Log
		if w == nil {
			w = os.Stderr
		}
		fmt.Fprintf(w, "mxnet.ImageRecordIter: %s: %d records, part %d of %d: %d records, batches of %d, %d workers, %d batches ahead\n",
			c.PathImgrec, n, c.PartIndex, c.NumParts, images.Nobs(), c.BatchSize, c.PreprocessThreads, c.PrefetchBuffer)
	}
	return p, nil
}

// newProvider is provider.New, which learns the shape of the images by
// decoding the first one: when that image cannot be read, its panic is
// returned as an error.
func newProvider(data, label *provider.Sources[arraycontainer.Batched[float32], float32], size int, opts []provider.Option) (p *provider.Provider[float32, float32], err error) {
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); ok && errors.Is(e, imagedata.ErrRead) {
				err = e
				return
			}
			panic(v)
		}
	}()
	return provider.New(data, label, size, opts...)
}

// labels returns the labels of each record: the records' own, or those of
// the image list by the records' ids, label_width of each.
func (c ImageRecordIter) labels(recs *imagedata.Records[[]float32]) ([][]float32, error) {
	if c.PathImglist == "" {
		rows := recs.Y()
		for i, ls := range rows {
			if len(ls) != c.LabelWidth {
				why := "the record has %d labels (its flag) but label_width is %d"
				if recs.Headers[i].Flag == 0 {
					why = "the record has %d label (flag 0) but label_width is %d: label_width must be 1 unless an image list is given or the records hold that many labels"
				}
				return nil, fmt.Errorf("mxnet.ImageRecordIter.Provider: %s: %w: "+why, recs.X().Where(i), ErrParam, len(ls), c.LabelWidth)
			}
		}
		return rows, nil
	}
	byID, err := c.listLabels()
	if err != nil {
		return nil, err
	}
	rows := make([][]float32, recs.Nobs())
	for i, h := range recs.Headers {
		ls, ok := byID[h.ID]
		if !ok {
			return nil, fmt.Errorf("mxnet.ImageRecordIter.Provider: %s: id %d is not in the image list %s", recs.X().Where(i), h.ID, c.PathImglist)
		}
		rows[i] = ls
	}
	return rows, nil
}

// listLabels reads the image list: the first LabelWidth labels of each line
// by its index, as MXNet's ImageLabelMap reads them.
func (c ImageRecordIter) listLabels() (map[uint64][]float32, error) {
	f, err := os.Open(c.PathImglist)
	if err != nil {
		return nil, fmt.Errorf("mxnet: %w", err)
	}
	defer f.Close()
	list, err := imagedata.ReadList(f)
	if err != nil {
		return nil, err
	}
	byID := make(map[uint64][]float32, len(list))
	for k, e := range list {
		if len(e.Labels) < c.LabelWidth {
			return nil, fmt.Errorf("mxnet: %s: %w: entry %d (index %d) has %d labels, label_width is %d", c.PathImglist, ErrParam, k+1, e.Index, len(e.Labels), c.LabelWidth)
		}
		byID[uint64(e.Index)] = e.Labels[:c.LabelWidth]
	}
	return byID, nil
}

// flatten returns the rows, each of w labels, one after another.
func flatten(rows [][]float32, w int) []float32 {
	out := make([]float32, 0, len(rows)*w)
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
