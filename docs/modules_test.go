package docs_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A module is a Go module of the repository: its directory relative to root
// ("." for the root module) and its path.
type module struct {
	dir  string
	path string
}

// modules returns every module of the repository, found by its go.mod (those
// under testdata, which generate fixtures, left out).
func modules(t *testing.T) []module {
	t.Helper()
	var ms []module
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			if mod, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				ms = append(ms, module{filepath.ToSlash(rel), strings.Trim(strings.TrimSpace(mod), `"`)})
				return nil
			}
		}
		t.Errorf("%s: no module line", p)
		return s.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// owner returns the module of ms that holds the package at import path imp:
// the one with the longest path that is imp or a prefix of it; ok is false for
// a package of no module of the repository.
func owner(ms []module, imp string) (module, bool) {
	var best module
	for _, m := range ms {
		if (imp == m.path || strings.HasPrefix(imp, m.path+"/")) && len(m.path) > len(best.path) {
			best = m
		}
	}
	return best, best.path != ""
}

// tool reports whether the module in dir (relative to root) is one of the
// tools, which may use the root module's internal packages: the modules under
// cmd/ and bench/.
func tool(dir string) bool {
	for _, top := range []string{"cmd", "bench"} {
		if dir == top || strings.HasPrefix(dir, top+"/") {
			return true
		}
	}
	return false
}

// TestModulesUsePublicAPI checks that every nested module of the repository
// that is not a tool (columnar, gomlx, arraycontainer/dense, the object store,
// the docs module itself, and any module added later) imports no internal
// package of another module of the repository, in any of its files, tests and
// files of other platforms included: a separately versioned module must build
// against the root module's public API only (the root's internal/ packages are
// open to them by Go's rule, since their paths share its prefix). The tools
// under cmd/ and bench/ may use the internals.
func TestModulesUsePublicAPI(t *testing.T) {
	ms := modules(t)
	checked := map[string]bool{}
	for _, m := range ms {
		if m.dir == "." || tool(m.dir) {
			continue
		}
		checked[m.dir] = true
		err := filepath.WalkDir(filepath.Join(root, m.dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && filepath.Clean(p) != filepath.Join(root, m.dir) {
					return filepath.SkipDir // a module of its own, checked on its own
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				o, ok := owner(ms, imp)
				if !ok || o.path == m.path {
					continue
				}
				if slices.Contains(strings.Split(strings.TrimPrefix(imp, o.path), "/"), "internal") {
					t.Errorf("%s (module %s) imports %s, an internal package of module %s: use its public API (see the packages fileio, fileio/mmap, container/containertest)",
						filepath.ToSlash(rel), m.path, imp, o.path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]bool{"columnar": true, "gomlx": true, "docs": true, "cmd": false, "bench": false, "cmd/obskit-train": false} {
		if checked[dir] != want {
			t.Errorf("module %s checked: %v, want %v (the walk no longer finds the modules)", dir, checked[dir], want)
		}
	}
}
