// Package turbo decodes JPEGs with libjpeg-turbo, the library of Pillow,
// torchvision, DALI and FFCV, through cgo: only the rows and columns of the
// crop a [imagecodec.Request] asks for, at the smallest scale its Min
// allows (DCT-domain scaling by 1/2, 3/8, 1/4 or 1/8), straight into the
// caller's buffer. The other formats go to the pure-Go decoder of package
// imagecodec.
//
// [New] returns the best decoder there is: this one when [Available] says
// so, the pure-Go one otherwise. A program that imports this package builds
// and runs everywhere, and prints [Available] to say which decoder it has:
//
//   - With cgo (the default where a C compiler is installed) and
//     libjpeg-turbo's header jpeglib.h at build time (Debian:
//     libjpeg62-turbo-dev), the package compiles its C part, which loads
//     libjpeg-turbo's shared library (libjpeg.so.62 on Debian, package
//     libjpeg62-turbo) with dlopen when first used. The program is not
//     linked against the library: where it is missing at run time,
//     Available says so and New gives the pure-Go decoder.
//   - Without the header, or without cgo (CGO_ENABLED=0, or the build tag
//     purego), Available says why, and New gives the pure-Go decoder.
//
// libjpeg-turbo decodes every JPEG of the conformance set as Pillow does,
// to the level: baseline and progressive, restart markers, arithmetic
// coding, gray, CMYK and YCCK (converted as Pillow converts CMYK), every
// chroma subsampling. Decoding a crop gives the pixels of the full decode:
// the crop's columns are decoded with a few of their neighbours, since
// libjpeg-turbo's chroma upsampling treats the edges of a cropped region as
// the image's edges. At a reduced scale libjpeg-turbo's scaled inverse DCT
// is not a resize of the full decode: at 1/2, 1/4 and 1/8 it is within a
// mean of 1 to 2.2 levels of the mean of each 2x2, 4x4 or 8x8 block of it
// (TestScale has the figures).
package turbo
