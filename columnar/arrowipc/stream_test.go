package arrowipc_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/interop"
)

// TestStreamMessages: apache-arrow's stream (js.arrows) read with its
// end-of-stream marker cut off reads the same rows (a stream may end without
// one); its messages in a wrong order are an ErrFormat naming the file and
// the byte: without its schema, with the schema twice, nothing but the
// end-of-stream marker, 3 bytes. Field finds a column by name, and reports
// false for one the file does not have.
func TestStreamMessages(t *testing.T) {
	data, err := os.ReadFile(interop.Path("js.arrows"))
	if err != nil {
		t.Fatal(err)
	}
	eos := []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}
	if !slices.Equal(data[len(data)-8:], eos) || !slices.Equal(data[:4], eos[:4]) {
		t.Fatalf("js.arrows does not start with a continuation marker and end with the end-of-stream marker")
	}
	schemaEnd := 8 + int(binary.LittleEndian.Uint32(data[4:])) // the schema message has no body
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	f, err := arrowipc.Open(write("no-eos.arrows", data[:len(data)-8]))
	if err != nil {
		t.Fatalf("a stream without its end-of-stream marker: %v", err)
	}
	want := must(arrowipc.Open(interop.Path("js.arrows")))
	if f.Nobs() != want.Nobs() || f.Batches() != want.Batches() {
		t.Fatalf("without its end-of-stream marker: %d rows in %d batches, want %d in %d", f.Nobs(), f.Batches(), want.Nobs(), want.Batches())
	}
	for _, i := range []int{0, 1, 499, f.Nobs() - 1} {
		a, b := must(f.Row(i, nil)), must(want.Row(i, nil))
		if len(a) != len(b) || a[0] != b[0] || a[5] != b[5] {
			t.Fatalf("row %d = %v, want %v", i, a, b)
		}
	}
	if fd, ok := f.Field("toks"); !ok || fd.TypeString() != "list<int32>" {
		t.Errorf("Field(toks) = %+v, %v; want a list<int32>", fd, ok)
	}
	if _, ok := f.Field("no-such-column"); ok {
		t.Errorf("Field(no-such-column) reports a column")
	}

	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"no-schema.arrows", data[schemaEnd:], "message at byte 0 before the schema"},
		{"two-schemas.arrows", append(slices.Clone(data[:schemaEnd]), data...), "second schema at byte " + strconv.Itoa(schemaEnd)},
		{"eos.arrows", eos, "no schema message"},
		{"short.arrows", []byte{1, 2, 3}, ""},
	} {
		path := write(tc.name, tc.data)
		_, err := arrowipc.Open(path)
		if !errors.Is(err, arrowipc.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open error %v, want ErrFormat naming the file and saying %q", tc.name, err, tc.want)
		}
	}
}
