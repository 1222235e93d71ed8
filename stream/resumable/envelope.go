package resumable

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The envelope of a saved state: the magic, one byte of version, the records
// of the nodes, then the CRC-32C (Castagnoli) of everything before it, 4
// bytes little-endian. Start checks the envelope before it decodes anything of
// the records, so a state damaged anywhere (a flipped bit, a cut, bytes
// appended) is refused rather than resumed into another stream: CRC-32C
// detects every error of up to 32 consecutive bits, and others but for one in
// 2^32. Version 1 had no checksum.
const (
	magic   = "obskit.stream"
	version = 2
	sumSize = 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// openEnvelope returns the start of a saved state, to which the nodes' records
// are appended before sealEnvelope closes it.
func openEnvelope(b []byte) []byte { return append(append(b, magic...), version) }

// sealEnvelope appends the checksum of b, a state begun by openEnvelope.
func sealEnvelope(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// checkEnvelope checks the magic, the version and the checksum of state and
// returns the records inside it, or an error that says which of them fails.
func checkEnvelope(state []byte) ([]byte, error) {
	head := len(magic) + 1
	n := len(state)
	if n < len(magic) || string(state[:len(magic)]) != magic {
		return nil, fmt.Errorf("not a saved stream state (it does not start with %q)", magic)
	}
	if n < head {
		return nil, fmt.Errorf("cut short: %d bytes, the magic alone", n)
	}
	if v := state[len(magic)]; v != version {
		return nil, fmt.Errorf("version %d, this package reads version %d", v, version)
	}
	if n < head+sumSize {
		return nil, fmt.Errorf("cut short: %d bytes, less than the magic, the version and the checksum", n)
	}
	body := state[:n-sumSize]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(state[n-sumSize:]); got != want {
		return nil, fmt.Errorf("checksum mismatch: the state's last 4 bytes say CRC-32C 0x%08x, its first %d bytes sum to 0x%08x: the state is damaged, cut short or has bytes added", want, len(body), got)
	}
	return body[head:], nil
}
