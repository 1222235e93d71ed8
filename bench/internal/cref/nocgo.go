//go:build !cgo || !(amd64 || arm64)

package cref

// Available reports whether the C reference was built: it needs cgo and a C
// compiler, as go test -race does, and a 64-bit int (amd64, arm64), which
// the C code reads the indices as.
const Available = false

// Rows panics: the C reference needs cgo.
func Rows(dst, src []byte, n, stride int, idx []int, ahead int) { panic(unavailable) }

// Cursor panics: the C reference needs cgo.
func Cursor(dst, src []byte, n, stride int, idx []int, dist int, r Routine) { panic(unavailable) }

const unavailable = "obskit/bench/internal/cref: built without cgo (CGO_ENABLED=0 or no C compiler)"
