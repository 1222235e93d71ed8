package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyPipelineStartsGoroutines holds the kit to its rule that every goroutine
// it starts is started here: it parses every non-test Go file of the library
// module (the nested modules, which hold the commands, benchmarks and guide, are
// not the library; container/containertest is test support, whose concurrency
// checks read a container from several goroutines) and fails on a go statement
// outside this package.
func TestOnlyPipelineStartsGoroutines(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == here ||
			filepath.Dir(path) == filepath.Join(root, "container", "containertest") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: a go statement outside internal/pipeline: start goroutines through pipeline.Run", rel, fset.Position(g.Go).Line)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("parsed %d library files; the walk did not reach the module", files)
	}
}
