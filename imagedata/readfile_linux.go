package imagedata

import (
	"fmt"
	"slices"
	"syscall"
	"unsafe"
)

// readFile appends the contents of file i to dst, as AppendFile does, without
// allocating once dst and *path have grown: the path is built in *path (the
// caller's reused buffer, NUL-terminated for the system call) and the file is
// read with the openat, read and close system calls, where os.Open allocates
// a File for every file. Its errors are AppendFile's.
func (f *Files) readFile(dst []byte, path *[]byte, i int) ([]byte, error) {
	p := f.paths[i]
	b := (*path)[:0]
	if f.root != "" && !isAbs(p) {
		b = append(append(b, f.root...), '/')
	}
	b = append(append(b, p...), 0)
	*path = b
	fdcwd := atFDCWD
	var fd uintptr
	var errno syscall.Errno
	for {
		fd, _, errno = syscall.Syscall6(syscall.SYS_OPENAT, uintptr(fdcwd), uintptr(unsafe.Pointer(&b[0])),
			syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
		if errno != syscall.EINTR {
			break
		}
	}
	if errno != 0 {
		return dst, readError(f.Path(i), "", fmt.Errorf("open: %w", errno))
	}
	defer syscall.Close(int(fd))
	at := len(dst)
	for {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, max(512, len(dst)-at))
		}
		n, err := syscall.Read(int(fd), dst[len(dst):cap(dst)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return dst[:at], readError(f.Path(i), "", fmt.Errorf("read: %w", err))
		case n == 0:
			return dst, nil
		}
		dst = dst[:len(dst)+n]
	}
}

// atFDCWD is Linux's AT_FDCWD (on every architecture): a path relative to
// the working directory.
const atFDCWD = -0x64

// isAbs reports whether p is an absolute path (filepath.IsAbs on Linux).
func isAbs(p string) bool { return len(p) > 0 && p[0] == '/' }
