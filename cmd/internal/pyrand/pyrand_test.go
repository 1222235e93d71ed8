package pyrand

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"testing"
)

func shuffled(seed uint64, n int) []int {
	x := make([]int, n)
	for i := range x {
		x[i] = i
	}
	New(seed).Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

// TestShuffle holds Shuffle to permutations CPython 3.11 printed for
// random.seed(s); x = list(range(n)); random.shuffle(x).
func TestShuffle(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		n    int
		want []int
	}{
		{100, 0, []int{}},
		{100, 1, []int{0}},
		{100, 10, []int{4, 0, 5, 9, 3, 1, 6, 8, 7, 2}},
		{0, 10, []int{7, 8, 1, 5, 3, 4, 2, 0, 9, 6}},
		{1 << 40, 6, []int{4, 3, 1, 5, 2, 0}},
	} {
		if got := shuffled(c.seed, c.n); !slices.Equal(got, c.want) {
			t.Errorf("seed %d, %d elements: %v, want Python's %v", c.seed, c.n, got, c.want)
		}
	}
}

// TestShufflePython compares with the Python on this machine, when there is
// one, for larger lists (a rejection in _randbelow, several calls of the
// generator's twist).
func TestShufflePython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	for _, c := range []struct {
		seed uint64
		n    int
	}{{100, 1000}, {100, 3000}, {7, 65537}, {1<<33 + 5, 100}} {
		script := fmt.Sprintf("import random, json; random.seed(%d); x = list(range(%d)); random.shuffle(x); print(json.dumps(x))", c.seed, c.n)
		out, err := exec.Command(python, "-c", script).Output()
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		if got := shuffled(c.seed, c.n); !slices.Equal(got, want) {
			t.Errorf("seed %d, %d elements: the shuffle differs from Python's", c.seed, c.n)
		}
	}
}
