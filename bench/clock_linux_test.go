package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadTime is the CPU time the calling thread has consumed
// (CLOCK_THREAD_CPUTIME_ID): only differences on one thread mean anything.
func threadTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic("obskit/bench: clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + err.Error())
	}
	return time.Duration(ts.Nano())
}
