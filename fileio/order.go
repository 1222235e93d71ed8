package fileio

import (
	"encoding/binary"
	"math/bits"
)

// LittleEndian reports whether the machine stores numbers little-endian.
var LittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Swap reverses the byte order of every size-byte element of b in place. size is
// 1, 2, 4 or 8; size 1 leaves b unchanged.
func Swap(b []byte, size int) {
	switch size {
	case 2:
		for i := 0; i+2 <= len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	case 4:
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], bits.ReverseBytes32(binary.LittleEndian.Uint32(b[i:])))
		}
	case 8:
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(binary.LittleEndian.Uint64(b[i:])))
		}
	}
}
