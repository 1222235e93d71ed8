package containertest_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// tens is a correct container: observation i is 10*i.
type tens struct{ n int }

func (c tens) Nobs() int { return c.n }
func (c tens) GetObs(i int) int {
	container.CheckIndex("tens.GetObs", i, c.n)
	return 10 * i
}
func (c tens) GetObsInto(dst []int, idx []int) []int {
	container.CheckIndices("tens.GetObsInto", idx, c.n)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = 10 * i
	}
	return dst
}

// Each broken container gets one thing wrong.

// sortedBatch gathers the indices in ascending order, not in the order given.
type sortedBatch struct{ tens }

func (c sortedBatch) GetObsInto(dst []int, idx []int) []int {
	return c.tens.GetObsInto(dst, slices.Sorted(slices.Values(idx)))
}

// sortsIndices sorts the caller's index list in place (say, for locality) and
// gathers in that order: every batch matches the list it leaves behind.
type sortsIndices struct{ tens }

func (c sortsIndices) GetObsInto(dst []int, idx []int) []int {
	slices.Sort(idx)
	return c.tens.GetObsInto(dst, idx)
}

// lazyReuse skips the slots of a reused buffer that already hold a value, so an
// earlier batch shows through.
type lazyReuse struct{ tens }

func (c lazyReuse) GetObsInto(dst []int, idx []int) []int {
	container.CheckIndices("lazyReuse.GetObsInto", idx, c.n)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		if dst[j] == 0 {
			dst[j] = 10 * i
		}
	}
	return dst
}

// unchecked reads past the end without panicking.
type unchecked struct{ tens }

func (c unchecked) GetObs(i int) int { return 10 * i }

// wrongCount panics with an IndexError that names the wrong count.
type wrongCount struct{ tens }

func (c wrongCount) GetObs(i int) int {
	container.CheckIndex("wrongCount.GetObs", i, c.n+1)
	return c.tens.GetObs(i)
}

// stringPanic panics with a message instead of an *IndexError.
type stringPanic struct{ tens }

func (c stringPanic) GetObs(i int) int {
	if uint(i) >= uint(c.n) {
		panic("stringPanic.GetObs: index out of range")
	}
	return 10 * i
}

// unstable returns a different value on every call.
type unstable struct {
	tens
	calls *atomic.Int64
}

func (c unstable) GetObs(i int) int { return c.tens.GetObs(i) + int(c.calls.Add(1)) }

// reversed is a view whose observation i is observation n-1-i of its source.
// bug names the one thing its IndexView methods get wrong, or is empty.
type reversed struct {
	src tens
	bug string
}

// The bugs of a reversed view.
const (
	identity    = "identity"     // MapIndices forgets to reverse
	inPlace     = "in place"     // MapIndices is right into a fresh dst, wrong when dst is idx
	uncheckedIx = "unchecked"    // MapIndices maps an out-of-range index without panicking
	shortSource = "short source" // Source is not the container the indices map into
)

func (r reversed) Nobs() int        { return r.src.n }
func (r reversed) GetObs(i int) int { return r.src.GetObs(r.j(i)) }
func (r reversed) j(i int) int {
	container.CheckIndex("reversed", i, r.src.n)
	return r.src.n - 1 - i
}
func (r reversed) GetObsInto(dst []int, idx []int) []int {
	dst = container.Resize(dst, len(idx))
	for k, i := range idx {
		dst[k] = r.GetObs(i)
	}
	return dst
}
func (r reversed) Source() container.Batched[int, []int] {
	if r.bug == shortSource {
		return tens{r.src.n / 2}
	}
	return r.src
}
func (r reversed) MapIndices(dst, idx []int) []int {
	dst = container.Resize(dst, len(idx))
	switch r.bug {
	case inPlace:
		// n-1 first, then minus the index: right into a fresh dst, but in place
		// the first pass overwrites the indices the second reads.
		container.CheckIndices("reversed", idx, r.src.n)
		for k := range idx {
			dst[k] = r.src.n - 1
		}
		for k := range idx {
			dst[k] -= idx[k]
		}
		return dst
	case uncheckedIx:
		for k, i := range idx {
			dst[k] = r.src.n - 1 - i
		}
		return dst
	}
	for k, i := range idx {
		dst[k] = r.j(i)
		if r.bug == identity {
			dst[k] = i
		}
	}
	return dst
}

// ignoresRand is a random container whose batch ignores the randomness it is
// handed; zeroMismatch one whose GetObs is not its draw with the zero ObsRand.
type ignoresRand struct{ *containertest.Draws }

func (c ignoresRand) GetObsRandInto(dst []int, idx []int, _ container.ObsRand) []int {
	return c.Draws.GetObsInto(dst, idx)
}

type zeroMismatch struct{ *containertest.Draws }

func (c zeroMismatch) GetObs(i int) int { return c.Draws.GetObs(i) + 1 }

func (c zeroMismatch) GetObsInto(dst []int, idx []int) []int {
	dst = c.Draws.GetObsInto(dst, idx)
	for j := range dst {
		dst[j]++
	}
	return dst
}

var broken = map[string]struct {
	c    container.Batched[int, []int]
	want string // in the failure message
}{
	"sorted batch":      {sortedBatch{tens{30}}, "mismatch (-GetObs +batch)"},
	"sorts indices":     {sortsIndices{tens{30}}, "changed the index list"},
	"lazy reuse":        {lazyReuse{tens{30}}, "GetObsInto(reused, "},
	"unchecked":         {unchecked{tens{30}}, "did not panic"},
	"wrong count":       {wrongCount{tens{30}}, "IndexError{Index: -1, Nobs: 31}, want index -1 of 30"},
	"string panic":      {stringPanic{tens{30}}, "want a *container.IndexError"},
	"unstable":          {unstable{tens{30}, new(atomic.Int64)}, "differs between two calls"},
	"wrong mapping":     {reversed{tens{30}, identity}, "whose source observation is not the view's"},
	"in-place mapping":  {reversed{tens{30}, inPlace}, "in place to"},
	"unchecked mapping": {reversed{tens{30}, uncheckedIx}, "MapIndices([30]) on a container of 30: did not panic"},
	"short source":      {reversed{tens{30}, shortSource}, "outside the source's [0, 15)"},
	"ignores its rand":  {ignoresRand{containertest.NewDraws(30)}, "mismatch (-GetObsRand +batch)"},
	"zero rand":         {zeroMismatch{containertest.NewDraws(30)}, "is not GetObsRand"},
}

// TestCatchesBrokenContainers runs the checker on containers that each break
// one rule, each in a child process of this test binary (a failing test cannot
// be caught in-process), and wants every run to fail with the matching message.
func TestCatchesBrokenContainers(t *testing.T) {
	const env = "CONTAINERTEST_BROKEN"
	if name := os.Getenv(env); name != "" {
		containertest.Run(t, broken[name].c, containertest.SliceConfig[int]())
		return
	}
	for name, tc := range broken {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestCatchesBrokenContainers$")
			cmd.Env = append(os.Environ(), env+"="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the checker passed %T:\n%s", tc.c, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("the checker failed %T, but not with %q:\n%s", tc.c, tc.want, out)
			}
		})
	}
}

// TestPassesCorrectContainers runs the checker on the correct containers above.
func TestPassesCorrectContainers(t *testing.T) {
	for _, n := range []int{0, 1, 30, 500} {
		containertest.Run(t, tens{n}, containertest.SliceConfig[int]())
		containertest.Run(t, reversed{src: tens{n}}, containertest.SliceConfig[int]())
	}
}
