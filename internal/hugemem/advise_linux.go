package hugemem

import "syscall"

// advise asks the kernel to back b with huge pages. An error (no transparent
// huge pages in this kernel) leaves b as ordinary memory, which is all the
// advice can promise anyway.
func advise(b []byte) {
	if len(b) > 0 {
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	}
}
