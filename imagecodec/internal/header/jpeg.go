package header

import (
	"bytes"
	"encoding/binary"

	"github.com/obskit/obskit/fileio"
)

// JPEG is what the markers of a JPEG say before its first scan.
type JPEG struct {
	SOF           byte // the start-of-frame marker, 0xc0 to 0xcf
	Width, Height int
	Components    int
	// sampling factors of each component, and the largest of them
	H, V       [4]int
	Restart    bool // a DRI segment with a non-zero interval
	Adobe      bool // an Adobe APP14 segment
	Transform  byte // its color transform: 0 RGB or CMYK, 1 YCbCr, 2 YCCK
	Orient     uint8
	ScanOffset int // the offset of the first SOS marker
}

// Progressive reports a progressive JPEG (SOF2, or SOF10 arithmetic-coded).
func (j *JPEG) Progressive() bool { return j.SOF == 0xc2 || j.SOF == 0xca }

// Arithmetic reports an arithmetic-coded JPEG (SOF9 to SOF15).
func (j *JPEG) Arithmetic() bool { return j.SOF >= 0xc9 }

// Lossless reports a lossless or hierarchical JPEG (SOF3, SOF5 to SOF7,
// SOF11, SOF13 to SOF15), which neither decoder reads.
func (j *JPEG) Lossless() bool {
	switch j.SOF {
	case 0xc3, 0xc5, 0xc6, 0xc7, 0xcb, 0xcd, 0xce, 0xcf:
		return true
	}
	return false
}

// ScanJPEG reads the markers of the JPEG in data up to its first scan. Its
// errors are *fileio.FormatError values that say what is wrong and where.
func ScanJPEG(data []byte) (JPEG, error) {
	j := JPEG{Orient: 1}
	i := 2 // after SOI
	for {
		// A marker is 0xff, any number of fill bytes 0xff, then its code.
		for i < len(data) && data[i] != 0xff {
			i++ // garbage between segments: libjpeg skips it with a warning
		}
		for i < len(data) && data[i] == 0xff {
			i++
		}
		if i >= len(data) {
			return j, fileio.Formatf("JPEG: truncated: the data ends at offset %d before the first scan", len(data))
		}
		m := data[i]
		i++
		switch {
		case m == 0xd9:
			return j, fileio.Formatf("JPEG: end-of-image marker at offset %d before any scan", i-2)
		case m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7):
			continue // no length
		}
		if i+2 > len(data) {
			return j, fileio.Formatf("JPEG: truncated: marker 0x%02x at offset %d has no length", m, i-2)
		}
		n := int(binary.BigEndian.Uint16(data[i:]))
		if n < 2 || i+n > len(data) {
			return j, fileio.Formatf("JPEG: truncated: segment 0x%02x at offset %d claims %d bytes, %d are left", m, i-2, n, len(data)-i)
		}
		seg := data[i+2 : i+n]
		switch {
		case m == 0xda:
			if j.SOF == 0 {
				return j, fileio.Formatf("JPEG: scan at offset %d before any frame header", i-2)
			}
			j.ScanOffset = i - 2
			return j, nil
		case m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			if j.SOF != 0 {
				return j, fileio.Formatf("JPEG: second frame header at offset %d", i-2)
			}
			if len(seg) < 6 {
				return j, fileio.Formatf("JPEG: frame header at offset %d is %d bytes long", i-2, len(seg))
			}
			j.SOF = m
			j.Height = int(binary.BigEndian.Uint16(seg[1:]))
			j.Width = int(binary.BigEndian.Uint16(seg[3:]))
			j.Components = int(seg[5])
			if j.Width == 0 || j.Height == 0 {
				return j, fileio.Formatf("JPEG: frame header at offset %d gives a size of %dx%d", i-2, j.Width, j.Height)
			}
			if j.Components != 1 && j.Components != 3 && j.Components != 4 {
				return j, fileio.Formatf("JPEG: frame header at offset %d gives %d components (1, 3 or 4 are images)", i-2, j.Components)
			}
			if len(seg) < 6+3*j.Components {
				return j, fileio.Formatf("JPEG: frame header at offset %d is %d bytes long for %d components", i-2, len(seg), j.Components)
			}
			for c := range j.Components {
				f := seg[6+3*c+1]
				j.H[c], j.V[c] = int(f>>4), int(f&15)
				if j.H[c] < 1 || j.H[c] > 4 || j.V[c] < 1 || j.V[c] > 4 {
					return j, fileio.Formatf("JPEG: component %d has sampling factors %dx%d (1 to 4 are valid)", c, j.H[c], j.V[c])
				}
			}
		case m == 0xdd:
			if len(seg) >= 2 && binary.BigEndian.Uint16(seg) != 0 {
				j.Restart = true
			}
		case m == 0xe1:
			if j.Orient == 1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
				j.Orient = ExifOrientation(seg)
			}
		case m == 0xee:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				j.Adobe, j.Transform = true, seg[11]
			}
		}
		i += n
	}
}

// HasEnd reports whether a JPEG whose first scan starts at scan holds an
// end-of-image marker after it. Entropy-coded data never holds 0xff 0xd9
// (a 0xff there is followed by 0x00 or a restart code), so the marker's
// presence means that the file was not cut short; what follows it is
// ignored, as libjpeg-turbo does.
func HasEnd(data []byte, scan int) bool {
	return bytes.LastIndex(data[scan:], []byte{0xff, 0xd9}) >= 0
}

// HasRestart reports whether a restart interval is defined anywhere in
// the JPEG (a DRI segment may come between the scans of a progressive one).
func HasRestart(data []byte) bool {
	for i := 0; ; {
		k := bytes.Index(data[i:], []byte{0xff, 0xdd})
		if k < 0 || i+k+6 > len(data) {
			return false
		}
		i += k + 2
		if binary.BigEndian.Uint16(data[i+2:]) != 0 {
			return true
		}
	}
}
