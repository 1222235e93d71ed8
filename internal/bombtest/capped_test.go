package bombtest

import (
	"strings"
	"testing"
)

var sink []byte

// TestCapKills: an allocation over the cap kills the child, one under it
// does not, so that Capped fails a test whose body allocates what a bomb
// claims.
func TestCapKills(t *testing.T) {
	if err := canCap(); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{
		{"64MiB", 64 << 20, true},
		{"1GiB", 1 << 30, false}, // the smallest claim of the bombs in augment: 1 GB
		{"9GiB", 9 << 30, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if isChild(t) {
				sink = make([]byte, tc.size)
				sink[len(sink)-1] = 1
				return
			}
			out, err := runChild(t.Name())
			if (err == nil) != tc.ok {
				t.Fatalf("allocating %d MiB with a headroom of %d MiB: %v, want ok %v:\n%s", tc.size>>20, Headroom>>20, err, tc.ok, tail(out))
			}
			if !tc.ok && !strings.Contains(string(out), "out of memory") && !strings.Contains(string(out), "ThreadSanitizer failed to allocate") &&
				!strings.Contains(string(out), "address space collisions") {
				t.Errorf("the child failed, but not for memory:\n%s", tail(out))
			}
		})
	}
}
