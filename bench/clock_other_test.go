//go:build !linux

package bench

import "time"

var start = time.Now()

// threadTime is wall time where the thread's CPU clock is not read.
func threadTime() time.Duration { return time.Since(start) }
