// Package bombtest holds what the image tests need against decompression
// bombs: small files whose headers claim images of billions of pixels
// ([All]), and [Capped], which runs a test's body in a child process whose
// address space is capped, so that an allocation sized by such a header
// kills the child (the Go runtime cannot recover from running out of memory)
// and fails the test instead of the test binary, or the machine.
package bombtest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// A Bomb is an image file whose header claims Width by Height pixels, with
// almost nothing after the header.
type Bomb struct {
	Name          string // a file name that says what it is: "bomb_100000x100000.png"
	Width, Height int
	Data          []byte
}

// Pixels returns Width times Height.
func (b Bomb) Pixels() int64 { return int64(b.Width) * int64(b.Height) }

// All returns the bombs of the tests, each the largest or a typical claim of
// its format, newly made:
//
//   - PNG of 100000x100000 (68 bytes) and of 50000x50000 (an RGB IHDR, an
//     IDAT of one compressed row's start, IEND), the claims of issue 25;
//   - JPEG of 65535x65535, the largest a frame header (SOF0) can claim;
//   - GIF of 65535x65535, the largest logical screen;
//   - WebP of 16384x16384 (lossless, VP8L) and 16383x16383 (lossy, VP8),
//     the largest the formats' 14-bit sizes can claim.
//
// Each is over imagecodec.DefaultMaxPixels (178,956,970 pixels): the
// smallest, the WebP ones, claim 268 million pixels, 1 GB of RGB with the
// room augment's pipeline gives a buffer; the largest, 10^10 pixels, 37.5 GB.
func All() []Bomb {
	return []Bomb{
		{"bomb_100000x100000.png", 100000, 100000, PNG(100000, 100000)},
		{"bomb_50000x50000.png", 50000, 50000, PNG(50000, 50000)},
		{"bomb_65535x65535.jpg", 65535, 65535, JPEG(65535, 65535)},
		{"bomb_65535x65535.gif", 65535, 65535, GIF(65535, 65535)},
		{"bomb_16384x16384_lossless.webp", 16384, 16384, WebPLossless(16384, 16384)},
		{"bomb_16383x16383_lossy.webp", 16383, 16383, WebPLossy(16383, 16383)},
	}
}

// PNG returns a PNG whose header claims an 8-bit RGB image of w by h
// pixels: the signature, IHDR, an IDAT holding the zlib stream of the first
// row's filter byte and 8 black pixels (unfinished), and IEND.
func PNG(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 2, 0, 0, 0) // depth 8, RGB, deflate, no filter, not interlaced
	chunk(&b, "IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1+3*8))
	zw.Flush() // the stream goes on: the image is cut short
	chunk(&b, "IDAT", z.Bytes())
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

// chunk appends the PNG chunk of type typ and contents data to b.
func chunk(b *bytes.Buffer, typ string, data []byte) {
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	b.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}

// JPEG returns a baseline JPEG whose frame header (SOF0) claims w by h
// pixels of 3 components (w and h at most 65535): SOI, SOF0, a scan header
// (SOS), two bytes of entropy-coded data and EOI; no tables.
func JPEG(w, h int) []byte {
	b := []byte{0xff, 0xd8}
	sof := []byte{0xff, 0xc0, 0, 17, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3}
	for c := byte(1); c <= 3; c++ {
		sof = append(sof, c, 0x11, 0) // component c, sampling 1x1, table 0
	}
	b = append(b, sof...)
	b = append(b, 0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0)
	return append(b, 0x00, 0x00, 0xff, 0xd9)
}

// GIF returns a GIF89a whose logical screen and one frame measure w by h
// (at most 65535 each), without a color table, with an LZW stream that
// clears and ends at once.
func GIF(w, h int) []byte {
	b := []byte("GIF89a")
	b = binary.LittleEndian.AppendUint16(b, uint16(w))
	b = binary.LittleEndian.AppendUint16(b, uint16(h))
	b = append(b, 0, 0, 0) // no global color table
	b = append(b, 0x2c, 0, 0, 0, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(w))
	b = binary.LittleEndian.AppendUint16(b, uint16(h))
	b = append(b, 0)             // no local color table
	b = append(b, 2, 1, 0x44, 0) // LZW of 2 bits: clear, end
	return append(b, 0x3b)
}

// WebPLossless returns a WebP whose lossless bitstream's header (VP8L)
// claims w by h pixels (1 to 16384 each), with nothing after the header.
func WebPLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14 // no alpha, version 0
	vp8l := binary.LittleEndian.AppendUint32([]byte{0x2f}, bits)
	vp8l = append(vp8l, 0, 0, 0)
	return riff("VP8L", vp8l)
}

// WebPLossy returns a WebP whose lossy key frame's header (VP8) claims w by
// h pixels (1 to 16383 each), with its first partition cut short.
func WebPLossy(w, h int) []byte {
	const part = 16               // the first partition's size, as the frame tag says
	tag := uint32(part)<<5 | 1<<4 // a key frame, version 0, shown
	vp8 := []byte{byte(tag), byte(tag >> 8), byte(tag >> 16), 0x9d, 0x01, 0x2a}
	vp8 = binary.LittleEndian.AppendUint16(vp8, uint16(w))
	vp8 = binary.LittleEndian.AppendUint16(vp8, uint16(h))
	vp8 = append(vp8, make([]byte, part)...)
	return riff("VP8 ", vp8)
}

// riff wraps one chunk of WebP data in its RIFF container.
func riff(fourcc string, data []byte) []byte {
	if len(data)%2 == 1 {
		data = append(data, 0)
	}
	b := []byte("RIFF")
	b = binary.LittleEndian.AppendUint32(b, uint32(4+8+len(data)))
	b = append(b, "WEBP"+fourcc...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}
