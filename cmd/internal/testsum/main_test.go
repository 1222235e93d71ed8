package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSummarize feeds summarize what go test -json printed for a module with a
// passing, a failing and a skipped test, a subtest, a package that does not
// build, and a plain line of the Makefile.
func TestSummarize(t *testing.T) {
	in := `== .
{"Action":"run","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"p/a","Test":"TestOK/sub","Output":"=== RUN   TestOK/sub\n"}
{"Action":"pass","Package":"p/a","Test":"TestOK/sub"}
{"Action":"pass","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Test":"TestBad","Output":"    a_test.go:6: boom\n"}
{"Action":"output","Package":"p/a","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"p/a","Test":"TestBad"}
{"Action":"skip","Package":"p/a","Test":"ExampleSkipped"}
{"Action":"output","Package":"p/a","Output":"FAIL\tp/a\t0.039s\n"}
{"Action":"fail","Package":"p/a"}
{"Action":"output","Package":"p/b","Output":"PASS\n"}
{"Action":"output","Package":"p/b","Output":"ok  \tp/b\t0.01s\n"}
{"Action":"pass","Package":"p/b"}
{"ImportPath":"p/c","Action":"build-output","Output":"c.go:3:12: undefined: x\n"}
{"Action":"output","Package":"p/c","Output":"FAIL\tp/c [build failed]\n"}
{"Action":"fail","Package":"p/c"}
`
	var out strings.Builder
	got, err := summarize(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tally{passed: 1, failed: 1, skipped: 1, subtests: 1, failedPkgs: 1}, got, cmp.AllowUnexported(tally{})); d != "" {
		t.Errorf("summarize counts mismatch (-want +got):\n%s", d)
	}
	want := `== .
    a_test.go:6: boom
--- FAIL: TestBad (0.00s)
FAIL	p/a	0.039s
ok  	p/b	0.01s
c.go:3:12: undefined: x
FAIL	p/c [build failed]
make test: 1 passed, 1 failed, 1 skipped (tests and examples; 1 subtests); 1 packages failed outside a test (build errors, panics, timeouts: see above)
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("summarize output mismatch (-want +got):\n%s", d)
	}
}
