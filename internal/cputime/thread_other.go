//go:build !linux

package cputime

import "time"

// Thread cannot tell a thread's CPU time here: it returns false.
func Thread() (time.Duration, bool) { return 0, false }
