package docs_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	linkRE  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenceRE = regexp.MustCompile("(?s)```.*?\n```")
	codeRE  = regexp.MustCompile("(?s)```.*?\n```|`[^`]+`") // fenced blocks and code spans
)

// godocURL is the kit's documentation on pkg.go.dev.
const godocURL = "https://pkg.go.dev/github.com/obskit/obskit"

// TestLinks checks that every link of the pages reaches its target: a relative
// link a file of the repository and, with an #anchor into a Markdown page, one of
// its headings; a link to the kit on pkg.go.dev a package of the repository and,
// with an #anchor, a name, Type.Method, Type.Field or heading of its
// documentation. Links in code are not links; the rest of the web is not checked.
func TestLinks(t *testing.T) {
	anchors := map[string]map[string]bool{} // by page path, or godocURL/dir
	checked := 0
	for _, p := range readPages(t) {
		// Code is blanked out, keeping its newlines, so that line numbers hold.
		text := codeRE.ReplaceAllStringFunc(p.text, func(s string) string {
			if !strings.HasPrefix(s, "```") && strings.Contains(s, "\n\n") {
				return s // not a span: a span ends with its paragraph
			}
			return strings.Map(func(r rune) rune { return map[bool]rune{true: '\n', false: ' '}[r == '\n'] }, s)
		})
		for i, l := range strings.Split(text, "\n") {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				file, anchor, _ := strings.Cut(m[1], "#")
				key, err := "", error(nil)
				switch {
				case file == godocURL || strings.HasPrefix(file, godocURL+"/"):
					key = file
					if anchors[key] == nil {
						anchors[key], err = godocAnchors(strings.TrimPrefix(strings.TrimPrefix(file, godocURL), "/"))
					}
				case strings.Contains(file, "://"):
					continue
				default:
					key = p.path
					if file != "" {
						key = filepath.ToSlash(filepath.Join(filepath.Dir(p.path), file))
						_, err = os.Stat(filepath.Join(root, key))
					}
					if err == nil && anchors[key] == nil && strings.HasSuffix(key, ".md") {
						anchors[key], err = headings(key)
					}
				}
				checked++
				if err == nil && anchor != "" && !anchors[key][anchor] {
					err = fmt.Errorf("no anchor #%s there", anchor)
				}
				if err != nil {
					t.Errorf("%s:%d: link to %s: %v", p.path, i+1, m[1], err)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("%d links checked: the test no longer finds the pages' links", checked)
	}
}

// headings returns the anchors GitHub gives the headings of the page at path:
// lower case, punctuation other than '-' and '_' dropped, spaces made '-', and
// -1, -2... for repeats.
func headings(path string) (map[string]bool, error) {
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, err
	}
	hs, seen := map[string]bool{}, map[string]int{}
	for _, l := range strings.Split(fenceRE.ReplaceAllString(string(b), ""), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		slug := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return r
			}
			return -1
		}, strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#"))))
		if n := seen[slug]; n > 0 {
			hs[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			hs[slug] = true
		}
		seen[slug]++
	}
	return hs, nil
}

// godocAnchors returns the anchors pkg.go.dev gives the documentation of the
// package in dir (relative to root): exported names, Type.Method, Type.Field and
// the hdr- anchors of the package comment's headings.
func godocAnchors(dir string) (map[string]bool, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(root, dir, name), nil, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no package in %s", dir)
	}
	d, err := doc.NewFromFiles(fset, files, "github.com/obskit/obskit/"+dir)
	if err != nil {
		return nil, err
	}
	as := map[string]bool{}
	add := func(prefix string, vs []*doc.Value, fs []*doc.Func) {
		for _, v := range vs {
			for _, n := range v.Names {
				as[n] = true
			}
		}
		for _, f := range fs {
			as[prefix+f.Name] = true
		}
	}
	add("", append(d.Consts, d.Vars...), d.Funcs)
	for _, t := range d.Types {
		as[t.Name] = true
		add("", append(t.Consts, t.Vars...), t.Funcs)
		add(t.Name+".", nil, t.Methods)
		ast.Inspect(t.Decl, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok {
				for _, name := range f.Names {
					as[t.Name+"."+name.Name] = true
				}
			}
			return true
		})
	}
	for _, b := range new(comment.Parser).Parse(d.Doc).Content {
		if h, ok := b.(*comment.Heading); ok {
			as[h.DefaultID()] = true
		}
	}
	return as, nil
}
