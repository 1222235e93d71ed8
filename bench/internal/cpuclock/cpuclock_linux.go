package cpuclock

import (
	"time"

	"golang.org/x/sys/unix"
)

// Thread returns the CPU time consumed so far by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID). Only differences between two calls on the same
// thread are meaningful. It panics if the clock cannot be read, which Linux
// does not refuse since 2.6.12.
func Thread() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic("obskit/bench/internal/cpuclock: clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + err.Error())
	}
	return time.Duration(ts.Nano())
}

// Measures names what Thread measures on this system.
const Measures = "thread CPU time"
