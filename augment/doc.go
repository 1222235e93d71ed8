// Package augment turns encoded images into the float32 tensors a model
// trains on, or their 8-bit pixels: torchvision's transforms, and affine
// augmentations drawn per image such as MXNet's (package mxnet), fused into
// as few passes over the pixels as they allow and written straight into a
// slot of the caller's batch. It reads no files: images come as bytes (or
// decoded pixels) from the caller.
//
// # A pipeline
//
// [New] takes the steps in the order torchvision's Compose would apply them
// and returns a [Pipeline]:
//
//	train := augment.New(augment.CHW,
//		augment.RandomResizedCrop{Size: image.Pt(224, 224)},
//		augment.RandomHorizontalFlip{},
//		augment.ImageNet) // Normalize with ImageNet's mean and std
//
//	eval := augment.New(augment.CHW,
//		augment.Resize{Size: 256},
//		augment.CenterCrop{Size: image.Pt(224, 224)},
//		augment.ImageNet)
//
// [Pipeline.Apply] decodes one image with a decoder and writes its floats into
// a slice of [Pipeline.Len] floats, a slot of a batch: channels first ([CHW],
// PyTorch's and MXNet's layout) or last ([HWC]). [Pipeline.ApplyRGB] does the
// same from decoded pixels, and [Filter.Resize] resizes an image as Pillow
// does.
//
// # 8-bit output
//
// [Pipeline.ApplyUint8] and [Pipeline.ApplyRGBUint8] write the same image as
// Apply and ApplyRGB, the same crop, colour steps and flip drawn from the
// same generator, as bytes in the same layout, stopping before ToTensor and
// [Normalize]: the loaders of FFCV and DALI hand such batches to the device
// and normalize there (for GoMLX, gomlx.Normalize in the obskit/gomlx module,
// which gives the float32 values of Apply bit for bit). A batch is a quarter
// of the bytes, and the float write, a fifth of the pipeline's time, is left
// to the device. An [Affine] pipeline writes float32 only.
//
// # What is fused, and what is decoded
//
// A pipeline draws its geometry first, from the image's header alone (the
// decoder's Config, which refuses an image over the decoder's pixel limit
// before any buffer is sized by it), then decodes only the part of the image
// the output reads: the random crop, or
// the pixels a centre crop keeps. For a random crop it lets the decoder
// decode at a reduced scale (a JPEG's DCT scaling by 1/2, 1/4, 1/8) when the
// crop stays at least the output's size, as FFCV and DALI do. The crop is
// then resampled in two separable passes straight to the output's size, and
// the last pass writes the floats: the flip, ToTensor's division by 255,
// Normalize and the layout happen as the values are stored. Colour steps
// ([ColorJitter], an [Affine] step's HLS shift) need the 8-bit image,
// so with them the pixels are resampled into a buffer, adjusted, then
// written.
//
// # Agreement with torchvision and MXNet
//
// The resampler computes Pillow's fixed-point sums (Pillow's Resample.c:
// antialiased kernels, 22-bit weights, 8-bit rounding between the passes),
// so [Resize], [CenterCrop] and the resize of a [RandomResizedCrop] give
// Pillow's pixels exactly, and the floats of ToTensor and [Normalize] are
// computed as PyTorch computes them in float32: on the pixels Pillow decodes,
// the evaluation transform equals torchvision's to the last bit. Through a
// decoder the output inherits the decoder's differences from Pillow: none
// with imagecodec/turbo's libjpeg-turbo, which decodes Pillow's pixels (the
// evaluation transform of a JPEG is then torchvision's exactly), and at most
// a level here and there with imagecodec's pure-Go decoder. [ColorJitter] applies Pillow's
// ImageEnhance blends and HSV round trip with Pillow's arithmetic, exactly.
// The random steps draw as torchvision draws, from the *rand.Rand they are
// given instead of torch's generator.
//
// An [Affine] step is a pipeline of its own for augmentations drawn as an
// affine mapping per image: its Draw function gives each image the mapping
// from the output to the source, the filter, an HLS shift, a flip and a
// linear map of the values, and the pipeline resamples once, separably when
// it can, else as OpenCV's warpAffine. Package mxnet's Augmenter is MXNet's
// ImageRecordIter augmentation as such a step, with OpenCV's kernels
// ([CVBilinear] and the others, within a few levels of cv2.resize).
//
// # Randomness
//
// A pipeline keeps no random state. Every random choice of an image is drawn
// from the *rand.Rand given to Apply, so an image's augmentation is a function
// of the generator's state alone: in a loop of package eachobs over a
// container.Random, that is the generator of (seed, epoch, observation index),
// the same whatever the number of workers or where a resumed loop starts.
//
// # Cost
//
// After its buffers have grown to the largest image, a pipeline allocates
// nothing per image (the decoder may, on its own): each call takes a set of
// buffers from the pipeline's free list and puts it back, so a Pipeline
// serves any number of goroutines at once and keeps as many sets as ran at
// once, through garbage collections too. The two
// resampling passes, the float32 write of channels-first output and the 8-bit
// writes run AVX2 kernels on amd64 processors that have them, Go loops
// elsewhere and with the purego build tag; both give the same bytes.
package augment
