package docs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestAPIDocumented checks that each package of the repository (internal ones
// and nested modules included; commands, which have no API, excepted) has a
// package comment, and that every exported function, method (of an exported
// type), type, variable and constant has a doc comment (a const or var group may
// share one). It checks that the comments are there, not what they say.
func TestAPIDocumented(t *testing.T) {
	pkgDoc := map[string]bool{} // by package directory
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || f.Name.Name == "main" || f.Name.Name == "ignore" {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		pkgDoc[dir] = pkgDoc[dir] || f.Doc != nil
		for _, decl := range f.Decls {
			var names []*ast.Ident
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Doc == nil && (d.Recv == nil || receiver(d.Recv.List[0].Type).IsExported()) {
					names = append(names, d.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if d.Doc == nil && s.Doc == nil {
							names = append(names, s.Name)
						}
					case *ast.ValueSpec:
						if d.Doc == nil && s.Doc == nil && s.Comment == nil {
							names = append(names, s.Names...)
						}
					}
				}
			}
			for _, n := range names {
				if n.IsExported() {
					t.Errorf("%s: exported %s has no doc comment", filepath.ToSlash(rel), n.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, documented := range pkgDoc {
		if !documented {
			t.Errorf("%s: package has no package comment (doc.go)", dir)
		}
	}
	for dir, want := range map[string]bool{"container": true, "internal/pipeline": true, "arraycontainer/dense": true, "cmd/obskit": false} {
		if _, checked := pkgDoc[dir]; checked != want {
			t.Errorf("package %s checked: %v, want %v (the walk no longer finds the packages)", dir, checked, want)
		}
	}
}

// receiver returns the name of the type of a method's receiver.
func receiver(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return ast.NewIdent("")
		}
	}
}
