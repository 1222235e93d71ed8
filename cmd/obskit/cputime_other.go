//go:build !unix

package main

import "time"

// cpuTime cannot tell the process's CPU time here.
func cpuTime() (time.Duration, bool) { return 0, false }
