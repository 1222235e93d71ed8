package recordio

import "encoding/binary"

// Magic is the number that starts every part of every record: the 32-bit
// little-endian word 0xced7230a.
const Magic uint32 = 0xced7230a

// MaxSize is the largest payload a record can hold, 2^29 - 1 bytes: the length
// of a part has 29 bits, and dmlc-core's writer refuses larger records.
const MaxSize = 1<<29 - 1

// The part flags of the length word (its top three bits).
const (
	whole  = 0 // a record in one part
	first  = 1 // the first part of a split record
	middle = 2 // a middle part
	last   = 3 // the last part
)

// headerSize is the size of a part's header: the magic and the length word.
const headerSize = 8

// lengthWord encodes a part's flag and length, cflag<<29 | length.
func lengthWord(flag, n uint32) uint32 { return flag<<29 | n }

// partFlag and partLen decode a length word.
func partFlag(w uint32) uint32 { return w >> 29 & 7 }
func partLen(w uint32) uint32  { return w & (1<<29 - 1) }

// pad4 rounds n up to a multiple of 4.
func pad4(n int64) int64 { return (n + 3) &^ 3 }

// isMagic reports whether the four bytes at b[i:] hold the magic number.
func isMagic(b []byte, i int) bool { return binary.LittleEndian.Uint32(b[i:]) == Magic }
