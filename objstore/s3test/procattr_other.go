//go:build !linux

package s3test

import "syscall"

// sysProcAttr has nothing to add outside Linux: a server whose test process
// is killed outlives it until its parent's session ends.
func sysProcAttr() *syscall.SysProcAttr { return nil }
