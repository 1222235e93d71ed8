//go:build !cgo || !(amd64 || arm64)

package cref

// Available reports whether the C reference was built: it needs cgo and a C
// compiler, as go test -race does, and a 64-bit int (amd64, arm64), which
// the C code reads the indices as.
const Available = false

// Rows panics: the C reference needs cgo.
func Rows(dst, src []byte, n, stride int, idx []int, ahead int) { panic(unavailable) }

// Cursor panics: the C reference needs cgo.
func Cursor(dst, src []byte, n, stride int, idx []int, dist, head int, r Routine) { panic(unavailable) }

// A ColumnOrder is how Columns walks an observation-last gather.
type ColumnOrder int

const (
	RowByRow   ColumnOrder = iota // row by row, prefetching each pick some rows ahead beside it
	RowBurst                      // row by row, prefetching the next row's picks before each row
	PickByPick                    // pick by pick down the rows (PyTorch's index_select(dim=1))
)

// Columns panics: the C reference needs cgo.
func Columns(dst, src []uint32, rows int, idx []int, ahead int, o ColumnOrder) { panic(unavailable) }

const unavailable = "obskit/bench/internal/cref: built without cgo (CGO_ENABLED=0 or no C compiler)"
