package main

import (
	"flag"
	"os"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/mxnet"
	"github.com/obskit/obskit/recordio"
)

// iterParams are the parameters of MXNet's ImageRecordIter that obskit rec
// sheet and obskit rec bench take as flags, by MXNet's names, each with what
// it does; the default of each is MXNet's (mxnet.NewImageRecordIter).
var iterParams = []struct {
	name, help string
	bool       bool
}{
	{name: "data_shape", help: "`channels,height,width` of the images, 3 channels (default 3,224,224)"},
	{name: "path_imgidx", help: "the `index` of FILE.rec (default: the .idx beside it, or a scan)"},
	{name: "path_imglist", help: "an image `list` whose labels replace the records', by the records' ids"},
	{name: "label_width", help: "`labels` per image (default 1)"},
	{name: "resize", help: "resize the shorter side to `pixels` first (default -1: no)"},
	{name: "rand_crop", help: "crop at random positions instead of the centre", bool: true},
	{name: "crop_y_start", help: "the fixed top `offset` of the crop (default -1: none)"},
	{name: "crop_x_start", help: "the fixed left `offset` of the crop (default -1: none)"},
	{name: "max_rotate_angle", help: "rotate by a random angle in [-a, a] `degrees` (default 0)"},
	{name: "rotate", help: "rotate by this fixed angle in `degrees` when positive (default -1)"},
	{name: "max_aspect_ratio", help: "scale the aspect ratio by a random `factor` in [1-v, 1+v] (default 0)"},
	{name: "max_shear_ratio", help: "shear by a random `ratio` in [-v, v] (default 0)"},
	{name: "max_crop_size", help: "crop a random square of at most this `side` (default -1: no)"},
	{name: "min_crop_size", help: "and at least this `side` (default -1)"},
	{name: "max_random_scale", help: "scale the image by a random `factor` up to this (default 1)"},
	{name: "min_random_scale", help: "and down to this `factor` (default 1)"},
	{name: "max_img_size", help: "bound the `size` after scaling (default 1e10)"},
	{name: "min_img_size", help: "bound the `size` after scaling from below (default 0)"},
	{name: "random_h", help: "add a random hue in [-v, v] (OpenCV's 8-bit `units`, default 0)"},
	{name: "random_s", help: "add a random saturation in [-v, v] (`units`, default 0)"},
	{name: "random_l", help: "add a random lightness in [-v, v] (`units`, default 0)"},
	{name: "fill_value", help: "the `value` of the pixels the warp and the padding add (default 255)"},
	{name: "inter_method", help: "the resize filter `code`: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 lanczos4, 9 auto, 10 random (default 1)"},
	{name: "pad", help: "pad the image with this many `pixels` of fill_value (default 0)"},
	{name: "mirror", help: "mirror every image", bool: true},
	{name: "rand_mirror", help: "mirror half of the images", bool: true},
	{name: "mean_img", help: "subtract the mean image in this .npy `file` (float32, the data shape)"},
	{name: "mean_r", help: "subtract this `mean` from the red channel (8-bit units, default 0)"},
	{name: "mean_g", help: "subtract this `mean` from the green channel (default 0)"},
	{name: "mean_b", help: "subtract this `mean` from the blue channel (default 0)"},
	{name: "std_r", help: "then divide the red channel by this `std` (default 1)"},
	{name: "std_g", help: "divide the green channel by this `std` (default 1)"},
	{name: "std_b", help: "divide the blue channel by this `std` (default 1)"},
	{name: "scale", help: "multiply by this `factor` (default 1)"},
	{name: "max_random_contrast", help: "scale the contrast by a random `factor` in [1-v, 1+v] (default 0)"},
	{name: "max_random_illumination", help: "add a random illumination in [-v, v] (`units`, default 0)"},
}

// mxnetFlag is one ImageRecordIter parameter on the command line: its value
// as given, applied by ImageRecordIter.Set after the flags are parsed.
type mxnetFlag struct {
	value  *string
	isBool bool
}

func (f mxnetFlag) String() string {
	if f.value == nil {
		return ""
	}
	return *f.value
}

func (f mxnetFlag) Set(s string) error { *f.value = s; return nil }
func (f mxnetFlag) IsBoolFlag() bool   { return f.isBool }

// iterFlags defines the ImageRecordIter flags on fs and returns the function
// that makes the ImageRecordIter of FILE.rec from the flags given, batches of
// batch, with libjpeg-turbo (or the pure-Go decoder), quiet. A flag's value
// that Set refuses, or values that Check refuses, are a usage error naming
// the flag: the iterator it returns is one Provider takes.
func iterFlags(fs *flag.FlagSet) func(rec string, batch int) (mxnet.ImageRecordIter, error) {
	values := map[string]*string{}
	for _, p := range iterParams {
		values[p.name] = new(string)
		fs.Var(mxnetFlag{values[p.name], p.bool}, p.name, p.help)
	}
	return func(rec string, batch int) (mxnet.ImageRecordIter, error) {
		it := mxnet.NewImageRecordIter(rec, [3]int{3, 224, 224}, batch)
		it.Decoder = turbo.New(imagecodec.Options{})
		it.Verbose = false
		// data_shape first: mean_img is read to its shape.
		names := []string{"data_shape"}
		fs.Visit(func(f *flag.Flag) {
			if values[f.Name] != nil && f.Name != "data_shape" {
				names = append(names, f.Name)
			}
		})
		for _, name := range names {
			if v := *values[name]; v != "" || name != "data_shape" {
				if err := it.Set(name, v); err != nil {
					return it, usageErrorf("--%s: %v", name, err)
				}
			}
		}
		if err := it.Check(); err != nil {
			return it, usageErrorf("%v", err)
		}
		return it, nil
	}
}

// recordKeys returns the keys of the records of rec as the iterator reads
// them: from its index (the one given, or the one beside it), else their
// positions.
func recordKeys(it mxnet.ImageRecordIter) (func(i int) int64, error) {
	idx := it.PathImgidx
	if idx == "" {
		if _, err := os.Stat(recordio.IndexPath(it.PathImgrec)); err == nil {
			idx = recordio.IndexPath(it.PathImgrec)
		}
	}
	f, err := recordio.Open(it.PathImgrec, idx)
	if err != nil {
		return nil, err
	}
	return f.Key, nil
}
