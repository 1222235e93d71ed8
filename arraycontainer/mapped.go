package arraycontainer

import (
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/internal/memhook"
)

// Arrays over memory-mapped files (npy.Open, idx.Open) hold the file's
// *mmap.Region in their mem field: it keeps the mapping alive while any array
// viewing it is reachable, and marks the arrays whose reads and writes the
// methods guard against faults. The file packages set it through mmap.Attach,
// and package mmap cannot import this one; hence the two functions set here.
func init() {
	memhook.Set = func(a, r any) { a.(mapped).setMem(r.(*mmap.Region)) }
	memhook.Get = func(a any) any {
		if m, ok := a.(mapped); ok {
			return m.getMem()
		}
		return nil
	}
}

// mapped is the view of an *Array[E] of any E that package mmap works with.
type mapped interface {
	setMem(*mmap.Region)
	getMem() *mmap.Region
}

func (a *Array[E]) setMem(r *mmap.Region) { a.mem = r }
func (a *Array[E]) getMem() *mmap.Region  { return a.mem }
