package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests run in the package's directory, two below the repository root.
func init() { repoRoot = "../.." }

const goOutput = `goos: linux
goarch: amd64
pkg: github.com/obskit/obskit/bench
cpu: Intel(R) Xeon(R) Processor
BenchmarkGather/float32/first-2   	     200	     52814 ns/op	3800.24 MB/s	      7333 copy-MB/s	      2575 kit-MB/s	         0.3512 x-copy	       0 B/op	       0 allocs/op
BenchmarkGather/float32/first-2   	     200	     52000 ns/op	3900.00 MB/s	      7000 copy-MB/s	      2600 kit-MB/s	         0.3714 x-copy	       0 B/op	       0 allocs/op
BenchmarkShuffled/Split-2         	       3	 712345678 ns/op	       160000000 B/op	      12 allocs/op	 1.234e+08 kit-ns	 1.5e+08 perm-ns	0.82 kit/perm
BenchmarkTuple
some log line from a benchmark
PASS
ok  	github.com/obskit/obskit/bench	1.289s
`

func TestParseBench(t *testing.T) {
	s := Samples{}
	if err := parseBench(strings.NewReader(goOutput), "bench", s); err != nil {
		t.Fatal(err)
	}
	want := Samples{
		"bench BenchmarkGather/float32/first": {
			"ns/op": {52814, 52000}, "MB/s": {3800.24, 3900}, "copy-MB/s": {7333, 7000},
			"kit-MB/s": {2575, 2600}, "x-copy": {0.3512, 0.3714}, "B/op": {0, 0}, "allocs/op": {0, 0},
		},
		"bench BenchmarkShuffled/Split": {
			"ns/op": {712345678}, "B/op": {160000000}, "allocs/op": {12},
			"kit-ns": {1.234e8}, "perm-ns": {1.5e8}, "kit/perm": {0.82},
		},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("parseBench() mismatch (-want +got):\n%s", diff)
	}
	if got := s.Get("bench", "BenchmarkShuffled/Split", "kit/perm"); !cmp.Equal(got, []float64{0.82}) {
		t.Errorf("Get = %v", got)
	}
}

func TestGoRunRuns(t *testing.T) {
	g := goRun{Pkg: "bench", Bench: ".", Skip: "^BenchmarkKernel$"}
	for _, tc := range []struct {
		pkg, bench string
		want       bool
	}{
		{"bench", "BenchmarkGather/float32/first", true},
		{"bench", "BenchmarkKernel/rows/64", false},
		{"bench", "BenchmarkKernelX", true},
		{"npy", "BenchmarkOpen", false},
	} {
		if got := g.runs(tc.pkg, tc.bench); got != tc.want {
			t.Errorf("%+v runs %s %s = %v, want %v", g, tc.pkg, tc.bench, got, tc.want)
		}
	}
}

func TestGoRunArgs(t *testing.T) {
	tests := []struct {
		run   goRun
		quick bool
		want  string
	}{
		{goRun{Pkg: "bench", Bench: "."}, false, "go test -C bench -run '^$' -bench . -count 5 -benchmem -timeout 60m ./"},
		{goRun{Pkg: "bench", Bench: ".", Skip: "^BenchmarkKernel$"}, false, "go test -C bench -run '^$' -bench . -skip '^BenchmarkKernel$' -count 5 -benchmem -timeout 60m ./"},
		{goRun{Pkg: "subset", Bench: "^BenchmarkShuffled$", Benchtime: "3x"}, false, "go test -run '^$' -bench '^BenchmarkShuffled$' -benchtime 3x -count 5 -benchmem -timeout 60m ./subset/"},
		{goRun{Pkg: "subset", Bench: "^BenchmarkShuffled$", Benchtime: "3x"}, true, "go test -run '^$' -bench '^BenchmarkShuffled$' -benchtime 1x -count 5 -benchmem -timeout 60m ./subset/"},
	}
	for _, tc := range tests {
		if got := command("go", tc.run.args(5, tc.quick)); got != tc.want {
			t.Errorf("command of %+v (quick %v):\n got %s\nwant %s", tc.run, tc.quick, got, tc.want)
		}
	}
}

// The package directories that are modules of their own are found by their
// go.mod: the nested modules are, the library's packages are not.
func TestIsModule(t *testing.T) {
	for dir, want := range map[string]bool{"bench": true, "cmd": true, "docs": true, "arraycontainer/dense": true,
		"subset": false, "npy": false, "nosuch": false} {
		if got := isModule(dir); got != want {
			t.Errorf("isModule(%q) = %v, want %v", dir, got, want)
		}
	}
}
