package imagedata

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// ErrParam is wrapped by the errors of [RecordIter.Set] and
// [RecordIter.Provider] about a parameter: an unknown name, a value that does
// not parse or that MXNet refuses too, one the kit does not support.
var ErrParam = errors.New("invalid ImageRecordIter parameter")

// RecordIter is MXNet's ImageRecordIter: its parameters, with MXNet's names
// and meanings, and [RecordIter.Provider], which opens the RecordIO file and
// returns the provider of its decoded, augmented batches. [NewRecordIter]
// fills in MXNet's defaults, which are not all zero, and [RecordIter.Set] sets
// a parameter by MXNet's name from a string, as MXNet's keyword arguments do:
//
//	it := imagedata.NewRecordIter("train.rec", [3]int{3, 224, 224}, 64)
//	it.Decoder = turbo.New(imagecodec.Options{})
//	for name, value := range map[string]string{"shuffle": "True", "rand_crop": "True", "rand_mirror": "True"} {
//		if err := it.Set(name, value); err != nil { ... }
//	}
//	p, err := it.Provider()
//	for b := range p.Epoch(epoch) {
//		x, y := p.Data(b, "data"), p.Label(b, "softmax_label") // [64 3 224 224], [64]
//	}
//
// The provider is the kit's (package provider) over an [Images] container of
// the records: its batches come from the loops of package eachobs, gathered
// by preprocess_threads workers, prefetch_buffer batches ahead, with one
// buffer reused per batch in flight. The guide's docs/from-mxnet.md maps every
// parameter, with where the kit differs.
type RecordIter struct {
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
	// rand_crop, the mean and std, and the rest of MXNet's set (augment.MXNet,
	// whose fields Set reaches by MXNet's names). The images are decoded as
	// RGB, so data_shape has 3 channels.
	Aug augment.MXNet
	// Decoder decodes the images: turbo.New for libjpeg-turbo, or
	// imagecodec.New. It must be set.
	Decoder imagecodec.Decoder
	// Skip, when not nil, makes the provider skip images that cannot be
	// decoded ([SkipBad]) and records them there; by default such an image
	// stops the loop with a *container.PanicError wrapping [ErrRead].
	Skip *Skips
}

// NewRecordIter returns MXNet's defaults for an ImageRecordIter over the file
// path_imgrec in batches of batch_size of images of data_shape (channels,
// height, width).
func NewRecordIter(pathImgrec string, dataShape [3]int, batchSize int) RecordIter {
	return RecordIter{
		PathImgrec: pathImgrec,
		BatchSize:  batchSize,
		LabelWidth: 1,
		NumParts:   1, RoundBatch: true,
		PrefetchBuffer: 4, PreprocessThreads: 4,
		DataName: "data", LabelName: "softmax_label",
		Verbose: true,
		Aug:     augment.NewMXNet(dataShape[0], dataShape[1], dataShape[2]),
	}
}

