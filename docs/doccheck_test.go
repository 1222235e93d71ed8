package docs_test

// The checker of the code blocks: see the package comment (doc.go) for the rule.

import (
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the go and output blocks of the Markdown pages from their source")

// root is the repository root, seen from this package's directory (go test runs
// the test binary there).
const root = ".."

// notGo are the language tags of blocks that are shown but not compiled.
var notGo = []string{"julia", "python", "sh", "text"}

var (
	codeRE   = regexp.MustCompile(`^<!-- code: (\S+)((?: \S+)*) -->$`)
	outputRE = regexp.MustCompile(`^<!-- output: (\S+) (Example\w*) -->$`)
)

// A page is one Markdown file.
type page struct {
	path  string // relative to root, with slashes
	lines []string
}

// A block is one fenced code block of a page.
type block struct {
	fence, close int    // indices in page.lines of the opening and closing fences
	lang         string // the tag after the opening fence
	marker       string // the line above the fence when it is a code or output marker
}

// readPages reads README.md and every docs/*.md.
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
		ps = append(ps, page{filepath.ToSlash(rel), strings.Split(string(b), "\n")})
	}
	return ps
}

// blocks returns the fenced blocks of p. Fences start at column 0 with three
// backticks; a fence that is indented or never closed is an error.
func blocks(p page) (bs []block, errs []string) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if !strings.HasPrefix(l, "```") {
			if strings.HasPrefix(strings.TrimLeft(l, " \t"), "```") {
				errs = append(errs, fmt.Sprintf("%s:%d: indented fence; fences start at column 0", p.path, i+1))
			}
			continue
		}
		b := block{fence: i, close: -1, lang: strings.TrimSpace(l[3:])}
		if i > 0 && (codeRE.MatchString(p.lines[i-1]) || outputRE.MatchString(p.lines[i-1])) {
			b.marker = p.lines[i-1]
		}
		for j := i + 1; j < len(p.lines) && b.close < 0; j++ {
			if strings.TrimRight(p.lines[j], " ") == "```" {
				b.close = j
			}
		}
		if b.close < 0 {
			return bs, append(errs, fmt.Sprintf("%s:%d: fence never closed", p.path, i+1))
		}
		bs = append(bs, b)
		i = b.close
	}
	return bs, errs
}

// A source is a Go file parsed once.
type source struct {
	path string
	text []byte
	fset *token.FileSet
	file *ast.File
}

// sources caches the files the markers name, by path relative to root.
type sources map[string]*source

func (s sources) get(path string) (*source, error) {
	if src, ok := s[path]; ok {
		return src, nil
	}
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, text, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(f.Comments, func(cg *ast.CommentGroup) bool { return strings.HasPrefix(cg.List[0].Text, "//go:build") }) {
		return nil, fmt.Errorf("%s has a build constraint; the pages show only code that every go test compiles", path)
	}
	s[path] = &source{path, text, fset, f}
	return s[path], nil
}

// decl returns the top-level declaration name of src and its text: a function,
// a type, a variable or constant declared alone, or T.M for a method M of T.
func (src *source) decl(name string) (ast.Decl, string, error) {
	recv, fn, isMethod := strings.Cut(name, ".")
	if !isMethod {
		fn = name
	}
	for _, d := range src.file.Decls {
		match := false
		switch d := d.(type) {
		case *ast.FuncDecl:
			match = d.Name.Name == fn && (d.Recv != nil) == isMethod && (!isMethod || receiverName(d.Recv.List[0].Type) == recv)
		case *ast.GenDecl:
			if !isMethod && len(d.Specs) == 1 {
				switch s := d.Specs[0].(type) {
				case *ast.TypeSpec:
					match = s.Name.Name == name
				case *ast.ValueSpec:
					match = len(s.Names) == 1 && s.Names[0].Name == name
				}
			}
		}
		if match {
			return d, text(src, d), nil
		}
	}
	return nil, "", fmt.Errorf("no declaration %s in %s", name, src.path)
}

// receiverName returns the name of the type of a method's receiver, through
// pointers and type parameters.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// output returns the // Output: comment of the example name of src.
func (src *source) output(name string) (string, error) {
	for _, ex := range doc.Examples(src.file) {
		if "Example"+ex.Name == name {
			if ex.Output == "" && !ex.EmptyOutput {
				return "", fmt.Errorf("%s in %s has no // Output: comment, so go test does not run it", name, src.path)
			}
			return strings.TrimRight(ex.Output, "\n"), nil
		}
	}
	return "", fmt.Errorf("no example %s in %s", name, src.path)
}

