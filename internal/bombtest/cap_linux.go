package bombtest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func canCap() error { return nil }

// capSelf caps the process's address space at its size now plus headroom
// and returns the cap.
func capSelf(headroom uint64) (uint64, error) {
	size, err := vmSize()
	if err != nil {
		return 0, err
	}
	limit := size + headroom
	return limit, syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
}

// vmSize returns the process's address space in bytes, VmSize of
// /proc/self/status.
func vmSize() (uint64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("VmSize of /proc/self/status: %q: %v", v, err)
			}
			return kb << 10, nil
		}
	}
	if err := s.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no VmSize in /proc/self/status")
}
