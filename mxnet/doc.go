// Package mxnet is compatibility with MXNet's image input: its
// ImageRecordIter ([ImageRecordIter]), the augmenter and normalization of
// that iterator ([Augmenter]) and its mean image file ([ReadMeanImg]), with
// MXNet's parameter names, defaults and meanings. It is built on the kit's
// general packages, which know nothing of MXNet: the records are an
// imagedata container, the augmentation an augment pipeline of one
// augment.Affine step, the batches a provider over the loops of package
// eachobs.
//
//	it := mxnet.NewImageRecordIter("train.rec", [3]int{3, 224, 224}, 64)
//	it.Decoder = turbo.New(imagecodec.Options{})
//	for name, value := range kwargs { // as MXNet's keyword arguments, from a user
//		if err := it.Set(name, value); err != nil { ... }
//	}
//	if err := it.Check(); err != nil { ... }
//	p, err := it.Provider()
//	for b := range p.Epoch(epoch) {
//		x, y := p.Data(b, "data"), p.Label(b, "softmax_label") // [64 3 224 224], [64]
//	}
//
// The guide's docs/from-mxnet.md maps every parameter of MXNet's iterators
// to the kit, with the test that holds each.
//
// # Parameters from a program and from a user
//
// The parameters are plain fields, and a program sets them as it sets any
// Go value. A value out of range or values that do not fit together (a
// batch_size of 0, a part_index outside [0, num_parts), a data_shape that is
// not 3 channels, a zero std_r) are then the program's mistake:
// [ImageRecordIter.Provider] and [Augmenter.Step] panic with a
// *container.ArgError naming the parameter by MXNet's name, as the rest of
// the kit does for a bad argument.
//
// A parameter given as a string by name, MXNet's keyword arguments as a user
// writes them (a command's flags, a configuration file), is data: the Set
// methods return an error wrapping [ErrParam] that names the parameter for a
// name they do not know or a value that does not parse (and for mean_img the
// file's error), and the Check methods return as an error wrapping ErrParam
// what Provider and Step would panic with. A program that takes parameters
// from its users calls Set for each, then Check, and reports their errors as
// the user's (obskit rec does so with its flags, exiting with status 2).
// What depends on the files (records whose labels are not label_width wide,
// an image list without a record's id, an image that does not decode, an
// image smaller than max_crop_size, [ErrTooSmall]) is returned, or delivered
// by the loops as a *container.PanicError, as package imagedata's errors are.
package mxnet
