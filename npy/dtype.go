package npy

import (
	"math"
	"strconv"
	"strings"

	"github.com/obskit/obskit/fileio"
)

// A Dtype is the element type of a .npy file, parsed from the descr of its header
// (NumPy's dtype.str), such as "<f4" for little-endian float32.
//
// The readers support the NumPy kinds 'f' (float32, float64), 'i' (int8 to int64),
// 'u' (uint8 to uint64) and 'b' (bool, one byte). A bool file reads as uint8 with
// the bytes as stored: NumPy writes 0 for False and 1 for True. Every other dtype
// (float16, complex, strings, datetimes, objects, structured records) is refused
// with an error wrapping [ErrUnsupported] that names it.
type Dtype struct {
	// Descr is the descr as written in the file, such as "<f4", "|u1" or, for a
	// structured dtype, the text of its list of fields.
	Descr string
	// Kind is the NumPy kind character: 'f', 'i', 'u', 'b', or another NumPy kind
	// ('c' complex, 'U' unicode...) for dtypes the readers refuse; 'V' for a
	// structured dtype.
	Kind byte
	// Size is the number of bytes of one element (NumPy's itemsize: 40 for
	// "<U10", whose characters take 4 bytes each), or 0 when the descr does not
	// say (a structured dtype, Python objects).
	Size int
	// BigEndian reports whether elements are stored most significant byte first
	// ('>' in Descr).
	BigEndian bool
}

// parseDescr parses a simple descr such as "<f4" as far as it goes: the byte
// order, the kind and the size of one element, which is the number in the descr
// except for unicode strings ('<U10': 4 bytes a character, 40 bytes) and
// datetimes ('<M8[ns]': 8 bytes). It never fails: a descr it cannot read ('|O',
// '=f4') keeps Size 0 or an unknown byte order and is refused by
// [Dtype.supported] with the descr named in the error. tooLarge reports a
// unicode size whose byte count overflows int.
func parseDescr(s string) (d Dtype, tooLarge bool) {
	d = Dtype{Descr: s}
	if len(s) < 2 {
		return d, false
	}
	d.Kind = s[1]
	d.BigEndian = s[0] == '>'
	num := s[2:]
	if d.Kind == 'M' || d.Kind == 'm' {
		num, _, _ = strings.Cut(num, "[") // the unit: '<M8[ns]', '<m8[D]'
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return d, false
	}
	if d.Kind == 'U' {
		if n > math.MaxInt/4 {
			return d, true
		}
		n *= 4
	}
	d.Size = n
	return d, false
}

// supported reports whether the readers can load elements of d: a known byte order
// ('|' only for one-byte elements) and a supported kind and size.
func (d Dtype) supported() bool {
	if len(d.Descr) != 3 {
		return false
	}
	switch o := d.Descr[0]; {
	case o == '|' && d.Size != 1, o != '|' && o != '<' && o != '>':
		return false
	}
	switch d.Kind {
	case 'f':
		return d.Size == 4 || d.Size == 8
	case 'i', 'u':
		return d.Size == 1 || d.Size == 2 || d.Size == 4 || d.Size == 8
	case 'b':
		return d.Size == 1
	}
	return false
}

// kind is the Go storage kind d reads as: bool is uint8.
func (d Dtype) kind() fileio.Kind {
	if d.Kind == 'b' {
		return fileio.Kind{Class: 'u', Size: 1}
	}
	return fileio.Kind{Class: d.Kind, Size: d.Size}
}

// GoType returns the name of the Go element type d reads as, such as "float32";
// "uint8" for bool. It returns "" for a dtype the readers do not support.
func (d Dtype) GoType() string {
	if !d.supported() {
		return ""
	}
	return d.kind().String()
}

// String returns d.Descr.
func (d Dtype) String() string { return d.Descr }

// dtypeOf returns the little-endian descr of E, such as "<f4".
func dtypeOf(k fileio.Kind) Dtype {
	d := Dtype{Kind: k.Class, Size: k.Size, BigEndian: !fileio.LittleEndian && k.Size > 1}
	order := byte('<')
	switch {
	case k.Size == 1:
		order = '|'
	case d.BigEndian:
		order = '>'
	}
	d.Descr = string(order) + string(k.Class) + strconv.Itoa(k.Size)
	return d
}

// swapped reports whether elements of d are stored in the other byte order than
// the machine's.
func (d Dtype) swapped() bool { return d.Size > 1 && d.BigEndian == fileio.LittleEndian }
