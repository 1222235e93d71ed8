// Package docs holds the tests of the guide (the Markdown pages in this
// directory) and of the repository's README.md; it has no API. The pages'
// ```go blocks are the examples' only source: pages_test.go runs them,
// readme_test.go runs the README's setup and first program as written,
// links_test.go follows every link, and apidoc_test.go checks that every
// exported name of the kit has a doc comment. The guide's README.md says how.
package docs
