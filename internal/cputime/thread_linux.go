package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time the calling thread has used
// (CLOCK_THREAD_CPUTIME_ID), and whether the system could tell: only
// differences taken on one thread mean anything.
func Thread() (time.Duration, bool) {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
