package s3test

import "syscall"

// sysProcAttr makes the kernel kill the server when the test process that
// started it dies (a test binary killed by its timeout), so that no server
// outlives its tests holding ports and a data directory.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
