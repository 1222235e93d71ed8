// Command testsum reads the output of go test -json (several runs of it one after
// another, with plain lines between them) on its standard input and prints what
// go test prints without -json: the result line of every package, the output of
// every failed test, build errors, and the plain lines as they are. It ends with
// one summary line:
//
//	make test: 1204 passed, 0 failed, 7 skipped (tests and examples; 3518 subtests)
//
// and exits with status 1 when a test or a package failed, or when a line says
// that go test itself failed ("make test: go test exited ...", which the Makefile
// prints). make test pipes every module's go test -json into it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is the part of go test -json's TestEvent that testsum reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// tally counts the results of one run.
type tally struct {
	passed, failed, skipped, subtests int
	failedPkgs                        int
	goFailed                          bool
}

func main() {
	t, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	if t.failed > 0 || t.failedPkgs > 0 || t.goFailed {
		os.Exit(1)
	}
}

// summarize copies the results of in to out as go test would print them, then
// the summary line, and returns the counts.
func summarize(in io.Reader, out io.Writer) (tally, error) {
	var t tally
	held := map[string][]string{} // the output of running tests, by package and test
	failedIn := map[string]bool{} // packages with a failed test
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			fmt.Fprintln(out, line)
			t.goFailed = t.goFailed || strings.HasPrefix(line, "make test: go test exited")
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "output" && e.Test == "":
			if e.Output != "PASS\n" { // go test without -json prints only the ok line
				fmt.Fprint(out, e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Test == "":
			if e.Action == "fail" && !failedIn[e.Package] {
				t.failedPkgs++ // failed without a failed test: a build error, a panic, a timeout
			}
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			if e.Action == "fail" {
				fmt.Fprint(out, strings.Join(held[key], ""))
				failedIn[e.Package] = true
			}
			delete(held, key)
			if strings.Contains(e.Test, "/") {
				t.subtests++
				continue
			}
			switch e.Action {
			case "pass":
				t.passed++
			case "fail":
				t.failed++
			case "skip":
				t.skipped++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	fmt.Fprintf(out, "make test: %d passed, %d failed, %d skipped (tests and examples; %d subtests)", t.passed, t.failed, t.skipped, t.subtests)
	if t.failedPkgs > 0 {
		fmt.Fprintf(out, "; %d packages failed outside a test (build errors, panics, timeouts: see above)", t.failedPkgs)
	}
	if t.goFailed && t.failed == 0 && t.failedPkgs == 0 {
		fmt.Fprint(out, "; go test itself failed (see above)")
	}
	fmt.Fprintln(out)
	return t, nil
}
