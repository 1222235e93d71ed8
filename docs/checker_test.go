package docs_test

// Tests of the checker itself, on the files of testdata: each rule catches
// what it promises and passes what it should.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	shownT    = "type T struct{ n int }"
	shownGood = "func Example_good() {\n\tfmt.Println(\"hello\")\n\tfmt.Println(\"world\")\n\t// Output:\n\t// hello\n\t// world\n}"
)

// wantErrs checks that errs holds one error per want, in order, each
// containing its want.
func wantErrs(t *testing.T, errs, want []string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(want), strings.Join(errs, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(errs[i], w) {
			t.Errorf("error %d = %q, want it to contain %q", i, errs[i], w)
		}
	}
}

func TestCheckPage(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string // substrings of the errors, in order; none means clean
	}{
		{"go block equal to its source",
			"<!-- code: docs/testdata/shown.go T -->\n```go\n" + shownT + "\n```\n", nil},
		{"several declarations, a method among them, a blank line between",
			"<!-- code: docs/testdata/shown.go T T.Len Example_good -->\n```go\n" + shownT +
				"\n\nfunc (t T) Len() int { return t.n }\n\n" + shownGood + "\n```\n", nil},
		{"output block equal to the example's output",
			"<!-- output: docs/testdata/shown.go Example_good -->\n```text\nhello\nworld\n```\n", nil},
		{"a whole file",
			"<!-- code: docs/testdata/noout.go -->\n```go\npackage docs_test\n\n" +
				"// Example_noOutput has no output comment: the checker refuses to show it,\n" +
				"// since go test would compile it but not run it.\nfunc Example_noOutput() {}\n```\n", nil},
		{"blocks that are not Go",
			"```sh\nmake test\n```\n\n```text\nanything\n```\n\n```python\nimport numpy\n```\n", nil},
		{"go block that differs by one byte",
			"<!-- code: docs/testdata/shown.go T -->\n```go\n" + strings.Replace(shownT, "int", "int64", 1) + "\n```\n",
			[]string{"block differs from its source"}},
		{"output block that differs",
			"<!-- output: docs/testdata/shown.go Example_good -->\n```text\nhello\n```\n",
			[]string{"block differs from its source"}},
		{"go block without a marker",
			"```go\nfmt.Println(1)\n```\n", []string{"go block without a <!-- code"}},
		{"a blank line between marker and fence",
			"<!-- code: docs/testdata/shown.go T -->\n\n```go\n" + shownT + "\n```\n",
			[]string{"go block without", "marker not followed by a fence"}},
		{"block without a tag", "```\nx := 1\n```\n", []string{`language tag ""`}},
		{"unknown tag", "```rust\nfn main() {}\n```\n", []string{`language tag "rust"`}},
		{"code marker above a shell block",
			"<!-- code: docs/testdata/shown.go T -->\n```sh\nls\n```\n", []string{`above a "sh" block`}},
		{"output marker above a go block",
			"<!-- output: docs/testdata/shown.go Example_good -->\n```go\nx\n```\n", []string{`above a "go" block`}},
		{"marker naming no declaration",
			"<!-- code: docs/testdata/shown.go NoSuch -->\n```go\n```\n", []string{"no declaration NoSuch"}},
		{"marker naming no file",
			"<!-- code: docs/nosuch.go -->\n```go\n```\n", []string{"no such file"}},
		{"example without output",
			"<!-- code: docs/testdata/noout.go Example_noOutput -->\n```go\n```\n", []string{"has no // Output: comment"}},
		{"output marker naming an example without output",
			"<!-- output: docs/testdata/noout.go Example_noOutput -->\n```text\n```\n", []string{"has no // Output: comment"}},
		{"output marker naming no example",
			"<!-- output: docs/testdata/shown.go Example_nothing -->\n```text\n```\n", []string{"no example Example_nothing"}},
		{"file with a build constraint",
			"<!-- code: docs/testdata/constrained.go -->\n```go\n```\n", []string{"build constraint"}},
		{"type arguments Go infers, and a type assertion",
			"<!-- code: docs/testdata/shown.go Example_types -->\n```go\n```\n",
			[]string{"subset.Split[int, []int] spells type arguments", "sub.Of[int] spells", "double[int] spells", "type assertion a.(int)", "block differs"}},
		{"indented fence", "- item\n  ```go\n  x\n  ```\n", []string{"indented fence", "indented fence"}},
		{"unclosed fence", "```text\nnever closed\n", []string{"fence never closed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := page{path: "test.md", lines: strings.Split(tt.page, "\n")}
			errs, changed := checkPage(&p, sources{}, map[string]bool{}, false)
			if changed {
				t.Error("checkPage changed the page without rewrite")
			}
			wantErrs(t, errs, tt.want)
		})
	}
}

func TestCheckPageRewrite(t *testing.T) {
	p := page{path: "test.md", lines: strings.Split(
		"intro\n<!-- code: docs/testdata/shown.go T -->\n```go\nstale\nlines\n```\nmiddle\n"+
			"<!-- output: docs/testdata/shown.go Example_good -->\n```text\n```\nend", "\n")}
	errs, changed := checkPage(&p, sources{}, map[string]bool{}, true)
	if len(errs) != 0 || !changed {
		t.Fatalf("checkPage(rewrite) = %q, %v; want no errors and a change", errs, changed)
	}
	want := "intro\n<!-- code: docs/testdata/shown.go T -->\n```go\n" + shownT + "\n```\nmiddle\n" +
		"<!-- output: docs/testdata/shown.go Example_good -->\n```text\nhello\nworld\n```\nend"
	if diff := cmp.Diff(want, strings.Join(p.lines, "\n")); diff != "" {
		t.Errorf("rewritten page mismatch (-want +got):\n%s", diff)
	}
	if errs, changed := checkPage(&p, sources{}, map[string]bool{}, false); len(errs) != 0 || changed {
		t.Errorf("checkPage after rewrite = %q, %v; want clean", errs, changed)
	}
}

