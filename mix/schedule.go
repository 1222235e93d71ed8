package mix

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// maxBlock bounds the number of positions of one block of the schedule: the
// weights are represented as whole numbers of positions per block, exactly when
// a block of at most maxBlock positions can hold them, else to within
// 1/maxBlock.
const maxBlock = 4096

// A phase is a stretch of the mix in which the same sources take part: the whole
// mix for FirstExhausted and Resample; with AllExhausted one phase per set of
// sources still holding observations. Within a phase the positions repeat a block
// of size positions: slot s of every block goes to source src[s], which it gives
// its rank[s]-th use within the block.
type phase struct {
	start, end int     // the positions of the mix in the phase: [start, end)
	size       int     // positions per block
	src        []int32 // per slot of a block: the source
	rank       []int32 // per slot: its rank among the slots of its source in a block
	per        []int   // per source: uses per block (0 when the source takes no part)
	base       []int   // per source: its uses before the phase
	slots      [][]int32
}

// A schedule says which source, and which use of that source, each position of
// a mix is: the sizing and the stop rule worked out once, when the mix is built.
type schedule struct {
	rule   Rule
	n      []int // the sources' sizes
	uses   []int // per source: its uses in the whole mix (with repeats under Resample)
	phases []phase
	total  int
	// order, when the mix reads its sources shuffled (Mixed.ShuffleSources):
	// per source, the permutation of its observations it reads them in.
	order []index.Cipher
}

// errorf returns an error of op wrapping sentinel.
func errorf(op string, sentinel error, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", op, fmt.Sprintf(format, args...), sentinel)
}

// newSchedule sizes the mix of sources of sizes n with weights under rule, its
// interleaving drawn from seed.
func newSchedule(op string, rule Rule, weights []float64, seed uint64, n []int) (schedule, error) {
	k := len(n)
	if k == 0 {
		return schedule{}, errorf(op, ErrWeights, "no sources")
	}
	if len(weights) != k {
		return schedule{}, errorf(op, ErrWeights, "%d weights for %d sources", len(weights), k)
	}
	for j, w := range weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return schedule{}, errorf(op, ErrWeights, "weight %v of source %d is not a positive finite number", w, j)
		}
	}
	if rule > Resample {
		return schedule{}, errorf(op, ErrWeights, "unknown rule %d", rule)
	}
	for j, m := range n {
		if m == 0 && rule != AllExhausted {
			return schedule{}, errorf(op, container.ErrEmpty, "source %d holds no observation, which a %v mix cannot take (AllExhausted leaves it out)", j, rule)
		}
	}
	// The seed orders the sources among themselves where the schedule has a tie
	// (every slot of equal weights is one).
	priority := rand.New(rand.NewPCG(seed, 0x6d6978)).Perm(k)
	s := schedule{rule: rule, n: append([]int(nil), n...), uses: make([]int, k)}
	active := make([]bool, k)
	for j, m := range n {
		active[j] = m > 0
	}
	for start := 0; ; {
		live := 0
		for _, a := range active {
			if a {
				live++
			}
		}
		if live == 0 {
			break
		}
		ph := newPhase(weights, active, priority)
		ph.start = start
		ph.base = append([]int(nil), s.uses...)
		// The length of the phase: until the first active source has used what it
		// has left (Resample: until the last has used all of it once).
		length := -1
		for j, a := range active {
			if !a {
				continue
			}
			end, ok := ph.after(j, n[j]-s.uses[j])
			if !ok {
				return schedule{}, errorf(op, ErrSize, "the mix does not fit an int (source %d of %d observations with weight %v)", j, n[j], weights[j])
			}
			if length < 0 || rule == Resample && end > length || rule != Resample && end < length {
				length = end
			}
		}
		if start > math.MaxInt-length {
			return schedule{}, errorf(op, ErrSize, "the mix does not fit an int")
		}
		ph.end = start + length
		for j, a := range active {
			if a {
				s.uses[j] += ph.count(j, length)
				if s.uses[j] >= n[j] {
					active[j] = false
				}
			}
		}
		s.phases = append(s.phases, ph)
		start = ph.end
		if rule != AllExhausted {
			break
		}
	}
	if len(s.phases) > 0 {
		s.total = s.phases[len(s.phases)-1].end
	}
	return s, nil
}

