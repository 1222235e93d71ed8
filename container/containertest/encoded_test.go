package containertest_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// Each broken Encoded container gets one thing of AppendObs or Where wrong.

// dropsPrefix returns the observation alone, not after dst's bytes.
type dropsPrefix struct{ *containertest.Blobs }

func (c dropsPrefix) AppendObs(dst []byte, i int) ([]byte, error) {
	return c.Blobs.AppendObs(dst[:0], i)
}

// aliases hands out its own memory when dst is empty.
type aliases struct {
	*containertest.Blobs
	stored [][]byte
}

func newAliases(n int) aliases {
	b := containertest.NewBlobs(n)
	c := aliases{Blobs: b, stored: make([][]byte, n)}
	for i := range c.stored {
		c.stored[i] = b.Want(nil, i)
	}
	return c
}

func (c aliases) GetObs(i int) []byte {
	container.CheckIndex("aliases.GetObs", i, len(c.stored))
	return append([]byte(nil), c.stored[i]...)
}
func (c aliases) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("aliases.AppendObs", i, len(c.stored))
	if len(dst) == 0 {
		return c.stored[i], nil
	}
	return append(dst, c.stored[i]...), nil
}

// uncheckedAppend returns an error for an index out of range, where a
// programmer error panics.
type uncheckedAppend struct{ *containertest.Blobs }

func (c uncheckedAppend) AppendObs(dst []byte, i int) ([]byte, error) {
	if uint(i) >= uint(c.N) {
		return dst, errors.New("out of range")
	}
	return c.Blobs.AppendObs(dst, i)
}

// failsOne cannot read observation 3, which GetObs reads.
type failsOne struct{ *containertest.Blobs }

func (c failsOne) AppendObs(dst []byte, i int) ([]byte, error) {
	if i == 3 {
		return dst, errors.New("blob 3: cannot read")
	}
	return c.Blobs.AppendObs(dst, i)
}

// uncheckedWhere names any index.
type uncheckedWhere struct{ *containertest.Blobs }

func (c uncheckedWhere) Where(i int) string { return "somewhere" }

var brokenEncoded = map[string]struct {
	c    container.Batched[[]byte, [][]byte]
	want string // in the failure message
}{
	"drops prefix":     {dropsPrefix{containertest.NewBlobs(30)}, "want the prefix then"},
	"aliases":          {newAliases(30), "the bytes alias the container"},
	"unchecked append": {uncheckedAppend{containertest.NewBlobs(30)}, "AppendObs(nil, -1) on a container of 30: did not panic"},
	"fails one":        {failsOne{containertest.NewBlobs(30)}, "AppendObs(nil, 3): blob 3: cannot read"},
	"unchecked where":  {uncheckedWhere{containertest.NewBlobs(30)}, "Where(-1) on a container of 30: did not panic"},
}

// TestCatchesBrokenEncoded runs the checker on Encoded containers that each
// break one rule, in a child process as TestCatchesBrokenContainers does.
func TestCatchesBrokenEncoded(t *testing.T) {
	const env = "CONTAINERTEST_BROKEN_ENCODED"
	if name := os.Getenv(env); name != "" {
		containertest.Run(t, brokenEncoded[name].c, containertest.SliceConfig[[]byte]())
		return
	}
	for name, tc := range brokenEncoded {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, ok := tc.c.(container.Encoded); !ok {
				t.Fatalf("%T is not Encoded", tc.c)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestCatchesBrokenEncoded$")
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

// TestPassesBlobs runs the checker on Blobs, which the wrappers' tests use.
func TestPassesBlobs(t *testing.T) {
	for _, n := range []int{0, 1, 30, 300} {
		containertest.Run(t, containertest.NewBlobs(n), containertest.SliceConfig[[]byte]())
	}
}
