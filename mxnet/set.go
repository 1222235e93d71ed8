package mxnet

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// errUnknown is wrapped by the error of Augmenter.Set about a name it does
// not know, which ImageRecordIter.Set reports as its own.
var errUnknown = errors.New("unknown parameter")

// parseInt parses an integer of MXNet's int parameters (a C int: at most
// 2^31 in size), from a float's spelling too ("4.0", "-1.0"), as MXNet
// does.
func parseInt(s string) (int, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) {
		return 0, errors.New("not an integer")
	}
	if math.Abs(f) > 1<<31 {
		return 0, errors.New("too large for an int parameter (2^31)")
	}
	return int(f), nil
}

// parseSeed parses a seed: an integer from -2^63 to 2^64-1, a negative one
// taken modulo 2^64.
func parseSeed(s string) (uint64, error) {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return n, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return uint64(n), nil
	}
	n, err := parseInt(s)
	if err != nil {
		return 0, errors.New("not an integer")
	}
	return uint64(int64(n)), nil
}

// parseFloat parses a number.
func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, errors.New("not a number")
	}
	return f, nil
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

// parseShape parses a shape of three sizes, as "(3, 224, 224)", "[3,224,224]"
// or "3,224,224".
func parseShape(s string) ([3]int, error) {
	var shape [3]int
	parts := strings.Split(strings.Trim(s, "()[] "), ",")
	if len(parts) != 3 {
		return shape, errors.New("want three sizes, as (3, 224, 224)")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return shape, fmt.Errorf("size %q is not an integer", strings.TrimSpace(p))
		}
		shape[i] = n
	}
	return shape, nil
}

// Set sets the parameter name, spelled as MXNet spells it (rand_crop,
// max_rotate_angle...), to value, parsed as MXNet parses its keyword
// arguments: integers from their float spelling too ("-1.0"), booleans as
// True/False, true/false or 1/0, data_shape as "(3, 224, 224)" or
// "3,224,224", mean_img as the path of a .npy file of float32 of the data
// shape, which Set reads ([ReadMeanImg]; set data_shape first). mean_a and
// std_a are accepted and ignored: the output has three channels. Set
// returns an error wrapping ErrParam that names the parameter for an unknown
// name or a value that does not parse, and, for mean_img, the file's error;
// it checks no range ([Augmenter.Check] does).
func (m *Augmenter) Set(name, value string) error {
	bad := func(err error) error {
		return fmt.Errorf("mxnet.Augmenter.Set: %s=%q: %w: %w", name, value, ErrParam, err)
	}
	v := strings.TrimSpace(value)
	ints := map[string]*int{
		"resize": &m.Resize, "crop_y_start": &m.CropYStart, "crop_x_start": &m.CropXStart,
		"max_rotate_angle": &m.MaxRotateAngle, "rotate": &m.Rotate,
		"max_crop_size": &m.MaxCropSize, "min_crop_size": &m.MinCropSize,
		"random_h": &m.RandomH, "random_s": &m.RandomS, "random_l": &m.RandomL,
		"fill_value": &m.FillValue, "inter_method": &m.InterMethod, "pad": &m.Pad,
	}
	floats := map[string]*float64{
		"max_aspect_ratio": &m.MaxAspectRatio, "max_shear_ratio": &m.MaxShearRatio,
		"max_random_scale": &m.MaxRandomScale, "min_random_scale": &m.MinRandomScale,
		"max_img_size": &m.MaxImgSize, "min_img_size": &m.MinImgSize,
		"mean_r": &m.MeanR, "mean_g": &m.MeanG, "mean_b": &m.MeanB,
		"std_r": &m.StdR, "std_g": &m.StdG, "std_b": &m.StdB, "scale": &m.Scale,
		"max_random_contrast": &m.MaxRandomContrast, "max_random_illumination": &m.MaxRandomIllumination,
	}
	bools := map[string]*bool{"rand_crop": &m.RandCrop, "mirror": &m.Mirror, "rand_mirror": &m.RandMirror}
	switch {
	case ints[name] != nil:
		n, err := parseInt(v)
		if err != nil {
			return bad(err)
		}
		*ints[name] = n
	case floats[name] != nil:
		f, err := parseFloat(v)
		if err != nil {
			return bad(err)
		}
		*floats[name] = f
	case bools[name] != nil:
		b, err := parseBool(v)
		if err != nil {
			return bad(err)
		}
		*bools[name] = b
	case name == "data_shape":
		shape, err := parseShape(v)
		if err != nil {
			return bad(err)
		}
		m.DataShape = shape
	case name == "mean_img":
		img, err := ReadMeanImg(v, m.DataShape)
		if err != nil {
			return bad(err)
		}
		m.MeanImg = img
	case name == "mean_a" || name == "std_a":
		if _, err := parseFloat(v); err != nil {
			return bad(err)
		}
	default:
		return fmt.Errorf("mxnet.Augmenter.Set: %w: %w %q", ErrParam, errUnknown, name)
	}
	return nil
}

// Set sets the parameter name, spelled as MXNet spells it, to value, parsed
// as MXNet parses its keyword arguments (integers from their float spelling
// too, booleans as True/False, true/false or 1/0, shapes as "(3, 224,
// 224)"): ImageRecordIter's own parameters, and those of its augmentation
// and normalization, which go to Aug ([Augmenter.Set]). MXNet's device
// parameters ctx and device_id are accepted and ignored (the kit's batches
// are Go memory), as dtype float32 and aug_seq aug_default are; other values
// of those, seed_aug, shuffle_chunk_size and shuffle_chunk_seed are errors.
// An unknown name or a value that does not parse is an error wrapping
// [ErrParam] that names the parameter. Set checks no range
// ([ImageRecordIter.Check] does).
func (c *ImageRecordIter) Set(name, value string) error {
	v := strings.TrimSpace(value)
	bad := func(why string) error {
		return fmt.Errorf("mxnet.ImageRecordIter.Set: %s=%q: %w: %s", name, value, ErrParam, why)
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
		*ints[name] = n
	case bools[name] != nil:
		b, err := parseBool(v)
		if err != nil {
			return bad(err.Error())
		}
		*bools[name] = b
	case strs[name] != nil:
		*strs[name] = v
	case name == "seed":
		n, err := parseSeed(v)
		if err != nil {
			return bad(err.Error())
		}
		c.Seed = n
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
			if !errors.Is(err, errUnknown) {
				return fmt.Errorf("mxnet.ImageRecordIter.Set: %w", err)
			}
			return fmt.Errorf("mxnet.ImageRecordIter.Set: %w: unknown parameter %q", ErrParam, name)
		}
	}
	return nil
}
