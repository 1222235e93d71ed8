package docs_test

// The rule of the code the pages show: no type argument and no type assertion,
// except where Go cannot infer at all.

import (
	"fmt"
	"go/ast"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// noInference returns the functions of the kit that Go cannot infer a type
// argument for, by import path and name ("github.com/obskit/obskit/npy.Open"):
// those with a type parameter that Go cannot infer from the arguments (see
// inferable), such as the element type of an array made from a shape or read
// from a file, or the target type of a cast. They are the only calls of the
// kit the pages may show with a type argument, and docs/README.md lists them.
// Internal packages, which the pages do not call, are left out.
var noInference = sync.OnceValues(func() (map[string]bool, error) {
	fns := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "internal") {
			return filepath.SkipDir
		}
		dir, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		_, files, err := packageFiles(dir)
		if err != nil {
			return err
		}
		pkg := kitPath
		if dir != "." {
			pkg += "/" + filepath.ToSlash(dir)
		}
		for _, f := range files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() && !inferable(fn) {
					fns[pkg+"."+fn.Name.Name] = true
				}
			}
		}
		return nil
	})
	return fns, err
})

// inferable reports whether Go can infer every type parameter of f from the
// arguments of a call: each must appear in the type of a parameter; or in the
// constraint of a type parameter that can be inferred, outside a union (from
// S ~[]E, E); or have for constraint an exact type whose type parameters can
// all be inferred (S []E from E; not S ~[]E, which many types satisfy).
func inferable(f *ast.FuncDecl) bool {
	constraints := map[string]ast.Expr{}
	for _, field := range fieldList(f.Type.TypeParams) {
		for _, n := range field.Names {
			constraints[n.Name] = field.Type
		}
	}
	// mentions returns the type parameters n mentions outside unions.
	mentions := func(n ast.Node) (ps []string) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				return n.Op != token.OR
			case *ast.Ident:
				if constraints[n.Name] != nil {
					ps = append(ps, n.Name)
				}
			}
			return true
		})
		return ps
	}
	known := map[string]bool{}
	for _, p := range mentions(f.Type.Params) {
		known[p] = true
	}
	for changed := true; changed; {
		changed = false
		for p, c := range constraints {
			in := mentions(c)
			switch {
			case known[p]:
				for _, q := range in {
					if !known[q] {
						known[q], changed = true, true
					}
				}
			case exactType(c) && !slices.ContainsFunc(in, func(q string) bool { return !known[q] }):
				known[p], changed = true, true
			}
		}
	}
	return len(known) == len(constraints)
}

// exactType reports whether a constraint is one type, a type literal or an
// interface of that alone, which a type argument must be, rather than ~T, an
// interface of methods or a union, which many types satisfy (or a name, which
// the syntax does not tell).
func exactType(c ast.Expr) bool {
	switch c := c.(type) {
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StarExpr:
		return true
	case *ast.InterfaceType:
		l := fieldList(c.Methods)
		return len(l) == 1 && len(l[0].Names) == 0 && exactType(l[0].Type)
	}
	return false
}

// kitPath is the import path of the kit's root package.
const kitPath = "github.com/obskit/obskit"

// explicitTypes returns an error for every call in nodes, declarations of src,
// that spells type arguments Go infers, of a function of the kit (but those of
// noInference) or of a generic function of src, and for every type assertion.
// A call's type arguments are recognized by syntax: an index expression on a
// function of an imported obskit package, or on a generic function declared
// in src, that is called.
func explicitTypes(src *source, nodes []ast.Node) (errs []string) {
	noInfer, err := noInference()
	if err != nil {
		return []string{fmt.Sprintf("%s: the functions Go cannot infer: %v", src.path, err)}
	}
	kit := map[string]string{} // import paths of the imported packages of the kit, by name
	for _, imp := range src.file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != kitPath && !strings.HasPrefix(path, kitPath+"/") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		kit[name] = path
	}
	generic := map[string]bool{} // generic functions of src whose type arguments Go infers
	for _, d := range src.file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Type.TypeParams != nil && inferable(f) {
			generic[f.Name.Name] = true
		}
	}
	at := func(n ast.Node) string { return fmt.Sprintf("%s:%d", src.path, src.fset.Position(n.Pos()).Line) }
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type != nil { // x.(type) of a type switch has none
					errs = append(errs, fmt.Sprintf("%s: type assertion %s; the kit's types need none", at(n), text(src, n)))
				}
			case *ast.CallExpr:
				var fun ast.Expr
				switch f := n.Fun.(type) {
				case *ast.IndexExpr:
					fun = f.X
				case *ast.IndexListExpr:
					fun = f.X
				}
				name := ""
				switch f := fun.(type) {
				case *ast.SelectorExpr:
					if pkg, ok := f.X.(*ast.Ident); ok && kit[pkg.Name] != "" && !noInfer[kit[pkg.Name]+"."+f.Sel.Name] {
						name = pkg.Name + "." + f.Sel.Name
					}
				case *ast.Ident:
					if generic[f.Name] {
						name = f.Name
					}
				}
				if name != "" {
					errs = append(errs, fmt.Sprintf("%s: %s spells type arguments Go infers; drop them", at(n), text(src, n.Fun)))
				}
			}
			return true
		})
	}
	return errs
}

// text returns the source text of n.
func text(src *source, n ast.Node) string {
	return string(src.text[src.fset.Position(n.Pos()).Offset:src.fset.Position(n.End()).Offset])
}

// TestTypeArgumentsTable checks that the table of docs/README.md under "Type
// arguments" names exactly the functions of noInference.
func TestTypeArgumentsTable(t *testing.T) {
	fns, err := noInference()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for fn := range fns {
		want = append(want, fn[strings.LastIndex(fn, "/")+1:]) // npy.Open
	}
	pages := readPages(t)
	i := slices.IndexFunc(pages, func(p page) bool { return p.path == "docs/README.md" })
	if i < 0 {
		t.Fatal("no docs/README.md")
	}
	lines := pages[i].lines
	start := slices.Index(lines, "## Type arguments")
	if start < 0 {
		t.Fatal(`docs/README.md has no "## Type arguments" section`)
	}
	var got []string
	for _, l := range lines[start+1:] {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if cells := strings.Split(l, "|"); len(cells) > 2 && strings.HasPrefix(l, "| `") {
			for _, m := range tableCallRE.FindAllStringSubmatch(cells[1], -1) {
				got = append(got, m[1])
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("docs/README.md's table of the calls Go cannot infer names\n%v\nwant (the kit's functions with a type parameter no argument gives)\n%v", got, want)
	}
}

// tableCallRE matches the function a code span of the table names.
var tableCallRE = regexp.MustCompile("`([a-z]+\\.[A-Z][A-Za-z0-9]*)")