// code returns the text a go block under the code marker m must hold, the
// nodes it shows, and the examples among them (as "path name").
func (s sources) code(m string) (src *source, text string, nodes []ast.Node, examples []string, err error) {
	sub := codeRE.FindStringSubmatch(m)
	if src, err = s.get(sub[1]); err != nil {
		return nil, "", nil, nil, err
	}
	names := strings.Fields(sub[2])
	if len(names) == 0 {
		return src, strings.TrimRight(string(src.text), "\n"), []ast.Node{src.file}, nil, nil
	}
	var parts []string
	for _, n := range names {
		d, t, err := src.decl(n)
		if err != nil {
			return nil, "", nil, nil, err
		}
		if strings.HasPrefix(n, "Example") {
			if _, err := src.output(n); err != nil {
				return nil, "", nil, nil, err
			}
			examples = append(examples, src.path+" "+n)
		}
		parts, nodes = append(parts, t), append(nodes, d)
	}
	return src, strings.Join(parts, "\n\n"), nodes, examples, nil
}

// TestCodeBlocks checks that every go block of the pages is its source and
// every output block its example's output, that the code shown spells type
// arguments only where Go cannot infer them, and that every example of this
// directory is shown. With -update it rewrites the blocks from their source.
func TestCodeBlocks(t *testing.T) {
	srcs, shown := sources{}, map[string]bool{}
	for _, p := range readPages(t) {
		errs, changed := checkPage(&p, srcs, shown, *update)
		for _, e := range errs {
			t.Error(e)
		}
		if changed {
			if err := os.WriteFile(filepath.Join(root, p.path), []byte(strings.Join(p.lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s from its sources", p.path)
		}
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i] = "docs/" + files[i]
	}
	for _, e := range unshown(srcs, files, shown) {
		t.Error(e)
	}
}

// unshown returns an error for every example of files (paths relative to
// root) that shown, filled by checkPage, does not hold.
func unshown(srcs sources, files []string, shown map[string]bool) (errs []string) {
	for _, f := range files {
		src, err := srcs.get(f)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, ex := range doc.Examples(src.file) {
			if !shown[f+" Example"+ex.Name] {
				errs = append(errs, fmt.Sprintf("%s: Example%s is shown on no page; show it or delete it", f, ex.Name))
			}
		}
	}
	return errs
}

// checkPage checks the blocks of p and returns what is wrong; it records the
// examples it shows in shown. With rewrite, a block that differs from its
// source is replaced by it in p.lines instead, and changed says so.
func checkPage(p *page, srcs sources, shown map[string]bool, rewrite bool) (errs []string, changed bool) {
	bs, errs := blocks(*p)
	for k := len(bs) - 1; k >= 0; k-- { // backwards, so that a rewrite keeps earlier lines in place
		b := bs[k]
		at := fmt.Sprintf("%s:%d", p.path, b.fence+1)
		isCode, isOutput := codeRE.MatchString(b.marker), outputRE.MatchString(b.marker)
		var want string
		var err error
		switch {
		case b.lang == "go" && isCode:
			var src *source
			var nodes []ast.Node
			var exs []string
			src, want, nodes, exs, err = srcs.code(b.marker)
			for _, e := range exs {
				shown[e] = true
			}
			if err == nil {
				for _, e := range explicitTypes(src, nodes) {
					errs = append(errs, at+": "+e)
				}
			}
		case b.lang == "text" && isOutput:
			sub := outputRE.FindStringSubmatch(b.marker)
			var src *source
			if src, err = srcs.get(sub[1]); err == nil {
				want, err = src.output(sub[2])
			}
		case b.marker != "":
			errs = append(errs, fmt.Sprintf("%s: %s above a %q block; a code marker goes above a go block, an output marker above a text block", at, b.marker, b.lang))
			continue
		case b.lang == "go":
			errs = append(errs, at+": go block without a <!-- code: FILE [NAME...] --> marker on the line above")
			continue
		case !slices.Contains(notGo, b.lang):
			errs = append(errs, fmt.Sprintf("%s: language tag %q; use go (under a code marker) or one of %v", at, b.lang, notGo))
			continue
		default:
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", at, err))
			continue
		}
		if got := strings.Join(p.lines[b.fence+1:b.close], "\n"); got != want {
			if rewrite {
				p.lines = slices.Replace(p.lines, b.fence+1, b.close, strings.Split(want, "\n")...)
				changed = true
				continue
			}
			errs = append(errs, fmt.Sprintf("%s: block differs from its source %s (-source +page):\n%s\nEdit the source, then run: go test -C docs -run TestCodeBlocks -update",
				at, strings.TrimSuffix(strings.TrimPrefix(b.marker, "<!-- "), " -->"), cmp.Diff(want, got)))
		}
	}
	if changed {
		bs, _ = blocks(*p)
	}
	for i, l := range p.lines {
		if (codeRE.MatchString(l) || outputRE.MatchString(l)) && !slices.ContainsFunc(bs, func(b block) bool { return b.fence == i+1 }) {
			errs = append(errs, fmt.Sprintf("%s:%d: marker not followed by a fence", p.path, i+1))
		}
	}
	return errs, changed
}