// Set sets the parameter name, spelled as MXNet spells it, to value, parsed
// as MXNet parses its keyword arguments (booleans as True/False, true/false or
// 1/0; shapes as "(3, 224, 224)"): ImageRecordIter's own parameters, and those
// of its augmentation and normalization, which go to Aug (augment.MXNet.Set).
// MXNet's device parameters ctx and device_id are accepted and ignored (the
// kit's batches are Go memory), as dtype float32 and aug_seq aug_default are;
// other values of those, seed_aug, shuffle_chunk_size and shuffle_chunk_seed
// are errors. An unknown name or a value that does not parse is an error
// wrapping [ErrParam] that names the parameter.
func (c *RecordIter) Set(name, value string) error {
	v := strings.TrimSpace(value)
	bad := func(why string) error {
		return fmt.Errorf("imagedata.RecordIter.Set: %s=%q: %w: %s", name, value, ErrParam, why)
	}
	ints := map[string]*int{
		"batch_size": &c.BatchSize, "label_width": &c.LabelWidth, "num_parts": &c.NumParts,
		"part_index": &c.PartIndex, "prefetch_buffer": &c.PrefetchBuffer, "preprocess_threads": &c.PreprocessThreads,
	}
	bools := map[string]*bool{"shuffle": &c.Shuffle, "round_batch": &c.RoundBatch, "verbose": &c.Verbose}
	strs := map[string]*string{
		"path_imgrec": &c.PathImgrec, "path_imgidx": &c.PathImgidx, "path_imglist": &c.PathImglist,
		"data_name": &c.DataName, "label_name": &c.LabelName,
	}
	switch {
	case ints[name] != nil:
		n, err := parseInt(v)
		if err != nil {
			return bad(err.Error())
		}
		*ints[name] = int(n)
	case bools[name] != nil:
		b, err := parseBool(v)
		if err != nil {
			return bad(err.Error())
		}
		*bools[name] = b
	case strs[name] != nil:
		*strs[name] = v
	case name == "seed":
		n, err := parseInt(v)
		if err != nil {
			return bad(err.Error())
		}
		c.Seed = uint64(n)
	case name == "ctx" || name == "device_id":
		// Accepted: the batches are Go memory, whatever the device.
	case name == "dtype":
		if v != "float32" && v != "" && v != "None" {
			return bad("the kit's image batches are float32")
		}
	case name == "aug_seq":
		if v != "aug_default" {
			return bad("the kit has MXNet's default augmenter only (aug_default)")
		}
	case name == "seed_aug" || name == "shuffle_chunk_size" || name == "shuffle_chunk_seed":
		return bad("not supported: the augmentations draw from seed, epoch and image (eachobs), and the kit shuffles records, not chunks of the file")
	default:
		if err := c.Aug.Set(name, value); err != nil {
			if strings.Contains(err.Error(), "unknown parameter") {
				return fmt.Errorf("imagedata.RecordIter.Set: %w: unknown parameter %q", ErrParam, name)
			}
			return fmt.Errorf("imagedata.RecordIter.Set: %w: %w", ErrParam, err)
		}
	}
	return nil
}

// parseInt parses an integer as MXNet does, from a float's spelling too
// ("4.0").
func parseInt(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) {
		return 0, errors.New("not an integer")
	}
	return int64(f), nil
}

// parseBool parses a boolean as MXNet does.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errors.New("not a boolean (True, False, 1, 0)")
}

// Provider opens the RecordIO file and returns the provider of its images,
// decoded and augmented into float32 batches of shape [batch_size, 3, height,
// width] called DataName, with their labels called LabelName. It reads the
// header of every record (for the labels), and no image.
//
// Provider returns an error wrapping [ErrParam] for parameters that do not
// fit together (a part index outside [0, num_parts), a label_width the
// records' labels do not have, no Decoder...), the errors of OpenRecords,
// ReadList and augment.New, and one naming the record whose id the image list
// lacks.
func (c RecordIter) Provider() (*provider.Provider[float32, float32], error) {
	const op = "imagedata.RecordIter.Provider"
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w: %s", op, ErrParam, fmt.Sprintf(format, args...))
	}
	switch {
	case c.PathImgrec == "":
		return nil, bad("path_imgrec is not set")
	case c.BatchSize < 1:
		return nil, bad("batch_size %d, want >= 1", c.BatchSize)
	case c.LabelWidth < 1:
		return nil, bad("label_width %d, want >= 1", c.LabelWidth)
	case c.NumParts < 1 || c.PartIndex < 0 || c.PartIndex >= c.NumParts:
		return nil, bad("part_index %d of num_parts %d, want 0 <= part_index < num_parts", c.PartIndex, c.NumParts)
	case c.PrefetchBuffer < 0 || c.PreprocessThreads < 1:
		return nil, bad("prefetch_buffer %d, preprocess_threads %d: want >= 0 and >= 1", c.PrefetchBuffer, c.PreprocessThreads)
	case c.DataName == "" || c.LabelName == "" || c.DataName == c.LabelName:
		return nil, bad("data_name %q, label_name %q: want two names", c.DataName, c.LabelName)
	case c.Decoder == nil:
		return nil, bad("no Decoder: set it to turbo.New(imagecodec.Options{}) (libjpeg-turbo) or imagecodec.New(...)")
	}
	pipeline, err := augment.New(augment.CHW, c.Aug)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", op, ErrParam, err)
	}
	idx := c.PathImgidx
	if idx == "" {
		if _, err := os.Stat(recordio.IndexPath(c.PathImgrec)); err == nil {
			idx = recordio.IndexPath(c.PathImgrec)
		}
	}
	recs, err := OpenRecords(c.PathImgrec, idx, All)
	if err != nil {
		return nil, err
	}
	labels, err := c.labels(recs)
	if err != nil {
		return nil, err
	}
	var class []int32
	var opts []Option
	if c.Skip != nil {
		class = classes(labelRows(labels, c.LabelWidth))
		opts = append(opts, SkipBad(c.Skip))
	}
	var images arraycontainer.Batched[float32] = newImages(op, recs.X(), pipeline, c.Decoder, class, opts)
	var ys arraycontainer.Batched[float32] = labels
	n := recs.Nobs()
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
		fmt.Fprintf(w, "imagedata.RecordIter: %s: %d records, part %d of %d: %d records, batches of %d, %d workers, %d batches ahead\n",
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
			if e, ok := v.(error); ok && errors.Is(e, ErrRead) {
				err = e
				return
			}
			panic(v)
		}
	}()
	return provider.New(data, label, size, opts...)
}

