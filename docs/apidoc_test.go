package docs_test

// The rule of the standards that go doc of every package reads as a guide.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAPIDocumented checks that each package of the repository (internal ones
// and the arraycontainer/dense module included; commands, which have no API,
// and the test-only packages of the nested modules excepted) has a package
// comment, and that every exported function, method, type, variable and
// constant has a doc comment (a const or var group may share one; a method of an
// unexported type needs none). It checks that the comments are there, not what
// they say.
func TestAPIDocumented(t *testing.T) {
	pkgDoc := map[string]bool{} // by package directory
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
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
		if file.Name.Name == "main" {
			return nil // commands have no API
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		path = rel
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
	// The walk reached the packages, internal ones and the gonum module
	// included, and left the commands out.
	for dir, want := range map[string]bool{"container": true, "subset": true, "internal/pipeline": true, "arraycontainer/dense": true, "cmd/obskit-bench": false} {
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
