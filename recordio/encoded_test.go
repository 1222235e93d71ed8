package recordio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/transform"
)

// TestWhere names the file, the record's key and its offset, for a scanned
// file (keys are positions) and an indexed one with other keys.
func TestWhere(t *testing.T) {
	b, ix := encode(t, randomRecords(rand.New(rand.NewPCG(26, 1)), 12, 100))
	scanned, err := NewFile(bytes.NewReader(b), int64(len(b)), "s.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	keyed := make(Index, len(ix))
	for i, e := range ix {
		keyed[i] = Entry{Key: 500 + 3*int64(i), Offset: e.Offset}
	}
	indexed, err := NewFile(bytes.NewReader(b), int64(len(b)), "k.rec", keyed)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ix {
		if got, want := scanned.Where(i), fmt.Sprintf("s.rec: record of key %d at offset %d", i, e.Offset); got != want {
			t.Errorf("Where(%d) = %q, want %q", i, got, want)
		}
		if got, want := indexed.Where(i), fmt.Sprintf("k.rec: record of key %d at offset %d", 500+3*i, e.Offset); got != want {
			t.Errorf("Where(%d) = %q, want %q", i, got, want)
		}
	}
}

// failAfter is an io.ReaderAt whose reads of the bytes from off on fail.
type failAfter struct {
	r   *bytes.Reader
	off int64
}

var errIO = errors.New("input/output error")

func (f failAfter) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.off {
		return 0, errIO
	}
	return f.r.ReadAt(p, off)
}

// TestAppendObsNamesRecord: a read that fails after the file was opened, for
// bytes that are no longer a record or an io.ReaderAt that fails, returns an
// error naming the file, the record and the offset, with dst's bytes alone;
// GetObs and GetObsInto panic with it. Records small enough to be read at once
// and a large one read part by part, both.
func TestAppendObsNamesRecord(t *testing.T) {
	recs := randomRecords(rand.New(rand.NewPCG(26, 2)), 6, 200)
	recs[4] = bytes.Repeat([]byte{7}, 300<<10) // past readWhole's 256 KiB
	b, ix := encode(t, recs)
	for _, i := range []int{1, 4} {
		t.Run(fmt.Sprintf("record %d, bad magic", i), func(t *testing.T) {
			damaged := bytes.Clone(b)
			f, err := NewFile(bytes.NewReader(damaged), int64(len(damaged)), "mem.rec", nil)
			if err != nil {
				t.Fatal(err)
			}
			binary.LittleEndian.PutUint32(damaged[ix[i].Offset:], 0x58585858)
			want := fmt.Sprintf("recordio: mem.rec: malformed RecordIO file: record of key %d: offset %d: bad magic number 0x58585858", i, ix[i].Offset)
			checkFails(t, f, i, want, ErrFormat)
		})
		t.Run(fmt.Sprintf("record %d, failing ReaderAt", i), func(t *testing.T) {
			fa := failAfter{bytes.NewReader(b), int64(len(b))}
			f, err := NewFile(&fa, int64(len(b)), "disk.rec", nil)
			if err != nil {
				t.Fatal(err)
			}
			fa.off = ix[i].Offset + 8 // the part header reads, the payload does not
			want := fmt.Sprintf("recordio: disk.rec: record of key %d: reading ", i)
			checkFails(t, f, i, want, errIO)
		})
	}
}

func checkFails(t *testing.T, f *File, i int, want string, is error) {
	t.Helper()
	got, err := f.AppendObs([]byte("head"), i)
	if !errors.Is(err, is) || !strings.Contains(err.Error(), want) {
		t.Fatalf("AppendObs(_, %d) = %v, want an error wrapping %v saying %q", i, err, is, want)
	}
	if string(got) != "head" {
		t.Errorf("AppendObs(\"head\", %d) failed with %q, want dst's bytes alone", i, got)
	}
	for name, read := range map[string]func(){
		"GetObs":     func() { f.GetObs(i) },
		"GetObsInto": func() { f.GetObsInto(nil, []int{0, i}) },
	} {
		if e, _ := recovered(read).(error); e == nil || e.Error() != err.Error() {
			t.Errorf("%s panicked with %v, want the error of AppendObs", name, e)
		}
	}
}

// TestJoinedFiles: several RecordIO files read as one container, their join,
// keep the Encoded ability; a record that cannot be read is named with its own
// file.
func TestJoinedFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	b1, _ := encode(t, randomRecords(rng, 7, 300))
	f1, err := Open(writeTemp(t, "part-0.rec", b1), "")
	if err != nil {
		t.Fatal(err)
	}
	b2, ix2 := encode(t, randomRecords(rng, 5, 300))
	f2, err := NewFile(bytes.NewReader(b2), int64(len(b2)), "part-1.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	j := transform.Join[[]byte](f1, f2)
	if _, ok := any(j).(container.Encoded); !ok {
		t.Fatal("the join of two Files is not container.Encoded")
	}
	containertest.Run(t, j, containertest.SliceConfig[[]byte]())
	if got, want := j.Where(7+3), f2.Where(3); got != want {
		t.Errorf("Where(10) of the join = %q, want record 3 of the second file, %q", got, want)
	}
	binary.LittleEndian.PutUint32(b2[ix2[3].Offset:], 0)
	_, err = container.AppendObs(container.Container[[]byte](j), nil, 7+3)
	want := fmt.Sprintf("recordio: part-1.rec: malformed RecordIO file: record of key 3: offset %d: bad magic number 0x00000000", ix2[3].Offset)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want) {
		t.Errorf("AppendObs(_, 10) of the join: %v, want %q", err, want)
	}
}

var _ io.ReaderAt = failAfter{}
