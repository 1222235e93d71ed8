//go:build unix

package objstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes dir for this process: an exclusive flock on dir/.lock, held
// while the returned file is open and dropped by the kernel when the process
// dies, so that a crash leaves no stale lock.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is in use by another process (each process needs a cache directory of its own)", ErrCacheDir, dir)
		}
		return nil, fmt.Errorf("objstore: cache: lock %s: %w", dir, err)
	}
	return f, nil
}
