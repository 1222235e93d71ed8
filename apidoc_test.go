package obskit_test

// The rule of the standards that go doc of every package reads as a guide.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAPIDocumented checks that each package of the library module (internal
// ones included; the nested modules of commands, benchmarks and the guide are
// not the library) has a package comment, and that every exported function,
// method, type, variable and constant has a doc comment (a const or var group
// may share one; a method of an unexported type needs none). It checks that the
// comments are there, not what they say.
func TestAPIDocumented(t *testing.T) {
	pkgDoc := map[string]bool{} // by package directory
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		pkgDoc[dir] = pkgDoc[dir] || file.Doc != nil
		for _, name := range undocumented(file) {
			t.Errorf("%s: exported %s has no doc comment", filepath.ToSlash(path), name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range slices.Sorted(maps.Keys(pkgDoc)) {
		if !pkgDoc[dir] {
			t.Errorf("%s: package has no package comment (doc.go)", dir)
		}
	}
	// The walk reached the packages, internal ones included, and left the
	// nested modules out.
	for dir, want := range map[string]bool{"container": true, "subset": true, "internal/pipeline": true, "cmd/obskit-bench": false, "arraycontainer/dense": false} {
		if _, checked := pkgDoc[dir]; checked != want {
			t.Errorf("package %s checked: %v, want %v", dir, checked, want)
		}
	}
}

// undocumented returns the exported declarations of f without a doc comment.
func undocumented(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				names = append(names, recv+"."+d.Name.Name)
				continue
			}
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && d.Doc == nil && s.Doc == nil {
						names = append(names, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && d.Doc == nil && s.Doc == nil && s.Comment == nil {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// receiverName returns the type name of a method's receiver: T of T, *T, T[E]
// and *T[E].
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
