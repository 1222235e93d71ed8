package imagedata

import (
	"fmt"
	"slices"
	"syscall"
	"unsafe"
)

// readFile appends the contents of file i, which the caller has checked, to
// dst: [Files.AppendObs], without allocating once dst has grown. The path is
// built on the stack (NUL-terminated for the system call; a path longer than
// pathOnStack bytes is built in a new buffer) and the file is read with the
// openat, read and close system calls, where os.Open allocates a File for
// every file. Its errors wrap ErrRead and name the file.
func (f *Files) readFile(dst []byte, i int) ([]byte, error) {
	p := f.paths[i]
	var stack [pathOnStack]byte
	b := stack[:0]
	if n := len(f.root) + 1 + len(p) + 1; n > len(stack) {
		b = make([]byte, 0, n)
	}
	if f.root != "" && !isAbs(p) {
		b = append(append(b, f.root...), '/')
	}
	b = append(append(b, p...), 0)
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

// pathOnStack is the longest path (with its NUL) readFile builds on the stack.
const pathOnStack = 512

// atFDCWD is Linux's AT_FDCWD (on every architecture): a path relative to
// the working directory.
const atFDCWD = -0x64

// isAbs reports whether p is an absolute path (filepath.IsAbs on Linux).
func isAbs(p string) bool { return len(p) > 0 && p[0] == '/' }