// labels returns the label array of the records: the records' own labels,
// or those of the image list by the records' ids.
func (c RecordIter) labels(recs *Records[[]float32]) (*arraycontainer.Array[float32], error) {
	n, w := recs.Nobs(), c.LabelWidth
	out := make([]float32, 0, n*w)
	if c.PathImglist != "" {
		byID, err := c.listLabels()
		if err != nil {
			return nil, err
		}
		for i, h := range recs.Headers {
			ls, ok := byID[h.ID]
			if !ok {
				return nil, fmt.Errorf("imagedata.RecordIter.Provider: %s: %s: id %d is not in the image list %s", c.PathImgrec, recs.X().where(i), h.ID, c.PathImglist)
			}
			out = append(out, ls...)
		}
	} else {
		for i, ls := range recs.Y() {
			if len(ls) != w {
				why := "the record has %d labels (its flag) but label_width is %d"
				if recs.Headers[i].Flag == 0 {
					why = "the record has %d label (flag 0) but label_width is %d: label_width must be 1 unless an image list is given or the records hold that many labels"
				}
				return nil, fmt.Errorf("imagedata.RecordIter.Provider: %s: %s: %w: "+why, c.PathImgrec, recs.X().where(i), ErrParam, len(ls), w)
			}
			out = append(out, ls...)
		}
	}
	shape := []int{n}
	if w > 1 {
		shape = append(shape, w)
	}
	return arraycontainer.New(out, shape, obsdim.First)
}

// listLabels reads the image list: the first LabelWidth labels of each line
// by its index, as MXNet's ImageLabelMap reads them.
func (c RecordIter) listLabels() (map[uint64][]float32, error) {
	f, err := os.Open(c.PathImglist)
	if err != nil {
		return nil, fmt.Errorf("imagedata: %w", err)
	}
	defer f.Close()
	list, err := ReadList(f)
	if err != nil {
		return nil, err
	}
	byID := make(map[uint64][]float32, len(list))
	for k, e := range list {
		if len(e.Labels) < c.LabelWidth {
			return nil, fmt.Errorf("imagedata: %s: %w: entry %d (index %d) has %d labels, label_width is %d", c.PathImglist, ErrFormat, k+1, e.Index, len(e.Labels), c.LabelWidth)
		}
		byID[uint64(e.Index)] = e.Labels[:c.LabelWidth]
	}
	return byID, nil
}

// labelRows returns the rows of a label array of width w, for comparing.
func labelRows(labels *arraycontainer.Array[float32], w int) [][]float32 {
	data := labels.Data()
	rows := make([][]float32, len(data)/w)
	for i := range rows {
		rows[i] = data[i*w : (i+1)*w]
	}
	return rows
}
