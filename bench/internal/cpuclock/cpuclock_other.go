//go:build !linux

package cpuclock

import "time"

var start = time.Now()

// Thread falls back to wall time since an arbitrary start where the thread CPU
// clock is not read. Only differences between two calls are meaningful.
func Thread() time.Duration { return time.Since(start) }

// Measures names what Thread measures on this system.
const Measures = "wall time"
