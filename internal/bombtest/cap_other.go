//go:build !linux

package bombtest

import "errors"

func canCap() error {
	return errors.New("capping a process's address space needs Linux's /proc/self/status and RLIMIT_AS")
}

func capSelf(uint64) (uint64, error) { return 0, canCap() }
