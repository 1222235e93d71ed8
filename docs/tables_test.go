package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testRE finds a table's test column: `TestName/subtest`.
var testRE = regexp.MustCompile("`(Test[A-Za-z0-9]+)/([A-Za-z0-9_]+)`")

// TestTablesTested checks the pages whose tables name, row by row, the test
// that holds the row (docs/from-mxnet.md's table of MXNet's iterators): every
// test named is a test function of the repository with that subtest, so a row
// cannot point at a test that was renamed or removed.
func TestTablesTested(t *testing.T) {
	page, err := os.ReadFile("from-mxnet.md")
	if err != nil {
		t.Fatal(err)
	}
	named := testRE.FindAllStringSubmatch(string(page), -1)
	if len(named) < 30 {
		t.Fatalf("from-mxnet.md names %d tests; the table of MXNet's iterators has a test per row", len(named))
	}
	var sources []string // the test files of the repository
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources = append(sources, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range named {
		fn, sub := m[1], strings.ReplaceAll(m[2], "_", " ")
		found := false
		for _, src := range sources {
			_, body, ok := strings.Cut(src, "\nfunc "+fn+"(t *testing.T) {\n")
			if ok && (strings.Contains(body, `t.Run("`+sub+`"`) || strings.Contains(body, `t.Run("`+m[2]+`"`)) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("from-mxnet.md names %s/%s: no test function %s with that subtest", fn, m[2], fn)
		}
	}
}
