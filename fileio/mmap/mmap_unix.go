//go:build unix

package mmap

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps f privately (copy-on-write) and writable, so that writes through an
// array change private copies of the touched pages and never the file, and a write
// is not a fatal fault as it would be with a read-only mapping. MAP_NORESERVE keeps
// a mapping larger than RAM plus swap from being refused by the kernel's commit
// accounting: pages are only charged when written.
func mapFile(f *os.File, size int) ([]byte, bool, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|noreserve)
	if err != nil {
		return nil, false, &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	return data, true, nil
}

func unmap(data []byte) error { return syscall.Munmap(data) }

// outOfMemory reports whether a mapping failed for lack of address space or of
// mappings (the kernel's vm.max_map_count): ENOMEM.
func outOfMemory(err error) bool { return errors.Is(err, syscall.ENOMEM) }

// Mapping reports whether Map maps files (rather than reading them): Map maps files with mmap on this platform.
const Mapping = true
