// Package header reads what imagecodec's decoders need from image headers
// before decoding: a JPEG's markers up to its first scan, and the EXIF
// orientation of JPEG, PNG and WebP files.
package header

import "encoding/binary"

// ExifOrientation returns the orientation tag (0x0112) of IFD0 of the TIFF
// structure of an EXIF block, with or without its "Exif\0\0" prefix, and 1
// when there is none or the block does not parse. A broken EXIF block is
// not an error: Pillow ignores it too.
func ExifOrientation(b []byte) uint8 {
	if len(b) >= 6 && string(b[:6]) == "Exif\x00\x00" {
		b = b[6:]
	}
	if len(b) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(b[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int64(bo.Uint32(b[4:8]))
	if ifd < 8 || ifd+2 > int64(len(b)) {
		return 1
	}
	n := int(bo.Uint16(b[ifd:]))
	for i := range n {
		e := ifd + 2 + 12*int64(i)
		if e+12 > int64(len(b)) {
			return 1
		}
		if bo.Uint16(b[e:]) != 0x0112 {
			continue
		}
		typ, count := bo.Uint16(b[e+2:]), bo.Uint32(b[e+4:])
		if typ != 3 || count < 1 { // SHORT
			return 1
		}
		if o := bo.Uint16(b[e+8:]); o >= 1 && o <= 8 {
			return uint8(o)
		}
		return 1
	}
	return 1
}

// PNGOrientation returns the orientation of the eXIf chunk of a PNG, 1 when
// it has none. It walks the chunks by their lengths and stops at IEND or at
// the first chunk that runs past the data.
func PNGOrientation(data []byte) uint8 {
	for i := 8; i+8 <= len(data); {
		n := int64(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		end := int64(i) + 12 + n
		if end > int64(len(data)) || typ == "IEND" {
			break
		}
		if typ == "eXIf" {
			return ExifOrientation(data[i+8 : int64(i)+8+n])
		}
		i = int(end)
	}
	return 1
}

// WebPOrientation returns the orientation of the EXIF chunk of a WebP file,
// 1 when it has none.
func WebPOrientation(data []byte) uint8 {
	for i := 12; i+8 <= len(data); {
		n := int64(binary.LittleEndian.Uint32(data[i+4:]))
		end := int64(i) + 8 + n
		if end > int64(len(data)) {
			break
		}
		if string(data[i:i+4]) == "EXIF" {
			return ExifOrientation(data[i+8 : end])
		}
		i = int(end + n&1) // chunks are padded to an even size
	}
	return 1
}

// WebPFrame returns the size of the image data of a WebP file, from the
// header of its first VP8 (lossy) or VP8L (lossless) chunk, and false when
// it has none that parses. A VP8X file also states a canvas size, which is
// what image.DecodeConfig reports; x/image/webp decodes and allocates the
// frame's own size, so a decoder checks that the two agree.
func WebPFrame(data []byte) (w, h int, ok bool) {
	for i := 12; i+8 <= len(data); {
		n := int64(binary.LittleEndian.Uint32(data[i+4:]))
		body := data[i+8:]
		switch string(data[i : i+4]) {
		case "VP8 ": // a 3-byte frame tag, the start code 9d 01 2a, 14-bit sizes
			if len(body) >= 10 && string(body[3:6]) == "\x9d\x01\x2a" {
				return int(binary.LittleEndian.Uint16(body[6:]) & 0x3fff), int(binary.LittleEndian.Uint16(body[8:]) & 0x3fff), true
			}
			return 0, 0, false
		case "VP8L": // the signature 0x2f, then 14-bit width-1 and height-1
			if len(body) >= 5 && body[0] == 0x2f {
				b := binary.LittleEndian.Uint32(body[1:])
				return int(b&0x3fff) + 1, int(b>>14&0x3fff) + 1, true
			}
			return 0, 0, false
		}
		end := int64(i) + 8 + n + n&1
		if end > int64(len(data)) {
			break
		}
		i = int(end)
	}
	return 0, 0, false
}
