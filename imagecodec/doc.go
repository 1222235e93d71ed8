// Package imagecodec decodes images held in memory (JPEG, PNG, GIF, WebP)
// into [RGB] pixels, the part of an image a training loop asks for and no
// more: a crop, possibly at a reduced scale, oriented or not, written into
// a buffer the caller reuses.
//
// # Decoders
//
// A [Decoder] has two methods: [Decoder.Config] reads a header (format,
// size, EXIF orientation) without decoding a pixel, and [Decoder.Decode]
// decodes what a [Request] asks for. The kit has two:
//
//   - [New], pure Go: the standard library's image/jpeg, image/png and
//     image/gif, and golang.org/x/image/webp. It builds everywhere and
//     decodes at full size. It refuses, with an error that says so, the JPEGs
//     image/jpeg cannot read: arithmetic-coded ones, and progressive ones
//     with restart markers.
//   - imagecodec/turbo's New: libjpeg-turbo through cgo for JPEGs (every
//     JPEG libjpeg-turbo reads, decoded at the reduced scale a request allows
//     and only over the crop's region), and the pure-Go decoder for the other
//     formats. It is the one to use: without cgo, or without the library, it
//     returns the pure-Go decoder, so a program written against it builds and
//     runs everywhere. This package itself never needs the C library.
//
// Both give Pillow's pixels: Image.open(f).convert("RGB") (alpha dropped,
// gray replicated, palettes looked up, 16-bit samples reduced to their high
// byte, CMYK converted with Pillow's formula), without EXIF orientation
// unless [Request.Orient] asks for it, as Pillow and torchvision. The
// libjpeg-turbo decoder is Pillow's own libjpeg-turbo; the pure-Go decoder
// upsamples chroma and converts colors as libjpeg-turbo does, and differs
// from it only by image/jpeg's inverse DCT: on the conformance set of
// testdata, a PSNR of 53 dB or more and a mean absolute difference under
// 0.25 of a level.
//
// # Formats
//
// The format is found by the content ([Sniff]), never by a file name: a GIF
// or a WebP named .jpg is decoded, and a BMP, a TIFF or another format the
// kit recognizes is refused with an error wrapping [ErrUnsupported] that
// names it. A header claiming more pixels than [Options.MaxPixels] (by
// default Pillow's limit, [DefaultMaxPixels]) is refused with [ErrTooLarge]
// by [Decoder.Config] and [Decoder.Decode] alike, before any pixel memory is
// allocated: both start with [Options.ReadConfig], the one place the limit
// is checked, so that a caller may size its buffers by a Config (as the
// pipelines of package augment do) and never allocates what a bomb's header
// claims (a PNG of 68 bytes can claim 100000x100000 pixels, 30 GB of RGB).
// The function [ReadConfig] reads a header whatever its size. Bytes after a
// JPEG's end-of-image marker are ignored, as libjpeg-turbo ignores them; a
// JPEG without that marker is truncated, as Pillow says, and an error
// wrapping [ErrFormat].
//
// # Errors
//
// Errors name the data with the name the caller gives (a file name, a record
// key) in the kit's wording, "imagecodec: x.jpg: malformed image: JPEG:
// truncated: ...", and wrap [ErrFormat], [ErrUnsupported] or [ErrTooLarge].
// A [Request.Crop] that does not overlap the image is a programmer error: it
// panics with a [*container.ArgError].
//
// # Memory
//
// Decode writes into its dst argument when dst's Pix has the capacity
// ([Reuse]), so a loop that keeps its image allocates nothing for the
// result. The pure-Go decoder's own allocations remain: image/jpeg and
// image/png decode the whole image into memory of their own before the crop
// is converted.
package imagecodec