func TestUnshown(t *testing.T) {
	const file = "docs/testdata/noout.go"
	wantErrs(t, unshown(sources{}, []string{file}, map[string]bool{}), []string{"Example_noOutput is shown on no page"})
	wantErrs(t, unshown(sources{}, []string{file}, map[string]bool{file + " Example_noOutput": true}), nil)
}

func TestHeadings(t *testing.T) {
	p := page{lines: strings.Split("# Title\n## Batched containers and GetObsInto\n"+
		"## Labels: `tuples.Labels`\n```sh\n# not a heading\n```\n## Title\n## From PyTorch `torch.utils.data`", "\n")}
	want := map[string]bool{
		"title": true, "batched-containers-and-getobsinto": true, "labels-tupleslabels": true,
		"title-1": true, "from-pytorch-torchutilsdata": true,
	}
	if diff := cmp.Diff(want, headings(p)); diff != "" {
		t.Errorf("headings() mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckLinks(t *testing.T) {
	const pkg = "https://pkg.go.dev/github.com/obskit/obskit/docs/testdata/pkg"
	p := page{path: "docs/test.md", lines: strings.Split(
		"# Title\n"+
			"[a page](testdata/page.md), [a heading](testdata/page.md#a-page), [this page](#title), [a file](../Makefile), [the web](https://go.dev/x#nope).\n"+
			"[no file](nosuch.md) and [no heading](testdata/page.md#nosuch).\n"+
			"[no heading here](#nope); `[a span](nosuch.md)` is code, and so is `f(x)\n"+
			"[y](z)` over two lines.\n"+
			"```text\n[in a block](nosuch.md)\n```\n"+
			"["+"a package]("+pkg+"), [a function]("+pkg+"#Func), [a type]("+pkg+"#T), [a constructor]("+pkg+"#New),\n"+
			"[a method]("+pkg+"#T.Method), [a field]("+pkg+"#T.Field), [an interface method]("+pkg+"#I.Do), [a constant]("+pkg+"#B),\n"+
			"[a heading]("+pkg+"#hdr-A_heading__with_punctuation).\n"+
			"[unexported]("+pkg+"#unexported), [a hidden field]("+pkg+"#T.hidden), [no package](https://pkg.go.dev/github.com/obskit/obskit/nosuch#X).", "\n")}
	errs, checked := checkLinks(p, newLinkCache())
	if checked != 19 {
		t.Errorf("checkLinks checked %d links, want 19 (all but the web's)", checked)
	}
	wantErrs(t, errs, []string{
		"docs/test.md:3: link to nosuch.md",
		"docs/test.md:3: link to testdata/page.md#nosuch: no anchor #nosuch",
		"docs/test.md:4: link to #nope: no anchor #nope",
		"docs/test.md:12: link to " + pkg + "#unexported: no anchor",
		"docs/test.md:12: link to " + pkg + "#T.hidden: no anchor",
		"docs/test.md:12: link to https://pkg.go.dev/github.com/obskit/obskit/nosuch#X",
	})
}

// A page the cache was given is not read again: its anchors are those of the
// text given, not of its file.
func TestLinkCache(t *testing.T) {
	c := newLinkCache(page{path: "docs/testdata/page.md", lines: []string{"# Another title"}})
	p := page{path: "docs/test.md", lines: []string{"[given](testdata/page.md#another-title), [on disk](testdata/page.md#a-page)"}}
	errs, checked := checkLinks(p, c)
	if checked != 2 {
		t.Errorf("checkLinks checked %d links, want 2", checked)
	}
	wantErrs(t, errs, []string{"link to testdata/page.md#a-page: no anchor #a-page"})
}

// inferable's answers are the compiler's (go vet of a call without type
// arguments said which it infers).
func TestInferable(t *testing.T) {
	for decl, want := range map[string]bool{
		"func A[E any](x E)":                                 true,
		"func B[E any]() E":                                  false,
		"func C[E Number](shape []int) *Array[E]":            false,
		"func D[To, From Number](c Batched[From]) To":        false,
		"func E[T any](xs []T, f func(T) bool)":              true,
		"func F[K comparable, V any](m map[K]V)":             true,
		"func G[S ~[]E, E any](s S)":                         true,  // E from S's constraint
		"func H[T any, U interface{ Get() T }](u U)":         true,  // from its methods too
		"func I[T any, U interface{ ~[]T | ~[]int }](u U)":   false, // not from a union
		"func J[E any, S []E](e E) S":                        true,  // S is []E
		"func K[E any, S interface{ []E }](e E) S":           true,
		"func L[E any, S ~[]E](e E) S":                       false, // any slice type of E
		"func M[E any, S interface{ ~[]E | ~[]int }](e E) S": false,
		"func N[E any, S interface{ Len() E }](e E) S":       false,
		"func O(x int)":                                      true,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decl+" {}", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := inferable(f.Decls[0].(*ast.FuncDecl)); got != want {
			t.Errorf("inferable(%s) = %v, want %v", decl, got, want)
		}
	}
}
