//go:build !unix

package mmap

import (
	"io"
	"os"
)

// mapFile reads the file into memory on platforms without mmap support here.
func mapFile(f *os.File, size int) ([]byte, bool, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, int64(size)), data); err != nil {
		return nil, false, err
	}
	return data, false, nil
}

func unmap([]byte) error { return nil }

// outOfMemory reports false: files read into Go memory are the collector's.
func outOfMemory(error) bool { return false }

// Mapping reports whether Map maps files (rather than reading them): Map reads files into Go memory on this platform: nothing faults, and a file changed after Map does not change the region.
const Mapping = false
