package docs_test

// The rule of the code the pages show: no type argument and no type assertion,
// except where Go cannot infer at all.

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"
)

// noInference names the functions of the kit that Go cannot infer a type
// argument for, since none of their arguments has the type: the element type
// of an array made from a shape or read from a file, the target type of a
// cast. They are the only calls the pages may show with a type argument, and
// docs/README.md lists them.
var noInference = map[string]bool{
	"arraycontainer.Zeros": true,
	"convert.Cast":         true,
	"csvdata.Load":         true, "csvdata.Read": true,
	"idx.Open": true, "idx.Load": true, "idx.Read": true, "idx.LoadWith": true, "idx.ReadWith": true,
	"npy.Open": true, "npy.Load": true, "npy.Read": true,
}

// kitPath is the import path of the kit's root package.
const kitPath = "github.com/obskit/obskit"

// explicitTypes returns an error for every call in nodes, declarations of src,
// that spells type arguments of a function of the kit other than those of
// noInference or of a generic function of src, and for every type assertion.
// A call's type arguments are recognized by syntax: an index expression on a
// function of an imported obskit package, or on a generic function declared
// in src, that is called.
func explicitTypes(src *source, nodes []ast.Node) (errs []string) {
	kit := map[string]bool{} // names of the imported packages of the kit
	for _, imp := range src.file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != kitPath && !strings.HasPrefix(path, kitPath+"/") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		kit[name] = true
	}
	generic := map[string]bool{} // generic functions of src
	for _, d := range src.file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Type.TypeParams != nil {
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
					if pkg, ok := f.X.(*ast.Ident); ok && kit[pkg.Name] {
						name = pkg.Name + "." + f.Sel.Name
					}
				case *ast.Ident:
					if generic[f.Name] {
						name = f.Name
					}
				}
				if name != "" && !noInference[name] {
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
