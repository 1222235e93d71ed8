package imagedata

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReadList(t *testing.T) {
	text := "0\t1\ta.jpg\r\n\n 5 \t 2.5 \t-1e3\t0.1\t sub/b c.png \n7\tnan\tinf\t-Infinity\t1_000\tx\n"
	list, err := ReadList(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []ListEntry{
		{0, []float32{1}, "a.jpg"},
		{5, []float32{2.5, -1000, 0.1}, "sub/b c.png"},
		{7, []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1000}, "x"},
	}
	if d := cmp.Diff(want, list, cmpopts.EquateNaNs()); d != "" {
		t.Errorf("ReadList mismatch (-want +got):\n%s", d)
	}
	for _, c := range []struct{ text, want string }{
		{"0\ta.jpg\n", "line 1: 2 fields"},
		{"0\t1\ta.jpg\nx\t1\tb.jpg\n", `line 2: index "x" is not a decimal integer`},
		{"1.0\t1\ta.jpg\n", `index "1.0" is not a decimal integer`},
		{"-1\t1\ta.jpg\n", "line 1: negative index -1"},
		{"0\tcat\ta.jpg\n", `line 1: label "cat" is not a number`},
		{"0\t0x10\ta.jpg\n", `label "0x10" is not a number`},
		{"0\t1__0\ta.jpg\n", `label "1__0" is not a number`},
		{"0\t_1\ta.jpg\n", `label "_1" is not a number`},
		{"0\t\ta.jpg\n", `label "" is not a number`},
		{"0\t1e39\ta.jpg\n", "label 1e39 is too large for a float32"},
	} {
		_, err := ReadList(strings.NewReader(c.text))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "imagedata: stream: ") {
			t.Errorf("ReadList(%q): %v, want an ErrFormat naming the stream and saying %q", c.text, err, c.want)
		}
	}
}

// TestWriteList writes a list as im2rec does and reads it back.
func TestWriteList(t *testing.T) {
	list := []ListEntry{{0, []float32{3}, "cat/a.jpg"}, {12, []float32{0.5, 1, -2}, "dog/b c.png"}}
	var buf bytes.Buffer
	if err := WriteList(&buf, list); err != nil {
		t.Fatal(err)
	}
	if want := "0\t3\tcat/a.jpg\n12\t0.5\t1\t-2\tdog/b c.png\n"; buf.String() != want {
		t.Errorf("WriteList wrote %q, want %q", buf.String(), want)
	}
	back, err := ReadList(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(list, back); d != "" {
		t.Errorf("the list read back mismatch (-want +got):\n%s", d)
	}
}

func TestOpenList(t *testing.T) {
	lst := writeFile(t, "x.lst", "0\t2\tperson/astronaut.jpg\n1\t0\t5\tcat/chelsea.jpg\n")
	first, err := OpenList(lst, "testdata/photos", First)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{2, 0}, []float32(first.Y())); d != "" {
		t.Errorf("First labels mismatch (-want +got):\n%s", d)
	}
	all, err := OpenList(lst, "testdata/photos", All)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]float32{{2}, {0, 5}}, [][]float32(all.Y())); d != "" {
		t.Errorf("All labels mismatch (-want +got):\n%s", d)
	}
	class, err := OpenList(lst, "testdata/photos", Class)
	if err != nil {
		t.Fatal(err)
	}
	obs := class.GetObs(1)
	if obs.Y != 0 || !bytes.Equal(obs.X, readFile(t, "testdata/photos/cat/chelsea.jpg")) {
		t.Errorf("GetObs(1) = %d bytes, label %d; want chelsea.jpg, label 0", len(obs.X), obs.Y)
	}
	if class.X().Path(0) != "testdata/photos/person/astronaut.jpg" {
		t.Errorf("Path(0) = %s", class.X().Path(0))
	}

	bad := writeFile(t, "bad.lst", "0\t2\ta.jpg\n1\t1.5\tb.jpg\n")
	_, err = OpenList(bad, "", Class)
	if !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), "bad.lst: invalid label: entry 2 (index 1, b.jpg): imagedata.Class: label 1.5 is not a class number") {
		t.Errorf("a label 1.5 as a class: %v", err)
	}
	_, err = OpenList(bad, "", func([]float32) (string, error) { return "", errors.New("no strings") })
	if !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), "bad.lst: invalid label: entry 1 (index 0, a.jpg): no strings") {
		t.Errorf("a label function's own error: %v", err)
	}
}
