package columnar

import (
	"sort"

	"github.com/obskit/obskit/fileio/mmap"
)

// A Part is the data of one chunk of a column (an Arrow record batch, a Parquet
// row group) as the containers of this package read it, in Arrow's layout. The
// format packages make Parts; a user reads columns through the containers.
//
// For a fixed-width column, row r of the chunk is Values[r*w : (r+1)*w], w the
// container's width. For a variable-length column, row r is
// Values[Offsets(r) : Offsets(r+1)] where the offsets are Off32 or Off64 (one of
// them is set), absolute positions in Values. For a dictionary-encoded column,
// Keys[r] is the row of the dictionary Dict whose value row r takes, -1 for a
// null, which reads as empty.
type Part[E any] struct {
	Values []E
	Off32  []int32
	Off64  []int64
	// Valid is the validity bitmap of the rows (bit r of the bitmap, LSB first,
	// set for a valid row), nil when no row is null.
	Valid []byte
	Keys  []int32
	Dict  *Part[E]
}

// span returns the start and end of row r of a variable-length part.
func (p *Part[E]) span(r int) (int, int) {
	if p.Off32 != nil {
		return int(p.Off32[r]), int(p.Off32[r+1])
	}
	return int(p.Off64[r]), int(p.Off64[r+1])
}

// Null reports whether row r is null.
func (p *Part[E]) Null(r int) bool {
	return p.Valid != nil && p.Valid[r>>3]&(1<<(r&7)) == 0
}

// Len returns the number of rows of a variable-length part (not following a
// dictionary): one less than its offsets.
func (p *Part[E]) Len() int {
	if p.Off32 != nil {
		return len(p.Off32) - 1
	}
	return len(p.Off64) - 1
}

// row returns row r of a variable-length part, following the dictionary: a
// negative key (a null) reads as empty.
func (p *Part[E]) row(r int) []E {
	if p.Dict != nil {
		if k := p.Keys[r]; k >= 0 {
			return p.Dict.row(int(k))
		}
		return p.Values[:0:0]
	}
	lo, hi := p.span(r)
	return p.Values[lo:hi:hi]
}

// A Chunks describes how a column's rows fall into chunks and how to get each
// chunk's data: the one thing a format package gives the containers.
type Chunks[E any] struct {
	// Starts holds the first row of each chunk and, last, the number of rows:
	// chunk c holds rows Starts[c] to Starts[c+1]-1. It is not copied.
	Starts []int
	// Part returns the data of chunk c. It is called from any number of
	// goroutines at once; it may decode and cache, and it panics with an error
	// naming the file when the chunk cannot be read.
	Part func(c int) *Part[E]
	// Region is the file mapping the parts view, nil for Go memory: the
	// containers keep it reachable and guard their reads of it against faults.
	Region *mmap.Region
	// Name is what messages call the column, its file and its name
	// ("train.parquet: column \"jpeg\""): [Binary.Where] names a row with it.
	Name string

	// every is the rows of each chunk when all but the last have the same
	// number (Arrow writers' fixed batch sizes, Parquet's row groups), so
	// that find divides instead of searching; 0 otherwise. Set by index.
	every int
}

// index prepares s for find; the containers' constructors call it.
func (s *Chunks[E]) index() {
	n := len(s.Starts) - 1
	if n < 1 {
		return
	}
	r := s.Starts[1] - s.Starts[0]
	for c := 1; c < n-1; c++ {
		if s.Starts[c+1]-s.Starts[c] != r {
			return
		}
	}
	if r > 0 && s.Starts[n]-s.Starts[n-1] <= r {
		s.every = r
	}
}

func (s *Chunks[E]) nobs() int { return s.Starts[len(s.Starts)-1] }

// find returns the chunk holding row i.
func (s *Chunks[E]) find(i int) int {
	if s.every > 0 {
		return i / s.every
	}
	return sort.SearchInts(s.Starts[1:], i+1)
}

// cursor walks the chunks of a gather, keeping the last chunk found, so that
// indices in one chunk cost one comparison each.
type cursor[E any] struct {
	s      *Chunks[E]
	lo, hi int
	part   *Part[E]
}

// at returns the part holding row i and i's row in it.
func (c *cursor[E]) at(i int) (*Part[E], int) {
	if c.part == nil || i < c.lo || i >= c.hi {
		k := c.s.find(i)
		c.lo, c.hi, c.part = c.s.Starts[k], c.s.Starts[k+1], c.s.Part(k)
	}
	return c.part, i - c.lo
}

// names are the operation names a container's panics give, made once.
type names struct{ op, obs, into string }

func opNames(op string) names { return names{op, op + ".GetObs", op + ".GetObsInto"} }
