package parquet

import (
	"runtime"
	"testing"
)

// TestRecoverOwnPanic: an index out of range in the kit's own code is a bug, not
// a damaged file: the recovery of parquet-go's panics lets it go on (the fuzz
// corpus in testdata/fuzz holds a page parquet-go panics on, which Rows reports
// as ErrFormat).
func TestRecoverOwnPanic(t *testing.T) {
	var err error
	defer func() {
		if _, ok := recover().(runtime.Error); !ok {
			t.Errorf("recoverFooter turned a panic of the kit's own code into %v, want the panic to go on", err)
		}
	}()
	func() {
		defer recoverFooter("x.parquet", &err)
		s, i := []int{1}, 1
		_ = s[i]
	}()
}
