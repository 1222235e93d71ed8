package s3test

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// listening returns the TCP ports process pid listens on, from /proc: the
// inodes of its sockets (its file descriptors) matched with the listening
// sockets of /proc/net/tcp and tcp6.
func listening(pid int) ([]int, error) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return nil, err
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	var ports []int
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// local_address is field 1 (hex ip:port), st field 3 (0A: LISTEN), inode field 9.
			if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			p, err := strconv.ParseUint(hexPort, 16, 16)
			if err == nil && !slices.Contains(ports, int(p)) {
				ports = append(ports, int(p))
			}
		}
		file.Close()
	}
	slices.Sort(ports)
	return ports, nil
}

// TestServerPorts: every port the server listens on is one of the ports
// Start chose for it (none of weed mini's fixed defaults), and two servers
// run at once.
func TestServerPorts(t *testing.T) {
	var servers []*Server
	for i := range 2 {
		s, err := Start(fmt.Sprintf("ports-%d", i))
		if err != nil {
			Unavailable(t, err)
		}
		defer s.Stop()
		servers = append(servers, s)
	}
	for _, s := range servers {
		chosen := map[int]bool{}
		for _, a := range s.args {
			for _, p := range ports {
				if v, ok := strings.CutPrefix(a, "-"+p+"="); ok {
					n, _ := strconv.Atoi(v)
					chosen[n] = true
				}
			}
		}
		got, err := listening(s.cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("server %s listens on %v", s.Bucket, got)
		if len(got) == 0 {
			t.Fatal("no listening port found: the test reads nothing")
		}
		for _, p := range got {
			if !chosen[p] {
				t.Errorf("server %s listens on port %d, which Start did not choose (chosen: %v)", s.Bucket, p, s.args)
			}
		}
	}
}
