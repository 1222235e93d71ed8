// Package docs holds the examples the guide shows (the Markdown pages in this
// directory and the repository's README.md) and the tests that keep the pages
// true to them. The reference itself is the package documentation of the kit;
// the pages link into it.
//
// The package has no API. Its files are:
//
//   - *_test.go but the checker's: the guide's examples, as testable examples
//     (func Example_xxx with an // Output: comment) that go test compiles and
//     runs, comparing what they print;
//   - quickstart/: the program the README shows, with the example that runs it;
//   - doccheck_test.go: the code blocks are their source;
//   - inference_test.go: the code shown spells no type argument Go can infer
//     and asserts no type;
//   - links_test.go: the links reach their targets;
//   - checker_test.go and testdata/: the tests of those three.
//
// # The rule
//
// Every fenced block in a page carries a language tag. A ```go block is
// preceded, on the line just above its fence, by a marker naming its source:
//
//	<!-- code: docs/split_test.go Example_stratifiedSplit -->
//	<!-- code: docs/quickstart/main.go -->
//
// The first form names a file and one or more top-level declarations in it
// (a function, a type, T.Method for a method), shown one after another with a
// blank line between; the second shows the whole file. A ```text block under
//
//	<!-- output: docs/quickstart/main_test.go Example -->
//
// must equal that example's // Output: comment. The checker fails when a block
// differs from its source by a single byte, when a go block has no marker,
// when a shown Example has no // Output: comment (so every example shown
// runs), when an example in this directory is shown nowhere, and when a block
// has no language tag or one other than go, text (output, tables), sh
// (commands), python or julia (other libraries' code, for comparison).
//
// The code shown may spell type arguments only in calls of the functions Go
// cannot infer them for (noInference: a file's element type, a shape's, a
// cast's target), and no type assertion.
//
// Every relative link must reach a file of the repository (and a heading, for
// an #anchor into a Markdown page), and every link to
// https://pkg.go.dev/github.com/obskit/obskit/... a package directory of the
// repository (and an exported name, Type.Method, Type.Field or a heading's
// hdr- anchor of its documentation).
//
// The prose is not checked: a test cannot tell a true sentence from a false
// one, so the pages keep their prose short and link to the package
// documentation for the rules.
//
// # Changing an example
//
// Edit the source, run go test, then rewrite the pages from it:
//
//	go test -C docs -run TestCodeBlocks -update
package docs
