package docs_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the repository root, seen from this package's directory.
const root = ".."

// A page is a Markdown file of the repository, by path relative to root.
type page struct {
	path string
	text string
}

// A block is a fenced code block of a page.
type block struct {
	lang string
	line int // of the first line inside the fences, counted from 1
	body string
}

// readPages returns README.md and every docs/*.md.
func readPages(t *testing.T) []page {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var ps []page
	for _, p := range append([]string{filepath.Join(root, "README.md")}, paths...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		ps = append(ps, page{filepath.ToSlash(rel), string(b)})
	}
	return ps
}

// blocks returns the fenced blocks of p.
func blocks(p page) []block {
	var bs []block
	var cur *block
	for i, l := range strings.Split(p.text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &block{lang: strings.TrimPrefix(l, "```"), line: i + 2}
		case cur != nil && l == "```":
			bs = append(bs, *cur)
			cur = nil
		case cur != nil:
			cur.body += l + "\n"
		}
	}
	return bs
}

// imports maps the package names the pages use to their import paths: the
// kit's packages by the name of their directory, and the standard library's.
var imports = map[string]string{
	"bufio": "bufio", "bytes": "bytes", "errors": "errors", "filepath": "path/filepath",
	"fmt": "fmt", "image": "image", "io": "io", "iter": "iter", "json": "encoding/json", "log": "log", "maps": "maps", "math": "math",
	"os": "os", "rand": "math/rand/v2", "slices": "slices", "sort": "sort",
	"strconv": "strconv", "strings": "strings", "sync": "sync", "time": "time",
}

func init() {
	for _, dir := range []string{"arraycontainer", "augment", "batchview", "container", "convert", "csvdata",
		"datasets", "eachobs", "gomlx", "idx", "imagecodec", "imagecodec/turbo", "imagedata", "index", "mix", "npy", "obsdim",
		"provider", "recordio", "stream", "subset", "transform", "tuples", "columnar/arrowipc", "columnar/parquet"} {
		imports[filepath.Base(dir)] = "github.com/obskit/obskit/" + dir
	}
	// GoMLX's packages (v0.28), for the pages that train with the gomlx
	// module without spelling their imports.
	for _, dir := range []string{"core/graph", "core/tensors", "ml/model", "ml/layers", "ml/layers/activation",
		"ml/train", "ml/train/loss", "ml/train/metric", "ml/train/optimizer"} {
		imports[filepath.Base(dir)] = "github.com/gomlx/gomlx/" + dir
	}
	for _, dir := range []string{"gobackend", "dtypes"} {
		imports[dir] = "github.com/gomlx/compute/" + dir
	}
}

// TestPages runs the code the pages show. Every ```go block of docs/*.md is
// source: the blocks of a page, with the imports their package names call for,
// make one test file, and a block that starts with its own import
// declaration (a whole program, as a reader copies it) is a file of its own
// with those imports alone; go test runs them in a module of its own, so that
// what a page shows compiles and every Example prints what its // Output: says.
// A page that shows Go shows at least one Example, and every Example has an
// Output comment (or it would compile and never run). Errors name the page and
// its line (//line directives). The README's program is run by TestReadme.
func TestPages(t *testing.T) {
	// The module is a directory of the repository's root, as docs is, so that a
	// page's relative paths (../imagedata/testdata) mean what they mean here;
	// go's ./... skips directories whose name starts with a dot.
	dir, err := os.MkdirTemp(root, ".pages-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	pages := 0
	for _, p := range readPages(t) {
		var src strings.Builder
		for _, b := range blocks(p) {
			switch {
			case b.lang == "go" && strings.HasPrefix(b.body, "import"):
				if p.path == "README.md" {
					continue
				}
				file, err := wholeFile(p.path, b)
				if err != nil {
					t.Error(err)
					continue
				}
				name := fmt.Sprintf("%s_%d_test.go", strings.TrimSuffix(filepath.Base(p.path), ".md"), b.line)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(file), 0o644); err != nil {
					t.Fatal(err)
				}
			case b.lang == "go":
				fmt.Fprintf(&src, "//line %s:%d\n%s\n", p.path, b.line, b.body)
			case b.lang == "text", b.lang == "sh", b.lang == "python", b.lang == "julia":
			default:
				t.Errorf("%s:%d: a block tagged %q; tag it go, text, sh, python or julia", p.path, b.line-1, b.lang)
			}
		}
		if src.Len() == 0 || p.path == "README.md" {
			continue
		}
		file, err := pageFile(p.path, src.String())
		if err != nil {
			t.Error(err)
			continue
		}
		pages++
		name := strings.TrimSuffix(filepath.Base(p.path), ".md") + "_test.go"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if pages < 10 {
		t.Fatalf("%d pages with Go found; the test no longer reads the guide", pages)
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	mod = []byte(strings.ReplaceAll(strings.Replace(string(mod), "module github.com/obskit/obskit/docs", "module pages", 1), "=> ../", "=> "+abs+"/"))
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"test", "-count=1"}
	if raceEnabled { // the packages are then in the build cache already
		// As make test builds GoMLX's pure-Go backend for -race: without
		// checkptr, which its matmul kernels fail (see the Makefile).
		args = append(args, "-race", "-gcflags=github.com/gomlx/compute/...=-d=checkptr=0")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir, cmd.Env = dir, goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go test of the pages' code: %v\n%s", err, out)
	}
}

// wholeFile returns the test file of a block of the page at path that spells
// its imports: the block as it is, in the package of the pages' tests. It
// holds at least one Example with an Output comment, as a page does.
func wholeFile(path string, b block) (string, error) {
	src := fmt.Sprintf("package docs_test\n\n//line %s:%d\n%s", path, b.line, b.body)
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	examples := doc.Examples(f)
	if len(examples) == 0 {
		return "", fmt.Errorf("%s:%d: a whole program with no Example: nothing would run it", path, b.line)
	}
	for _, ex := range examples {
		if ex.Output == "" && !ex.EmptyOutput {
			return "", fmt.Errorf("%s:%d: Example%s has no // Output: comment, so go test would not run it", path, b.line, ex.Suffix)
		}
	}
	return src, nil
}

// pageFile returns the test file of the page at path whose Go blocks are src.
func pageFile(path, src string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, "package docs_test\n"+src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	examples := doc.Examples(f)
	if len(examples) == 0 {
		return "", fmt.Errorf("%s: shows Go but no Example: nothing would run it", path)
	}
	for _, ex := range examples {
		if ex.Output == "" && !ex.EmptyOutput {
			return "", fmt.Errorf("%s: Example%s has no // Output: comment, so go test would not run it", path, ex.Suffix)
		}
	}
	var used []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && id.Obj == nil && !slices.Contains(used, id.Name) {
				used = append(used, id.Name)
			}
		}
		return true
	})
	var b strings.Builder
	b.WriteString("package docs_test\n\nimport (\n")
	slices.Sort(used)
	for _, name := range used {
		imp, ok := imports[name]
		if !ok {
			return "", fmt.Errorf("%s: package %s is not in the imports map of pages_test.go", path, name)
		}
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	return b.String() + ")\n\n" + src, nil
}

// goEnv returns the environment of the go commands the tests run: this one,
// without GOFLAGS and GOWORK, which would change what a user's commands do.
func goEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOWORK=")
	})
}
