package docs_test

// The check of the links: every link of the pages reaches its target.

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
	"slices"
	"strings"
	"testing"
	"unicode"
)

var (
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	spanRE = regexp.MustCompile("`[^`]+`")
)

// godocURL is the address of the kit's documentation on pkg.go.dev; a link
// below it names a package directory of the repository and, after #, a name
// or heading of that package's documentation.
const godocURL = "https://pkg.go.dev/" + kitPath

// TestLinks checks that every link of the pages reaches its target: a relative
// link a file of the repository and, with an #anchor into a Markdown page, one
// of its headings; a link to the kit on pkg.go.dev a package of the repository
// and, with an #anchor, a name or a heading of its documentation.
func TestLinks(t *testing.T) {
	pages := readPages(t)
	c := newLinkCache(pages...)
	checked := 0
	for _, p := range pages {
		errs, n := checkLinks(p, c)
		for _, e := range errs {
			t.Error(e)
		}
		checked += n
	}
	if checked == 0 {
		t.Error("no link checked: the checker no longer finds the pages' links")
	}
}

// linkCache holds the anchors of the targets read so far: of Markdown pages by
// path relative to root, of packages by directory relative to root.
type linkCache struct{ md, godoc map[string]map[string]bool }

// newLinkCache returns a cache that holds the anchors of the pages already
// read, so that links to them do not read them again.
func newLinkCache(pages ...page) linkCache {
	c := linkCache{md: map[string]map[string]bool{}, godoc: map[string]map[string]bool{}}
	for _, p := range pages {
		c.md[p.path] = headings(p)
	}
	return c
}

// checkLinks checks the relative and pkg.go.dev links of p and returns what is
// wrong and how many links it checked. Links in code blocks and code spans
// are not links.
func checkLinks(p page, c linkCache) (errs []string, checked int) {
	c.md[p.path] = headings(p) // its own text, whatever the file holds
	for i, l := range prose(p) {
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			target := m[1]
			file, anchor, _ := strings.Cut(target, "#")
			var anchors map[string]bool
			var err error
			switch {
			case file == godocURL || strings.HasPrefix(file, godocURL+"/"):
				anchors, err = c.godocAnchors(strings.TrimPrefix(strings.TrimPrefix(file, godocURL), "/"))
			case strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:"):
				continue // the rest of the web is not checked
			default:
				resolved := p.path
				if file != "" {
					resolved = filepath.ToSlash(filepath.Join(filepath.Dir(p.path), file))
					_, err = os.Stat(filepath.Join(root, resolved))
				}
				if err == nil && anchor != "" && strings.HasSuffix(resolved, ".md") {
					anchors, err = c.mdAnchors(resolved)
				}
			}
			checked++
			switch {
			case err != nil:
				errs = append(errs, fmt.Sprintf("%s:%d: link to %s: %v", p.path, i+1, target, err))
			case anchor != "" && anchors != nil && !anchors[anchor]:
				errs = append(errs, fmt.Sprintf("%s:%d: link to %s: no anchor #%s there", p.path, i+1, target, anchor))
			}
		}
	}
	return errs, checked
}

// outsideBlocks returns the lines of p with fenced blocks blanked out.
func outsideBlocks(p page) []string {
	bs, _ := blocks(p)
	text := slices.Clone(p.lines)
	for _, b := range bs {
		for i := b.fence; i <= b.close; i++ {
			text[i] = ""
		}
	}
	return text
}

// prose returns the lines of p with fenced blocks and code spans (which may
// run over several lines of a paragraph) blanked out.
func prose(p page) []string {
	joined := spanRE.ReplaceAllStringFunc(strings.Join(outsideBlocks(p), "\n"), func(s string) string {
		if strings.Contains(s, "\n\n") { // not a span: spans end with their paragraph
			return s
		}
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	})
	return strings.Split(joined, "\n")
}

// mdAnchors returns the heading anchors of the Markdown page at path, read
// from its file unless the cache holds them.
func (c linkCache) mdAnchors(path string) (map[string]bool, error) {
	if hs, ok := c.md[path]; ok {
		return hs, nil
	}
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, err
	}
	c.md[path] = headings(page{path, strings.Split(string(b), "\n")})
	return c.md[path], nil
}

// headings returns the anchors GitHub gives the headings of p: lower case,
// punctuation other than '-' and '_' removed, spaces turned into '-', and a
// -1, -2... suffix for repeats.
func headings(p page) map[string]bool {
	hs, seen := map[string]bool{}, map[string]int{}
	for _, l := range outsideBlocks(p) {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#"))) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		s := slug.String()
		if n := seen[s]; n > 0 {
			hs[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			hs[s] = true
		}
		seen[s]++
	}
	return hs
}

// godocAnchors returns the anchors pkg.go.dev gives the documentation of the
// package in dir (relative to root): its exported names, Type.Method and
// Type.Field, and the hdr- anchors of the headings of its package comment.
func (c linkCache) godocAnchors(dir string) (map[string]bool, error) {
	if as, ok := c.godoc[dir]; ok {
		return as, nil
	}
	fset, files, err := packageFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no package in %s", filepath.Join(root, dir))
	}
	d, err := doc.NewFromFiles(fset, files, kitPath+"/"+dir)
	if err != nil {
		return nil, err
	}
	as := map[string]bool{}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				as[n] = true
			}
		}
	}
	funcs := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			as[prefix+f.Name] = true
		}
	}
	values(d.Consts)
	values(d.Vars)
	funcs("", d.Funcs)
	for _, t := range d.Types {
		as[t.Name] = true
		values(t.Consts)
		values(t.Vars)
		funcs("", t.Funcs)
		funcs(t.Name+".", t.Methods)
		for _, s := range t.Decl.Specs {
			var fields *ast.FieldList
			switch x := s.(*ast.TypeSpec).Type.(type) {
			case *ast.StructType:
				fields = x.Fields
			case *ast.InterfaceType:
				fields = x.Methods
			}
			for _, f := range fieldList(fields) {
				for _, n := range f.Names {
					as[t.Name+"."+n.Name] = true
				}
			}
		}
	}
	var pr comment.Parser
	for _, b := range pr.Parse(d.Doc).Content {
		if h, ok := b.(*comment.Heading); ok {
			as[h.DefaultID()] = true
		}
	}
	c.godoc[dir] = as
	return as, nil
}

// packageFiles parses the files of the package in dir (relative to root),
// its tests left out; it returns none for a command or a directory without
// Go files.
func packageFiles(dir string) (*token.FileSet, []*ast.File, error) {
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		if f.Name.Name == "main" {
			return fset, nil, nil
		}
		files = append(files, f)
	}
	return fset, files, nil
}

func fieldList(fl *ast.FieldList) []*ast.Field {
	if fl == nil {
		return nil
	}
	return fl.List
}
