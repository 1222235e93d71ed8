package imagecodec

import "bytes"

// Sniff returns the format of the image in data, found by its first bytes
// (its magic number), never by a file name: a GIF named x.jpg is a GIF.
// It returns [Unknown] when no format the kit knows starts data.
func Sniff(data []byte) Format {
	has := func(off int, magic string) bool {
		return len(data) >= off+len(magic) && string(data[off:off+len(magic)]) == magic
	}
	switch {
	case has(0, "\xff\xd8\xff"):
		return JPEG
	case has(0, "\x89PNG\r\n\x1a\n"):
		return PNG
	case has(0, "GIF87a"), has(0, "GIF89a"):
		return GIF
	case has(0, "RIFF") && has(8, "WEBP"):
		return WebP
	case has(0, "BM"):
		return BMP
	case has(0, "II*\x00"), has(0, "MM\x00*"):
		return TIFF
	case has(0, "\x00\x00\x00\x0cjP  \r\n\x87\n"), has(0, "\xff\x4f\xff\x51"):
		return JPEG2000
	case has(0, "\xff\x0a"), has(0, "\x00\x00\x00\x0cJXL \r\n\x87\n"):
		return JPEGXL
	case has(4, "ftyp"):
		if len(data) >= 12 {
			switch string(data[8:12]) {
			case "avif", "avis":
				return AVIF
			case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1":
				return HEIF
			}
		}
	case has(0, "\x00\x00\x01\x00"):
		return ICO
	case len(data) >= 3 && data[0] == 'P' && data[1] >= '1' && data[1] <= '7' &&
		bytes.IndexByte([]byte(" \t\r\n"), data[2]) >= 0:
		return PNM
	}
	return Unknown
}