// newPhase builds the block of the active sources: whole numbers of positions
// per block in the ratio of their weights, laid out by stride scheduling (each
// slot goes to the source whose next use is due first, use u of a source of c
// slots being due at (u+1/2)/c, ties to the source of lowest priority), so that
// every prefix of a phase holds each source in its proportion to within two
// observations (measured: under 1.5 with up to 7 sources).
func newPhase(weights []float64, active []bool, priority []int) phase {
	k := len(weights)
	per := blockCounts(weights, active)
	size := 0
	for _, c := range per {
		size += c
	}
	ph := phase{size: size, per: per, src: make([]int32, size), rank: make([]int32, size), slots: make([][]int32, k)}
	used := make([]int, k)
	for s := range size {
		best := -1
		var due float64
		for j, c := range per {
			if c == 0 || used[j] == c {
				continue
			}
			d := (float64(used[j]) + 0.5) / float64(c)
			if best < 0 || d < due || d == due && priority[j] < priority[best] {
				best, due = j, d
			}
		}
		ph.src[s], ph.rank[s] = int32(best), int32(used[best])
		ph.slots[best] = append(ph.slots[best], int32(s))
		used[best]++
	}
	return ph
}

// blockCounts returns whole numbers of positions per block in the ratio of the
// weights of the active sources (0 for the others): the smallest block of at
// most maxBlock positions that holds the ratio exactly, else the apportionment
// of maxBlock positions by largest remainders, every active source getting at
// least one.
func blockCounts(weights []float64, active []bool) []int {
	sum := 0.0
	for j, w := range weights {
		if active[j] {
			sum += w
		}
	}
	best, bestErr := []int(nil), math.Inf(1)
	for size := 1; size <= maxBlock; size++ {
		c, err := apportion(weights, active, sum, size)
		if c == nil {
			continue
		}
		if err < bestErr {
			best, bestErr = c, err
		}
		if err <= 1e-9 {
			break
		}
	}
	return best
}

// apportion divides size positions among the active sources in proportion to
// their weights by largest remainders and returns the counts and the largest
// error of a share; nil when some active source would get none.
func apportion(weights []float64, active []bool, sum float64, size int) ([]int, float64) {
	c := make([]int, len(weights))
	rem := make([]float64, len(weights))
	left := size
	for j, w := range weights {
		if !active[j] {
			continue
		}
		q := w / sum * float64(size)
		c[j] = int(q)
		rem[j] = q - float64(c[j])
		left -= c[j]
	}
	for ; left > 0; left-- {
		best := -1
		for j := range c {
			if active[j] && (best < 0 || rem[j] > rem[best]) {
				best = j
			}
		}
		c[best]++
		rem[best] = -1
	}
	worst := 0.0
	for j, w := range weights {
		if !active[j] {
			continue
		}
		if c[j] == 0 {
			return nil, 0
		}
		worst = max(worst, math.Abs(float64(c[j])/float64(size)-w/sum))
	}
	return c, worst
}

// count returns the uses of source j in the first length positions of the phase.
func (ph *phase) count(j, length int) int {
	c := ph.per[j]
	if c == 0 {
		return 0
	}
	q, r := length/ph.size, length%ph.size
	// The slots of j are in increasing order: count those below r.
	lo, hi := 0, len(ph.slots[j])
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(ph.slots[j][mid]) < r {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return q*c + lo
}

// after returns the number of positions of the phase up to and including the
// m-th use of source j (m >= 1), and false when it does not fit an int.
func (ph *phase) after(j, m int) (int, bool) {
	c := ph.per[j]
	q, r := (m-1)/c, (m-1)%c
	hi, lo := bits.Mul64(uint64(q), uint64(ph.size))
	if hi != 0 || lo > math.MaxInt-uint64(ph.slots[j][r])-1 {
		return 0, false
	}
	return int(lo) + int(ph.slots[j][r]) + 1, true
}

// locate returns the source of position p of the mix and the observation of it
// that p reads. p must be in [0, total).
func (s *schedule) locate(p int) (src, obs int) {
	j, u := s.use(p)
	if s.rule == Resample {
		u %= s.n[j]
	}
	if s.order != nil {
		u = s.order[j].At(u)
	}
	return j, u
}

// use returns the source of position p and the number of its uses before p.
func (s *schedule) use(p int) (src, use int) {
	ph := &s.phases[0]
	for k := 1; p >= ph.end; k++ {
		ph = &s.phases[k]
	}
	o := p - ph.start
	q, r := o/ph.size, o%ph.size
	j := int(ph.src[r])
	return j, ph.base[j] + q*ph.per[j] + int(ph.rank[r])
}

// position returns the position of the mix holding use u of source j (u in
// [0, uses[j])): the inverse of locate on uses.
func (s *schedule) position(j, u int) int {
	for k := range s.phases {
		ph := &s.phases[k]
		if ph.per[j] == 0 {
			continue
		}
		in := ph.count(j, ph.end-ph.start)
		if u >= ph.base[j]+in {
			continue
		}
		rel := u - ph.base[j]
		q, r := rel/ph.per[j], rel%ph.per[j]
		return ph.start + q*ph.size + int(ph.slots[j][r])
	}
	panic(fmt.Sprintf("mix: internal error: use %d of source %d is not scheduled", u, j))
}
